import { Type, type Static } from '@sinclair/typebox';

/**
 * What the service reads from a CT-e XML (layouts 4.00 and 3.00). Events that record a received CT-e carry it,
 * so that auditors and projectors never re-parse the archived bytes.
 */
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

export const EnderecoLido = Type.Object({
  logradouro: Nullable(Type.String()),
  numero: Nullable(Type.String()),
  complemento: Nullable(Type.String()),
  bairro: Nullable(Type.String()),
  codigo_municipio: Nullable(Type.String()),
  municipio: Nullable(Type.String()),
  uf: Nullable(Type.String()),
  cep: Nullable(Type.String()),
  pais: Nullable(Type.String()),
});
export type EnderecoLido = Static<typeof EnderecoLido>;

export const ParteLida = Type.Object({
  documento: Nullable(Type.String()),
  tipo_documento: Nullable(Type.Union([Type.Literal('CNPJ'), Type.Literal('CPF'), Type.Literal('estrangeiro')])),
  ie: Nullable(Type.String()),
  nome: Nullable(Type.String()),
  fantasia: Nullable(Type.String()),
  telefone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  endereco: Nullable(EnderecoLido),
});
export type ParteLida = Static<typeof ParteLida>;

export const PapelTomador = Type.Union(
  [Type.Literal('remetente'), Type.Literal('expedidor'), Type.Literal('recebedor'), Type.Literal('destinatario'), Type.Literal('outros')],
  { description: 'The taker by `toma3/toma` code 0–3, or `outros` for group `toma4`' },
);
export type PapelTomador = Static<typeof PapelTomador>;

export const LocalPrestacao = Type.Object({ codigo_ibge: Type.String(), municipio: Type.String(), uf: Type.String() });
export type LocalPrestacao = Static<typeof LocalPrestacao>;

export const ProtocoloLido = Type.Object({
  numero: Type.String(),
  recebido_em: Type.String(),
  status: Type.Integer(),
  motivo: Type.String(),
  chave: Type.String(),
});
export type ProtocoloLido = Static<typeof ProtocoloLido>;

export const CampoObservacao = Type.Object({
  destino: Type.Union([Type.Literal('contribuinte'), Type.Literal('fisco')]),
  campo: Nullable(Type.String()),
  texto: Nullable(Type.String()),
});
export type CampoObservacao = Static<typeof CampoObservacao>;

export const CargaLida = Type.Object({
  /** `vCarga`. */
  valor_centavos: Nullable(Type.Integer()),
  /** `proPred`. */
  produto_predominante: Nullable(Type.String()),
  /** `xOutCat`. */
  outras_caracteristicas: Nullable(Type.String()),
  /** `infQ`: `cUnid` 00 M3, 01 KG, 02 TON, 03 UNIDADE, 04 LITROS, 05 MMBTU; `qCarga` as written (4 decimals). */
  quantidades: Type.Array(
    Type.Object({ unidade: Nullable(Type.String()), tipo_medida: Nullable(Type.String()), quantidade: Nullable(Type.String()) }),
  ),
});
export type CargaLida = Static<typeof CargaLida>;

export const DocumentoLido = Type.Object({
  /** `nf`: a paper invoice (`infNF`, model 01/04); `outros`: `infOutros` (`tpDoc` in `modelo`). */
  tipo: Type.Union([Type.Literal('nf'), Type.Literal('outros')]),
  modelo: Nullable(Type.String()),
  descricao: Nullable(Type.String()),
  serie: Nullable(Type.String()),
  numero: Nullable(Type.String()),
  emissao: Nullable(Type.String()),
  valor_centavos: Nullable(Type.Integer()),
});
export type DocumentoLido = Static<typeof DocumentoLido>;

/** `imp/IBSCBS` (tax reform): rates as written (2 to 4 decimals), values in cents. */
export const IbsCbsLido = Type.Object({
  cst: Nullable(Type.String()),
  cclass_trib: Nullable(Type.String()),
  base_centavos: Nullable(Type.Integer()),
  aliquota_ibs_uf: Nullable(Type.String()),
  valor_ibs_uf_centavos: Nullable(Type.Integer()),
  aliquota_ibs_mun: Nullable(Type.String()),
  valor_ibs_mun_centavos: Nullable(Type.Integer()),
  valor_ibs_centavos: Nullable(Type.Integer()),
  aliquota_cbs: Nullable(Type.String()),
  valor_cbs_centavos: Nullable(Type.Integer()),
});
export type IbsCbsLido = Static<typeof IbsCbsLido>;

/** The identification every fiscal document read carries (`ide` and the key), CT-e and NF-e alike. */
export const IdentificacaoLida = {
  chave: Type.String(),
  versao: Type.String(),
  modelo: Type.String(),
  serie: Type.Integer(),
  numero: Type.Integer(),
  codigo_numerico: Type.String(),
};

export const CteLido = Type.Object({
  ...IdentificacaoLida,
  cfop: Type.String(),
  natureza_operacao: Type.String(),
  data_emissao: Type.String(),
  ambiente: Type.Union([Type.Literal('producao'), Type.Literal('homologacao')]),
  tipo_cte: Type.Integer(),
  tipo_servico: Type.Integer(),
  modal: Type.String(),
  emitente: ParteLida,
  remetente: Nullable(ParteLida),
  expedidor: Nullable(ParteLida),
  recebedor: Nullable(ParteLida),
  destinatario: Nullable(ParteLida),
  tomador: Type.Object({
    codigo: Type.Union([0, 1, 2, 3, 4].map((n) => Type.Literal(n))),
    papel: PapelTomador,
    parte: Nullable(ParteLida),
  }),
  inicio: LocalPrestacao,
  fim: LocalPrestacao,
  valor_prestacao_centavos: Type.Integer(),
  valor_receber_centavos: Type.Integer(),
  componentes: Type.Array(Type.Object({ nome: Type.String(), valor_centavos: Type.Integer() })),
  icms: Nullable(
    Type.Object({
      grupo: Type.String(),
      cst: Nullable(Type.String()),
      base_centavos: Nullable(Type.Integer()),
      aliquota: Nullable(Type.String()),
      valor_centavos: Nullable(Type.Integer()),
      /** `pRedBC`: percent of base reduction (ICMS20, ICMS90, ICMSOutraUF). Absent in events recorded before it was read. */
      reducao_base: Type.Optional(Nullable(Type.String())),
    }),
  ),
  nfe_chaves: Type.Array(Type.String()),
  cte_anteriores: Type.Array(Type.String()),
  protocolo: Nullable(ProtocoloLido),
  // What the DACTE prints besides the above. Optional: events recorded before these were read stay valid.
  /** `ide/tpEmis`: 1 normal, 4 EPEC, 5 FS-DA, 7 SVC-RS, 8 SVC-SP. */
  tipo_emissao: Type.Optional(Nullable(Type.Integer())),
  /** `ide/dhCont` and `ide/xJust`: when and why a CT-e issued in contingency (tpEmis other than 1) entered it. */
  contingencia: Type.Optional(Nullable(Type.Object({ dh_cont: Nullable(Type.String()), justificativa: Nullable(Type.String()) }))),
  /** `infCTeSupl/qrCodCTe`: the text of the DACTE's QR code, as the issuer wrote it. */
  qr_code: Type.Optional(Nullable(Type.String())),
  /** `compl/xObs`. */
  observacoes: Type.Optional(Nullable(Type.String())),
  /** `compl/ObsCont` (to the taxpayer) and `compl/ObsFisco` (to the tax authority): `xCampo` and `xTexto`. */
  campos_observacao: Type.Optional(Type.Array(CampoObservacao)),
  /** `infCTeNorm/infCarga`. */
  carga: Type.Optional(Nullable(CargaLida)),
  /** `infCTeNorm/infDoc/infNF` (paper invoices) and `infOutros` (other documents); NF-e are in `nfe_chaves`. */
  outros_documentos: Type.Optional(Type.Array(DocumentoLido)),
  /** `infModal/rodo/RNTRC`: the carrier's ANTT registration, road modal only. */
  rntrc: Type.Optional(Nullable(Type.String())),
  /** `imp/IBSCBS`; present only when the document has the group. */
  ibs_cbs: Type.Optional(IbsCbsLido),
});
export type CteLido = Static<typeof CteLido>;
