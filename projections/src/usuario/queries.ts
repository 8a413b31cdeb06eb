import { type PapelUsuario } from '@frete/contracts';
import { type Sql } from '../projector';
import { umaLinha } from '../uma-linha';

export interface UsuarioRow {
  usuario_id: string;
  company_id: string;
  email: string;
  papel: PapelUsuario;
  ativo: boolean;
  senha_temporaria: boolean;
  totp: boolean;
  criado_por: string;
  criado_em: Date;
  ultimo_acesso_em: Date | null;
  desativado_em: Date | null;
}

const COLUMNS = `usuario_id, company_id, email, papel, ativo, senha_temporaria, totp, criado_por, criado_em, ultimo_acesso_em, desativado_em`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The company's users, active first, by e-mail. */
export async function usuariosDaEmpresa(sql: Sql, companyId: string): Promise<UsuarioRow[]> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM rm.usuarios WHERE company_id = $1 ORDER BY ativo DESC, email`, [companyId]);
  return rows as unknown as UsuarioRow[];
}

/** The company's user, or null: another company's id is not found either. */
export async function usuarioPorId(sql: Sql, companyId: string, usuarioId: string): Promise<UsuarioRow | null> {
  if (!UUID.test(usuarioId)) return null;
  return umaLinha<UsuarioRow>(sql, `SELECT ${COLUMNS} FROM rm.usuarios WHERE usuario_id = $1 AND company_id = $2`, [usuarioId, companyId]);
}
