import { type FastifyRequest } from 'fastify';
import { type DocumentoRepasse, type ErrorCode, ErrorCodes } from '@frete/contracts';
import { reaisDeCentavos, type RepasseCommand, repasseDecider, repasseStream } from '@frete/domain';
import { type ReferenciaRepasse, type RepasseDocumentoRow, repasseDocumento } from '@frete/projections';
import { execute } from '@frete/platform';
import { ApiError } from '../../errors';
import { commandContext } from '../../command-context';
import { type ApiDeps } from '../../deps';

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

/** The company's document (read models caught up with its last write); another company's is not found. */
export async function documentoDaEmpresa(deps: ApiDeps, companyId: string, documento: string): Promise<RepasseDocumentoRow> {
  await deps.readYourWrites.waitFor(companyId);
  const ref = referenciaDe(documento);
  const row = ref ? await repasseDocumento(deps.pool, companyId, ref) : null;
  if (!row) throw new ApiError('nao_encontrado', `installment document ${documento} not found`);
  return row;
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export const toDocumentoRepasse = (documento: string, r: RepasseDocumentoRow): DocumentoRepasse => ({
  documento,
  counter_cte_id: r.cte_id,
  chave: r.chave,
  chave_original: r.chave_original,
  documento_financeiro: r.documento_financeiro,
  lote_id: r.lote_id,
  motorista_cpf: r.motorista_cpf,
  valor: reaisDeCentavos(r.valor_centavos),
  grupo: r.grupo,
  posicao_no_grupo: r.posicao_no_grupo,
  financeiro: r.financeiro,
  erro_financeiro: r.erro_financeiro,
  regra: r.regra,
  modo: r.modo,
  bipado_em: iso(r.bipado_em),
  concluido_em: iso(r.concluido_em),
  prestado_contas_em: iso(r.prestado_contas_em),
  cancelado: r.cancelado,
  cancelado_em: iso(r.cancelado_em),
  parcelas: r.parcelas.map((p) => ({
    posicao: p.posicao,
    percentual: p.percentual,
    valor: reaisDeCentavos(p.valor_centavos),
    dias: p.dias,
    situacao: p.situacao,
    liberada_por: p.liberada_por,
    liberada_em: iso(p.liberada_em),
    vencimento: p.vencimento,
    ordem_pagamento_id: p.ordem_pagamento_id,
    pagamento_solicitado_em: iso(p.pagamento_solicitado_em),
    paga_em: iso(p.paga_em),
    cancelada_em: iso(p.cancelada_em),
  })),
});

type SemAlvo<C> = C extends unknown ? Omit<C, 'company_id' | 'grupo' | 'cte_id'> : never;
/** An act on one document, named without its group: the route finds the group from the read model. */
type Acao = SemAlvo<Extract<RepasseCommand, { cte_id: string }>>;

/**
 * Runs an act on the document's group. A document whose financial step failed has no payout to act on: 422 with
 * the failure's code (the registry's `motorista_nao_encontrado`).
 */
export async function agir(deps: ApiDeps, request: FastifyRequest, row: RepasseDocumentoRow, acao: Acao) {
  if (row.financeiro === 'failed') {
    const code = row.erro_financeiro?.code ?? '';
    throw new ApiError(code in ErrorCodes ? (code as ErrorCode) : 'regra_de_negocio',
      `the financial step of counter-CT-e ${row.cte_id} failed (${row.erro_financeiro?.message ?? 'unknown reason'}): it has no installments`);
  }
  const command = { ...acao, company_id: row.company_id, grupo: row.grupo, cte_id: row.cte_id } as RepasseCommand;
  return execute(deps, repasseStream(row.company_id, row.grupo), repasseDecider, command, commandContext(request, deps));
}

/** The document as the read models have it after the company's last write. */
export async function releitura(deps: ApiDeps, companyId: string, documento: string, cteId: string): Promise<DocumentoRepasse> {
  await deps.readYourWrites.waitFor(companyId);
  const row = await repasseDocumento(deps.pool, companyId, { cte_id: cteId });
  if (!row) throw new Error(`read model lost installment document ${cteId}`);
  return toDocumentoRepasse(documento, row);
}
