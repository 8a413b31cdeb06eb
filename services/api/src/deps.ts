import { type Pool } from 'pg';
import { type Handlers } from '@frete/application';
import { type ServicoValePedagio } from '@frete/application';
import { type ServicoCiot } from '@frete/application';
import { type AppConfig, type Authenticator, type EventStore, type ReadYourWrites, type TokenService, type CertificateVault, type DocumentStore } from '@frete/platform';
import { type FiscalSchemas } from '@frete/documents';
import { type EmissorCte, type EmissorMdfe, type EventosCte, type ServicoContraCte } from '@frete/application';
import { type ReguladorTransporte, type DiretorioPix } from '@frete/adapters';

/** What the API needs from the platform; the composition root (tsyringe) provides it. */
export interface ApiDeps {
  /** One command handler per aggregate: the only way a route changes anything. */
  handlers: Handlers;
  config: AppConfig;
  pool: Pool;
  store: EventStore;
  readYourWrites: ReadYourWrites;
  authenticator: Authenticator;
  tokens: TokenService;
  certificates: CertificateVault;
  /** Raw XML/PDF kept byte for byte, by SHA-256. */
  documents: DocumentStore;
  /** CT-e issue through the fiscal authority (`consulta` asks it when the result is unknown). */
  emissorCte: EmissorCte;
  /** MDF-e issue and events through the fiscal authority. */
  emissorMdfe: EmissorMdfe;
  /** Fiscal events of own CT-e through the fiscal authority. */
  eventosCte: EventosCte;
  /** CIOT operations through the CIOT provider port (simulated in homologação, unavailable in production). */
  ciot: ServicoCiot;
  /** Toll pass (VPO) and operational account: supplier (FVPO) and deposits behind ports, the ledger in the event store. */
  valePedagio: ServicoValePedagio;
  /** Makes counter-CT-e from the contractor's CT-e in the inbox (single and batch rows). */
  contraCte: ServicoContraCte;
  /** XSD validation of fiscal XML (the platform's one instance). */
  schemas: FiscalSchemas;
  /** Regulator (ANTT) queries: simulated in homologação, unavailable in production. */
  regulador: ReguladorTransporte;
  /** PIX directory (DICT) lookups: simulated in homologação, unavailable in production. */
  diretorioPix: DiretorioPix;
  clock: () => Date;
  /** False until the service can answer (migrations done, subscriptions started). */
  ready: () => boolean;
}
