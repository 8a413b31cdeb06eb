import { type Projector } from '../projector';

export const companyProjector: Projector = {
  name: 'company',
  tables: ['rm.companies'],
  async apply(sql, event) {
    switch (event.type) {
      case 'company.registered': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.companies (company_id, cnpj, razao_social, carrier, fiscal_ready, fiscal_production, registered_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
          [d.company_id, d.cnpj, d.razao_social, d.carrier, d.fiscal_ready, d.fiscal_production, event.recordedAt],
        );
        return;
      }
      case 'company.flags_changed': {
        const d = event.data;
        await sql.query(
          `UPDATE rm.companies SET carrier = COALESCE($2, carrier), fiscal_ready = COALESCE($3, fiscal_ready),
                  fiscal_production = COALESCE($4, fiscal_production), updated_at = $5
            WHERE company_id = $1`,
          [d.company_id, d.carrier ?? null, d.fiscal_ready ?? null, d.fiscal_production ?? null, event.recordedAt],
        );
        return;
      }
    }
  },
};
