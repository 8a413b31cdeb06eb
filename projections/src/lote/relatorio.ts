import { type CodigoLinhaLote, ehCodigoLinhaLote, type LinhaLote, type LoteRelatorio, type LoteResumo } from '@frete/contracts';
import { type LoteLinhaRow, type LoteResumoRow } from './queries';
import { progressoDeContagem } from './progresso';

/**
 * A recorded row code as the report lists it. Before issue 28 a contractor's CT-e whose data a CT-e could not carry
 * failed its row with the draft's `validacao`: that is `cte_original_invalido` now, and the report says so for old rows too.
 */
const codigoDaLinha = (code: string): CodigoLinhaLote => (ehCodigoLinhaLote(code) ? code : 'cte_original_invalido');

/** A row as ruling 26 shows it: the members that apply to its status, nothing empty. */
function linhaView(r: LoteLinhaRow): LinhaLote {
  return {
    chave: r.chave,
    perna: r.perna,
    status: r.status,
    tipo_servico: r.tipo_servico,
    ...(r.counter_cte_id ? { counter_cte_id: r.counter_cte_id } : {}),
    ...(r.documento_financeiro ? { documento_financeiro: r.documento_financeiro } : {}),
    ...(r.status === 'emitted' ? { financeiro: r.financeiro } : {}),
    ...(r.error_code ? { error: { code: codigoDaLinha(r.error_code), message: r.error_message ?? '' } } : {}),
  };
}

/** A batch's report as the API answers it and the panel downloads it (one shape, ruling 26). */
export function loteRelatorioView(l: LoteResumoRow, linhas: LoteLinhaRow[]): LoteRelatorio {
  return { ...loteResumoView(l), rows: linhas.map(linhaView) };
}

export function loteResumoView(l: LoteResumoRow): LoteResumo {
  return {
    batch_id: l.batch_id,
    status: l.status,
    requester: l.solicitante_company_id ? { cnpj: l.solicitante_cnpj ?? '', nome: l.solicitante_nome ?? '' } : null,
    subcontratada: { cnpj: l.subcontratada_cnpj, nome: l.subcontratada_nome },
    created_at: l.created_at.toISOString(),
    progress: progressoDeContagem(l, l.contagem),
  };
}
