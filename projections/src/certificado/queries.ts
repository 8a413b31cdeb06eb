import { type Sql } from '../projector';

export interface CertificadoRow {
  blob_id: string;
  sha256: string;
  nome_arquivo: string;
  titular: string;
  cnpj: string;
  emissor: string;
  serial: string;
  valido_de: Date;
  valido_ate: Date;
  enviado_em: Date;
}

export async function certificadoOf(sql: Sql, companyId: string): Promise<CertificadoRow | null> {
  const { rows } = await sql.query(`SELECT * FROM rm.certificados WHERE company_id = $1`, [companyId]);
  return (rows[0] as unknown as CertificadoRow | undefined) ?? null;
}
