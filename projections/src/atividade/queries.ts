import { type Sql } from '../projector';

export async function atividadeOf(
  sql: Sql,
  companyId: string,
): Promise<{ events_count: number; last_event_at: Date | null; active_credentials: number }> {
  const { rows } = await sql.query(
    `SELECT (SELECT events_count FROM rm.company_activity WHERE company_id = $1) AS events_count,
            (SELECT last_event_at FROM rm.company_activity WHERE company_id = $1) AS last_event_at,
            (SELECT count(*) FROM rm.credentials WHERE company_id = $1 AND status = 'active') AS active_credentials`,
    [companyId],
  );
  const r = rows[0]!;
  return {
    events_count: Number(r.events_count ?? 0),
    last_event_at: (r.last_event_at as Date | null) ?? null,
    active_credentials: Number(r.active_credentials),
  };
}
