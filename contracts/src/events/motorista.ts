import { Type, type Static } from '@sinclair/typebox';
import { MotoristaDados } from '../http/motorista';

/** A driver entered the company's registry under a new integer id; data normalized. */
export const MotoristaCadastrado = Type.Object({
  company_id: Type.String(),
  motorista_id: Type.Integer({ minimum: 1 }),
  dados: MotoristaDados,
});
export type MotoristaCadastrado = Static<typeof MotoristaCadastrado>;

/** The editable data was replaced as a whole. */
export const MotoristaAlterado = Type.Object({
  company_id: Type.String(),
  motorista_id: Type.Integer({ minimum: 1 }),
  dados: MotoristaDados,
});
export type MotoristaAlterado = Static<typeof MotoristaAlterado>;

/** The driver left the registry; the CPF may be registered again, under a new id. */
export const MotoristaRemovido = Type.Object({
  company_id: Type.String(),
  motorista_id: Type.Integer({ minimum: 1 }),
  cpf: Type.String(),
});
export type MotoristaRemovido = Static<typeof MotoristaRemovido>;
