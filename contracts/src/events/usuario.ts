import { Type, type Static } from '@sinclair/typebox';

/** The roles of a company's panel users (`admin` everything, `operador` operations, `leitura` reads only). */
export const PapelUsuario = Type.Union([Type.Literal('admin'), Type.Literal('operador'), Type.Literal('leitura')]);
export type PapelUsuario = Static<typeof PapelUsuario>;

/**
 * What every event of a panel user carries: stream `usuario-<e-mail in lower case>`, so an e-mail is one user. No
 * password hash nor TOTP secret is ever in these events (auditors read the log): those live in a table of their own.
 */
const Usuario = {
  usuario_id: Type.String({ format: 'uuid' }),
  company_id: Type.String(),
  email: Type.String({ description: 'Lower case' }),
};

/** A user was created by the operator tool or invited by an admin; their first password is a one-time one. */
export const UsuarioCriado = Type.Object({
  ...Usuario,
  papel: PapelUsuario,
  criado_por: Type.String({ description: "The actor who created it: 'operator' or usuario:<id>" }),
  senha_temporaria: Type.Boolean({ description: 'The password given must be changed at the first login' }),
});
export type UsuarioCriado = Static<typeof UsuarioCriado>;

/** The user's password was set (after a one-time one) or changed; the hash is not here. */
export const UsuarioSenhaAlterada = Type.Object({
  ...Usuario,
  senha_temporaria: Type.Boolean({ description: 'True when an admin or the operator set a one-time password' }),
});
export type UsuarioSenhaAlterada = Static<typeof UsuarioSenhaAlterada>;

/** A login: a panel session was opened (its id, never its token). */
export const UsuarioSessaoAberta = Type.Object({
  ...Usuario,
  sessao_id: Type.String({ format: 'uuid' }),
  segundo_fator: Type.Boolean({ description: 'A TOTP code was checked' }),
});
export type UsuarioSessaoAberta = Static<typeof UsuarioSessaoAberta>;

/** A logout. */
export const UsuarioSessaoEncerrada = Type.Object({ ...Usuario, sessao_id: Type.String({ format: 'uuid' }) });
export type UsuarioSessaoEncerrada = Static<typeof UsuarioSessaoEncerrada>;

/** A login of an existing user refused: wrong password, wrong TOTP code, or the user is deactivated. */
export const UsuarioLoginRecusado = Type.Object({
  ...Usuario,
  motivo: Type.Union([Type.Literal('senha'), Type.Literal('codigo'), Type.Literal('desativado')]),
});
export type UsuarioLoginRecusado = Static<typeof UsuarioLoginRecusado>;

/** A second factor (TOTP) was enabled, after the user confirmed a code; the secret is not here. */
export const UsuarioTotpAtivado = Type.Object({ ...Usuario });
export type UsuarioTotpAtivado = Static<typeof UsuarioTotpAtivado>;

export const UsuarioTotpDesativado = Type.Object({ ...Usuario });
export type UsuarioTotpDesativado = Static<typeof UsuarioTotpDesativado>;

export const UsuarioPapelAlterado = Type.Object({ ...Usuario, papel: PapelUsuario, papel_anterior: PapelUsuario });
export type UsuarioPapelAlterado = Static<typeof UsuarioPapelAlterado>;

/** The user can no longer log in; their sessions were ended. */
export const UsuarioDesativado = Type.Object({ ...Usuario });
export type UsuarioDesativado = Static<typeof UsuarioDesativado>;
