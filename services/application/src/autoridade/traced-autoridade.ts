import { type AutoridadeFiscal } from '@frete/adapters';
import { inSpan, SpanKind } from '@frete/platform';

type Operacao = Exclude<keyof AutoridadeFiscal, 'disponivel'>;

/**
 * The authority port with each call in an `autoridade <operacao>` client span, carrying the answer's `tipo` and
 * `cStat` (the adapters answer failures of the channel as `sem_resposta` rather than throwing, so the status is told
 * by those attributes; a throw marks the span failed).
 */
type Fechavel = AutoridadeFiscal & { close(): Promise<void> };

export function tracedAutoridade(autoridade: Fechavel): Fechavel {
  const call =
    <O extends Operacao>(operacao: O) =>
    (...args: Parameters<AutoridadeFiscal[O]>): ReturnType<AutoridadeFiscal[O]> =>
      inSpan(`autoridade ${operacao}`, { kind: SpanKind.CLIENT, attributes: { 'autoridade.operacao': operacao } }, async (span) => {
        const retorno = (await (autoridade[operacao] as (...a: unknown[]) => Promise<unknown>)(...args)) as {
          tipo?: string;
          cStat?: number;
        };
        if (typeof retorno?.tipo === 'string') span.setAttribute('autoridade.tipo', retorno.tipo);
        if (typeof retorno?.cStat === 'number') span.setAttribute('autoridade.cstat', retorno.cStat);
        return retorno;
      }) as ReturnType<AutoridadeFiscal[O]>;
  return {
    get disponivel() {
      return autoridade.disponivel;
    },
    autorizarCte: call('autorizarCte'),
    consultarCte: call('consultarCte'),
    registrarEventoCte: call('registrarEventoCte'),
    autorizarMdfe: call('autorizarMdfe'),
    consultarMdfe: call('consultarMdfe'),
    registrarEventoMdfe: call('registrarEventoMdfe'),
    statusServico: call('statusServico'),
    consultarMdfeNaoEncerrados: call('consultarMdfeNaoEncerrados'),
    close: () => autoridade.close(),
  };
}
