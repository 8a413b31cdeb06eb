import { type DomainEventOf, type ModoSubcontratacao } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';

/**
 * The subcontracting of one contractor CT-e by one subcontractor (batch rule 7): which counter-CT-e stand against
 * the key and in which mode. One stream per (subcontractor, key), so two batches racing for the same key serialize
 * on its revision: one full counter-CT-e, or legs, never both.
 */
export type ChaveSubcontratadaEvent =
  | DomainEventOf<'subcontratacao.reservada'>
  | DomainEventOf<'subcontratacao.liberada'>
  | DomainEventOf<'subcontratacao.paga'>;

export interface ReservarSubcontratacao {
  type: 'ReservarSubcontratacao';
  company_id: string;
  chave: string;
  modo: ModoSubcontratacao;
  cte_id: string;
  inicio_ibge: string;
  fim_ibge: string;
}

/** The counter-CT-e was cancelled, or the authority refused it: the key is free again (for either mode). */
export interface LiberarSubcontratacao {
  type: 'LiberarSubcontratacao';
  company_id: string;
  chave: string;
  cte_id: string;
  motivo: 'cancelado' | 'rejeitado';
}

/** An installment of a full counter-CT-e of this key was paid: the key can no longer become legs (ruling 8). */
export interface MarcarSubcontratacaoPaga {
  type: 'MarcarSubcontratacaoPaga';
  company_id: string;
  chave: string;
  cte_id: string;
  /** Paying a leg changes nothing: the key is already in legs. */
  modo: ModoSubcontratacao;
}

export type ChaveSubcontratadaCommand = ReservarSubcontratacao | LiberarSubcontratacao | MarcarSubcontratacaoPaga;

export interface ContraCteAtivo {
  cte_id: string;
  modo: ModoSubcontratacao;
  inicio_ibge: string;
  fim_ibge: string;
}

export interface ChaveSubcontratadaState {
  ativos: ContraCteAtivo[];
  paga: boolean;
}

// Records `subcontratacao.*` on streams `subcontratacao-…`: recorded names are history.
export const chaveSubcontratadaStream = (companyId: string, chave: string) => `subcontratacao-${companyId}-${chave}`;

export const chaveSubcontratadaDecider: Decider<ChaveSubcontratadaCommand, ChaveSubcontratadaState, ChaveSubcontratadaEvent> = {
  initialState: { ativos: [], paga: false },
  decide(c, state) {
    switch (c.type) {
      case 'ReservarSubcontratacao': {
        if (state.ativos.some((a) => a.cte_id === c.cte_id)) return [];
        const full = state.ativos.find((a) => a.modo === '1a1');
        const legs = state.ativos.filter((a) => a.modo === 'pernas');
        if (c.modo === '1a1') {
          if (full) throw new Rejection('duplicated', `CT-e ${c.chave} already has a full counter-CT-e`, { counter_cte_id: full.cte_id });
          if (legs.length > 0) {
            throw new Rejection(
              'origem_ja_subcontratada_em_pernas',
              `CT-e ${c.chave} is subcontracted in legs; cancel them to issue a full counter-CT-e`,
              {
                counter_cte_ids: legs.map((l) => l.cte_id),
              },
            );
          }
        } else {
          if (full) {
            throw new Rejection(
              'origem_ja_subcontratada_1a1',
              `CT-e ${c.chave} has a full counter-CT-e; cancel it to subcontract in legs`,
              { counter_cte_id: full.cte_id },
            );
          }
          if (state.paga) throw new Rejection('origem_ja_paga', `the payout of CT-e ${c.chave} was already paid: it cannot become legs`);
          const same = legs.find((l) => l.inicio_ibge === c.inicio_ibge && l.fim_ibge === c.fim_ibge);
          if (same) throw new Rejection('duplicated', `CT-e ${c.chave} already has this leg`, { counter_cte_id: same.cte_id });
        }
        return [
          {
            type: 'subcontratacao.reservada',
            data: {
              company_id: c.company_id,
              chave: c.chave,
              modo: c.modo,
              cte_id: c.cte_id,
              inicio_ibge: c.inicio_ibge,
              fim_ibge: c.fim_ibge,
            },
          },
        ];
      }
      case 'LiberarSubcontratacao':
        if (!state.ativos.some((a) => a.cte_id === c.cte_id)) return [];
        return [
          { type: 'subcontratacao.liberada', data: { company_id: c.company_id, chave: c.chave, cte_id: c.cte_id, motivo: c.motivo } },
        ];
      case 'MarcarSubcontratacaoPaga':
        if (state.paga || c.modo !== '1a1') return [];
        return [{ type: 'subcontratacao.paga', data: { company_id: c.company_id, chave: c.chave, cte_id: c.cte_id } }];
    }
  },
  evolve(state, e) {
    switch (e.type) {
      case 'subcontratacao.reservada':
        return {
          ...state,
          ativos: [
            ...state.ativos,
            { cte_id: e.data.cte_id, modo: e.data.modo, inicio_ibge: e.data.inicio_ibge, fim_ibge: e.data.fim_ibge },
          ],
        };
      case 'subcontratacao.liberada':
        return { ...state, ativos: state.ativos.filter((a) => a.cte_id !== e.data.cte_id) };
      case 'subcontratacao.paga':
        return { ...state, paga: true };
      default:
        return state;
    }
  },
};
