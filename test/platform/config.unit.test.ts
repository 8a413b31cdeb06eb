import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig, SERVICE_NAMES } from '@frete/platform';

/** The environment as the README's "Running it" table describes it: defaults, meanings, and refusals that say what to fix. */
describe('loadConfig', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-config-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const key = randomBytes(32).toString('base64');
  const external = { DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/frete', SECRETS_KEY: key };

  const refusal = (env: Record<string, string>): string => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  it('with nothing set is the embedded default, and generates the secrets key once into DATA_DIR', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toEqual({
      environment: 'homologacao',
      host: '127.0.0.1',
      port: 3000,
      dataDir,
      databaseUrl: null,
      eventstoreUrl: null,
      kafkaBrokers: null,
      kafkaTopic: 'frete.events.homologacao',
      secretsKey: expect.any(String),
      rateLimitFiscalPerMin: 600,
      rateLimitIpPerMin: 3000,
      trustProxy: { kind: 'off' },
      readYourWritesTimeoutMs: 5000,
      processorConcurrency: { emission: 32, payout: 16 },
      services: [...SERVICE_NAMES],
      logLevel: 'info',
      publicUrl: null,
      autoridadeFiscal: { tipo: 'simulada' },
      idempotency: { ttlMs: 86_400_000, leaseMs: 300_000, inFlightWaitMs: 5000 },
      webhooks: {
        allowedHosts: [],
        timeoutMs: 5000,
        retryBaseMs: 10_000,
        retryMaxMs: 6 * 3_600_000,
        janelaMs: 3 * 24 * 3_600_000,
        concurrency: 16,
        concurrencyPerEndpoint: 2,
        pollMs: 1000,
      },
      distribuicao: { intervaloMs: 60_000 },
      metricsPort: null,
      readyMaxLagS: 30,
      tracing: { endpoint: null, serviceName: 'frete-fiscal' },
    });
    expect(Buffer.from(config.secretsKey, 'base64')).toHaveLength(32);
    expect(fs.readFileSync(path.join(dataDir, 'secrets.key'), 'utf8')).toBe(config.secretsKey);
    expect(loadConfig({ DATA_DIR: dataDir }).secretsKey).toBe(config.secretsKey);
  });

  it('an empty variable counts as unset', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      APP_ENVIRONMENT: '',
      PORT: '',
      DATABASE_URL: '',
      EVENTSTORE_URL: '',
      KAFKA_BROKERS: '',
      SECRETS_KEY: '',
      SERVICES: '',
      HOST: '',
      TRUST_PROXY: '',
    });
    expect(config).toMatchObject({
      environment: 'homologacao',
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: null,
      kafkaBrokers: null,
      services: [...SERVICE_NAMES],
      trustProxy: { kind: 'off' },
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      ...external,
      APP_ENVIRONMENT: 'producao',
      HOST: '0.0.0.0',
      PORT: '0',
      DATA_DIR: dataDir,
      EVENTSTORE_URL: 'esdb://127.0.0.1:2113?tls=false',
      KAFKA_BROKERS: 'k1:9092, k2:9092,',
      SERVICES: 'api, relay',
      RATE_LIMIT_FISCAL_PER_MIN: '3',
      RATE_LIMIT_IP_PER_MIN: '40',
      TRUST_PROXY: '10.0.0.0/8, 192.168.1.10',
      READ_YOUR_WRITES_TIMEOUT_MS: '0',
      EMISSION_CONCURRENCY: '4',
      PAYOUT_CONCURRENCY: '2',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'https://api.example.com',
      IDEMPOTENCY_TTL_S: '3600',
      IDEMPOTENCY_LEASE_S: '30',
      IDEMPOTENCY_IN_FLIGHT_WAIT_MS: '0',
      WEBHOOKS_ALLOWED_HOSTS: 'Hooks.Interno, [::1],127.0.0.1',
      WEBHOOKS_TIMEOUT_MS: '2000',
      WEBHOOKS_RETRY_BASE_MS: '5',
      WEBHOOKS_RETRY_MAX_MS: '50',
      WEBHOOKS_RETRY_WINDOW_MS: '1000',
      WEBHOOKS_CONCURRENCY: '4',
      WEBHOOKS_CONCURRENCY_PER_ENDPOINT: '1',
      WEBHOOKS_POLL_MS: '20',
      DISTRIBUICAO_INTERVALO_S: '300',
      METRICS_PORT: '9464',
      READY_MAX_LAG_S: '5',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_SERVICE_NAME: 'frete-api',
    });
    expect(config).toEqual({
      environment: 'producao',
      host: '0.0.0.0',
      port: 0,
      dataDir,
      databaseUrl: external.DATABASE_URL,
      eventstoreUrl: 'esdb://127.0.0.1:2113?tls=false',
      kafkaBrokers: ['k1:9092', 'k2:9092'],
      kafkaTopic: 'frete.events.producao',
      secretsKey: key,
      rateLimitFiscalPerMin: 3,
      rateLimitIpPerMin: 40,
      trustProxy: { kind: 'addresses', addresses: ['10.0.0.0/8', '192.168.1.10'] },
      readYourWritesTimeoutMs: 0,
      processorConcurrency: { emission: 4, payout: 2 },
      services: ['api', 'relay'],
      logLevel: 'warn',
      publicUrl: 'https://api.example.com',
      autoridadeFiscal: { tipo: 'nenhuma' },
      idempotency: { ttlMs: 3_600_000, leaseMs: 30_000, inFlightWaitMs: 0 },
      webhooks: {
        allowedHosts: ['hooks.interno', '::1', '127.0.0.1'],
        timeoutMs: 2000,
        retryBaseMs: 5,
        retryMaxMs: 50,
        janelaMs: 1000,
        concurrency: 4,
        concurrencyPerEndpoint: 1,
        pollMs: 20,
      },
      distribuicao: { intervaloMs: 300_000 },
      metricsPort: 9464,
      readyMaxLagS: 5,
      tracing: { endpoint: 'http://collector:4318', serviceName: 'frete-api' },
    });
    expect(loadConfig({ ...external, KAFKA_TOPIC: 'frete.custom' }).kafkaTopic).toBe('frete.custom');
  });

  it('refuses an OTLP endpoint that is not an http(s) URL, and a service name with blanks', () => {
    expect(refusal({ ...external, OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toContain(
      "OTEL_EXPORTER_OTLP_ENDPOINT must be a URL (http://127.0.0.1:4318), got 'collector:4318'",
    );
    expect(refusal({ ...external, OTEL_SERVICE_NAME: 'frete api' })).toContain(
      "OTEL_SERVICE_NAME must be a service name without blanks, got 'frete api'",
    );
  });

  it('refuses a webhook allow-list entry that is not a host, and a timeout out of range', () => {
    expect(refusal({ ...external, WEBHOOKS_ALLOWED_HOSTS: 'ok.host, http://x/y' })).toContain(
      "WEBHOOKS_ALLOWED_HOSTS must be a comma-separated list of host names or addresses, got 'ok.host, http://x/y' ('http://x/y' is not one)",
    );
    expect(refusal({ ...external, WEBHOOKS_TIMEOUT_MS: '10' })).toContain(
      "WEBHOOKS_TIMEOUT_MS must be an integer from 100 to 60000, got '10'",
    );
  });

  describe('TRUST_PROXY', () => {
    const trust = (value: string) => loadConfig({ ...external, TRUST_PROXY: value }).trustProxy;
    const MUST = `TRUST_PROXY must be false, a comma-separated list of the proxies' addresses or CIDRs (or loopback, linklocal, uniquelocal), or how many proxies are in front (an integer ≥ 1)`;

    it('is off unless set, and off when false', () => {
      expect(loadConfig(external).trustProxy).toEqual({ kind: 'off' });
      expect(trust('false')).toEqual({ kind: 'off' });
      expect(trust(' FALSE ')).toEqual({ kind: 'off' });
    });

    it("reads a list of the proxies' addresses, CIDRs and proxy-addr's range names", () => {
      expect(trust('127.0.0.1')).toEqual({ kind: 'addresses', addresses: ['127.0.0.1'] });
      expect(trust(' 10.0.0.0/8 ,fd00::/8, ::1,loopback, 172.16.0.0/255.240.0.0,')).toEqual({
        kind: 'addresses',
        addresses: ['10.0.0.0/8', 'fd00::/8', '::1', 'loopback', '172.16.0.0/255.240.0.0'],
      });
    });

    it('reads a whole number as the hops to trust', () => {
      expect(trust('1')).toEqual({ kind: 'hops', hops: 1 });
      expect(trust('2')).toEqual({ kind: 'hops', hops: 2 });
    });

    it('refuses true: trusting every peer is what the setting replaces', () => {
      for (const value of ['true', 'TRUE'])
        expect(refusal({ ...external, TRUST_PROXY: value })).toContain(
          "TRUST_PROXY=true is refused: any client's X-Forwarded-For would be taken as its address",
        );
    });

    it.each([
      ['0', undefined],
      ['-1', '-1'],
      ['1.5', '1.5'],
      ['yes', 'yes'],
      ['10.0.0.256', '10.0.0.256'],
      ['10.1', '10.1'],
      ['10.0.0.0/33', '10.0.0.0/33'],
      ['::1/129', '::1/129'],
      ['10.0.0.0/0', '10.0.0.0/0'],
      ['10.0.0.0/255.0.255.0', '10.0.0.0/255.0.255.0'],
      ['proxy.internal', 'proxy.internal'],
      ['127.0.0.1, 10.0.0.1/x', '10.0.0.1/x'],
      [' , ', undefined],
    ])("refuses '%s', naming the entry that is not an address", (value, entry) => {
      const message = refusal({ ...external, TRUST_PROXY: value });
      expect(message).toContain(`${MUST}, got '${value}'${entry === undefined ? '' : ` ('${entry}' is not one)`}`);
    });

    it('is named with every other bad variable at once', () => {
      expect(refusal({ ...external, PORT: 'x', TRUST_PROXY: 'true' }).split('\n')).toEqual([
        'invalid configuration:',
        "  PORT must be an integer from 0 to 65535, got 'x'",
        "  TRUST_PROXY=true is refused: any client's X-Forwarded-For would be taken as its address; name the proxies' addresses or CIDRs, or how many there are",
      ]);
    });
  });

  it('refuses an unknown environment', () => {
    expect(refusal({ ...external, APP_ENVIRONMENT: 'production' })).toContain(
      "APP_ENVIRONMENT must be homologacao or producao, got 'production'",
    );
  });

  it.each([
    ['abc', 'PORT'],
    ['3000abc', 'PORT'],
    ['0x10', 'PORT'],
    ['1e3', 'PORT'],
    ['-1', 'PORT'],
    ['65536', 'PORT'],
    ['3.5', 'PORT'],
  ])("refuses PORT '%s'", (port) => {
    expect(refusal({ ...external, PORT: port })).toContain(`PORT must be an integer from 0 to 65535, got '${port}'`);
  });

  it('refuses rate limits below 1 and a negative read-your-writes timeout', () => {
    expect(refusal({ ...external, RATE_LIMIT_FISCAL_PER_MIN: '0' })).toContain("RATE_LIMIT_FISCAL_PER_MIN must be an integer ≥ 1, got '0'");
    expect(refusal({ ...external, RATE_LIMIT_IP_PER_MIN: 'many' })).toContain("RATE_LIMIT_IP_PER_MIN must be an integer ≥ 1, got 'many'");
    expect(refusal({ ...external, READ_YOUR_WRITES_TIMEOUT_MS: '-5' })).toContain(
      "READ_YOUR_WRITES_TIMEOUT_MS must be an integer ≥ 0, got '-5'",
    );
  });

  it('refuses a METRICS_PORT out of range or equal to the API port, and a negative READY_MAX_LAG_S', () => {
    expect(refusal({ ...external, METRICS_PORT: '70000' })).toContain("METRICS_PORT must be an integer from 0 to 65535, got '70000'");
    expect(refusal({ ...external, METRICS_PORT: '3000' })).toContain('METRICS_PORT must differ from PORT (3000)');
    expect(loadConfig({ ...external, METRICS_PORT: '3000', SERVICES: 'projector' }).metricsPort).toBe(3000);
    expect(refusal({ ...external, READY_MAX_LAG_S: '-1' })).toContain("READY_MAX_LAG_S must be an integer ≥ 0, got '-1'");
  });

  it('refuses a processor concurrency below 1 or above 1024', () => {
    expect(refusal({ ...external, EMISSION_CONCURRENCY: '0' })).toContain(
      "EMISSION_CONCURRENCY must be an integer from 1 to 1024, got '0'",
    );
    expect(refusal({ ...external, PAYOUT_CONCURRENCY: '5000' })).toContain(
      "PAYOUT_CONCURRENCY must be an integer from 1 to 1024, got '5000'",
    );
  });

  it('refuses a SECRETS_KEY that is not base64 of 32 bytes, and requires one with DATABASE_URL', () => {
    const short = randomBytes(16).toString('base64');
    expect(refusal({ ...external, SECRETS_KEY: short })).toContain(
      `SECRETS_KEY must be base64 of 32 bytes (44 characters), got '${short}'`,
    );
    expect(refusal({ ...external, SECRETS_KEY: '@'.repeat(44) })).toContain('SECRETS_KEY must be base64 of 32 bytes');
    expect(refusal({ DATABASE_URL: external.DATABASE_URL })).toBe(
      'SECRETS_KEY is required when DATABASE_URL is set (base64 of 32 random bytes)',
    );
    // Without padding 43 characters still hold 32 bytes.
    expect(loadConfig({ ...external, SECRETS_KEY: key.replace(/=$/, '') }).secretsKey).toBe(key.replace(/=$/, ''));
  });

  it('refuses a broken secrets.key in DATA_DIR', () => {
    const dir = fs.mkdtempSync(path.join(dataDir, 'broken-'));
    fs.writeFileSync(path.join(dir, 'secrets.key'), 'not a key');
    expect(refusal({ DATA_DIR: dir })).toBe(`${path.join(dir, 'secrets.key')} must hold base64 of 32 bytes, as SECRETS_KEY would`);
  });

  it('refuses an unknown or empty SERVICES entry list, naming the entry', () => {
    const message = refusal({ ...external, SERVICES: 'api,emission' });
    expect(message).toContain(
      `SERVICES must be a comma-separated list of ${SERVICE_NAMES.join(', ')}, got 'api,emission' ('emission' is not one)`,
    );
    expect(refusal({ ...external, SERVICES: ' , ' })).toContain(
      `SERVICES must be a comma-separated list of ${SERVICE_NAMES.join(', ')}, got ' , '`,
    );
  });

  it('refuses malformed URLs, brokers, topic and log level', () => {
    expect(refusal({ ...external, DATABASE_URL: 'localhost:5432/frete' })).toContain(
      "DATABASE_URL must be a URL (postgres://user:password@host:5432/database), got 'localhost:5432/frete'",
    );
    expect(refusal({ ...external, EVENTSTORE_URL: 'http://127.0.0.1:2113' })).toContain(
      'EVENTSTORE_URL must be a URL (esdb://host:2113?tls=false)',
    );
    expect(refusal({ ...external, KAFKA_BROKERS: 'k1:9092,k2' })).toContain(
      "KAFKA_BROKERS must be a comma-separated list of host:port, got 'k1:9092,k2' ('k2' is not one)",
    );
    expect(refusal({ ...external, KAFKA_TOPIC: 'events of frete' })).toContain('KAFKA_TOPIC must be a Kafka topic name');
    expect(refusal({ ...external, LOG_LEVEL: 'verbose' })).toContain(
      "LOG_LEVEL must be fatal, error, warn, info, debug, trace or silent, got 'verbose'",
    );
    expect(refusal({ ...external, PUBLIC_URL: 'api.example.com' })).toContain(
      "PUBLIC_URL must be a URL (https://api.example.com), got 'api.example.com'",
    );
  });

  it('names every bad variable at once, one per line', () => {
    const message = refusal({ ...external, PORT: 'x', APP_ENVIRONMENT: 'x', SERVICES: 'x,y' });
    expect(message.split('\n')).toEqual([
      'invalid configuration:',
      "  APP_ENVIRONMENT must be homologacao or producao, got 'x'",
      "  PORT must be an integer from 0 to 65535, got 'x'",
      `  SERVICES must be a comma-separated list of ${SERVICE_NAMES.join(', ')}, got 'x,y' ('x' is not one)`,
    ]);
  });

  describe('the fiscal authority (FISCAL_AUTHORITY, SEFAZ_*)', () => {
    const ca = path.join(dataDir, 'icp-brasil.pem');
    const endpoints = path.join(dataDir, 'endpoints.json');
    const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    beforeAll(() => {
      fs.writeFileSync(ca, PEM);
      fs.writeFileSync(
        endpoints,
        JSON.stringify({
          SVSP: { CTeRecepcaoSincV4: 'https://svsp.example/CTeRecepcaoSincV4.asmx' },
          AN: { NFeDistribuicaoDFe: 'https://an.example/NFeDistribuicaoDFe.asmx' },
        }),
      );
    });

    it('is the simulated one in the sandbox and none in production by default; simulada never serves production', () => {
      expect(loadConfig({ ...external }).autoridadeFiscal).toEqual({ tipo: 'simulada' });
      expect(loadConfig({ ...external, APP_ENVIRONMENT: 'producao' }).autoridadeFiscal).toEqual({ tipo: 'nenhuma' });
      expect(refusal({ ...external, APP_ENVIRONMENT: 'producao', FISCAL_AUTHORITY: 'simulada' })).toContain('serves only the sandbox');
      expect(refusal({ ...external, FISCAL_AUTHORITY: 'real' })).toContain("FISCAL_AUTHORITY must be simulada or sefaz, got 'real'");
    });

    it('reads sefaz: trust store, endpoints file, base address, timeout and pause', () => {
      const config = loadConfig({
        ...external,
        APP_ENVIRONMENT: 'producao',
        FISCAL_AUTHORITY: 'sefaz',
        SEFAZ_CA_FILE: ca,
        SEFAZ_ENDPOINTS: endpoints,
        SEFAZ_BASE_URL: 'https://127.0.0.1:8443',
        SEFAZ_TIMEOUT_MS: '5000',
        SEFAZ_PAUSA_MS: '250',
        SEFAZ_CONEXOES: '4',
      });
      expect(config.autoridadeFiscal).toEqual({
        tipo: 'sefaz',
        endpoints: {
          SVSP: { CTeRecepcaoSincV4: 'https://svsp.example/CTeRecepcaoSincV4.asmx' },
          AN: { NFeDistribuicaoDFe: 'https://an.example/NFeDistribuicaoDFe.asmx' },
        },
        baseUrl: 'https://127.0.0.1:8443',
        caPem: PEM,
        caFile: ca,
        timeoutMs: 5000,
        pausaBaseMs: 250,
        conexoes: 4,
      });
      expect(loadConfig({ ...external, FISCAL_AUTHORITY: 'sefaz', SEFAZ_CA_FILE: ca }).autoridadeFiscal).toMatchObject({
        endpoints: null,
        baseUrl: null,
        timeoutMs: 30_000,
        pausaBaseMs: 60_000,
        conexoes: 16,
      });
      expect(refusal({ ...external, FISCAL_AUTHORITY: 'sefaz', SEFAZ_CA_FILE: ca, SEFAZ_CONEXOES: '0' })).toContain(
        "SEFAZ_CONEXOES must be an integer from 1 to 256, got '0'",
      );
    });

    it('refuses sefaz without a readable trust store, a bad endpoints file, a plain-HTTP base address or a silly timeout', () => {
      const sefaz = { ...external, FISCAL_AUTHORITY: 'sefaz' };
      expect(refusal(sefaz)).toContain('FISCAL_AUTHORITY=sefaz needs SEFAZ_CA_FILE');
      expect(refusal({ ...sefaz, SEFAZ_CA_FILE: path.join(dataDir, 'none.pem') })).toContain('SEFAZ_CA_FILE cannot be read');
      expect(refusal({ ...sefaz, SEFAZ_CA_FILE: endpoints })).toContain('SEFAZ_CA_FILE must hold PEM certificates');
      const ruim = path.join(dataDir, 'ruim.json');
      fs.writeFileSync(ruim, '{ not json');
      expect(refusal({ ...sefaz, SEFAZ_CA_FILE: ca, SEFAZ_ENDPOINTS: ruim })).toContain('SEFAZ_ENDPOINTS must be a JSON file');
      fs.writeFileSync(ruim, JSON.stringify({ SVRS: { CTeConsultaV4: 'http://plain.example/x' } }));
      expect(refusal({ ...sefaz, SEFAZ_CA_FILE: ca, SEFAZ_ENDPOINTS: ruim })).toContain('SEFAZ_ENDPOINTS must map authorizers');
      expect(refusal({ ...sefaz, SEFAZ_CA_FILE: ca, SEFAZ_BASE_URL: 'http://127.0.0.1:8443' })).toContain('SEFAZ_BASE_URL must be a URL');
      expect(refusal({ ...sefaz, SEFAZ_CA_FILE: ca, SEFAZ_TIMEOUT_MS: '10' })).toContain(
        'SEFAZ_TIMEOUT_MS must be an integer from 100 to 600000',
      );
    });
  });
});
