import { type Scope } from '@frete/contracts';
import { builtEntry, runNode } from './processes';
import { randomCnpj, request } from './http';
import { type TestCarrier } from './app';

/** The operator tool (`pnpm ops`) run as a process against a deployment's database: its JSON answer, or a throw. */
export function operadorCli(env: { DATABASE_URL: string; SECRETS_KEY: string }): (...args: string[]) => Promise<Record<string, string>> {
  const opsEnv = { ...env, APP_ENVIRONMENT: 'homologacao', LOG_LEVEL: 'warn' };
  return async (...args) => {
    const r = await runNode(builtEntry('services/ops/dist/main.js'), args, opsEnv);
    if (r.code !== 0) throw new Error(`ops ${args.join(' ')}: exit ${r.code}\n${r.stderr}\n${r.stdout}`);
    return JSON.parse(r.stdout) as Record<string, string>;
  };
}

export interface TransportadoraDoOperador {
  cnpj: string;
  companyId: string;
  apiKey: string;
  credentialId: string;
  /** The carrier as a client of the API at `baseUrl` (a deployment may have several copies). */
  via(baseUrl: string): TestCarrier;
}

/** A carrier registered and given an API key by the operator tool, as a deployment's operator does it. */
export async function transportadoraPeloOperador(
  ops: ReturnType<typeof operadorCli>,
  o: { cnpj?: string; name?: string; scopes?: Scope[] } = {},
): Promise<TransportadoraDoOperador> {
  const cnpj = o.cnpj ?? randomCnpj();
  const company = await ops(
    'company',
    'create',
    '--cnpj',
    cnpj,
    '--name',
    o.name ?? `TRANSPORTES ${cnpj.slice(0, 4)} LTDA`,
    '--carrier',
    '--fiscal-ready',
  );
  // The installments' routes need `operacao` besides what the caller asked.
  const scopes = [...new Set([...(o.scopes ?? ['fiscal']), 'operacao'])].join(',');
  const cred = await ops('credential', 'create', '--company', cnpj, '--kind', 'api-key', '--scopes', scopes);
  const base = { cnpj, companyId: company.company_id!, apiKey: cred.api_key!, credentialId: cred.credential_id! };
  return {
    ...base,
    via: (baseUrl) => ({
      ...base,
      call: (method, p, body, headers = {}) => request(baseUrl + p, method, body, { authorization: `Bearer ${base.apiKey}`, ...headers }),
    }),
  };
}
