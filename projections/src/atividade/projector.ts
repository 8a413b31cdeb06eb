import { type ProjectedEvent, type Projector, type Sql } from '../projector';

const UPSERT = `INSERT INTO rm.company_activity AS a (company_id, events_count, last_event_at)
  SELECT * FROM unnest($1::text[], $2::bigint[], $3::timestamptz[])
  ON CONFLICT (company_id) DO UPDATE SET events_count = a.events_count + EXCLUDED.events_count,
    last_event_at = GREATEST(a.last_event_at, EXCLUDED.last_event_at)`;

/** Per-company activity for the dashboard: how many events the company's history holds, and the last one's time. */
export const atividadeProjector: Projector = {
  name: 'atividade',
  tables: ['rm.company_activity'],
  apply(sql, event) {
    return atividadeProjector.applyBatch!(sql, [event]);
  },
  // A batch of a thousand events of one company is one row to add to, not a thousand.
  async applyBatch(sql: Sql, events: ProjectedEvent[]) {
    const porEmpresa = new Map<string, { n: number; ultimo: Date }>();
    for (const e of events) {
      const company = e.metadata.company_id;
      if (!company) continue;
      const atual = porEmpresa.get(company);
      if (!atual) porEmpresa.set(company, { n: 1, ultimo: e.recordedAt });
      else {
        atual.n++;
        if (e.recordedAt > atual.ultimo) atual.ultimo = e.recordedAt;
      }
    }
    if (porEmpresa.size === 0) return;
    const empresas = [...porEmpresa.keys()];
    await sql.query(UPSERT, [empresas, empresas.map((c) => porEmpresa.get(c)!.n), empresas.map((c) => porEmpresa.get(c)!.ultimo)]);
  },
};
