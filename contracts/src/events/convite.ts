import { Type, type Static } from '@sinclair/typebox';
import { ContatoConvite } from '../http/cadastros';

/**
 * A company invited a carrier (by CNPJ) to onboarding; stream `convite-<company id>-<cnpj>`. It stays pending until
 * `expira_em`; the read model marks it accepted when the CNPJ becomes a carrier customer before that.
 */
export const ConviteEnviado = Type.Object({
  company_id: Type.String(),
  convite_id: Type.String({ format: 'uuid' }),
  cnpj: Type.String({ description: 'Unpunctuated, upper case' }),
  razao_social: Type.Union([Type.Null(), Type.String()]),
  contato: ContatoConvite,
  enviado_em: Type.String({ format: 'date-time' }),
  expira_em: Type.String({ format: 'date-time' }),
});
export type ConviteEnviado = Static<typeof ConviteEnviado>;

/**
 * A pending invitation's validity ended. Recorded when the company invites the same CNPJ again after `expira_em`
 * (right before the new `convite.enviado`); until then the expiry is read from `expira_em`.
 */
export const ConviteExpirado = Type.Object({
  company_id: Type.String(),
  convite_id: Type.String({ format: 'uuid' }),
  cnpj: Type.String(),
  expirado_em: Type.String({ format: 'date-time', description: "The invitation's `expira_em`" }),
});
export type ConviteExpirado = Static<typeof ConviteExpirado>;
