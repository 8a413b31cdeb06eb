import { type CredentialKind, type Environment, type Scope } from '@frete/contracts';
import { type Sql } from '../projector';
import { umaLinha } from '../uma-linha';

/** A credential as its company sees it: never its secret's hash. */
export interface CredencialRow {
  credential_id: string;
  kind: CredentialKind;
  environment: Environment;
  scopes: Scope[];
  client_id: string | null;
  hint: string;
  status: 'active' | 'revoked';
  issued_at: Date;
  revoked_at: Date | null;
}

const COLUMNS = 'credential_id, kind, environment, scopes, client_id, hint, status, issued_at, revoked_at';

/** The company's credentials, active first, newest first within each status. */
export async function credenciaisDaEmpresa(sql: Sql, companyId: string): Promise<CredencialRow[]> {
  const { rows } = await sql.query(
    `SELECT ${COLUMNS} FROM rm.credentials WHERE company_id = $1
      ORDER BY status = 'revoked', issued_at DESC, credential_id`,
    [companyId],
  );
  return rows as unknown as CredencialRow[];
}

/** The company's credential, or null: another company's id is not found either. */
export async function credencialDaEmpresa(sql: Sql, companyId: string, credentialId: string): Promise<CredencialRow | null> {
  return umaLinha<CredencialRow>(sql, `SELECT ${COLUMNS} FROM rm.credentials WHERE credential_id = $1 AND company_id = $2`, [
    credentialId,
    companyId,
  ]);
}
