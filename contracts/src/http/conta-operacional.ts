import { Type, type Static } from '@sinclair/typebox';
import { CursorQuery, PageQuery } from './common';
import { MotivoEstorno } from '../events/conta-operacional';

/**
 * The company's operational account (`/conta-operacional`, scope `operacao`): the prepaid balance that toll passes
 * are paid from. Money as decimals with two places (ruling 10); a debit shows as a negative `valor`.
 */
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);
const Money = (description: string) => Type.Number({ minimum: 0, multipleOf: 0.01, description });

export const ContaOperacionalCreditoInput = Type.Object(
  {
    valor: Type.Number({ minimum: 0.01, maximum: 1_000_000, multipleOf: 0.01, description: 'Amount deposited, 0.01 to 1,000,000.00' }),
    referencia: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9._:/-]+$',
      description:
        'Your identifier of the deposit, unique per company: resending it answers 200 with the same credit; with another `valor` it is 422 `referencia_em_uso`',
    }),
  },
  { additionalProperties: false, $id: 'ContaOperacionalCreditoInput', description: 'A deposit into the operational account' },
);
export type ContaOperacionalCreditoInput = Static<typeof ContaOperacionalCreditoInput>;

export const TipoMovimento = Type.Union([Type.Literal('credito'), Type.Literal('debito'), Type.Literal('estorno')], {
  description: '`credito` (deposit), `debito` (a toll pass bought: toll + fee), `estorno` (a toll pass refunded in full)',
});
export type TipoMovimento = Static<typeof TipoMovimento>;

export const ContaOperacionalMovimento = Type.Object(
  {
    sequencia: Type.Integer({ minimum: 1, description: 'Number of the movement in the ledger, from 1, no gap' }),
    tipo: TipoMovimento,
    valor: Type.Number({ multipleOf: 0.01, description: 'Signed: positive for credits and refunds, negative for debits' }),
    valor_pedagio: nullable(Money('Debits and refunds: the toll part')),
    taxa: nullable(Money('Debits and refunds: the fee part')),
    saldo_apos: Money('Balance right after this movement'),
    referencia: nullable(Type.String({ description: "Credits: the deposit's `referencia`" })),
    vale_pedagio_id: nullable(Type.String({ description: 'Debits and refunds: the toll pass' })),
    motivo: nullable(MotivoEstorno),
    descricao: Type.String(),
    registrado_em: Type.String({ format: 'date-time' }),
  },
  { $id: 'ContaOperacionalMovimento', description: 'One movement of the operational account' },
);
export type ContaOperacionalMovimento = Static<typeof ContaOperacionalMovimento>;

export const ContaOperacionalCredito = Type.Object(
  {
    movimento: Type.Ref(ContaOperacionalMovimento),
    saldo: Money('Balance now'),
  },
  { $id: 'ContaOperacionalCredito', description: 'The credit and the balance after it' },
);
export type ContaOperacionalCredito = Static<typeof ContaOperacionalCredito>;

export const ContaOperacional = Type.Object(
  {
    saldo: Money('Balance available for toll passes'),
    moeda: Type.Literal('BRL'),
    total_creditos: Money('Σ of the credits'),
    total_debitos: Money('Σ of the debits (toll + fee of each toll pass bought)'),
    total_estornos: Money('Σ of the refunds'),
    quantidade_movimentos: Type.Integer(),
    atualizado_em: nullable(Type.String({ format: 'date-time', description: 'The last movement' })),
  },
  { $id: 'ContaOperacional', description: 'Balance of the operational account: saldo = total_creditos − total_debitos + total_estornos' },
);
export type ContaOperacional = Static<typeof ContaOperacional>;

export const ExtratoQuery = Type.Object({
  ...PageQuery.properties,
  ...CursorQuery.properties,
  tipo: Type.Optional(TipoMovimento),
  from: Type.Optional(Type.String({ format: 'date', description: 'Movements on or after this day (Brasília)' })),
  to: Type.Optional(Type.String({ format: 'date', description: 'Movements on or before this day (Brasília)' })),
  ordem: Type.Optional(
    Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'By `sequencia`: `asc` (default, oldest first) or `desc`' }),
  ),
});
export type ExtratoQuery = Static<typeof ExtratoQuery>;

export const CONTA_OPERACIONAL_SCHEMAS = [
  ContaOperacionalCreditoInput,
  ContaOperacionalMovimento,
  ContaOperacionalCredito,
  ContaOperacional,
];
