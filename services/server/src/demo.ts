import fs from 'node:fs';
import path from 'node:path';
import { type Platform } from '@frete/platform';
import { type Application } from '@frete/application';
import { SCOPES } from '@frete/contracts';

export const DEMO_CNPJ = '11222333000181';

/**
 * Embedded default only: a demo carrier and an API key with every scope, so that a newcomer can call the API at
 * once. The key is kept in DATA_DIR (a local folder) so that it can be printed again at every start.
 */
export async function ensureDemo(platform: Platform, application: Application): Promise<{ cnpj: string; api_key: string }> {
  const file = path.join(platform.config.dataDir, 'demo-credential.json');
  const op = application.operator;
  if (!(await op.findCompany(DEMO_CNPJ))) {
    await op.createCompany({
      cnpj: DEMO_CNPJ,
      razao_social: 'TRANSPORTADORA DEMONSTRACAO LTDA',
      carrier: true,
      fiscal_ready: true,
      fiscal_production: false,
    });
  }
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { credential_id: string; api_key: string };
    const active = (await op.listCredentials(DEMO_CNPJ)).some((c) => c.credential_id === saved.credential_id && c.status === 'active');
    if (active) return { cnpj: DEMO_CNPJ, api_key: saved.api_key };
  }
  const issued = await op.createCredential({ company: DEMO_CNPJ, kind: 'api-key', scopes: [...SCOPES] });
  if (issued.kind !== 'api-key') throw new Error('unreachable');
  fs.writeFileSync(file, JSON.stringify({ credential_id: issued.credential_id, api_key: issued.api_key }), { mode: 0o600 });
  return { cnpj: DEMO_CNPJ, api_key: issued.api_key };
}
