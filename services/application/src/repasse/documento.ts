import { type Pool } from 'pg';
import { Rejection } from '@frete/domain';
import { type ReferenciaRepasse, type RepasseDocumentoRow, repasseDocumento } from '@frete/projections';
import { type ReadYourWrites } from '@frete/platform';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Ruling 18: a key may carry letters (the tax-reform CNPJ), so 44 alphanumerics rather than 44 digits.
const CHAVE = /^[0-9A-Z]{44}$/i;
const DOCUMENTO_FINANCEIRO = 'ROUTE:';

/** What a `documento` names, by its shape; null when it can name nothing (answered as not found). */
export function referenciaDe(documento: string): ReferenciaRepasse | null {
  const d = documento.trim();
  if (UUID.test(d)) return { cte_id: d.toLowerCase() };
  if (CHAVE.test(d)) return { chave: d.toUpperCase() };
  if (d.startsWith(DOCUMENTO_FINANCEIRO) && d.length > DOCUMENTO_FINANCEIRO.length) return { documento_financeiro: d };
  return null;
}

export interface DocumentoRepasseDeps {
  pool: Pool;
  readYourWrites: ReadYourWrites;
}

/** The company's payout document (read models caught up with its last write); another company's is not found. */
export async function documentoRepasseDaEmpresa(
  deps: DocumentoRepasseDeps,
  companyId: string,
  documento: string,
): Promise<RepasseDocumentoRow> {
  await deps.readYourWrites.waitFor(companyId);
  const ref = referenciaDe(documento);
  const row = ref ? await repasseDocumento(deps.pool, companyId, ref) : null;
  if (!row) throw new Rejection('nao_encontrado', `installment document ${documento} not found`);
  return row;
}
