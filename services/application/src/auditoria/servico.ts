import { type Pool } from 'pg';
import {
  type EventoAuditado,
  type EventosAuditoriaQuery,
  type RecursoAuditado,
  type VerificacaoCadeia,
  isEventType,
  upcast,
} from '@frete/contracts';
import { contaOperacionalStream, normalizeCnpj, Rejection, repasseStream } from '@frete/domain';
import { streamsDoRecurso } from '@frete/projections';
import { type EventoEncadeado, type FiltroDoLog, type LeitorDeAuditoria, type ReadYourWrites } from '@frete/platform';
import { documentoRepasseDaEmpresa } from '../repasse/documento';

export interface AuditoriaDeps {
  pool: Pool;
  readYourWrites: ReadYourWrites;
  /** Null when the events live in EventStoreDB: the chain and the company's log are the PostgreSQL store's. */
  leitor: LeitorDeAuditoria | null;
  verificarCadeia: ((companyId: string) => Promise<VerificacaoCadeia>) | null;
}

/** The caller, as the audit API knows it. */
export interface Auditor {
  companyId: string;
  cnpj: string;
}

/** An event as auditors see it: the current shape, and the recorded one beside it when an upcaster changed it. */
export function eventoAuditado(e: EventoEncadeado): EventoAuditado {
  const atual = upcast(e);
  return {
    position: e.posicao,
    id: e.id,
    type: e.type,
    schema_version: atual.schemaVersion,
    recorded_at: e.recordedAt.toISOString(),
    stream: e.streamId,
    revision: Number(e.revision),
    actor: e.metadata.actor,
    request_id: e.metadata.request_id,
    correlation_id: e.metadata.correlation_id,
    causation_id: e.metadata.causation_id,
    data: atual.data,
    ...(atual === e ? {} : { recorded_schema_version: e.schemaVersion, recorded_data: e.data }),
    hash: e.hash,
    previous_hash: e.hashAnterior,
  };
}

/** The auditors' use cases: a resource's history, the company's log, the chain's verification. Read-only. */
export class Auditoria {
  constructor(private readonly deps: AuditoriaDeps) {}

  private get leitor(): LeitorDeAuditoria {
    if (!this.deps.leitor) throw indisponivel();
    return this.deps.leitor;
  }

  /** Every event of one resource the caller can GET, in recorded order; 404 `nao_encontrado` otherwise. */
  async historico(auditor: Auditor, recurso: RecursoAuditado, id: string): Promise<EventoAuditado[]> {
    const leitor = this.leitor;
    await this.deps.readYourWrites.waitFor(auditor.companyId);
    const naoEncontrado = () => new Rejection('nao_encontrado', `${recurso} ${id} not found`);
    if (recurso === 'repasse') {
      const doc = await documentoRepasseDaEmpresa(this.deps, auditor.companyId, id);
      // The group's stream holds the payouts of all its documents: this document's events are those that name it.
      const eventos = await leitor.dosStreams([repasseStream(doc.company_id, doc.grupo)]);
      return eventos.filter((e) => (e.data as { cte_id?: unknown }).cte_id === doc.cte_id).map(eventoAuditado);
    }
    let streams: string[] | null;
    if (recurso === 'conta-operacional') {
      streams = normalizeCnpj(id) === normalizeCnpj(auditor.cnpj) ? [contaOperacionalStream(auditor.companyId)] : null;
    } else {
      // Every id but these two is a UUID, written in lower case.
      streams = await streamsDoRecurso(this.deps.pool, recurso, id.toLowerCase(), auditor.companyId);
    }
    if (!streams) throw naoEncontrado();
    return (await leitor.dosStreams(streams)).map(eventoAuditado);
  }

  /** A page of the company's log after `apos`; `proxima` is null once the page reached the end. */
  async pagina(companyId: string, query: EventosAuditoriaQuery): Promise<{ eventos: EventoAuditado[]; proxima: number | null }> {
    const filtro = filtroDe(query);
    const limite = query.limite ?? 100;
    const eventos = await this.leitor.pagina(companyId, filtro, limite + 1);
    const mais = eventos.length > limite;
    const pagina = eventos.slice(0, limite);
    return { eventos: pagina.map(eventoAuditado), proxima: mais ? pagina[pagina.length - 1]!.posicao : null };
  }

  /**
   * The company's whole log after `apos`, up to the chain's head when the export starts, read page by page as the
   * consumer pulls (never the whole log in memory). `total` is how many events it will give: its progress measure.
   */
  async exportar(
    companyId: string,
    query: EventosAuditoriaQuery,
  ): Promise<{ total: number; ultimaPosicao: number; eventos: AsyncIterable<EventoAuditado> }> {
    const leitor = this.leitor;
    const ultimaPosicao = await leitor.cabeca(companyId);
    const filtro: FiltroDoLog = { ...filtroDe(query), ate_posicao: ultimaPosicao };
    const total = await leitor.contar(companyId, filtro);
    async function* eventos(): AsyncIterable<EventoAuditado> {
      let apos = filtro.apos;
      for (;;) {
        const pagina = await leitor.pagina(companyId, { ...filtro, apos }, PAGINA_DA_EXPORTACAO);
        for (const e of pagina) yield eventoAuditado(e);
        if (pagina.length < PAGINA_DA_EXPORTACAO) return;
        apos = pagina[pagina.length - 1]!.posicao;
      }
    }
    return { total, ultimaPosicao, eventos: eventos() };
  }

  async verificacao(companyId: string): Promise<VerificacaoCadeia> {
    if (!this.deps.verificarCadeia) throw indisponivel();
    return this.deps.verificarCadeia(companyId);
  }
}

const PAGINA_DA_EXPORTACAO = 500;

const indisponivel = () =>
  new Rejection('auditoria_indisponivel', "the event history's audit interface needs the PostgreSQL event store (EVENTSTORE_URL is set)");

/** The query's filters, checked: known event types, a time window that is not empty. */
function filtroDe(q: EventosAuditoriaQuery): FiltroDoLog {
  const fields: { field: string; message: string }[] = [];
  const tipos = q.tipos
    ?.split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const desconhecidos = (tipos ?? []).filter((t) => !isEventType(t));
  if (desconhecidos.length > 0) fields.push({ field: 'tipos', message: `unknown event types: ${desconhecidos.join(', ')}` });
  const de = q.de ? new Date(q.de) : undefined;
  const ate = q.ate ? new Date(q.ate) : undefined;
  if (de && ate && de >= ate) fields.push({ field: 'ate', message: 'must be after de' });
  if (fields.length > 0) throw new Rejection('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });
  return { apos: q.apos ?? 0, ...(tipos && tipos.length > 0 ? { tipos } : {}), ...(de ? { de } : {}), ...(ate ? { ate } : {}) };
}
