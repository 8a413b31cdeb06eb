import { createHash } from 'node:crypto';
import { Client, type QueryConfig } from 'pg';

/** Statements one connection keeps prepared, at most: past it, new texts run unprepared (the server's memory is bounded). */
const PREPARED_PER_CONNECTION = 500;

/**
 * A client that prepares each parameterised statement once per connection (a named statement, named by its text's
 * hash) instead of having the server parse and plan it at every call: the service runs a few hundred distinct
 * statements over and over. Statements without parameters (migrations, DDL, several statements in one text) run as
 * given.
 */
export class PreparedClient extends Client {
  private readonly prepared = new Set<string>();

  override query(...args: unknown[]): never {
    const [config, values] = args;
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
      const name = `s${createHash('sha1').update(config).digest('base64url')}`;
      if (this.prepared.has(name) || this.prepared.size < PREPARED_PER_CONNECTION) {
        this.prepared.add(name);
        const named: QueryConfig = { name, text: config, values };
        return (super.query as (...a: unknown[]) => never)(named, ...args.slice(2));
      }
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}
