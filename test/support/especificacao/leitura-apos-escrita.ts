import { type Pool } from 'pg';
import { type Position } from '@frete/contracts';
import { ReadYourWrites } from '@frete/platform';

/**
 * The read-your-writes of a specification: its read ports answer from the log itself, so no read waits; the
 * watermarks a handler records (for the caller, or for the other party of a write) are kept for the checks.
 */
export class SemEspera extends ReadYourWrites {
  readonly gravadas: { companyId: string; position: Position }[] = [];

  constructor() {
    // No database behind it: every method that would reach one is overridden.
    super(null as unknown as Pool);
  }

  override waitFor(): Promise<boolean> {
    return Promise.resolve(true);
  }

  override recordWrite(companyId: string, position: Position): Promise<void> {
    this.gravadas.push({ companyId, position });
    return Promise.resolve();
  }
}
