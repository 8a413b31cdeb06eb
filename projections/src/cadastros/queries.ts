import { type ChavePix, type Repasse, type TipoDocumento, type TipoVeiculo } from '@frete/contracts';
import { ListQuery, type PageRequest } from '../list-query';
import { newestFirst } from '../list-cursor';
import { type Sql } from '../projector';
import { umaLinha } from '../uma-linha';

export type EstadoConviteRow = 'pendente' | 'aceito' | 'expirado';

/** A row of rm.convites, with `estado` as of `now` (a pending invitation past `expira_em` is `expirado`). */
export interface ConviteRow {
  convite_id: string;
  company_id: string;
  cnpj: string;
  razao_social: string | null;
  contato_nome: string;
  contato_email: string;
  contato_telefone: string | null;
  estado: EstadoConviteRow;
  enviado_em: Date;
  expira_em: Date;
  aceito_em: Date | null;
  expirado_em: Date | null;
}

/** The state as of `$now` (a parameter): the stored one, or `expirado` for a pending one whose validity ended. */
const ESTADO = (now: string) => `CASE WHEN estado = 'pendente' AND expira_em <= ${now} THEN 'expirado' ELSE estado END`;
const EXPIRADO_EM = (now: string) => `CASE WHEN estado = 'pendente' AND expira_em <= ${now} THEN expira_em ELSE expirado_em END`;
const CONVITE_COLUMNS = (now: string) => `convite_id, company_id, cnpj, razao_social, contato_nome, contato_email, contato_telefone,
  ${ESTADO(now)} AS estado, enviado_em, expira_em, aceito_em, ${EXPIRADO_EM(now)} AS expirado_em`;

export async function conviteDaEmpresa(sql: Sql, companyId: string, conviteId: string, now: Date): Promise<ConviteRow | null> {
  return umaLinha<ConviteRow>(sql, `SELECT ${CONVITE_COLUMNS('$3')} FROM rm.convites WHERE company_id = $1 AND convite_id = $2`, [
    companyId,
    conviteId,
    now,
  ]);
}

/** The company's invitations, newest first; `estado` as of `now`, `cnpj` normalized. */
export async function convitesList(
  sql: Sql,
  companyId: string,
  f: PageRequest & { estado?: EstadoConviteRow; cnpj?: string; now: Date },
): Promise<{ rows: ConviteRow[]; total: number; next_cursor: string | null }> {
  const q = new ListQuery('company_id', companyId);
  // A literal, not a parameter: the count query does not select the columns, and an unused parameter has no type.
  // An ISO instant holds only digits, '-', ':', 'T', '.' and 'Z'.
  const now = `'${f.now.toISOString()}'::timestamptz`;
  if (f.estado) q.and(`${ESTADO(now)} = ${q.param(f.estado)}`);
  if (f.cnpj) q.and(`cnpj = ${q.param(f.cnpj)}`);
  return q.keysetPage<ConviteRow>(
    sql,
    {
      from: 'rm.convites',
      columns: CONVITE_COLUMNS(now),
      list: 'convites',
      keys: newestFirst('enviado_em', 'convite_id'),
    },
    f,
  );
}

/** An aggregate driver as rm.agregados has it, with its driver record (when there is one). */
export interface AgregadoRow {
  company_id: string;
  documento: string;
  tipo_documento: TipoDocumento;
  nome: string;
  rntrc: string;
  rntrcs: string[];
  veiculos: { id: number; placa: string; tipo: TipoVeiculo; rntrc: string }[];
  cadastrado_em: Date;
  atualizado_em: Date;
  motorista: { id: number; cpf: string; nome: string; telefone: string | null; chave_pix: ChavePix | null; repasse: Repasse } | null;
}

const AGREGADO_SELECT = `SELECT a.company_id, a.documento, a.tipo_documento, a.nome, a.rntrc, a.rntrcs, a.veiculos, a.cadastrado_em,
       a.atualizado_em, m.id AS motorista_id, m.cpf AS motorista_cpf, m.nome AS motorista_nome, m.telefone AS motorista_telefone,
       m.chave_pix AS motorista_chave_pix, m.repasse_modo AS motorista_repasse_modo, m.repasse_parcelas AS motorista_repasse_parcelas
  FROM rm.agregados a
  LEFT JOIN rm.motoristas m ON m.company_id = a.company_id AND m.id = a.motorista_id`;

const toAgregado = (r: Record<string, unknown>): AgregadoRow => ({
  company_id: r.company_id as string,
  documento: r.documento as string,
  tipo_documento: r.tipo_documento as TipoDocumento,
  nome: r.nome as string,
  rntrc: r.rntrc as string,
  rntrcs: r.rntrcs as string[],
  veiculos: r.veiculos as AgregadoRow['veiculos'],
  cadastrado_em: r.cadastrado_em as Date,
  atualizado_em: r.atualizado_em as Date,
  motorista:
    r.motorista_id === null
      ? null
      : {
          id: r.motorista_id as number,
          cpf: r.motorista_cpf as string,
          nome: r.motorista_nome as string,
          telefone: r.motorista_telefone as string | null,
          chave_pix: r.motorista_chave_pix as ChavePix | null,
          repasse: { modo: r.motorista_repasse_modo as Repasse['modo'], parcelas: r.motorista_repasse_parcelas as Repasse['parcelas'] },
        },
});

/** Every aggregate driver of the company, by name then document (the onboarding state needs each one's RNTRC answer). */
export async function agregadosDaEmpresa(sql: Sql, companyId: string): Promise<AgregadoRow[]> {
  const { rows } = await sql.query(`${AGREGADO_SELECT} WHERE a.company_id = $1 ORDER BY a.nome, a.documento`, [companyId]);
  return rows.map(toAgregado);
}

/** The company's aggregate driver with that document (unpunctuated), or null. */
export async function agregadoPorDocumento(sql: Sql, companyId: string, documento: string): Promise<AgregadoRow | null> {
  const { rows } = await sql.query(`${AGREGADO_SELECT} WHERE a.company_id = $1 AND a.documento = $2`, [companyId, documento]);
  return rows[0] ? toAgregado(rows[0]) : null;
}
