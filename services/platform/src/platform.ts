import 'reflect-metadata';
import { type Pool } from 'pg';
import { ContraCteServico } from './contra-cte/servico';
import { READ_MODEL_PROJECTORS } from '@frete/projections';
import { type AppConfig } from './config/config';
import { createPool } from './db/pool';
import { migrate, platformMigrations } from './db/migrate';
import { type EmbeddedPostgres, startEmbeddedPostgres } from './db/embedded';
import { type EventStore } from './event-store/port';
import { PostgresEventStore } from './event-store/postgres';
import { EventStoreDbEventStore } from './event-store/eventstoredb';
import { ProjectionRunner } from './projections/runner';
import { ReadYourWrites } from './read-your-writes';
import { TokenService } from './auth/tokens';
import { Authenticator } from './auth/authenticator';
import { SecretCipher } from './secrets/cipher';
import { SecureBlobs } from './secrets/blobs';
import { CertificateVault } from './certificates/vault';
import { DocumentStore } from './documents/store';
import { Operator } from './operator/operator';
import { FiscalSchemas } from './fiscal-xml/schema';
import { type AutoridadeFiscal } from './autoridade/port';
import { AutoridadeFiscalSimulada } from './autoridade/simulada';
import { AutoridadeFiscalIndisponivel } from './autoridade/indisponivel';
import { EmissorCte } from './emissao-cte/emissor';
import { montarXmlDaEmissao } from './emissao-cte/montar-xml';
import { EmissorMdfe } from './emissao-mdfe/emissor';
import { assinarMdfe, montarXmlDaEmissaoMdfe } from './emissao-mdfe/montar-xml';
import { EventosCte } from './eventos-cte/eventos';
import { ServicoCiot } from './ciot/servico';
import { provedorCiotDoAmbiente } from './ciot/ambiente';
import { ValePedagioServico } from './vale-pedagio/servico';
import { DepositosSimulados, ProvedorValePedagioSimulado } from './vale-pedagio/simulado';
import { DepositosIndisponiveis, ProvedorValePedagioIndisponivel } from './vale-pedagio/indisponivel';
import { type ReguladorTransporte, reguladorDoAmbiente } from './regulador';
import { type DiretorioPix, diretorioPixDoAmbiente } from './dict';

/** Everything the services share, built once per process from the configuration. */
export interface Platform {
  config: AppConfig;
  pool: Pool;
  store: EventStore;
  projections: ProjectionRunner;
  readYourWrites: ReadYourWrites;
  tokens: TokenService;
  authenticator: Authenticator;
  certificates: CertificateVault;
  documents: DocumentStore;
  operator: Operator;
  /** The official XSDs, compiled once per process (one validation worker). */
  schemas: FiscalSchemas;
  /** The fiscal authority: simulated in homologação (ruling 12), unavailable in production until a provider is contracted (ruling 7). */
  autoridade: AutoridadeFiscal;
  /** Issues CT-e through the authority (the emission processor and `consulta` use it). */
  emissorCte: EmissorCte;
  /** Issues MDF-e and registers their events through the authority. */
  emissorMdfe: EmissorMdfe;
  /** Fiscal events of own CT-e (cancellation, correction letter, delivery proof and its cancellation). */
  eventosCte: EventosCte;
  /** CIOT operations through the CIOT provider port: simulated in homologação, unavailable in production (ruling 7). */
  ciot: ServicoCiot;
  /** Toll pass (VPO) and operational account: a simulated supplier and deposits in homologação, unavailable in production (ruling 7). */
  valePedagio: ValePedagioServico;
  /** Makes counter-CT-e (single and batch rows) from the contractor's CT-e in the inbox. */
  contraCte: ContraCteServico;
  /** The road-transport regulator (ANTT): simulated in homologação, unavailable in production (ruling 7). */
  regulador: ReguladorTransporte;
  /** The PIX directory (DICT): simulated in homologação, unavailable in production (ruling 7). */
  diretorioPix: DiretorioPix;
  clock: () => Date;
  embedded: EmbeddedPostgres | null;
  /** Stops what uses the database, then the pool, then embedded PostgreSQL; `report` hears each step done. */
  close(report?: (step: string) => void): Promise<void>;
}

export interface PlatformOptions {
  clock?: () => Date;
  /** Tests hand in a database of their own. */
  pool?: Pool;
}

export async function startPlatform(config: AppConfig, options: PlatformOptions = {}): Promise<Platform> {
  let embedded: EmbeddedPostgres | null = null;
  let pool = options.pool;
  if (!pool) {
    let url = config.databaseUrl;
    if (!url) {
      embedded = await startEmbeddedPostgres(config.dataDir);
      url = embedded.connectionString();
    }
    pool = createPool(url, 20);
  }
  await migrate(pool, platformMigrations);
  const store: EventStore = config.eventstoreUrl ? EventStoreDbEventStore.connect(config.eventstoreUrl) : new PostgresEventStore(pool);
  const projections = new ProjectionRunner(store, pool, READ_MODEL_PROJECTORS);
  await projections.prepare();
  const clock = options.clock ?? (() => new Date());
  const cipher = new SecretCipher(config.secretsKey);
  const tokens = new TokenService(pool, cipher, config.environment, config.publicUrl ?? 'frete-fiscal');
  await tokens.ensureKey();
  const ownPool = !options.pool;
  const schemas = new FiscalSchemas();
  const p = pool;
  const autoridade: AutoridadeFiscal = config.environment === 'homologacao'
    ? new AutoridadeFiscalSimulada({ pool, clock, schemas })
    : new AutoridadeFiscalIndisponivel();
  const certificates = new CertificateVault(new SecureBlobs(pool, cipher));
  const documents = new DocumentStore(pool);
  const readYourWrites = new ReadYourWrites(pool, config.readYourWritesTimeoutMs);
  const emissorCte = new EmissorCte({
    store, pool, documents, autoridade, readYourWrites, clock,
    montarXml: montarXmlDaEmissao({ pool, environment: config.environment, certificates, schemas, clock, random: Math.random }),
  });
  const eventosCte = new EventosCte({ store, pool, documents, autoridade, certificates, schemas, environment: config.environment, readYourWrites, clock });
  const mdfeDeps = { pool, environment: config.environment, certificates, schemas, clock, random: Math.random };
  const emissorMdfe = new EmissorMdfe({
    store, pool, documents, autoridade, readYourWrites, clock, environment: config.environment,
    montarXml: montarXmlDaEmissaoMdfe(mdfeDeps),
    assinarEvento: (companyId, xml) => assinarMdfe(mdfeDeps)(companyId, xml, 'eventoMDFe/infEvento', 'eventoMDFe_v3.00.xsd'),
  });
  return {
    config,
    pool,
    store,
    projections,
    readYourWrites,
    tokens,
    authenticator: new Authenticator(pool, tokens, config.environment),
    certificates,
    documents,
    operator: new Operator(store, pool, projections, config.environment, clock),
    schemas,
    autoridade,
    emissorCte,
    emissorMdfe,
    eventosCte,
    ciot: new ServicoCiot({ store, readYourWrites, clock, environment: config.environment, provedor: provedorCiotDoAmbiente(config.environment, { clock }) }),
    valePedagio: new ValePedagioServico(config.environment === 'homologacao'
      ? { store, readYourWrites, provedor: new ProvedorValePedagioSimulado(), depositos: new DepositosSimulados() }
      : { store, readYourWrites, provedor: new ProvedorValePedagioIndisponivel(), depositos: new DepositosIndisponiveis() }),
    contraCte: new ContraCteServico({ store, pool, readYourWrites, environment: config.environment, clock }),
    regulador: reguladorDoAmbiente(config.environment),
    diretorioPix: diretorioPixDoAmbiente(config.environment),
    clock,
    embedded,
    close: async (report = () => undefined) => {
      await projections.stop();
      report('projections');
      await schemas.close();
      report('schema validator');
      await store.close();
      report('event store');
      if (ownPool) {
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
