import { type EventData } from '@frete/contracts';
import { type ProjectedEvent, type Projector, type Sql } from '../projector';

type Linha = EventData<'lote.linha_processada'>;

/** What a run of events did to one recorded row: the last of each field, as the events in order would leave it. */
interface Mudanca {
  batch_id: string;
  linha: number;
  status: 'emitted' | 'failed' | null;
  error: { code: string; message: string } | null;
  financeiro: 'ok' | 'failed' | null;
  at: Date;
}

const INSERIR_LINHAS = `INSERT INTO rm.lote_linhas (batch_id, linha, chave, perna, status, tipo_servico, counter_cte_id, documento_financeiro,
    error_code, error_message, updated_at)
  SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::int[], $5::text[], $6::int[], $7::text[], $8::text[], $9::text[],
    $10::text[], $11::timestamptz[])
  ON CONFLICT (batch_id, linha) DO NOTHING`;

// Like the decider's `evolve`, an outcome moves the row it names whatever it holds: the decider records an outcome only
// for the row's own pending counter-CT-e, so nothing here decides again which rows an outcome may move.
const MUDAR_LINHAS = `UPDATE rm.lote_linhas l SET
    status = COALESCE(m.status, l.status),
    error_code = CASE WHEN m.status = 'failed' THEN m.error_code ELSE l.error_code END,
    error_message = CASE WHEN m.status = 'failed' THEN m.error_message ELSE l.error_message END,
    financeiro = COALESCE(m.financeiro, l.financeiro),
    updated_at = m.at
  FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
    AS m(batch_id, linha, status, error_code, error_message, financeiro, at)
  WHERE l.batch_id = m.batch_id AND l.linha = m.linha`;

/**
 * rm.lotes and rm.lote_linhas: the counter-CT-e batch report, from the batch's own events only. Every row state the
 * report shows, and the batch's end, is what the batch's decider recorded (`lote.*`); the counter-CT-e's and the
 * payout's events reach the report through it, with the failure messages it wrote. A runner's batch is written at
 * once: its new rows in one statement, and what happened to rows since in one more (a block of a hundred rows and
 * their outcomes: two statements, not three hundred).
 */
export const loteProjector: Projector = {
  name: 'lote',
  tables: ['rm.lotes', 'rm.lote_linhas'],
  apply(sql, event) {
    return loteProjector.applyBatch!(sql, [event]);
  },
  async applyBatch(sql: Sql, events: ProjectedEvent[]) {
    const novas: { d: Linha; at: Date }[] = [];
    const mudancas = new Map<string, Mudanca>();
    const mudar = (d: { batch_id: string; linha: number }, at: Date, f: (m: Mudanca) => void) => {
      const chave = `${d.batch_id}:${d.linha}`;
      let m = mudancas.get(chave);
      if (!m) mudancas.set(chave, (m = { batch_id: d.batch_id, linha: d.linha, status: null, error: null, financeiro: null, at }));
      f(m);
      m.at = at;
    };
    // Rows are written before what happened to them; a batch's header before its rows, its end after them.
    const escrever = async () => {
      if (novas.length > 0) {
        await sql.query(INSERIR_LINHAS, [
          novas.map((n) => n.d.batch_id),
          novas.map((n) => n.d.linha),
          novas.map((n) => n.d.chave),
          novas.map((n) => n.d.perna),
          novas.map((n) => n.d.status),
          novas.map((n) => n.d.tipo_servico),
          novas.map((n) => n.d.counter_cte_id),
          novas.map((n) => n.d.documento_financeiro),
          novas.map((n) => n.d.error?.code ?? null),
          novas.map((n) => n.d.error?.message ?? null),
          novas.map((n) => n.at),
        ]);
        novas.length = 0;
      }
      if (mudancas.size > 0) {
        const ms = [...mudancas.values()];
        await sql.query(MUDAR_LINHAS, [
          ms.map((m) => m.batch_id),
          ms.map((m) => m.linha),
          ms.map((m) => m.status),
          ms.map((m) => m.error?.code ?? null),
          ms.map((m) => m.error?.message ?? null),
          ms.map((m) => m.financeiro),
          ms.map((m) => m.at),
        ]);
        mudancas.clear();
      }
    };
    for (const event of events) {
      const at = event.recordedAt;
      switch (event.type) {
        case 'lote.criado': {
          await escrever();
          const d = event.data;
          await sql.query(
            `INSERT INTO rm.lotes (batch_id, company_id, solicitante_company_id, ambiente, modo, total_linhas, status, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, 'processing', $7, $7) ON CONFLICT (batch_id) DO NOTHING`,
            [d.batch_id, d.company_id, d.solicitante_company_id, d.ambiente, d.modo, d.linhas.length, at],
          );
          break;
        }
        case 'lote.linha_processada':
          // A row recorded after an outcome of this run was collected (never by the decider, which records a row first)
          // would be written after it: the outcomes collected so far are written first.
          if (mudancas.has(`${event.data.batch_id}:${event.data.linha}`)) await escrever();
          novas.push({ d: event.data, at });
          break;
        case 'lote.linha_emitida':
          mudar(event.data, at, (m) => (m.status = 'emitted'));
          break;
        case 'lote.linha_rejeitada':
          // The counter-CT-e stays named on the row: the refused document can be read (GET /fiscal/cte/{id}).
          mudar(event.data, at, (m) => {
            m.status = 'failed';
            m.error = event.data.error;
          });
          break;
        case 'lote.financeiro_registrado':
          // Kept on a row still pending too: an older history recorded it before the emission when deliveries crossed,
          // and the row shows it once emitted (the report shows `financeiro` on emitted rows only).
          mudar(event.data, at, (m) => (m.financeiro = event.data.financeiro));
          break;
        case 'lote.concluido':
          await escrever();
          // The batch ended as its decider decided; the first end stands (the decider records one, a replay repeats it).
          await sql.query(
            `UPDATE rm.lotes SET status = $2, concluido_em = $3, updated_at = $3 WHERE batch_id = $1 AND concluido_em IS NULL`,
            [event.data.batch_id, event.data.status, at],
          );
          break;
      }
    }
    await escrever();
  },
};
