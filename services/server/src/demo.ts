import fs from 'node:fs';
import path from 'node:path';
import { type Platform } from '@frete/platform';
import { type Application, prepararEmissoraDemo } from '@frete/application';
import { SCOPES } from '@frete/contracts';

export const DEMO_CNPJ = '11222333000181';
const DEMO_RAZAO = 'TRANSPORTADORA DEMONSTRACAO LTDA';

/**
 * Embedded default only: a demo carrier and an API key with every scope, so that a newcomer can call the API at
 * once. The key is kept in DATA_DIR (a local folder) so that it can be printed again at every start. In the sandbox
 * the carrier is ready to issue: what a client would send first (certificate, configuration, a tax rule, a driver
 * and a vehicle) is sent through the same handlers, each only while it is missing, so a restart adds nothing.
 */
export async function ensureDemo(platform: Platform, application: Application): Promise<{ cnpj: string; api_key: string }> {
  const file = path.join(platform.config.dataDir, 'demo-credential.json');
  const op = application.operator;
  let company = await op.findCompany(DEMO_CNPJ);
  if (!company) {
    company = await op.createCompany({
      cnpj: DEMO_CNPJ,
      razao_social: DEMO_RAZAO,
      carrier: true,
      fiscal_ready: true,
      fiscal_production: false,
    });
  }
  if (platform.config.environment === 'homologacao') {
    await prepararEmissoraDemo(
      { store: platform.store, handlers: application.handlers, environment: platform.config.environment },
      company,
    );
  }
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { credential_id: string; api_key: string };
    const active = (await op.listCredentials(DEMO_CNPJ)).some((c) => c.credential_id === saved.credential_id && c.status === 'active');
    if (active) return { cnpj: DEMO_CNPJ, api_key: saved.api_key };
  }
  const issued = await op.createCredential({ company: DEMO_CNPJ, kind: 'api-key', scopes: [...SCOPES] });
  if (issued.kind !== 'api-key') throw new Error('unreachable');
  fs.writeFileSync(file, JSON.stringify({ cnpj: DEMO_CNPJ, credential_id: issued.credential_id, api_key: issued.api_key }), {
    mode: 0o600,
  });
  return { cnpj: DEMO_CNPJ, api_key: issued.api_key };
}
