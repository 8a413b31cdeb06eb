import { type Pool } from 'pg';
import { type DocumentoEstado, Rejection } from '@frete/domain';
import { type ReferenciaRepasse, type RepasseDocumentoRow } from '@frete/projections';
import { type ReadYourWrites } from '@frete/platform';
import { type LeiturasRepasse, leiturasRepasseDoPool } from './leituras';

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
export const documentoRepasseDaEmpresa = (deps: DocumentoRepasseDeps, companyId: string, documento: string): Promise<RepasseDocumentoRow> =>
  documentoRepasseNasLeituras({ readYourWrites: deps.readYourWrites, leituras: leiturasRepasseDoPool(deps.pool) }, companyId, documento);

/** The same, through the payout's read port (the handler's: a specification gives its own). */
export async function documentoRepasseNasLeituras(
  deps: { readYourWrites: ReadYourWrites; leituras: Pick<LeiturasRepasse, 'documento'> },
  companyId: string,
  documento: string,
): Promise<RepasseDocumentoRow> {
  await deps.readYourWrites.waitFor(companyId);
  const ref = referenciaDe(documento);
  const row = ref ? await deps.leituras.documento(companyId, ref) : null;
  if (!row) throw new Rejection('nao_encontrado', `installment document ${documento} not found`);
  return row;
}

const instante = (iso: string | null): Date | null => (iso === null ? null : new Date(iso));

/**
 * The document as its group's state has it, in the read model's shape: what a command answers, so that its answer
 * never waits for (or fails on) a projection. Every field comes from the group's events, as the projector's do.
 */
export const linhaDoDocumento = (companyId: string, grupo: string, doc: DocumentoEstado): RepasseDocumentoRow => ({
  company_id: companyId,
  cte_id: doc.cte_id,
  chave: doc.chave,
  chave_original: doc.chave_original,
  documento_financeiro: doc.documento_financeiro,
  lote_id: doc.lote_id,
  grupo,
  posicao_no_grupo: doc.posicao,
  motorista_cpf: doc.motorista_cpf,
  valor_centavos: doc.valor_centavos,
  regra: doc.regra,
  modo: doc.modo,
  financeiro: 'ok',
  erro_financeiro: null,
  bipado_em: instante(doc.bipado_em),
  concluido_em: instante(doc.concluido_em),
  prestado_contas_em: instante(doc.prestado_contas_em),
  cancelado: doc.cancelado,
  cancelado_em: instante(doc.cancelado_em),
  parcelas: (doc.parcelas ?? []).map((p) => ({
    posicao: p.posicao,
    percentual: p.percentual,
    valor_centavos: p.valor_centavos,
    dias: p.dias,
    situacao: p.situacao,
    liberada_por: p.liberada_por,
    liberada_em: instante(p.liberada_em),
    vencimento: p.vencimento,
    ordem_pagamento_id: p.ordem_id,
    pagamento_solicitado_em: instante(p.pagamento_solicitado_em),
    paga_em: instante(p.paga_em),
    cancelada_em: instante(p.cancelada_em),
  })),
});
