import { type Pool } from 'pg';
import { type RecordedEvent } from '@frete/contracts';
import { COLUMNS, type EventRow, toRecorded } from './postgres';

/** An event as recorded, with its place and hashes in its company's chain (migration 906). */
export interface EventoEncadeado extends RecordedEvent {
  /** 1, 2, 3… within the company's chain: commit order, since one company's appends chain one after another. */
  posicao: number;
  hash: string;
  hashAnterior: string;
}

export interface FiltroDoLog {
  /** Exclusive. */
  apos: number;
  /** Inclusive upper bound: the chain's head when an export started, so a long export has a fixed end. */
  ate_posicao?: number;
  tipos?: readonly string[];
  de?: Date;
  ate?: Date;
}

interface Linha extends EventRow {
  company_seq: string;
  hash: string;
  prev_hash: string;
}

const COLUNAS = `${COLUMNS}, company_seq, hash, prev_hash`;

const paraEvento = (r: Linha): EventoEncadeado => ({
  ...toRecorded(r),
  posicao: Number(r.company_seq),
  hash: r.hash,
  hashAnterior: r.prev_hash,
});

/** The company key of the chain: the tenant's id, '' for operator-wide events. */
const chave = (companyId: string | null) => companyId ?? '';

/**
 * Reads the PostgreSQL event store as recorded for auditors: a company's chain in order, by its position, and the
 * streams of one resource. Nothing here upcasts: callers show both shapes.
 */
export class LeitorDeAuditoria {
  constructor(private readonly pool: Pool) {}

  private where(companyId: string | null, f: FiltroDoLog): { sql: string; params: unknown[] } {
    const params: unknown[] = [chave(companyId), f.apos];
    const conds = ['company_key = $1', 'company_seq > $2'];
    const add = (cond: (n: number) => string, value: unknown) => {
      params.push(value);
      conds.push(cond(params.length));
    };
    if (f.ate_posicao !== undefined) add((n) => `company_seq <= $${n}`, f.ate_posicao);
    if (f.tipos && f.tipos.length > 0) add((n) => `event_type = ANY($${n}::text[])`, f.tipos);
    if (f.de) add((n) => `recorded_at >= $${n}`, f.de);
    if (f.ate) add((n) => `recorded_at < $${n}`, f.ate);
    return { sql: conds.join(' AND '), params };
  }

  /** At most `limite` events of the company's chain matching the filter, in chain order. */
  async pagina(companyId: string | null, filtro: FiltroDoLog, limite: number): Promise<EventoEncadeado[]> {
    const w = this.where(companyId, filtro);
    const { rows } = await this.pool.query<Linha>(
      `SELECT ${COLUNAS} FROM es_events WHERE ${w.sql} ORDER BY company_seq LIMIT $${w.params.length + 1}`,
      [...w.params, limite],
    );
    return rows.map(paraEvento);
  }

  /** The last position of the company's chain (0 when it has no event). */
  async cabeca(companyId: string | null): Promise<number> {
    const { rows } = await this.pool.query<{ seq: string | null }>('SELECT max(company_seq) AS seq FROM es_events WHERE company_key = $1', [
      chave(companyId),
    ]);
    return Number(rows[0]?.seq ?? 0);
  }

  /** How many events match (an export's progress is its lines over this). */
  async contar(companyId: string | null, filtro: FiltroDoLog): Promise<number> {
    const w = this.where(companyId, filtro);
    const { rows } = await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM es_events WHERE ${w.sql}`, w.params);
    return Number(rows[0]!.n);
  }

  /**
   * Events of a type recorded in another chain than the company their data names (`data.company_id`), after the
   * global position `apos`, in the order of that position: what a write made with the wrong company's metadata left
   * behind. Events without `data.company_id` are never named.
   */
  async foraDaCadeiaDoDono(tipo: string, apos: bigint, limite: number): Promise<EventoEncadeado[]> {
    const { rows } = await this.pool.query<Linha>(
      `SELECT ${COLUNAS} FROM es_events
        WHERE event_type = $1 AND company_key <> data->>'company_id' AND global_position > $2
        ORDER BY global_position LIMIT $3`,
      [tipo, apos.toString(), limite],
    );
    return rows.map(paraEvento);
  }

  /** Every event of these streams, in the order they were recorded. */
  async dosStreams(streams: readonly string[]): Promise<EventoEncadeado[]> {
    const { rows } = await this.pool.query<Linha>(
      `SELECT ${COLUNAS} FROM es_events WHERE stream_id = ANY($1::text[]) ORDER BY es_events.transaction_id, es_events.global_position`,
      [streams],
    );
    return rows.map(paraEvento);
  }
}
