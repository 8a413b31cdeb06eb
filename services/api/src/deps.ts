import { type Pool } from 'pg';
import { type AppConfig, type Authenticator, type EventStore, type ReadYourWrites, type TokenService, type CertificateVault, type DocumentStore, type FiscalSchemas, type EmissorCte, type EmissorMdfe, type EventosCte } from '@frete/platform';

/** What the API needs from the platform; the composition root (tsyringe) provides it. */
export interface ApiDeps {
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
  /** XSD validation of fiscal XML (the platform's one instance). */
  schemas: FiscalSchemas;
  clock: () => Date;
  /** False until the service can answer (migrations done, subscriptions started). */
  ready: () => boolean;
}
