import { type CredentialKind, type DomainEventOf, type Environment, type Scope } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { type CompanyState } from '../company/decider';

export type CredentialEvent = DomainEventOf<'credential.issued'> | DomainEventOf<'credential.revoked'>;

export type CredentialCommand =
  | {
      type: 'IssueCredential';
      credential_id: string;
      company: CompanyState;
      kind: CredentialKind;
      environment: Environment;
      scopes: Scope[];
      secret_sha256: string;
      client_id: string | null;
      hint: string;
    }
  | { type: 'RevokeCredential' };

export type CredentialState = { status: 'none' } | { status: 'active' | 'revoked'; credential_id: string; company_id: string };

export const credentialDecider: Decider<CredentialCommand, CredentialState, CredentialEvent> = {
  initialState: { status: 'none' },
  decide(command, state) {
    switch (command.type) {
      case 'IssueCredential': {
        if (state.status !== 'none') throw new Rejection('regra_de_negocio', 'credential already issued');
        if (!command.company.exists) throw new Rejection('nao_encontrado', 'company not found');
        const scopes = [...new Set(command.scopes)].sort();
        return [
          {
            type: 'credential.issued',
            data: {
              credential_id: command.credential_id,
              company_id: command.company.company_id,
              kind: command.kind,
              environment: command.environment,
              scopes,
              secret_sha256: command.secret_sha256,
              client_id: command.client_id,
              hint: command.hint,
            },
          },
        ];
      }
      case 'RevokeCredential':
        if (state.status === 'none') throw new Rejection('nao_encontrado', 'credential not found');
        if (state.status === 'revoked') return [];
        return [{ type: 'credential.revoked', data: { credential_id: state.credential_id, company_id: state.company_id } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'credential.issued':
        return { status: 'active', credential_id: event.data.credential_id, company_id: event.data.company_id };
      case 'credential.revoked':
        return state.status === 'none' ? state : { ...state, status: 'revoked' };
    }
  },
};
