import { type Pool } from 'pg';
import { READ_MODEL_PROJECTORS } from '@frete/projections';
import { type AppConfig } from './config/config';
import { createPool } from './db/pool';
import { migrate, platformMigrations } from './db/migrate';
import { type EmbeddedPostgres, startEmbeddedPostgres } from './db/embedded';
import { type EventStore } from './event-store/port';
import { PostgresEventStore } from './event-store/postgres';
import { EventStoreDbEventStore } from './event-store/eventstoredb';
import { UpcastingEventStore } from './event-store/upcasting';
import { TracedEventStore } from './observability/traced-event-store';
import { ProjectionRunner } from './projections/runner';
import { ReadYourWrites, WATERMARK_CHANNEL } from './read-your-writes';
import { CHECKPOINT_CHANNEL, type CheckpointAdvance } from './projections/checkpoint-advance';
import { ReadModelCache, type ReadModelCacheOptions } from './projections/read-model-cache';
import { NotificationListener } from './db/notification-listener';
import { TokenService } from './auth/tokens';
import { Authenticator } from './auth/authenticator';
import { SecretCipher } from './secrets/cipher';
import { SecureBlobs } from './secrets/blobs';
import { CertificateVault } from './certificates/vault';
import { DocumentStore } from './documents/store';
import { IdempotencyStore } from './idempotency/store';
import { Metrics } from './observability/metrics';
import { MeasuredEventStore } from './observability/measured-event-store';

/** The infrastructure every service of this process runs on, built once from the configuration. */
export interface Platform {
  config: AppConfig;
  pool: Pool;
  /** The API's reads: a pool of their own (the same as `pool` when a test hands one in). */
  readPool: Pool;
  /** Events in their current version (upcast on read); `store.recorded` holds them as recorded. */
  store: UpcastingEventStore;
  projections: ProjectionRunner;
  readYourWrites: ReadYourWrites;
  /** This process's LISTEN connection (read-model checkpoints, write watermarks). */
  notifications: NotificationListener;
  tokens: TokenService;
  authenticator: Authenticator;
  certificates: CertificateVault;
  /** Raw XML/PDF kept byte for byte, by SHA-256. */
  documents: DocumentStore;
  /** The answers of POSTs sent with an `Idempotency-Key`, for their retries. */
  idempotency: IdempotencyStore;
  /** Seals secrets at rest with SECRETS_KEY (webhook signing secrets use it directly). */
  cipher: SecretCipher;
  clock: () => Date;
  embedded: EmbeddedPostgres | null;
  /** This process's Prometheus metrics (a registry of its own), served at `/metrics`. */
  metrics: Metrics;
  /** A cache of read-model rows kept current as the credentials' is (see `ReadModelCache`). */
  readModelCache<T extends object>(options: ReadModelCacheOptions): ReadModelCache<T>;
  /** Stops what uses the database, then the pool, then embedded PostgreSQL; `report` hears each step done. */
  close(report?: (step: string) => void): Promise<void>;
}

export interface PlatformOptions {
  clock?: () => Date;
  /** Tests hand in a database of their own. */
  pool?: Pool;
}

/**
 * Connections of the API's reads (read models, credentials), apart from the pool the processors and the projector
 * use: a running batch keeps every connection of that one busy with a queue behind it, and a GET must not wait in it.
 */
const READ_POOL_SIZE = 10;

export async function startPlatform(config: AppConfig, options: PlatformOptions = {}): Promise<Platform> {
  let embedded: EmbeddedPostgres | null = null;
  let pool = options.pool;
  let readPool = options.pool;
  if (!pool) {
    let url = config.databaseUrl;
    if (!url) {
      embedded = await startEmbeddedPostgres(config.dataDir);
      url = embedded.connectionString();
    }
    pool = createPool(url, 20);
    readPool = createPool(url, READ_POOL_SIZE);
  }
  await migrate(pool, platformMigrations);
  const recorded: EventStore = config.eventstoreUrl ? EventStoreDbEventStore.connect(config.eventstoreUrl) : new PostgresEventStore(pool);
  const metrics = new Metrics();
  const store = new UpcastingEventStore(new MeasuredEventStore(new TracedEventStore(recorded), metrics));
  const projections = new ProjectionRunner(store, pool, READ_MODEL_PROJECTORS);
  metrics.watchProjections(projections);
  await projections.prepare();
  const clock = options.clock ?? (() => new Date());
  const cipher = new SecretCipher(config.secretsKey);
  const tokens = new TokenService(pool, cipher, config.environment, config.publicUrl ?? 'frete-fiscal');
  await tokens.ensureKey();
  const ownPool = !options.pool;
  const p = pool;
  // What reads keep in memory from the read models (watermarks, checkpoint, credentials) is kept current by this
  // process's runner at once and by every other process's through PostgreSQL notifications.
  const readYourWrites = new ReadYourWrites(pool, config.readYourWritesTimeoutMs);
  const authenticator = new Authenticator(readPool!, tokens, config.environment);
  const listener = new NotificationListener(pool, [CHECKPOINT_CHANNEL, WATERMARK_CHANNEL]);
  const followed = (cache: { checkpointAdvanced(advance: CheckpointAdvance): void; follow(l: NotificationListener): void }) => {
    projections.onApplied((advance) => cache.checkpointAdvanced(advance));
    cache.follow(listener);
  };
  followed(readYourWrites);
  followed(authenticator.credentials);
  await listener.start();
  return {
    config,
    pool,
    readPool: readPool!,
    store,
    projections,
    readYourWrites,
    notifications: listener,
    tokens,
    authenticator,
    certificates: new CertificateVault(new SecureBlobs(pool, cipher)),
    documents: new DocumentStore(pool),
    idempotency: new IdempotencyStore(pool, { ttlMs: config.idempotency.ttlMs, leaseMs: config.idempotency.leaseMs, clock, cipher }),
    cipher,
    clock,
    embedded,
    metrics,
    readModelCache: <T extends object>(options: ReadModelCacheOptions) => {
      const cache = new ReadModelCache<T>(options);
      followed(cache);
      return cache;
    },
    close: async (report = () => undefined) => {
      await projections.stop();
      report('projections');
      await listener.close();
      await store.close();
      report('event store');
      if (ownPool) {
        await readPool!.end();
        await p.end();
        report('database pool');
      }
      // Last: everything above may still be using it.
      if (embedded) {
        await embedded.stop();
        report('embedded PostgreSQL');
      }
    },
  };
}
