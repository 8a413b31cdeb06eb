import { type Projector } from '../projector';

export const credentialProjector: Projector = {
  name: 'credential',
  tables: ['rm.credentials'],
  async apply(sql, event) {
    switch (event.type) {
      case 'credential.issued': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.credentials (credential_id, company_id, kind, environment, scopes, secret_sha256, client_id, hint, status, issued_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'active', $9)`,
          [d.credential_id, d.company_id, d.kind, d.environment, d.scopes, d.secret_sha256, d.client_id, d.hint, event.recordedAt],
        );
        return;
      }
      case 'credential.revoked':
        await sql.query(`UPDATE rm.credentials SET status = 'revoked', revoked_at = $2 WHERE credential_id = $1`, [
          event.data.credential_id,
          event.recordedAt,
        ]);
        return;
    }
  },
};
