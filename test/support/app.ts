import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { type AppConfig, loadConfig, type Logger, type PlatformOptions } from '@frete/platform';
import { startServices, type RunningServices } from '@frete/server';
import { type Scope } from '@frete/contracts';
import { freshDatabase, type TestDatabase } from './db';
import { type ApiResponse, randomCnpj, request } from './http';

export { type ApiResponse, randomCnpj, request } from './http';
import { type AutoridadeLocalDeTeste, iniciarAutoridadeLocalDeTeste, type OpcoesAutoridadeLocalDeTeste } from './autoridade-local';

/**
 * The two front doors of the authority's rules a suite runs against: in process (`simulada`, the embedded default) and
 * through the `sefaz` adapter, SOAP over mutual TLS, to the local authority server (`describe.each(AUTORIDADES)`).
 */
export const AUTORIDADES = ['simulada', 'sefaz'] as const;
export type PortaDaAutoridade = (typeof AUTORIDADES)[number];

export interface TestApp {
  url: string;
  running: RunningServices;
  db: TestDatabase;
  config: AppConfig;
  /** With `autoridade: 'sefaz'`: the local authority server the adapter talks to (its faults are programmable). */
  autoridadeLocal: AutoridadeLocalDeTeste | null;
  /** Creates a company and a credential through the operator, as `pnpm ops` would. */
  carrier(options?: {
    scopes?: Scope[];
    carrier?: boolean;
    fiscalReady?: boolean;
    fiscalProduction?: boolean;
    cnpj?: string;
    name?: string;
  }): Promise<TestCarrier>;
  close(): Promise<void>;
}

export interface TestCarrier {
  cnpj: string;
  companyId: string;
  apiKey: string;
  credentialId: string;
  /** fetch with the API key, base URL and JSON handling. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
}

export async function startTestApp(
  env: Record<string, string> = {},
  options: Pick<PlatformOptions, 'clock'> & {
    autoridade?: PortaDaAutoridade;
    autoridadeLocal?: OpcoesAutoridadeLocalDeTeste;
    /** Takes every log line (the API's requests too); without it only the services' own reports are logged. */
    logger?: Logger;
  } = {},
): Promise<TestApp> {
  const db = await freshDatabase();
  // The local server shares the test database: its tables come with the service's migrations, before any request.
  const autoridadeLocal =
    options.autoridade === 'sefaz'
      ? await iniciarAutoridadeLocalDeTeste({ pool: db.pool, clock: options.clock, ...options.autoridadeLocal })
      : null;
  let caFile: string | null = null;
  if (autoridadeLocal) {
    caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'frete-sefaz-ca-')), 'ca.pem');
    fs.writeFileSync(caFile, autoridadeLocal.caPem);
  }
  const config = loadConfig({
    APP_ENVIRONMENT: 'homologacao',
    DATABASE_URL: db.url,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    PORT: '0',
    SERVICES: 'api,projector,emission-processor,payout-processor',
    ...(autoridadeLocal && caFile
      ? {
          FISCAL_AUTHORITY: 'sefaz',
          SEFAZ_BASE_URL: autoridadeLocal.url,
          SEFAZ_CA_FILE: caFile,
          SEFAZ_TIMEOUT_MS: '15000',
          // 108 pauses 50 ms, 109 250 ms, 678 (and 656) 3 s: the paths of a paused channel in a test's time.
          SEFAZ_PAUSA_MS: '50',
        }
      : {}),
    ...env,
  });
  const running = await startServices(config, { clock: options.clock, ...(options.logger ? { logger: options.logger } : {}) });
  const url = running.url!;
  return {
    url,
    running,
    db,
    config,
    autoridadeLocal,
    async carrier(o = {}) {
      const cnpj = o.cnpj ?? randomCnpj();
      const company = await running.application.operator.createCompany({
        cnpj,
        razao_social: o.name ?? `TRANSPORTES ${cnpj.slice(0, 4)} LTDA`,
        carrier: o.carrier ?? true,
        fiscal_ready: o.fiscalReady ?? true,
        fiscal_production: o.fiscalProduction ?? false,
      });
      const cred = await running.application.operator.createCredential({ company: cnpj, kind: 'api-key', scopes: o.scopes ?? ['fiscal'] });
      if (cred.kind !== 'api-key') throw new Error('expected an API key');
      const apiKey = cred.api_key;
      return {
        cnpj: company.cnpj,
        companyId: company.company_id,
        apiKey,
        credentialId: cred.credential_id,
        call: (method, path, body, headers = {}) => request(url + path, method, body, { authorization: `Bearer ${apiKey}`, ...headers }),
      };
    },
    async close() {
      await running.stop();
      await autoridadeLocal?.close();
      if (caFile) fs.rmSync(path.dirname(caFile), { recursive: true, force: true });
      await db.drop();
    },
  };
}

/** A fresh app and two carriers on it: `b` is the other company, which must not see what `a` registers. */
export async function appComDuasEmpresas(): Promise<{ app: TestApp; a: TestCarrier; b: TestCarrier }> {
  const app = await startTestApp();
  return { app, a: await app.carrier(), b: await app.carrier() };
}

/** A service clock `adiantar(ms)` puts that far ahead of real time (from then on): for deadlines counted on it. */
export function relogioAdiantavel(): { clock: () => Date; adiantar(ms: number): void } {
  let adiantamento = 0;
  return {
    clock: () => new Date(Date.now() + adiantamento),
    adiantar: (ms) => {
      adiantamento = ms;
    },
  };
}

/** Asserts the error envelope of spec section 7 and returns it. */
export function expectError(res: ApiResponse, status: number, code: string): ApiResponse['body'] {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  return res.body;
}
