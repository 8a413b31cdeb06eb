import { Type, type Static } from '@sinclair/typebox';

/**
 * The company's operational account (aggregate `conta_operacional`): a ledger, one stream per company,
 * `conta-operacional-<company_id>`. Every movement is an event carrying its amount in integer cents (ruling 10), its
 * number in the ledger (`sequencia`, 1, 2, 3… with no gap) and the balance after it, so that an auditor can rebuild
 * the balance from the events alone: Σ credits − Σ debits + Σ refunds = the last `saldo_apos_centavos`. The balance
 * is never negative and a toll pass is refunded at most once; the decider enforces both and the append's expected
 * revision makes concurrent requests take turns.
 */
const Movimento = {
  company_id: Type.String(),
  sequencia: Type.Integer({ minimum: 1, description: "Number of the movement in the company's ledger, from 1, no gap" }),
  saldo_apos_centavos: Type.Integer({ minimum: 0, description: 'Balance right after this movement' }),
  registrado_em: Type.String({ description: 'ISO 8601 UTC, the service clock' }),
};

export const OrigemCredito = Type.Union([Type.Literal('deposito_simulado'), Type.Literal('deposito')], {
  description: '`deposito_simulado`: a sandbox deposit made through the API; `deposito`: a deposit confirmed by the bank integration',
});
export type OrigemCredito = Static<typeof OrigemCredito>;

/** Money came in (a deposit). Idempotent by `referencia` per company. */
export const ContaOperacionalCreditoRegistrado = Type.Object({
  ...Movimento,
  referencia: Type.String(),
  origem: OrigemCredito,
  valor_centavos: Type.Integer({ minimum: 1 }),
});
export type ContaOperacionalCreditoRegistrado = Static<typeof ContaOperacionalCreditoRegistrado>;

/** A toll pass was paid: its toll and the service fee left the account at once. At most one per toll pass. */
export const ContaOperacionalDebitoRegistrado = Type.Object({
  ...Movimento,
  vale_pedagio_id: Type.String(),
  valor_pedagio_centavos: Type.Integer({ minimum: 0 }),
  taxa_centavos: Type.Integer({ minimum: 0 }),
  /** valor_pedagio_centavos + taxa_centavos. */
  valor_centavos: Type.Integer({ minimum: 1 }),
});
export type ContaOperacionalDebitoRegistrado = Static<typeof ContaOperacionalDebitoRegistrado>;

export const MotivoEstorno = Type.Union([Type.Literal('cancelamento'), Type.Literal('compra_nao_concluida')], {
  description:
    '`cancelamento`: the toll pass was cancelled; `compra_nao_concluida`: the provider did not complete the purchase after the debit',
});
export type MotivoEstorno = Static<typeof MotivoEstorno>;

/** A debited toll pass came back in full (toll and fee). At most one per toll pass, always equal to its debit. */
export const ContaOperacionalEstornoRegistrado = Type.Object({
  ...Movimento,
  vale_pedagio_id: Type.String(),
  motivo: MotivoEstorno,
  valor_pedagio_centavos: Type.Integer({ minimum: 0 }),
  taxa_centavos: Type.Integer({ minimum: 0 }),
  valor_centavos: Type.Integer({ minimum: 1 }),
});
export type ContaOperacionalEstornoRegistrado = Static<typeof ContaOperacionalEstornoRegistrado>;
