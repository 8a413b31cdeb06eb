import { type Pool } from 'pg';

/** prev_hash of a chain's first event (migration 906). */
export const GENESE_DA_CADEIA = '0'.repeat(64);

export interface ResultadoVerificacao {
  integra: boolean;
  /** The first event, in (company_key, company_seq) order, that does not match; null when intact, or when a chain's
   * head names events of which none is left. */
  primeiro_evento_divergente: string | null;
  /** Events read and checked, the divergent one included. */
  eventos_verificados: number;
}

export interface OpcoesVerificacaoCadeia {
  /** metadata.company_id of the chain to verify; '' the operator-wide chain; undefined or null every chain. */
  companyId?: string | null;
  /** Told after each chunk: a long log shows it is moving. */
  onProgress?: (progresso: { eventos_verificados: number }) => void;
  /** Events per query. */
  tamanhoDoLote?: number;
}

interface Linha {
  event_id: string;
  company_key: string;
  company_seq: string;
  prev_hash: string;
  hash: string;
  recalculado: string;
  head_seq: string | null;
  head_hash: string | null;
}

// The hash recomputed by the same SQL function es_append wrote it with; the chain's head read in the same statement
// (the same snapshot) as the event, so a chain's last event and its head agree unless one of them was tampered with.
const COLUNAS = `e.event_id, e.company_key, e.company_seq, e.prev_hash, e.hash,
  es_event_hash(e.prev_hash, e.event_id, e.stream_id, e.stream_revision, e.event_type, e.schema_version, e.data, e.metadata,
    e.recorded_at) AS recalculado,
  h.last_seq AS head_seq, h.last_hash AS head_hash
  FROM es_events e LEFT JOIN es_company_chains h ON h.company_key = e.company_key`;

// Keyset pages on the unique (company_key, company_seq) index: never the whole log in memory.
const DE_TODAS = `SELECT ${COLUNAS} WHERE (e.company_key, e.company_seq) > ($1, $2) ORDER BY e.company_key, e.company_seq LIMIT $3`;
const DE_UMA = `SELECT ${COLUNAS} WHERE e.company_key = $1 AND e.company_seq > $2 ORDER BY e.company_seq LIMIT $3`;

// A head whose events are all gone (a whole chain deleted).
const CABECAS_SEM_EVENTOS = `SELECT company_key FROM es_company_chains h
  WHERE ($1::text IS NULL OR h.company_key = $1) AND NOT EXISTS (SELECT 1 FROM es_events e WHERE e.company_key = h.company_key) LIMIT 1`;

/**
 * Recomputes each event's hash and checks each link (seq 1 with the genesis prev_hash, then seq + 1 with the previous
 * event's hash), and that each chain ends where its head says. The first event that fails is named:
 * - an edited event (data, metadata, type…): that event;
 * - a deleted event: the one after the gap (seq skips); a deleted tail: the last event left (its head is ahead);
 * - an edited event whose own hash was recomputed: the next one (its prev_hash no longer matches). Which of the two was
 *   edited cannot be told from the chain alone; the last event of a chain rehashed along with its head is undetectable
 *   without a head kept outside the database.
 */
export async function verificarCadeia(pool: Pool, opcoes: OpcoesVerificacaoCadeia = {}): Promise<ResultadoVerificacao> {
  const empresa = opcoes.companyId ?? null;
  const tamanho = opcoes.tamanhoDoLote ?? 1000;
  let verificados = 0;
  let anterior: Linha | null = null;
  const divergente = (eventId: string | null): ResultadoVerificacao => ({
    integra: false,
    primeiro_evento_divergente: eventId,
    eventos_verificados: verificados,
  });
  const fimDeCadeiaConfere = (ultimo: Linha) => ultimo.head_seq === ultimo.company_seq && ultimo.head_hash === ultimo.hash;

  for (;;) {
    const chave: string = anterior?.company_key ?? empresa ?? '';
    const seq: string = anterior?.company_seq ?? '0';
    const { rows }: { rows: Linha[] } = await pool.query<Linha>(empresa === null ? DE_TODAS : DE_UMA, [chave, seq, tamanho]);
    for (const linha of rows) {
      const mesmaCadeia = anterior !== null && anterior.company_key === linha.company_key;
      if (anterior !== null && !mesmaCadeia && !fimDeCadeiaConfere(anterior)) return divergente(anterior.event_id);
      verificados++;
      const esperado = mesmaCadeia
        ? { seq: BigInt(anterior!.company_seq) + 1n, prev: anterior!.hash }
        : { seq: 1n, prev: GENESE_DA_CADEIA };
      const elo = BigInt(linha.company_seq) === esperado.seq && linha.prev_hash === esperado.prev;
      if (!elo || linha.recalculado !== linha.hash) return divergente(linha.event_id);
      anterior = linha;
    }
    opcoes.onProgress?.({ eventos_verificados: verificados });
    if (rows.length < tamanho) break;
  }
  if (anterior !== null && !fimDeCadeiaConfere(anterior)) return divergente(anterior.event_id);
  const { rows: orfas } = await pool.query(CABECAS_SEM_EVENTOS, [empresa]);
  if (orfas.length > 0) return divergente(null);
  return { integra: true, primeiro_evento_divergente: null, eventos_verificados: verificados };
}
