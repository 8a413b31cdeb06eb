import { type Projector } from '../projector';

/** Per-company activity for the dashboard: how many events the company's history holds, and the last one's time. */
export const atividadeProjector: Projector = {
  name: 'atividade',
  tables: ['rm.company_activity'],
  async apply(sql, event) {
    const company = event.metadata.company_id;
    if (!company) return;
    await sql.query(
      `INSERT INTO rm.company_activity (company_id, events_count, last_event_at) VALUES ($1, 1, $2)
       ON CONFLICT (company_id) DO UPDATE SET events_count = rm.company_activity.events_count + 1,
         last_event_at = GREATEST(rm.company_activity.last_event_at, EXCLUDED.last_event_at)`,
      [company, event.recordedAt],
    );
  },
};
