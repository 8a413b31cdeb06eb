import { type Metrics, quietly } from '@frete/platform';
import { ProvedorIndisponivel } from '../provedor-indisponivel';
import { type AutoridadeFiscal, AutoridadeIndisponivel, CertificadoRecusadoPelaAutoridade } from './port';

type Operacao = Exclude<keyof AutoridadeFiscal, 'disponivel'>;

/** The label of each call: the port's method in snake case (the authorities' web service it reaches). */
const OPERACOES: Record<Operacao, string> = {
  autorizarCte: 'autorizar_cte',
  consultarCte: 'consultar_cte',
  registrarEventoCte: 'registrar_evento_cte',
  autorizarMdfe: 'autorizar_mdfe',
  consultarMdfe: 'consultar_mdfe',
  registrarEventoMdfe: 'registrar_evento_mdfe',
  statusServico: 'status_servico',
  consultarMdfeNaoEncerrados: 'consultar_mdfe_nao_encerrados',
};

/** What a thrown error says about the call, in a bounded word (the answer kinds are the port's `tipo`). */
const desfechoDoErro = (err: unknown): string =>
  err instanceof AutoridadeIndisponivel
    ? 'indisponivel'
    : err instanceof CertificadoRecusadoPelaAutoridade
      ? 'certificado_recusado'
      : err instanceof ProvedorIndisponivel
        ? 'provedor_indisponivel'
        : 'erro';

/**
 * The authority port with every call measured: `frete_autoridade_request_duration_seconds` by operation and outcome
 * (the answer's `tipo`, or why it threw) and `frete_autoridade_cstat_total` by the `cStat` answered (a paralysed
 * channel's 108/109/678 included). It wraps whichever adapter the configuration names, so the simulated authority
 * and the SEFAZ adapter are measured alike.
 */
export class AutoridadeFiscalMedida implements AutoridadeFiscal {
  readonly autorizarCte: AutoridadeFiscal['autorizarCte'];
  readonly consultarCte: AutoridadeFiscal['consultarCte'];
  readonly registrarEventoCte: AutoridadeFiscal['registrarEventoCte'];
  readonly autorizarMdfe: AutoridadeFiscal['autorizarMdfe'];
  readonly consultarMdfe: AutoridadeFiscal['consultarMdfe'];
  readonly registrarEventoMdfe: AutoridadeFiscal['registrarEventoMdfe'];
  readonly statusServico: AutoridadeFiscal['statusServico'];
  readonly consultarMdfeNaoEncerrados: AutoridadeFiscal['consultarMdfeNaoEncerrados'];

  constructor(
    private readonly autoridade: AutoridadeFiscal & { close(): Promise<void> },
    private readonly metrics: Metrics,
    /** `simulada`, `sefaz` or `nenhuma`: the adapter measured. */
    private readonly adapter: string,
  ) {
    this.autorizarCte = (xml, remetente) => this.medir('autorizarCte', () => autoridade.autorizarCte(xml, remetente));
    this.consultarCte = (chave, remetente) => this.medir('consultarCte', () => autoridade.consultarCte(chave, remetente));
    this.registrarEventoCte = (xml, remetente) => this.medir('registrarEventoCte', () => autoridade.registrarEventoCte(xml, remetente));
    this.autorizarMdfe = (xml, remetente) => this.medir('autorizarMdfe', () => autoridade.autorizarMdfe(xml, remetente));
    this.consultarMdfe = (chave, remetente) => this.medir('consultarMdfe', () => autoridade.consultarMdfe(chave, remetente));
    this.registrarEventoMdfe = (xml, remetente) => this.medir('registrarEventoMdfe', () => autoridade.registrarEventoMdfe(xml, remetente));
    this.statusServico = (modelo, cUF, remetente) => this.medir('statusServico', () => autoridade.statusServico(modelo, cUF, remetente));
    this.consultarMdfeNaoEncerrados = (documento, cUF, remetente) =>
      this.medir('consultarMdfeNaoEncerrados', () => autoridade.consultarMdfeNaoEncerrados(documento, cUF, remetente));
  }

  get disponivel(): boolean {
    return this.autoridade.disponivel;
  }

  close(): Promise<void> {
    return this.autoridade.close();
  }

  private async medir<R extends { tipo: string; cStat?: number }>(operacao: Operacao, chamada: () => Promise<R>): Promise<R> {
    const operation = OPERACOES[operacao];
    const inicio = process.hrtime.bigint();
    const registrar = (outcome: string, cStat: number | null | undefined) =>
      quietly(() => {
        const labels = { adapter: this.adapter, operation };
        this.metrics.autoridadeDuration.observe({ ...labels, outcome }, Number(process.hrtime.bigint() - inicio) / 1e9);
        if (typeof cStat === 'number') this.metrics.autoridadeCstat.inc({ ...labels, cstat: String(cStat) });
      });
    try {
      const retorno = await chamada();
      registrar(retorno.tipo, retorno.cStat);
      return retorno;
    } catch (err) {
      registrar(desfechoDoErro(err), err instanceof AutoridadeIndisponivel ? err.cStat : null);
      throw err;
    }
  }
}
