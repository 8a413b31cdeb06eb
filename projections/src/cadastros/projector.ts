import { type Projector, type Sql } from '../projector';

/** Pending invitations of the CNPJ, still valid at `at`, become accepted by the company that now has it as a carrier. */
const aceitar = (sql: Sql, cnpj: string, companyId: string, at: Date) =>
  sql.query(
    `UPDATE rm.convites SET estado = 'aceito', aceito_em = $3, aceito_company_id = $2
      WHERE cnpj = $1 AND estado = 'pendente' AND expira_em > $3`,
    [cnpj, companyId, at],
  );

/**
 * Invitations of carriers (rm.convites). Acceptance is what onboarding ends with: the invited CNPJ registered as a
 * carrier customer (company.registered with `carrier`, or company.flags_changed turning `carrier` on) while the
 * invitation was pending; every inviter's pending invitation of that CNPJ is accepted then.
 */
export const conviteProjector: Projector = {
  name: 'convite',
  tables: ['rm.convites'],
  async apply(sql, event) {
    switch (event.type) {
      case 'convite.enviado': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.convites (convite_id, company_id, cnpj, razao_social, contato_nome, contato_email, contato_telefone, estado,
                                    enviado_em, expira_em)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'pendente', $8, $9)
           ON CONFLICT (convite_id) DO NOTHING`,
          [
            d.convite_id,
            d.company_id,
            d.cnpj,
            d.razao_social,
            d.contato.nome,
            d.contato.email,
            d.contato.telefone,
            d.enviado_em,
            d.expira_em,
          ],
        );
        return;
      }
      case 'convite.expirado':
        await sql.query(`UPDATE rm.convites SET estado = 'expirado', expirado_em = $2 WHERE convite_id = $1 AND estado = 'pendente'`, [
          event.data.convite_id,
          event.data.expirado_em,
        ]);
        return;
      case 'company.registered':
        if (event.data.carrier) await aceitar(sql, event.data.cnpj, event.data.company_id, event.recordedAt);
        return;
      case 'company.flags_changed': {
        if (event.data.carrier !== true) return;
        const { rows } = await sql.query(`SELECT cnpj FROM rm.companies WHERE company_id = $1`, [event.data.company_id]);
        const cnpj = rows[0]?.cnpj as string | undefined;
        if (cnpj) await aceitar(sql, cnpj, event.data.company_id, event.recordedAt);
        return;
      }
    }
  },
};
