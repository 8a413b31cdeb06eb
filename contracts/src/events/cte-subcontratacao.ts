import { Type, type Static } from '@sinclair/typebox';
import { CteLido } from './cte-lido';

/**
 * How a CT-e reached the inbox: sent by the company itself (`api`), handed off by the contractor that issued it
 * (`repasse`), or distributed by the national environment (`distribuicao`, CTeDistribuicaoDFe; issue 30).
 */
export const CanalRecebimento = Type.Union([Type.Literal('api'), Type.Literal('repasse'), Type.Literal('distribuicao')]);
export type CanalRecebimento = Static<typeof CanalRecebimento>;

/** The company's role in a received CT-e (`InboundCteCarrierRole`). */
export const PapelTransportadora = Type.Union(
  ['emitente', 'tomador', 'expedidor', 'recebedor', 'remetente', 'destinatario', 'terceiro'].map((v) => Type.Literal(v)),
);
export type PapelTransportadora = 'emitente' | 'tomador' | 'expedidor' | 'recebedor' | 'remetente' | 'destinatario' | 'terceiro';

/**
 * Why a received CT-e admits no counter-CT-e (null when it does); `dados_invalidos` since issue 28, `cte_cancelado`
 * (the contractor cancelled it: `cte_subcontratacao.cancelado`) since issue 30.
 */
export const BLOQUEIOS_CONTRA_CTE = [
  'cte_proprio',
  'vinculado_multimodal',
  'nao_e_cte_de_carga',
  'cte_nao_normal',
  'ambiente_homologacao',
  'dados_invalidos',
  'cte_cancelado',
] as const;
export type BloqueioContraCte = (typeof BLOQUEIOS_CONTRA_CTE)[number];
export const BloqueioContraCte = Type.Union(BLOQUEIOS_CONTRA_CTE.map((v) => Type.Literal(v)));

/** The refusal a batch row of this CT-e would end with: its row code and message. */
export const RecusaContraCteLida = Type.Object({ code: Type.String(), message: Type.String() });
export type RecusaContraCteLida = Static<typeof RecusaContraCteLida>;

export const RepassadoPor = Type.Object({
  company_id: Type.String(),
  cnpj: Type.String(),
  nome: Type.String(),
  cte_id: Type.String(),
  observacao: Type.Union([Type.Null(), Type.String()]),
});
export type RepassadoPor = Static<typeof RepassadoPor>;

const Recebimento = {
  company_id: Type.String(),
  chave: Type.String(),
  sha256: Type.String({ description: 'SHA-256 of the XML bytes as received, the key of the archived copy' }),
  tamanho_bytes: Type.Integer(),
  canal: CanalRecebimento,
  repassado_por: Type.Union([Type.Null(), RepassadoPor]),
  /** Canal `distribuicao`: the document's NSU in the company's distribution (15 digits). Absent otherwise. */
  nsu: Type.Optional(Type.String({ pattern: '^[0-9]{15}$' })),
};

const Leitura = {
  papel_transportadora: PapelTransportadora,
  permite_contra_cte: Type.Boolean(),
  bloqueio_contra_cte: Type.Union([Type.Null(), BloqueioContraCte]),
  /** Absent from receipts recorded before issue 28: their refusal is read from `bloqueio_contra_cte` alone. */
  recusa_contra_cte: Type.Optional(Type.Union([Type.Null(), RecusaContraCteLida])),
  cte: CteLido,
};

/** First receipt of a key in the company's inbox. */
export const CteSubcontratacaoRecebido = Type.Object({ ...Recebimento, ...Leitura });
export type CteSubcontratacaoRecebido = Static<typeof CteSubcontratacaoRecebido>;

/** The same bytes again: only the receipt counts. */
export const CteSubcontratacaoReenviado = Type.Object(Recebimento);
export type CteSubcontratacaoReenviado = Static<typeof CteSubcontratacaoReenviado>;

/** Different bytes for the same key: they replace the archived XML (the older version stays named in the log). */
export const CteSubcontratacaoSubstituido = Type.Object({ ...Recebimento, ...Leitura, sha256_anterior: Type.String() });
export type CteSubcontratacaoSubstituido = Static<typeof CteSubcontratacaoSubstituido>;

/**
 * The contractor cancelled a CT-e of the inbox (event 110111 registered by its authorizer, as the national environment
 * distributed it in a `procEventoCTe`): no counter-CT-e of it from then on. Recorded once per key.
 */
export const CteSubcontratacaoCancelado = Type.Object({
  company_id: Type.String(),
  chave: Type.String(),
  /** The cancellation's protocol (`retEventoCTe/infEvento/nProt`). */
  protocolo: Type.String(),
  /** When the authority registered it (`retEventoCTe/infEvento/dhRegEvento`, as written). */
  cancelado_em: Type.String(),
  sha256: Type.String({ description: 'SHA-256 of the procEventoCTe bytes as received, the key of the archived copy' }),
  nsu: Type.Optional(Type.String({ pattern: '^[0-9]{15}$' })),
  /** The refusal any counter-CT-e of the key ends with from now on, as the decider gave it. */
  recusa_contra_cte: RecusaContraCteLida,
});
export type CteSubcontratacaoCancelado = Static<typeof CteSubcontratacaoCancelado>;

/**
 * The taker's events about a received CT-e (MOC 4.00 Visão Geral §6.5, §6.6): prestação do serviço em desacordo
 * (610110) and its cancellation (610111), signed by the taker and registered by the CT-e's authorizer. `event_key`
 * is the event's `infEvento/@Id`; the signed XML is archived before it is sent and every later attempt sends it again.
 */
export const TipoDesacordo = Type.Union([Type.Literal('desacordo'), Type.Literal('cancelamento_desacordo')]);
export type TipoDesacordo = Static<typeof TipoDesacordo>;
export const TpEventoDesacordo = Type.Union([Type.Literal('610110'), Type.Literal('610111')]);

const EventoDesacordo = {
  company_id: Type.String(),
  chave: Type.String(),
  event_key: Type.String(),
  tipo: TipoDesacordo,
  tp_evento: TpEventoDesacordo,
};

export const CteSubcontratacaoDesacordoSolicitado = Type.Object({
  ...EventoDesacordo,
  n_seq_evento: Type.Integer(),
  sha256: Type.String({ description: 'SHA-256 of the signed eventoCTe in the document store' }),
  /** 610110: the taker's `xObs`. */
  observacao: Type.Union([Type.Null(), Type.String()]),
  /** 610111: the protocol of the 610110 it cancels (`nProtEvPrestDes`). */
  n_prot_desacordo: Type.Union([Type.Null(), Type.String()]),
});
export type CteSubcontratacaoDesacordoSolicitado = Static<typeof CteSubcontratacaoDesacordoSolicitado>;

export const CteSubcontratacaoDesacordoRegistrado = Type.Object({
  ...EventoDesacordo,
  protocolo: Type.Object({ numero: Type.String(), registrado_em: Type.String(), cstat: Type.Integer(), motivo: Type.String() }),
  sha256: Type.String({ description: 'SHA-256 of the procEventoCTe (signed event + retEventoCTe)' }),
  registrado_em: Type.String(),
});
export type CteSubcontratacaoDesacordoRegistrado = Static<typeof CteSubcontratacaoDesacordoRegistrado>;

export const CteSubcontratacaoDesacordoRejeitado = Type.Object({ ...EventoDesacordo, cstat: Type.Integer(), motivo: Type.String() });
export type CteSubcontratacaoDesacordoRejeitado = Static<typeof CteSubcontratacaoDesacordoRejeitado>;

export const CteSubcontratacaoDesacordoPendente = Type.Object({ ...EventoDesacordo, motivo: Type.String() });
export type CteSubcontratacaoDesacordoPendente = Static<typeof CteSubcontratacaoDesacordoPendente>;
