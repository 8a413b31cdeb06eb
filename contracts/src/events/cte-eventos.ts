import { Type, type Static } from '@sinclair/typebox';

/**
 * Fiscal events of an own CT-e (`eventoCTe` 4.00) in the CT-e's stream. `event_key` is the event's `infEvento/@Id`
 * (`ID` + tpEvento + key + nSeqEvento); the signed XML is archived (by SHA-256) before it is sent, and every later
 * attempt (reconciliation) sends the same bytes.
 */
export const TpEventoCte = Type.Union([Type.Literal('110111'), Type.Literal('110110'), Type.Literal('110180'), Type.Literal('110181')]);

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
