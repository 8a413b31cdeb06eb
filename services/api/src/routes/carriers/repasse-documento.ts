import { type DocumentoRepasse } from '@frete/contracts';
import { reaisDeCentavos } from '@frete/domain';
import { type RepasseDocumentoRow } from '@frete/projections';

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
