import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { type Environment } from '@frete/contracts';
import { readTrustProxy, TRUST_PROXY_DESCRIPTION, type TrustProxy } from './trust-proxy';

export const SERVICE_NAMES = [
  'api',
  'projector',
  'relay',
  'emission-processor',
  'payout-processor',
  'webhooks-processor',
  'distribuicao-processor',
] as const;
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
  /** `TRUST_PROXY`: which peers' `X-Forwarded-For` names the client (off: the socket's address is the client's). */
  trustProxy: TrustProxy;
  readYourWritesTimeoutMs: number;
  /**
   * Events each processor handles at once (`EMISSION_CONCURRENCY`, `PAYOUT_CONCURRENCY`): for the emission processor,
   * the documents in flight to the authority. Events of one key still go one at a time, in order.
   */
  processorConcurrency: { emission: number; payout: number };
  services: ServiceName[];
  logLevel: string;
  /** Public base address (without /v1), written in the OpenAPI document's servers and the token issuer. */
  publicUrl: string | null;
  /** Who authorizes CT-e and MDF-e (`FISCAL_AUTHORITY` and the `SEFAZ_*` variables). */
  autoridadeFiscal: ConfigAutoridadeFiscal;
  /** `Idempotency-Key` on POSTs: how long a key is kept, how long a running request holds it, how long a duplicate waits. */
  idempotency: { ttlMs: number; leaseMs: number; inFlightWaitMs: number };
  /** Webhook delivery (`WEBHOOKS_*`). */
  webhooks: ConfigWebhooks;
  /**
   * The national distribution's consultations (`distribuicao-processor`): `DISTRIBUICAO_INTERVALO_S`, how often its
   * schedule looks for companies whose consultation is due (the waits between consultations are the service's rules).
   */
  distribuicao: { intervaloMs: number };
  /** `METRICS_PORT`: when set, this process serves /health/live, /health/ready and /metrics on HOST:METRICS_PORT. */
  metricsPort: number | null;
  /** `READY_MAX_LAG_S`: /health/ready fails while the oldest event not yet projected is older than this. */
  readyMaxLagS: number;
  /** OpenTelemetry traces: exported by OTLP/HTTP to `endpoint` (its `/v1/traces`); off when null. */
  tracing: { endpoint: string | null; serviceName: string };
}

/**
 * Webhook delivery. A failed attempt is retried after `min(maxMs, baseMs × 2^(n-1))` scaled by a random factor in
 * [0.5, 1] (jitter), until the next try would fall beyond `janelaMs` from the delivery's start (3 days by default).
 */
export interface ConfigWebhooks {
  /** `WEBHOOKS_ALLOWED_HOSTS`: hosts reached despite the SSRF rules (plain HTTP, private addresses), lower case. */
  allowedHosts: string[];
  /** A delivery's whole request (connection, answer and its body), in ms. */
  timeoutMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  janelaMs: number;
  /** Requests in flight at once in this process, and at most per endpoint. */
  concurrency: number;
  concurrencyPerEndpoint: number;
  /** How often the dispatcher looks for due deliveries. */
  pollMs: number;
}

/**
 * `simulada`: the rules in this process (the sandbox's default, ruling 12). `sefaz`: the state authorities' web
 * services (or a local authority server) over mutual TLS. `nenhuma`: production without `FISCAL_AUTHORITY`, where
 * every fiscal call answers 503 `provedor_indisponivel` (ruling 7).
 */
export type ConfigAutoridadeFiscal =
  | { tipo: 'simulada' }
  | { tipo: 'nenhuma' }
  | {
      tipo: 'sefaz';
      /** `SEFAZ_ENDPOINTS`' content: `{ "<authorizer>": { "<Service>": "<url>" } }`. */
      endpoints: Record<string, Record<string, string>> | null;
      /** `SEFAZ_BASE_URL`: every service at `<base>/<authorizer>/<Service>`. */
      baseUrl: string | null;
      /** `SEFAZ_CA_FILE`'s PEM bundle (the servers' certificates must chain to it) and its path. */
      caPem: string;
      caFile: string;
      timeoutMs: number;
      pausaBaseMs: number;
      /** `SEFAZ_CONEXOES`: connections open at once per company certificate (its documents in flight). */
      conexoes: number;
    };

export class ConfigError extends Error {}

// `description` is what a refusal says the variable must be: "PORT must be <description>, got '…'".
const integer = (minimum: number, maximum: number | undefined, fallback: number) =>
  Type.Integer({
    minimum,
    ...(maximum === undefined ? {} : { maximum }),
    default: fallback,
    description: maximum === undefined ? `an integer ≥ ${minimum}` : `an integer from ${minimum} to ${maximum}`,
  });
const url = (schemes: string[], example: string) =>
  Type.String({ pattern: `^(${schemes.join('|')})://\\S+$`, description: `a URL (${example})` });
// 32 bytes are 43 base64 characters and one '=' of padding; Buffer would decode anything, even non-base64 text.
const BASE64_32_BYTES = '^[A-Za-z0-9+/]{43}=?$';

/** The variables the README's "Running it" table lists (plus LOG_LEVEL), with their defaults. */
const EnvSchema = Type.Object({
  APP_ENVIRONMENT: Type.Union([Type.Literal('homologacao'), Type.Literal('producao')], {
    default: 'homologacao',
    description: 'homologacao or producao',
  }),
  HOST: Type.String({ default: '127.0.0.1', description: 'a host name or address' }),
  PORT: integer(0, 65535, 3000),
  DATA_DIR: Type.Optional(Type.String({ description: 'a folder' })),
  DATABASE_URL: Type.Optional(url(['postgres', 'postgresql'], 'postgres://user:password@host:5432/database')),
  EVENTSTORE_URL: Type.Optional(url(['esdb', 'esdb\\+discover'], 'esdb://host:2113?tls=false')),
  KAFKA_BROKERS: Type.Optional(
    Type.Array(Type.String({ pattern: '^\\S+:[0-9]{1,5}$' }), {
      minItems: 1,
      description: 'a comma-separated list of host:port',
    }),
  ),
  KAFKA_TOPIC: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9._-]{1,249}$', description: 'a Kafka topic name ([A-Za-z0-9._-])' })),
  SECRETS_KEY: Type.Optional(Type.String({ pattern: BASE64_32_BYTES, description: 'base64 of 32 bytes (44 characters)' })),
  SERVICES: Type.Array(Type.Union(SERVICE_NAMES.map((s) => Type.Literal(s))), {
    minItems: 1,
    default: [...SERVICE_NAMES],
    description: `a comma-separated list of ${SERVICE_NAMES.join(', ')}`,
  }),
  RATE_LIMIT_FISCAL_PER_MIN: integer(1, undefined, 600),
  RATE_LIMIT_IP_PER_MIN: integer(1, undefined, 3000),
  // Its three forms, and the refusal of `true`, are readTrustProxy's: it names the entry that is not an address.
  TRUST_PROXY: Type.Optional(Type.String({ description: TRUST_PROXY_DESCRIPTION })),
  READ_YOUR_WRITES_TIMEOUT_MS: integer(0, undefined, 5000),
  EMISSION_CONCURRENCY: integer(1, 1024, 32),
  PAYOUT_CONCURRENCY: integer(1, 1024, 16),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    {
      default: 'info',
      description: 'fatal, error, warn, info, debug, trace or silent',
    },
  ),
  PUBLIC_URL: Type.Optional(url(['http', 'https'], 'https://api.example.com')),
  FISCAL_AUTHORITY: Type.Optional(Type.Union([Type.Literal('simulada'), Type.Literal('sefaz')], { description: 'simulada or sefaz' })),
  SEFAZ_ENDPOINTS: Type.Optional(Type.String({ description: 'the path of a JSON file { "<authorizer>": { "<Service>": "<url>" } }' })),
  SEFAZ_BASE_URL: Type.Optional(url(['https'], 'https://127.0.0.1:8443')),
  SEFAZ_CA_FILE: Type.Optional(Type.String({ description: "the path of a PEM bundle of the authorities' CAs (ICP-Brasil)" })),
  SEFAZ_TIMEOUT_MS: integer(100, 600_000, 30_000),
  SEFAZ_PAUSA_MS: integer(1, undefined, 60_000),
  SEFAZ_CONEXOES: integer(1, 256, 16),
  IDEMPOTENCY_TTL_S: integer(1, undefined, 86_400),
  IDEMPOTENCY_LEASE_S: integer(1, undefined, 300),
  IDEMPOTENCY_IN_FLIGHT_WAIT_MS: integer(0, 60_000, 5000),
  WEBHOOKS_ALLOWED_HOSTS: Type.Optional(
    Type.Array(Type.String({ pattern: '^[A-Za-z0-9.:\\[\\]-]+$' }), { description: 'a comma-separated list of host names or addresses' }),
  ),
  WEBHOOKS_TIMEOUT_MS: integer(100, 60_000, 5_000),
  WEBHOOKS_RETRY_BASE_MS: integer(1, undefined, 10_000),
  WEBHOOKS_RETRY_MAX_MS: integer(1, undefined, 6 * 3_600_000),
  WEBHOOKS_RETRY_WINDOW_MS: integer(1, undefined, 3 * 24 * 3_600_000),
  WEBHOOKS_CONCURRENCY: integer(1, 1024, 16),
  WEBHOOKS_CONCURRENCY_PER_ENDPOINT: integer(1, 64, 2),
  WEBHOOKS_POLL_MS: integer(10, 60_000, 1_000),
  DISTRIBUICAO_INTERVALO_S: integer(1, 86_400, 60),
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535, description: 'an integer from 0 to 65535' })),
  READY_MAX_LAG_S: integer(0, undefined, 30),
  // The standard OpenTelemetry variables; tracing is off (the API's no-op) without an endpoint.
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(url(['http', 'https'], 'http://127.0.0.1:4318')),
  OTEL_SERVICE_NAME: Type.String({ default: 'frete-fiscal', pattern: '^\\S+$', description: 'a service name without blanks' }),
});
type Env = Static<typeof EnvSchema>;
type EnvName = keyof Env & string;

const LISTS: ReadonlySet<string> = new Set<EnvName>(['SERVICES', 'KAFKA_BROKERS', 'WEBHOOKS_ALLOWED_HOSTS']);

/**
 * Turns the environment's strings into the schema's shapes. An empty variable counts as unset (the usual
 * `VAR= command` to switch one off). Integers are converted only when they are written as one, so that `0x10`,
 * `1e3` or `3000abc` are refused rather than read as something else.
 */
function rawValues(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(EnvSchema.properties) as [string, TSchema][]) {
    const text = env[name];
    if (text === undefined || text === '') continue;
    if (LISTS.has(name))
      raw[name] = text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (schema.type === 'integer' && /^\d+$/.test(text.trim())) raw[name] = Number(text.trim());
    else raw[name] = text;
  }
  return raw;
}

/** One line per variable: its name, what it must be, and what it was. */
function describeErrors(env: NodeJS.ProcessEnv, value: unknown): string[] {
  const lines = new Map<string, string>();
  for (const error of Value.Errors(EnvSchema, value)) {
    const [name, index] = error.path.split('/').slice(1);
    if (!name || lines.has(name)) continue;
    const schema = (EnvSchema.properties as Record<string, TSchema>)[name];
    const expected = schema?.description ?? error.message;
    const entry = index === undefined ? '' : ` ('${String(error.value)}' is not one)`;
    lines.set(name, `${name} must be ${expected}, got '${env[name] ?? ''}'${entry}`);
  }
  return [...lines.values()];
}

/** DATA_DIR when it is not set: `.data/<environment>` in the working directory. */
export function defaultDataDir(environment: Environment): string {
  return path.resolve(process.cwd(), '.data', environment);
}

/**
 * Reads the configuration from the environment. With nothing set it is the embedded default: sandbox, embedded
 * PostgreSQL under DATA_DIR, every service in one process, and a secrets key generated once into DATA_DIR.
 * Every bad variable is named at once, with what it must be.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const value = Value.Default(EnvSchema, rawValues(env));
  const trustProxy = readTrustProxy(env.TRUST_PROXY);
  const valid = Value.Check(EnvSchema, value);
  if (!valid || 'refusal' in trustProxy) {
    const lines = [...(valid ? [] : describeErrors(env, value)), ...('refusal' in trustProxy ? [trustProxy.refusal] : [])];
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e: Env = value;
  const environment: Environment = e.APP_ENVIRONMENT;
  const dataDir = path.resolve(e.DATA_DIR ?? defaultDataDir(environment));
  const databaseUrl = e.DATABASE_URL ?? null;
  let secretsKey = e.SECRETS_KEY;
  if (!secretsKey) {
    // With a database of its own a deployment keeps its key outside it; a generated one would be lost with the host.
    if (databaseUrl) throw new ConfigError('SECRETS_KEY is required when DATABASE_URL is set (base64 of 32 random bytes)');
    secretsKey = embeddedSecretsKey(dataDir);
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT && e.SERVICES.includes('api'))
    throw new ConfigError(`METRICS_PORT must differ from PORT (${e.PORT}): the API already serves /health and /metrics on it`);
  return {
    environment,
    host: e.HOST,
    port: e.PORT,
    dataDir,
    databaseUrl,
    eventstoreUrl: e.EVENTSTORE_URL ?? null,
    kafkaBrokers: e.KAFKA_BROKERS ?? null,
    kafkaTopic: e.KAFKA_TOPIC ?? `frete.events.${environment}`,
    secretsKey,
    rateLimitFiscalPerMin: e.RATE_LIMIT_FISCAL_PER_MIN,
    rateLimitIpPerMin: e.RATE_LIMIT_IP_PER_MIN,
    trustProxy,
    readYourWritesTimeoutMs: e.READ_YOUR_WRITES_TIMEOUT_MS,
    processorConcurrency: { emission: e.EMISSION_CONCURRENCY, payout: e.PAYOUT_CONCURRENCY },
    services: e.SERVICES,
    logLevel: e.LOG_LEVEL,
    publicUrl: e.PUBLIC_URL ?? null,
    autoridadeFiscal: autoridadeFiscal(e, environment),
    idempotency: {
      ttlMs: e.IDEMPOTENCY_TTL_S * 1000,
      leaseMs: e.IDEMPOTENCY_LEASE_S * 1000,
      inFlightWaitMs: e.IDEMPOTENCY_IN_FLIGHT_WAIT_MS,
    },
    webhooks: {
      allowedHosts: (e.WEBHOOKS_ALLOWED_HOSTS ?? []).map((h) => h.toLowerCase().replace(/^\[(.*)\]$/, '$1')),
      timeoutMs: e.WEBHOOKS_TIMEOUT_MS,
      retryBaseMs: e.WEBHOOKS_RETRY_BASE_MS,
      retryMaxMs: Math.max(e.WEBHOOKS_RETRY_MAX_MS, e.WEBHOOKS_RETRY_BASE_MS),
      janelaMs: e.WEBHOOKS_RETRY_WINDOW_MS,
      concurrency: e.WEBHOOKS_CONCURRENCY,
      concurrencyPerEndpoint: e.WEBHOOKS_CONCURRENCY_PER_ENDPOINT,
      pollMs: e.WEBHOOKS_POLL_MS,
    },
    distribuicao: { intervaloMs: e.DISTRIBUICAO_INTERVALO_S * 1000 },
    metricsPort: e.METRICS_PORT ?? null,
    readyMaxLagS: e.READY_MAX_LAG_S,
    tracing: { endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT ?? null, serviceName: e.OTEL_SERVICE_NAME },
  };
}

const SEFAZ_ENDPOINTS_SCHEMA = Type.Record(
  Type.String({ pattern: '^[A-Z-]{2,8}$' }),
  Type.Record(Type.String({ pattern: '^(CTe|MDFe|NFe)[A-Za-z0-9]+$' }), Type.String({ pattern: '^https://\\S+$' })),
);

function autoridadeFiscal(e: Env, environment: Environment): ConfigAutoridadeFiscal {
  const tipo = e.FISCAL_AUTHORITY ?? (environment === 'homologacao' ? 'simulada' : null);
  if (tipo === null) return { tipo: 'nenhuma' };
  if (tipo === 'simulada') {
    if (environment === 'producao')
      throw new ConfigError('FISCAL_AUTHORITY=simulada serves only the sandbox (APP_ENVIRONMENT=homologacao)');
    return { tipo };
  }
  if (!e.SEFAZ_CA_FILE)
    throw new ConfigError("FISCAL_AUTHORITY=sefaz needs SEFAZ_CA_FILE (the PEM bundle the authorities' server certificates chain to)");
  const caPem = lerArquivo('SEFAZ_CA_FILE', e.SEFAZ_CA_FILE);
  if (!caPem.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(`SEFAZ_CA_FILE must hold PEM certificates: ${e.SEFAZ_CA_FILE}`);
  let endpoints: Record<string, Record<string, string>> | null = null;
  if (e.SEFAZ_ENDPOINTS) {
    let json: unknown;
    try {
      json = JSON.parse(lerArquivo('SEFAZ_ENDPOINTS', e.SEFAZ_ENDPOINTS));
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      throw new ConfigError(`SEFAZ_ENDPOINTS must be a JSON file: ${e.SEFAZ_ENDPOINTS}: ${(error as Error).message}`);
    }
    if (!Value.Check(SEFAZ_ENDPOINTS_SCHEMA, json))
      throw new ConfigError(`SEFAZ_ENDPOINTS must map authorizers to { "<Service>": "https://…" }: ${e.SEFAZ_ENDPOINTS}`);
    endpoints = json;
  }
  return {
    tipo,
    endpoints,
    baseUrl: e.SEFAZ_BASE_URL ?? null,
    caPem,
    caFile: path.resolve(e.SEFAZ_CA_FILE),
    timeoutMs: e.SEFAZ_TIMEOUT_MS,
    pausaBaseMs: e.SEFAZ_PAUSA_MS,
    conexoes: e.SEFAZ_CONEXOES,
  };
}

function lerArquivo(nome: string, arquivo: string): string {
  try {
    return fs.readFileSync(arquivo, 'utf8');
  } catch (error) {
    throw new ConfigError(`${nome} cannot be read: ${arquivo}: ${(error as Error).message}`);
  }
}

/** Only for the embedded default: a key made once and kept beside the data it protects. */
function embeddedSecretsKey(dataDir: string): string {
  const file = path.join(dataDir, 'secrets.key');
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  const key = fs.readFileSync(file, 'utf8').trim();
  if (!new RegExp(BASE64_32_BYTES).test(key)) throw new ConfigError(`${file} must hold base64 of 32 bytes, as SECRETS_KEY would`);
  return key;
}
