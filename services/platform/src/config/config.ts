import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { type Environment } from '@frete/contracts';

export const SERVICE_NAMES = ['api', 'projector', 'relay', 'emission-processor', 'payout-processor'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface AppConfig {
  environment: Environment;
  host: string;
  port: number;
  /** Embedded default's folder (PostgreSQL data, generated secrets key, demo credential). */
  dataDir: string;
  databaseUrl: string | null;
  eventstoreUrl: string | null;
  kafkaBrokers: string[] | null;
  kafkaTopic: string;
  /** AES-256-GCM key (base64, 32 bytes) that seals certificates, passwords and token-signing keys. */
  secretsKey: string;
  rateLimitFiscalPerMin: number;
  rateLimitIpPerMin: number;
  readYourWritesTimeoutMs: number;
  services: ServiceName[];
  logLevel: string;
  /** Public base address (without /v1), written in the OpenAPI document's servers and the token issuer. */
  publicUrl: string | null;
}

export class ConfigError extends Error {}

const int = (env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got '${raw}'`);
  return n;
};

/**
 * Reads the configuration from the environment. With nothing set it is the embedded default: sandbox, embedded
 * PostgreSQL under DATA_DIR, every service in one process, and a secrets key generated once into DATA_DIR.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const environment = (env.APP_ENVIRONMENT || 'homologacao') as Environment;
  if (environment !== 'homologacao' && environment !== 'producao') {
    throw new ConfigError(`APP_ENVIRONMENT must be homologacao or producao, got '${environment}'`);
  }
  const dataDir = path.resolve(env.DATA_DIR || path.join(process.cwd(), '.data', environment));
  const databaseUrl = env.DATABASE_URL || null;
  let secretsKey = env.SECRETS_KEY;
  if (!secretsKey) {
    if (databaseUrl) throw new ConfigError('SECRETS_KEY is required when DATABASE_URL is set (base64 of 32 random bytes)');
    secretsKey = embeddedSecretsKey(dataDir);
  }
  if (Buffer.from(secretsKey, 'base64').length !== 32) throw new ConfigError('SECRETS_KEY must be base64 of 32 bytes');
  const services = (env.SERVICES ? env.SERVICES.split(',').map((s) => s.trim()).filter(Boolean) : [...SERVICE_NAMES]) as ServiceName[];
  for (const s of services) {
    if (!SERVICE_NAMES.includes(s)) throw new ConfigError(`SERVICES: unknown service '${s}' (known: ${SERVICE_NAMES.join(', ')})`);
  }
  return {
    environment,
    host: env.HOST ?? '127.0.0.1',
    port: int(env, 'PORT', 3000),
    dataDir,
    databaseUrl,
    eventstoreUrl: env.EVENTSTORE_URL || null,
    kafkaBrokers: env.KAFKA_BROKERS ? env.KAFKA_BROKERS.split(',').map((b) => b.trim()).filter(Boolean) : null,
    kafkaTopic: env.KAFKA_TOPIC ?? `frete.events.${environment}`,
    secretsKey,
    rateLimitFiscalPerMin: int(env, 'RATE_LIMIT_FISCAL_PER_MIN', 600, 1),
    rateLimitIpPerMin: int(env, 'RATE_LIMIT_IP_PER_MIN', 3000, 1),
    readYourWritesTimeoutMs: int(env, 'READ_YOUR_WRITES_TIMEOUT_MS', 5000),
    services,
    logLevel: env.LOG_LEVEL ?? 'info',
    publicUrl: env.PUBLIC_URL ?? null,
  };
}

/** Only for the embedded default: a key made once and kept beside the data it protects. */
function embeddedSecretsKey(dataDir: string): string {
  const file = path.join(dataDir, 'secrets.key');
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  return fs.readFileSync(file, 'utf8').trim();
}
