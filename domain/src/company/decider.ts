import { type DomainEventOf } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { isValidCnpj, normalizeCnpj } from '../fiscal/documents';

export type CompanyEvent = DomainEventOf<'company.registered'> | DomainEventOf<'company.flags_changed'>;

export interface CompanyFlags {
  carrier: boolean;
  fiscal_ready: boolean;
  fiscal_production: boolean;
}

export type CompanyCommand =
  | { type: 'RegisterCompany'; company_id: string; cnpj: string; razao_social: string; flags: CompanyFlags }
  | { type: 'ChangeCompanyFlags'; company_id: string; flags: Partial<CompanyFlags> };

export type CompanyState = { exists: false } | ({ exists: true; company_id: string; cnpj: string; razao_social: string } & CompanyFlags);

/** Companies stand in for the company panel; the operator tool drives them (ruling 4). */
export const companyDecider: Decider<CompanyCommand, CompanyState, CompanyEvent> = {
  initialState: { exists: false },
  decide(command, state) {
    switch (command.type) {
      case 'RegisterCompany': {
        if (state.exists) throw new Rejection('regra_de_negocio', `company ${state.cnpj} already exists`);
        if (!isValidCnpj(command.cnpj)) {
          throw new Rejection('validacao', 'invalid CNPJ', { fields: [{ field: 'cnpj', message: 'invalid CNPJ' }] });
        }
        const razao = command.razao_social.trim();
        if (!razao) throw new Rejection('validacao', 'name is required', { fields: [{ field: 'name', message: 'required' }] });
        return [
          {
            type: 'company.registered',
            data: { company_id: command.company_id, cnpj: normalizeCnpj(command.cnpj), razao_social: razao, ...command.flags },
          },
        ];
      }
      case 'ChangeCompanyFlags': {
        if (!state.exists) throw new Rejection('nao_encontrado', 'company not found');
        const changed = Object.fromEntries(
          Object.entries(command.flags).filter(([k, v]) => v !== undefined && state[k as keyof CompanyFlags] !== v),
        ) as Partial<CompanyFlags>;
        if (Object.keys(changed).length === 0) return [];
        return [{ type: 'company.flags_changed', data: { company_id: state.company_id, ...changed } }];
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'company.registered':
        return { exists: true, ...event.data };
      case 'company.flags_changed': {
        if (!state.exists) return state;
        const { company_id: _id, ...flags } = event.data;
        return { ...state, ...flags };
      }
    }
  },
};
