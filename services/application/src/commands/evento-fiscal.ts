import { type Pool } from 'pg';
import { type Environment } from '@frete/contracts';
import { type CertificateVault, type DocumentStore, type EventStore, type ReadYourWrites } from '@frete/platform';
import { type FiscalSchemas } from '@frete/documents';
import { type AutoridadeFiscal } from '@frete/adapters';
import { type CommandContext } from './execute';

/** What a fiscal event a company signs and sends needs: its log, read models, archive, authority, A1 and schemas. */
export interface EventoFiscalDeps {
  store: EventStore;
  pool: Pool;
  documents: DocumentStore;
  autoridade: AutoridadeFiscal;
  certificates: CertificateVault;
  schemas: FiscalSchemas;
  environment: Environment;
  readYourWrites?: ReadYourWrites;
  clock: () => Date;
}

/** Who asks for a fiscal event: the API request and its credential. */
export type Solicitante = Pick<CommandContext, 'correlationId' | 'requestId' | 'actor'>;

/** Recorded as the caller's act: its request, its credential as actor. */
export const contextoDoSolicitante = (companyId: string, quem: Solicitante, now: Date): CommandContext => ({
  companyId,
  correlationId: quem.correlationId,
  causationId: null,
  requestId: quem.requestId,
  actor: quem.actor,
  now,
});

/** The authority's registration time (`dhRegEvento`, with its offset) in UTC; one that is not a time is kept as written. */
export const instante = (dh: string): string => {
  const d = new Date(dh);
  return Number.isNaN(d.getTime()) ? dh : d.toISOString();
};
