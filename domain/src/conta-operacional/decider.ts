import { type DomainEventOf, type MotivoEstorno, type OrigemCredito } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { decimalDeCentavos, reaisDeCentavos } from '../money/money';

/**
 * The company's operational account: a ledger in one stream per company, `conta-operacional-<company id>`. The
 * stream's expected revision serialises every movement of a company, so the balance a decision sees is the balance
 * its event lands on: no two purchases can spend the same money, and no toll pass is refunded twice.
 *
 * Rules: the balance never goes below zero (a debit larger than it is 422 `saldo_insuficiente`); one debit per toll
 * pass (a repeated debit of the same toll pass appends nothing); one refund per debited toll pass, always of the
 * debit's full amounts (a repeated refund appends nothing); a credit's `referencia` names one credit (the same one
 * again appends nothing, another amount is 422 `referencia_em_uso`).
 */
export const contaOperacionalStream = (companyId: string) => `conta-operacional-${companyId}`;

export type ContaOperacionalEvent =
  | DomainEventOf<'conta_operacional.credito_registrado'>
  | DomainEventOf<'conta_operacional.debito_registrado'>
  | DomainEventOf<'conta_operacional.estorno_registrado'>;

export type ContaOperacionalCommand =
  | { type: 'Creditar'; company_id: string; referencia: string; valor_centavos: number; origem: OrigemCredito }
  | { type: 'Debitar'; company_id: string; vale_pedagio_id: string; valor_pedagio_centavos: number; taxa_centavos: number }
  | { type: 'Estornar'; company_id: string; vale_pedagio_id: string; motivo: MotivoEstorno };

export interface DebitoConta {
  sequencia: number;
  valor_pedagio_centavos: number;
  taxa_centavos: number;
  /** The refund's sequence once refunded. */
  estorno: number | null;
}

export interface CreditoConta {
  sequencia: number;
  valor_centavos: number;
  origem: OrigemCredito;
  saldo_apos_centavos: number;
  registrado_em: string;
}

export interface ContaOperacionalState {
  saldo_centavos: number;
  /** Movements so far: the next one is `movimentos + 1`. */
  movimentos: number;
  /** referencia → the credit, with what its movement recorded (a repeated deposit answers it). */
  creditos: Record<string, CreditoConta>;
  /** vale_pedagio_id → its debit. */
  debitos: Record<string, DebitoConta>;
}

/** Cents as a JS number stay exact up to 2^53; no balance comes near it. */
const centavos = (field: string, v: number, min: number) => {
  if (!Number.isSafeInteger(v) || v < min) {
    throw new Rejection('validacao', `${field}: must be an integer number of cents ≥ ${min}`, {
      fields: [{ field, message: `integer cents ≥ ${min}` }],
    });
  }
  return v;
};

export const contaOperacionalDecider: Decider<ContaOperacionalCommand, ContaOperacionalState, ContaOperacionalEvent> = {
  /** A fresh state at every read: `evolve` fills its maps in place. */
  get initialState(): ContaOperacionalState {
    return { saldo_centavos: 0, movimentos: 0, creditos: {}, debitos: {} };
  },
  decide(command, state, ctx) {
    const base = { company_id: command.company_id, sequencia: state.movimentos + 1, registrado_em: ctx.now.toISOString() };
    switch (command.type) {
      case 'Creditar': {
        const valor = centavos('valor', command.valor_centavos, 1);
        const existing = state.creditos[command.referencia];
        if (existing) {
          if (existing.valor_centavos === valor) return [];
          throw new Rejection(
            'referencia_em_uso',
            `referencia '${command.referencia}' already names a credit of ${decimalDeCentavos(existing.valor_centavos)} (movement ${existing.sequencia})`,
            { sequencia: existing.sequencia },
          );
        }
        const saldo = state.saldo_centavos + valor;
        if (!Number.isSafeInteger(saldo)) throw new Rejection('regra_de_negocio', 'the balance would exceed what the account can hold');
        return [
          {
            type: 'conta_operacional.credito_registrado',
            data: { ...base, referencia: command.referencia, origem: command.origem, valor_centavos: valor, saldo_apos_centavos: saldo },
          },
        ];
      }
      case 'Debitar': {
        const pedagio = centavos('valor_pedagio', command.valor_pedagio_centavos, 0);
        const taxa = centavos('taxa', command.taxa_centavos, 0);
        const total = pedagio + taxa;
        if (total < 1) throw new Rejection('regra_de_negocio', 'a toll pass debit must be at least 0.01');
        const existing = state.debitos[command.vale_pedagio_id];
        if (existing) {
          if (existing.estorno !== null) {
            throw new Rejection(
              'referencia_em_uso',
              `toll pass ${command.vale_pedagio_id} was debited and refunded already: use another referencia_externa`,
            );
          }
          return [];
        }
        if (total > state.saldo_centavos) {
          throw new Rejection(
            'saldo_insuficiente',
            `the operational account holds ${decimalDeCentavos(state.saldo_centavos)}; the toll pass costs ${decimalDeCentavos(total)} (toll ${decimalDeCentavos(pedagio)} + fee ${decimalDeCentavos(taxa)})`,
            { saldo: reaisDeCentavos(state.saldo_centavos), valor_total: reaisDeCentavos(total) },
          );
        }
        return [
          {
            type: 'conta_operacional.debito_registrado',
            data: {
              ...base,
              vale_pedagio_id: command.vale_pedagio_id,
              valor_pedagio_centavos: pedagio,
              taxa_centavos: taxa,
              valor_centavos: total,
              saldo_apos_centavos: state.saldo_centavos - total,
            },
          },
        ];
      }
      case 'Estornar': {
        const debito = state.debitos[command.vale_pedagio_id];
        if (!debito) throw new Rejection('regra_de_negocio', `toll pass ${command.vale_pedagio_id} was never debited from this account`);
        if (debito.estorno !== null) return [];
        const total = debito.valor_pedagio_centavos + debito.taxa_centavos;
        return [
          {
            type: 'conta_operacional.estorno_registrado',
            data: {
              ...base,
              vale_pedagio_id: command.vale_pedagio_id,
              motivo: command.motivo,
              valor_pedagio_centavos: debito.valor_pedagio_centavos,
              taxa_centavos: debito.taxa_centavos,
              valor_centavos: total,
              saldo_apos_centavos: state.saldo_centavos + total,
            },
          },
        ];
      }
    }
  },
  /**
   * The fold owns the state: `evolve` writes the new movement into the maps of the state it is given instead of
   * copying them. A ledger holds one movement per credit and per toll pass; copying its maps at every event would
   * make loading the account quadratic in its history.
   */
  evolve(state, event) {
    const d = event.data;
    switch (event.type) {
      case 'conta_operacional.credito_registrado':
        state.creditos[event.data.referencia] = {
          sequencia: d.sequencia,
          valor_centavos: event.data.valor_centavos,
          origem: event.data.origem,
          saldo_apos_centavos: d.saldo_apos_centavos,
          registrado_em: d.registrado_em,
        };
        break;
      case 'conta_operacional.debito_registrado':
        state.debitos[event.data.vale_pedagio_id] = {
          sequencia: d.sequencia,
          valor_pedagio_centavos: event.data.valor_pedagio_centavos,
          taxa_centavos: event.data.taxa_centavos,
          estorno: null,
        };
        break;
      case 'conta_operacional.estorno_registrado': {
        const debito = state.debitos[event.data.vale_pedagio_id];
        if (debito) state.debitos[event.data.vale_pedagio_id] = { ...debito, estorno: d.sequencia };
        break;
      }
    }
    return { saldo_centavos: d.saldo_apos_centavos, movimentos: d.sequencia, creditos: state.creditos, debitos: state.debitos };
  },
};

/** The signed effect of a ledger event on the balance: what an auditor adds up. */
export const efeitoNoSaldo = (event: ContaOperacionalEvent): number =>
  event.type === 'conta_operacional.debito_registrado' ? -event.data.valor_centavos : event.data.valor_centavos;
