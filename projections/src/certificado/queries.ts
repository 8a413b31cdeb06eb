import { type Sql } from '../projector';
import { umaLinha } from '../uma-linha';

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
  return umaLinha<CertificadoRow>(sql, `SELECT * FROM rm.certificados WHERE company_id = $1`, [companyId]);
}
