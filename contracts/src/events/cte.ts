import { Type, type Static } from '@sinclair/typebox';
import { CteLido } from './cte-lido';
import { CteDraftInput } from '../http/cte-rascunho';
import { eventosDaEmissao, ProtocoloAutoridade } from './emissao';

/**
 * Situation of an own CT-e (`CteSituation`). Issue through the service moves a draft from `rascunho` through
 * `em_processamento` to `autorizado`, `rejeitado` or `denegado`, and an authorized one to `cancelado`. A CT-e the
 * carrier issued elsewhere and delivered through `POST /fiscal/cte-emitidos` starts `autorizado` when its
 * `cteProc` carries the authorization protocol, and `sem_protocolo` when it came as a bare `CTe`.
 */
export const SITUACOES_CTE = ['rascunho', 'em_processamento', 'autorizado', 'rejeitado', 'denegado', 'cancelado', 'sem_protocolo'] as const;
export const CteSituation = Type.Union(
  // Each literal typed as string, as the schema's static type always was: rows and views carry the situation as a string.
  SITUACOES_CTE.map((v: string) => Type.Literal(v)),
  { $id: 'CteSituation', description: SITUACOES_CTE.join(' | ') },
);
export type CteSituation = (typeof SITUACOES_CTE)[number];

/** An own CT-e issued elsewhere, delivered by the carrier: it enters the service, delivery and receivable flow. */
export const CteEmitidoRecebido = Type.Object({
  cte_id: Type.String(),
  company_id: Type.String(),
  chave: Type.String(),
  sha256: Type.String(),
  tamanho_bytes: Type.Integer(),
  situacao: Type.Union([Type.Literal('autorizado'), Type.Literal('sem_protocolo')]),
  cte: CteLido,
});
export type CteEmitidoRecebido = Static<typeof CteEmitidoRecebido>;

/** A resubmission of a delivered own CT-e: recorded for audit, nothing reprocessed. */
export const CteEmitidoReenviado = Type.Object({
  cte_id: Type.String(),
  company_id: Type.String(),
  chave: Type.String(),
  sha256: Type.String(),
  conteudo_diferente: Type.Boolean(),
});
export type CteEmitidoReenviado = Static<typeof CteEmitidoReenviado>;

/** The contractor handed its authorized CT-e to a subcontractor's inbox. */
export const CteRepassado = Type.Object({
  cte_id: Type.String(),
  company_id: Type.String(),
  chave: Type.String(),
  subcontratada_id: Type.String(),
  subcontratada_cnpj: Type.String(),
  observacao: Type.Union([Type.Null(), Type.String()]),
});
export type CteRepassado = Static<typeof CteRepassado>;

/** A draft created with its editable data (`CteDraftInput`, as validated and normalized). */
export const CteRascunhoCriado = Type.Object({
  cte_id: Type.String(),
  company_id: Type.String(),
  ambiente: Type.Union([Type.Literal('producao'), Type.Literal('homologacao')]),
  dados: CteDraftInput,
});
export type CteRascunhoCriado = Static<typeof CteRascunhoCriado>;

/** The draft's editable data replaced as a whole. */
export const CteRascunhoAlterado = Type.Object({ cte_id: Type.String(), company_id: Type.String(), dados: CteDraftInput });
export type CteRascunhoAlterado = Static<typeof CteRascunhoAlterado>;

const emissao = eventosDaEmissao('cte_id', 'CTe');

/** The carrier asked to issue a draft (`POST .../emissao`): it leaves the draft state and goes to the emission processor. */
export const CteEmissaoSolicitada = emissao.EmissaoSolicitada;
export type CteEmissaoSolicitada = Static<typeof CteEmissaoSolicitada>;

/** The signed CT-e, archived before it is sent. */
export const CteXmlAssinado = emissao.XmlAssinado;
export type CteXmlAssinado = Static<typeof CteXmlAssinado>;

export { ProtocoloAutoridade };

/** The authority authorized the CT-e; the archived cteProc is named by its hash. */
export const CteAutorizado = Type.Object({
  cte_id: Type.String(),
  company_id: Type.String(),
  chave: Type.String(),
  protocolo: ProtocoloAutoridade,
  sha256: Type.String({ description: 'SHA-256 of the cteProc (signed CT-e + protCTe)' }),
  /** Absent from authorizations recorded before issue 28, whose read model shows the size as unknown. */
  tamanho_bytes: Type.Optional(Type.Integer({ description: 'Size in bytes of the archived cteProc' })),
  cte: CteLido,
});
export type CteAutorizado = Static<typeof CteAutorizado>;

/** The authority refused the CT-e (or the service's own checks did before sending): correct the draft and issue again. */
export const CteRejeitado = emissao.Rejeitado;
export type CteRejeitado = Static<typeof CteRejeitado>;

/** Use denied: the number is spent and the document has no fiscal value. */
export const CteDenegado = Type.Object({
  cte_id: Type.String(),
  company_id: Type.String(),
  chave: Type.String(),
  protocolo: ProtocoloAutoridade,
});
export type CteDenegado = Static<typeof CteDenegado>;

/** A send or a query whose outcome is unknown (no answer, still processing): the CT-e stays `em_processamento`. */
export const CteResultadoPendente = emissao.ResultadoPendente;
export type CteResultadoPendente = Static<typeof CteResultadoPendente>;
