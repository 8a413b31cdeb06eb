import { type Pool } from 'pg';
import { type Auditoria, type EmissorCte, type Handlers, type ServicoCiot, type StatusDaAutoridade } from '@frete/application';
import {
  type AppConfig,
  type Authenticator,
  type DocumentStore,
  type IdempotencyStore,
  type Readiness,
  type Metrics,
  type ReadYourWrites,
  type TokenService,
} from '@frete/platform';
import { type FiscalSchemas } from '@frete/documents';
import { type DiretorioPix, type ReguladorTransporte } from '@frete/adapters';

/**
 * What the API needs; the composition root (`@frete/server`) provides it. There is no event store here: a route changes
 * anything only through `handlers`, and reads the read models through `pool`.
 */
export interface ApiDeps {
  /** One command handler per aggregate: the only way a route changes anything. */
  handlers: Handlers;
  config: AppConfig;
  /** The read models (schema `rm`), for GETs. */
  pool: Pool;
  readYourWrites: ReadYourWrites;
  authenticator: Authenticator;
  tokens: TokenService;
  /** Raw XML/PDF kept byte for byte, by SHA-256. */
  documents: DocumentStore;
  /** Stored answers of POSTs sent with an `Idempotency-Key` (plugin `idempotency`). */
  idempotency: IdempotencyStore;
  /** Whether the fiscal authority can be reached at all (production without a contracted provider cannot). */
  emissorCte: Pick<EmissorCte, 'disponivel'>;
  /** The service status of the company's authorizers, cached (never blocks on a slow authority). */
  statusAutoridade: Pick<StatusDaAutoridade, 'daEmpresa'>;
  /** Whether the CIOT provider can be reached at all (production without a contracted provider cannot). */
  ciot: Pick<ServicoCiot, 'disponivel'>;
  /** XSD validation of fiscal XML (the platform's one instance). */
  schemas: FiscalSchemas;
  /** Regulator (ANTT) queries: simulated in homologação, unavailable in production. */
  regulador: ReguladorTransporte;
  /** PIX directory (DICT) lookups: simulated in homologação, unavailable in production. */
  diretorioPix: DiretorioPix;
  /** Auditors' reads of the event history (as recorded) and of its hash chain. */
  auditoria: Auditoria;
  clock: () => Date;
  /** This process's Prometheus metrics: the HTTP hooks count into it, `GET /metrics` renders it. */
  metrics: Metrics;
  /** False until the service can answer (migrations done, subscriptions started). */
  ready: () => boolean;
  /** /health/ready's checks: started, database, projection lag (READY_MAX_LAG_S). */
  readiness: () => Promise<Readiness>;
}
