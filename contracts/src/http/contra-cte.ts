import { Type, type Static } from '@sinclair/typebox';
import { Local } from './cte-rascunho';
import { InteiroEnum } from './common';

/** Old (`ABC1234`) or Mercosur (`ABC1D23`) plate; case and a hyphen are ignored. */
export const PlacaBrasileira = Type.String({
  pattern: '^[A-Za-z]{3}-?[0-9][A-Za-z0-9][0-9]{2}$',
  description: 'Brazilian plate, old or Mercosur format',
});

/** `POST /fiscal/cte/contra` (spec section 2, "Counter-CT-e single issue input"). */
export const ContraCteInput = Type.Object(
  {
    chave_cte_original: Type.String({ minLength: 44, maxLength: 44, description: "The contractor's CT-e, already in your inbox" }),
    motorista: Type.Object({ cpf: Type.String({ pattern: '^[0-9]{11}$' }) }, { additionalProperties: false }),
    placa: PlacaBrasileira,
    valor_frete: Type.Optional(
      Type.Number({
        minimum: 0.01,
        maximum: 9_999_999.99,
        multipleOf: 0.01,
        description:
          "The counter-CT-e's value and the driver's payout for the leg; when omitted, the pricing rule of the fiscal configuration (`percentual_frete_contra_cte`) suggests it",
      }),
    ),
    tipo_servico: Type.Optional(
      Type.Union([InteiroEnum([1, 2, 3]), Type.Null()], {
        description: 'ide/tpServ: 1 subcontracting (default), 2 redispatch, 3 intermediate redispatch',
      }),
    ),
    origem: Type.Optional(Type.Ref(Local)),
    destino: Type.Optional(Type.Ref(Local)),
  },
  {
    additionalProperties: false,
    $id: 'ContraCteInput',
    description:
      "`origem` and `destino` declare the real leg (both or neither); required for tipo_servico 2 and 3. Without them the contractor's route is inherited.",
  },
);
export type ContraCteInput = Static<typeof ContraCteInput>;

export const CONTRA_CTE_SCHEMAS = [ContraCteInput];
