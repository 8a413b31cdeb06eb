import {
  type DistribuicaoConsultaSolicitada,
  type DocumentoDistribuidoRegistrado,
  type Environment,
  type RecordedEvent,
  type ServicoDistribuicao,
} from '@frete/contracts';
import { CSTAT_DOCUMENTOS_ENCONTRADOS, Rejection, type ResultadoConsulta } from '@frete/domain';
import { AutoridadeIndisponivel, type DistribuicaoDFe, type DocumentoDistribuido } from '@frete/adapters';
import { derivedEventId } from '@frete/platform';
import { type CommandContext } from '../commands/execute';
import { type DistribuicaoHandler } from './handler';

/** Where each distributed document goes (the inbox, the NF-e list, kept): `RecebedorDistribuicao`. */
export interface RecebedorDeDocumentos {
  registrar(
    ctx: { companyId: string; cnpj: string; environment: Environment },
    servico: ServicoDistribuicao,
    doc: DocumentoDistribuido,
    causa: { eventId: string; correlationId: string },
  ): Promise<DocumentoDistribuidoRegistrado>;
}

export interface ProcessadorDistribuicaoDeps {
  handler: DistribuicaoHandler;
  porta: DistribuicaoDFe;
  recebedor: RecebedorDeDocumentos;
  environment: Environment;
  clock: () => Date;
}

/**
 * Runs the consultations the `distribuicao` stream asks for: one call to the national environment from the NSU the
 * request names, every document of the answer recorded where it goes (in NSU order, each idempotent by the request's
 * event and its NSU), and only then the outcome, which moves the NSU. A crash anywhere before the outcome repeats the
 * same call from the same NSU: the service answers the same documents, and recording them again records nothing new.
 */
export class ProcessadorDistribuicao {
  static readonly EVENTOS = ['distribuicao.consulta_solicitada'] as const;

  constructor(private readonly deps: ProcessadorDistribuicaoDeps) {}

  async aoEvento(event: RecordedEvent): Promise<void> {
    if (event.type !== 'distribuicao.consulta_solicitada') return;
    const d = event.data as DistribuicaoConsultaSolicitada;
    const { handler, clock } = this.deps;
    const ctx = (): CommandContext => ({
      companyId: d.company_id,
      correlationId: event.metadata.correlation_id,
      causationId: event.id,
      requestId: null,
      actor: 'processor:distribuicao',
      now: clock(),
    });
    // A request already answered (a redelivery after its outcome was recorded) asks nothing of the service again.
    if (!(await handler.emAndamento(d.company_id, d.servico, d.consulta_id))) return;
    const resultado = await this.consultar(d, event);
    try {
      await handler.registrar(ctx(), d.company_id, d.servico, d.consulta_id, resultado, derivedEventId(event.id, 'distribuicao:resultado'));
    } catch (err) {
      // An answer the rules refuse (NSUs outside what was asked) is the service's fault: recorded as no answer, so
      // the NSU stays where it is and the consultation is tried again later.
      if (!(err instanceof Rejection) || resultado.tipo !== 'consultado') throw err;
      const falhou: ResultadoConsulta = { tipo: 'falhou', motivo: err.message, tentar_apos: null };
      await handler.registrar(ctx(), d.company_id, d.servico, d.consulta_id, falhou, derivedEventId(event.id, 'distribuicao:resultado'));
      return;
    }
    // Documents remain: the next page is asked at once, not at the schedule's next look.
    if (resultado.tipo === 'consultado' && resultado.cstat === CSTAT_DOCUMENTOS_ENCONTRADOS && resultado.ult_nsu < resultado.max_nsu) {
      await handler
        .solicitarAgendada(ctx(), d.company_id, d.servico, derivedEventId(event.id, 'distribuicao:seguinte'))
        .catch((err: unknown) => {
          // The company turned it off meanwhile, or its configuration changed: the schedule decides later.
          if (!(err instanceof Rejection)) throw err;
        });
    }
  }

  private async consultar(d: DistribuicaoConsultaSolicitada, event: RecordedEvent): Promise<ResultadoConsulta> {
    const { porta, recebedor, environment } = this.deps;
    try {
      const r = await porta.consultar(
        { servico: d.servico, cUFAutor: d.c_uf_autor, documento: d.documento, ultNSU: d.ult_nsu },
        { companyId: d.company_id },
      );
      if (r.tipo === 'sem_resposta') return { tipo: 'falhou', motivo: r.motivo, tentar_apos: null };
      if (r.tipo === 'rejeitado') return { tipo: 'rejeitado', cstat: r.cStat, motivo: r.xMotivo };
      const documentos: DocumentoDistribuidoRegistrado[] = [];
      for (const doc of [...r.documentos].sort((a, b) => (a.nsu < b.nsu ? -1 : a.nsu > b.nsu ? 1 : 0))) {
        documentos.push(
          await recebedor.registrar({ companyId: d.company_id, cnpj: d.documento, environment }, d.servico, doc, {
            eventId: event.id,
            correlationId: event.metadata.correlation_id,
          }),
        );
      }
      return { tipo: 'consultado', cstat: r.cStat, motivo: r.xMotivo, ult_nsu: r.ultNSU, max_nsu: r.maxNSU, documentos };
    } catch (err) {
      if (err instanceof AutoridadeIndisponivel) return { tipo: 'falhou', motivo: err.message, tentar_apos: err.tentarApos.toISOString() };
      // No provider, a refused certificate: nothing was asked; the schedule tries again after its pause.
      if (err instanceof Rejection) return { tipo: 'falhou', motivo: err.message, tentar_apos: null };
      throw err;
    }
  }
}
