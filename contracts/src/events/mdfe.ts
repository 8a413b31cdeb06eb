import { Type, type Static } from '@sinclair/typebox';
import { eventosDaEmissao, ProtocoloAutoridade } from './emissao';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

/**
 * Where an MDF-e stands: `rascunho` (created, not issued), `em_processamento` (issue requested; poll `consulta`),
 * `autorizado` (in force), `rejeitado` (refused; may be issued again with the same number), `encerrado` (closed by the
 * encerramento event), `cancelado` (cancelled by the cancelamento event).
 */
export const SITUACOES_MDFE = ['rascunho', 'em_processamento', 'autorizado', 'rejeitado', 'encerrado', 'cancelado'] as const;
export const MdfeSituacao = Type.Union(
  // Each literal typed as string, as the schema's static type always was: rows and views carry the situation as a string.
  SITUACOES_MDFE.map((v: string) => Type.Literal(v)),
  { $id: 'MdfeSituacao', description: SITUACOES_MDFE.join(' | ') },
);
export type MdfeSituacao = (typeof SITUACOES_MDFE)[number];

/** A municipality as the MDF-e writes it (`cMunCarrega`/`cMunDescarga`, names as in the IBGE table). */
export const MunicipioMdfe = Type.Object({ codigo_ibge: Type.String(), municipio: Type.String(), uf: Type.String() });
export type MunicipioMdfe = Static<typeof MunicipioMdfe>;

/** A vehicle as the MDF-e carries it, copied from the registry when the MDF-e was created. */
export const VeiculoMdfe = Type.Object({
  placa: Type.String(),
  renavam: Nullable(Type.String()),
  tara_kg: Type.Integer(),
  capacidade_kg: Nullable(Type.Integer()),
  capacidade_m3: Nullable(Type.Integer()),
  tipo_rodado: Nullable(Type.String()),
  tipo_carroceria: Type.String(),
  uf: Type.String(),
});
export type VeiculoMdfe = Static<typeof VeiculoMdfe>;

export const CondutorMdfe = Type.Object({ cpf: Type.String(), nome: Type.String() });
export type CondutorMdfe = Static<typeof CondutorMdfe>;

/** A CT-e the manifest carries: an own authorized CT-e, with what the MDF-e totals take from it. */
export const CteDoMdfe = Type.Object({
  cte_id: Type.String(),
  chave: Type.String(),
  valor_carga_centavos: Type.Integer(),
  /** Gross weight in grams (kg × 1000, `qCarga` has 4 decimals in kg). */
  peso_gramas: Type.Integer(),
  descarga: MunicipioMdfe,
});
export type CteDoMdfe = Static<typeof CteDoMdfe>;

/** `prodPred`: the predominant product (tpCarga per ANTT Resolução 5.849/2019, xProd, NCM: rule F55a/301 of a full load). */
export const ProdutoPredominanteMdfe = Type.Object({
  tipo_carga: Type.String(),
  descricao: Type.String(),
  ncm: Nullable(Type.String()),
});
export type ProdutoPredominanteMdfe = Static<typeof ProdutoPredominanteMdfe>;

/** `infBanc`: bank and branch, or the electronic freight payment institution (IPEF), or a PIX key (exactly one). */
export const BancoPagamentoMdfe = Type.Union([
  Type.Object({ codigo_banco: Type.String(), codigo_agencia: Type.String() }),
  Type.Object({ cnpj_ipef: Type.String() }),
  Type.Object({ pix: Type.String() }),
]);
export type BancoPagamentoMdfe = Static<typeof BancoPagamentoMdfe>;

/** `infANTT/infPag`: the payment of the transport contract (rules F55b/302 and F113a/303). Money in cents. */
export const PagamentoMdfe = Type.Object({
  responsavel: Type.Object({ nome: Nullable(Type.String()), documento: Type.String() }),
  componentes: Type.Array(Type.Object({ tipo: Type.String(), valor_centavos: Type.Integer(), descricao: Nullable(Type.String()) })),
  valor_contrato_centavos: Type.Integer(),
  /** '0' à vista, '1' a prazo. */
  indicador_pagamento: Type.String(),
  valor_adiantamento_centavos: Nullable(Type.Integer()),
  parcelas: Type.Array(Type.Object({ vencimento: Type.String(), valor_centavos: Type.Integer() })),
  banco: BancoPagamentoMdfe,
});
export type PagamentoMdfe = Static<typeof PagamentoMdfe>;

/** `infANTT/infCIOT`: a CIOT and who generated it (rule F113b/304). */
export const CiotMdfe = Type.Object({ codigo: Type.String(), responsavel: Type.String() });
export type CiotMdfe = Static<typeof CiotMdfe>;

/** Everything the MDF-e's XML needs besides the emitter, the number and the time: resolved and checked on creation. */
export const MdfeDados = Type.Object({
  ctes: Type.Array(CteDoMdfe),
  veiculo: VeiculoMdfe,
  reboques: Type.Array(VeiculoMdfe),
  motoristas: Type.Array(CondutorMdfe),
  uf_inicio: Type.String(),
  uf_fim: Type.String(),
  percurso: Type.Array(Type.String()),
  carregamento: Type.Array(MunicipioMdfe),
  observacoes: Nullable(Type.String()),
  /** NT 2025.001 v1.03 (absent in MDF-e created before it): `prodPred`, `infPag`, `infCIOT`. */
  produto_predominante: Type.Optional(Nullable(ProdutoPredominanteMdfe)),
  pagamentos: Type.Optional(Type.Array(PagamentoMdfe)),
  ciot: Type.Optional(Type.Array(CiotMdfe)),
  /** The emitter's RNTRC is, in the ANTT's registry, a TAC or an ETC equiparado a TAC (rules F113a/F113b). */
  rntrc_tac: Type.Optional(Type.Boolean()),
});
export type MdfeDados = Static<typeof MdfeDados>;

export const MdfeCriado = Type.Object({ mdfe_id: Type.String(), company_id: Type.String(), ambiente: Type.String(), dados: MdfeDados });
export type MdfeCriado = Static<typeof MdfeCriado>;

const emissao = eventosDaEmissao('mdfe_id', 'MDFe');

export const MdfeEmissaoSolicitada = emissao.EmissaoSolicitada;
export type MdfeEmissaoSolicitada = Static<typeof MdfeEmissaoSolicitada>;

/** The signed MDF-e exists and is archived before it is sent: from here on only these bytes are sent for the number. */
export const MdfeXmlAssinado = emissao.XmlAssinado;
export type MdfeXmlAssinado = Static<typeof MdfeXmlAssinado>;

export const ProtocoloMdfe = ProtocoloAutoridade;
export type ProtocoloMdfe = Static<typeof ProtocoloMdfe>;

export const MdfeAutorizado = Type.Object({
  mdfe_id: Type.String(),
  company_id: Type.String(),
  chave: Type.String(),
  protocolo: ProtocoloMdfe,
  sha256: Type.String({ description: 'SHA-256 of the mdfeProc (signed MDF-e + protMDFe)' }),
});
export type MdfeAutorizado = Static<typeof MdfeAutorizado>;

export const MdfeRejeitado = emissao.Rejeitado;
export type MdfeRejeitado = Static<typeof MdfeRejeitado>;

export const MdfeResultadoPendente = emissao.ResultadoPendente;
export type MdfeResultadoPendente = Static<typeof MdfeResultadoPendente>;

/** The MDF-e events this service registers: 110111 cancelamento, 110112 encerramento, 110114 inclusão de condutor. */
export const TipoEventoMdfe = Type.Union([Type.Literal('cancelamento'), Type.Literal('encerramento'), Type.Literal('condutor')], {
  description: 'cancelamento (110111), encerramento (110112), condutor (110114, inclusão de condutor)',
});
export type TipoEventoMdfe = Static<typeof TipoEventoMdfe>;

export const DadosEventoMdfe = Type.Object({
  justificativa: Type.Optional(Type.String()),
  municipio: Type.Optional(MunicipioMdfe),
  data: Type.Optional(Type.String()),
  condutor: Type.Optional(CondutorMdfe),
});
export type DadosEventoMdfe = Static<typeof DadosEventoMdfe>;

const eventoBase = {
  mdfe_id: Type.String(),
  company_id: Type.String(),
  tipo: TipoEventoMdfe,
  tp_evento: Type.String(),
  n_seq: Type.Integer(),
  dados: DadosEventoMdfe,
};

/** The signed event was sent and the answer was lost or is "in processing": the same bytes are sent again later. */
export const MdfeEventoPendente = Type.Object({
  ...eventoBase,
  sha256: Type.String({ description: 'The signed eventoMDFe' }),
  motivo: Type.String(),
});
export type MdfeEventoPendente = Static<typeof MdfeEventoPendente>;

/** The authority registered the event (135/136, or 631 for one it already had). */
export const MdfeEventoRegistrado = Type.Object({
  ...eventoBase,
  protocolo: ProtocoloMdfe,
  sha256: Type.String({ description: 'The procEventoMDFe' }),
});
export type MdfeEventoRegistrado = Static<typeof MdfeEventoRegistrado>;

export const MdfeEventoRejeitado = Type.Object({ ...eventoBase, cstat: Type.Integer(), motivo: Type.String() });
export type MdfeEventoRejeitado = Static<typeof MdfeEventoRejeitado>;

/** A number of an MDF-e series given to one MDF-e; it keeps it through rejections and retries. */
export const NumeracaoMdfeReservada = Type.Object({
  company_id: Type.String(),
  serie: Type.Integer(),
  numero: Type.Integer(),
  mdfe_id: Type.String(),
});
export type NumeracaoMdfeReservada = Static<typeof NumeracaoMdfeReservada>;
