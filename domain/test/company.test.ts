import { type CompanyEvent, type CredentialEvent, companyDecider, credentialDecider, fold } from '../src';
import { scenario } from './given-when-then';

const registered: CompanyEvent = {
  type: 'company.registered',
  data: { company_id: 'c1', cnpj: '11222333000181', razao_social: 'ACME', carrier: true, fiscal_ready: false, fiscal_production: false },
};

describe('company decider', () => {
  const { given } = scenario(companyDecider);
  const register = {
    type: 'RegisterCompany' as const,
    company_id: 'c1',
    cnpj: '11.222.333/0001-81',
    razao_social: ' ACME ',
    flags: { carrier: true, fiscal_ready: false, fiscal_production: false },
  };
  it('registers with the normalized CNPJ', () => given().when(register).then(registered));
  it('refuses a second registration', () => given(registered).when(register).thenRejects('regra_de_negocio'));
  it('refuses an invalid CNPJ', () =>
    given()
      .when({ ...register, cnpj: '11222333000182' })
      .thenRejects('validacao', ['cnpj']));
  it('changes only the flags that differ', () => {
    given(registered)
      .when({ type: 'ChangeCompanyFlags', company_id: 'c1', flags: { carrier: true, fiscal_ready: true } })
      .then({ type: 'company.flags_changed', data: { company_id: 'c1', fiscal_ready: true } });
  });
});

describe('credential decider', () => {
  const { given } = scenario(credentialDecider);
  const company = fold(companyDecider, [registered]);
  const issue = {
    type: 'IssueCredential' as const,
    credential_id: 'k1',
    company,
    kind: 'api-key' as const,
    environment: 'homologacao' as const,
    scopes: ['operacao' as const, 'fiscal' as const, 'fiscal' as const],
    secret_sha256: 'h',
    client_id: null,
    hint: 'fk_hml_abcd',
  };
  const issued: CredentialEvent = {
    type: 'credential.issued',
    data: {
      credential_id: 'k1',
      company_id: 'c1',
      kind: 'api-key',
      environment: 'homologacao',
      scopes: ['fiscal', 'operacao'],
      secret_sha256: 'h',
      client_id: null,
      hint: 'fk_hml_abcd',
    },
  };
  it('issues with deduplicated scopes', () => given().when(issue).then(issued));
  it('needs an existing company', () =>
    given()
      .when({ ...issue, company: { exists: false } })
      .thenRejects('nao_encontrado'));
  it('revokes once', () => {
    given(issued)
      .when({ type: 'RevokeCredential' })
      .then({ type: 'credential.revoked', data: { credential_id: 'k1', company_id: 'c1' } });
    given(issued, { type: 'credential.revoked', data: { credential_id: 'k1', company_id: 'c1' } })
      .when({ type: 'RevokeCredential' })
      .then();
  });
  it('cannot revoke what does not exist', () => given().when({ type: 'RevokeCredential' }).thenRejects('nao_encontrado'));
});
