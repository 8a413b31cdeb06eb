import { type Pool } from 'pg';
import { type Auditoria, type Handlers } from '@frete/application';
import { type AppConfig, type DocumentStore, type ReadYourWrites } from '@frete/platform';
import { type SessoesConsole } from './sessao/store';

/**
 * What the panel needs; the composition root provides it. Like the API it changes anything only through `handlers`
 * and reads the read models through `pool`, filtered by the session's company.
 */
export interface ConsoleDeps {
  handlers: Handlers;
  config: AppConfig;
  /** The read models (schema `rm`). */
  pool: Pool;
  readYourWrites: ReadYourWrites;
  documents: DocumentStore;
  sessoes: SessoesConsole;
  /** A document's history as recorded (the audit API's reads), shown on its page. */
  auditoria: Pick<Auditoria, 'historico'>;
  clock: () => Date;
}
