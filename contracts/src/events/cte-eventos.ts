import { Type, type Static } from '@sinclair/typebox';

/**
 * Fiscal events of an own CT-e (`eventoCTe` 4.00) in the CT-e's stream. `event_key` is the event's `infEvento/@Id`
 * (`ID` + tpEvento + key + nSeqEvento); the signed XML is archived (by SHA-256) before it is sent, and every later
 * attempt (reconciliation) sends the same bytes.
 */
export const TpEventoCte = Type.Union([Type.Literal('110111'), Type.Literal('110110'), Type.Literal('110180'), Type.Literal('110181')]);

/** One `infCorrecao` of a CC-e (evCCeCTe_v4.00.xsd), as the signed letter carries it. */
export const InfCorrecaoCte = Type.Object({
  grupoAlterado: Type.String(),
  campoAlterado: Type.String(),
  valorAlterado: Type.String(),
  nroItemAlterado: Type.Optional(Type.Integer()),
});

/** A correction in force on the CT-e, and the letter (`nSeqEvento`, event key) that set its value. */
export const CorrecaoEmVigorCte = Type.Object({
  grupo: Type.String(),
  campo: Type.String(),
  valor: Type.String(),
  item: Type.Union([Type.Null(), Type.Integer()]),
  n_seq_evento: Type.Integer(),
  event_key: Type.String(),
});
export type CorrecaoEmVigorCte = Static<typeof CorrecaoEmVigorCte>;

export const CteEventoSolicitado = Type.Object({
  cte_id: Type.String(),
  company_id: Type.String(),
  chave: Type.String(),
  event_key: Type.String(),
  tp_evento: TpEventoCte,
  n_seq_evento: Type.Integer(),
  sha256: Type.String({ description: 'SHA-256 of the signed eventoCTe in the document store' }),
  /** 110181: the protocol of the delivery proof it cancels. */
  n_prot_ce: Type.Optional(Type.String()),
  /**
   * 110110: every `infCorrecao` the letter carries, as signed: the earlier letters' corrections and the new ones (the
   * authority keeps the letter with the highest nSeqEvento as the one in force). Absent on letters recorded before.
   */
  correcoes: Type.Optional(Type.Array(InfCorrecaoCte)),
});
export type CteEventoSolicitado = Static<typeof CteEventoSolicitado>;

export const ProtocoloEventoCte = Type.Object({
  numero: Type.String(),
  registrado_em: Type.String(),
  cstat: Type.Integer(),
  motivo: Type.String(),
});

export const CteEventoRegistrado = Type.Object({
  cte_id: Type.String(),
  company_id: Type.String(),
  event_key: Type.String(),
  tp_evento: TpEventoCte,
  protocolo: ProtocoloEventoCte,
  sha256: Type.String({ description: 'SHA-256 of the procEventoCTe (signed event + retEventoCTe)' }),
  /** When the registration happened (the authority's dhRegEvento as an instant). */
  registrado_em: Type.String(),
  /** 110110: the corrections in force once this letter is registered, each with the letter that set it. */
  correcoes_em_vigor: Type.Optional(Type.Array(CorrecaoEmVigorCte)),
});
export type CteEventoRegistrado = Static<typeof CteEventoRegistrado>;

export const CteEventoRejeitado = Type.Object({
  cte_id: Type.String(),
  company_id: Type.String(),
  event_key: Type.String(),
  tp_evento: TpEventoCte,
  cstat: Type.Integer(),
  motivo: Type.String(),
});
export type CteEventoRejeitado = Static<typeof CteEventoRejeitado>;

export const CteEventoPendente = Type.Object({
  cte_id: Type.String(),
  company_id: Type.String(),
  event_key: Type.String(),
  tp_evento: TpEventoCte,
  motivo: Type.String(),
});
export type CteEventoPendente = Static<typeof CteEventoPendente>;
