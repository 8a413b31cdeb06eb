import { Type, type Static } from '@sinclair/typebox';

/**
 * Events of aggregate `distribuicao`, one stream per company (`distribuicao-<company_id>`): the company's consultation
 * of the national distribution services (Ambiente Nacional `CTeDistribuicaoDFe` and `NFeDistribuicaoDFe`), one state
 * per service. NSUs are 15-digit strings, as the services write them; times are ISO 8601.
 */
export const ServicoDistribuicao = Type.Union([Type.Literal('cte'), Type.Literal('nfe')]);
export type ServicoDistribuicao = Static<typeof ServicoDistribuicao>;

/** The company turned the consultation on (`habilitada`) or off. */
export const DistribuicaoAlterada = Type.Object({
  company_id: Type.String(),
  habilitada: Type.Boolean(),
});
export type DistribuicaoAlterada = Static<typeof DistribuicaoAlterada>;

/** A consultation of one service is asked (by the schedule or by the company); the processor runs it. */
export const DistribuicaoConsultaSolicitada = Type.Object({
  company_id: Type.String(),
  servico: ServicoDistribuicao,
  consulta_id: Type.String(),
  /** The NSU the consultation continues from (`distNSU/ultNSU`). */
  ult_nsu: Type.String(),
  /** The interested party (the company's CNPJ) and its UF's IBGE code (`cUFAutor`), as asked. */
  documento: Type.String(),
  c_uf_autor: Type.String(),
  origem: Type.Union([Type.Literal('agenda'), Type.Literal('manual')]),
  solicitada_em: Type.String(),
});
export type DistribuicaoConsultaSolicitada = Static<typeof DistribuicaoConsultaSolicitada>;

/** What became of one document of an answer: where it was recorded (`destino`), archived by its digest. */
export const DocumentoDistribuidoRegistrado = Type.Object({
  nsu: Type.String(),
  /** The `docZip/@schema` as the service wrote it (`procCTe_v4.00.xsd`, `resNFe_v1.01.xsd`…). */
  schema: Type.String(),
  /** The document's access key, when it names one. */
  chave: Type.Union([Type.Null(), Type.String()]),
  /** SHA-256 of the unzipped bytes in the document store; null for a `docZip` that could not be read. */
  sha256: Type.Union([Type.Null(), Type.String()]),
  /**
   * Where it went: the inbox (`caixa_cte`), the NF-e list (`nfe`), the cancellation of an inbox CT-e
   * (`cancelamento_cte`), kept only (`guardado`: summaries, other events, documents that name the company otherwise),
   * or unreadable (`ilegivel`, with `erro`).
   */
  destino: Type.Union(['caixa_cte', 'nfe', 'cancelamento_cte', 'guardado', 'ilegivel'].map((v) => Type.Literal(v))),
  erro: Type.Union([Type.Null(), Type.String()]),
});
export type DocumentoDistribuidoRegistrado = Static<typeof DocumentoDistribuidoRegistrado>;

/**
 * The service answered: `cstat` 137 (nothing new), 138 (documents, recorded before this event), 656 (blocked) or
 * another rejection. `ult_nsu` is where the next consultation continues: the answer's, never below the one asked.
 */
export const DistribuicaoConsultada = Type.Object({
  company_id: Type.String(),
  servico: ServicoDistribuicao,
  consulta_id: Type.String(),
  cstat: Type.Integer(),
  motivo: Type.String(),
  ult_nsu: Type.String(),
  max_nsu: Type.Union([Type.Null(), Type.String()]),
  documentos: Type.Array(DocumentoDistribuidoRegistrado),
  consultada_em: Type.String(),
  /** The earliest the next consultation may be made (the hour's wait after 137, or at once when more remain). */
  proxima_consulta: Type.String(),
  /** The end of a 656 block, else null. */
  bloqueado_ate: Type.Union([Type.Null(), Type.String()]),
});
export type DistribuicaoConsultada = Static<typeof DistribuicaoConsultada>;

/** The consultation had no answer (a timeout, a broken channel, the service down): nothing changed; it is tried again. */
export const DistribuicaoConsultaFalhou = Type.Object({
  company_id: Type.String(),
  servico: ServicoDistribuicao,
  consulta_id: Type.String(),
  motivo: Type.String(),
  falhou_em: Type.String(),
  proxima_consulta: Type.String(),
});
export type DistribuicaoConsultaFalhou = Static<typeof DistribuicaoConsultaFalhou>;
