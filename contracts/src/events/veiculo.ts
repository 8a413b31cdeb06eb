import { Type, type Static } from '@sinclair/typebox';
import { VeiculoDados } from '../http/veiculo';

/** A vehicle entered the company's registry under a new integer id; data normalized. */
export const VeiculoCadastrado = Type.Object({
  company_id: Type.String(),
  veiculo_id: Type.Integer({ minimum: 1 }),
  dados: VeiculoDados,
});
export type VeiculoCadastrado = Static<typeof VeiculoCadastrado>;

/** The editable data was replaced as a whole. */
export const VeiculoAlterado = Type.Object({
  company_id: Type.String(),
  veiculo_id: Type.Integer({ minimum: 1 }),
  dados: VeiculoDados,
});
export type VeiculoAlterado = Static<typeof VeiculoAlterado>;

/** The vehicle left the registry; its plate may be registered again, under a new id. */
export const VeiculoRemovido = Type.Object({
  company_id: Type.String(),
  veiculo_id: Type.Integer({ minimum: 1 }),
  placa: Type.String(),
});
export type VeiculoRemovido = Static<typeof VeiculoRemovido>;
