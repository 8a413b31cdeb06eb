import { type Sql } from './projector';

/** The one row a query by key finds, or null: what every `…Of` lookup answers (another company's row is not found). */
export async function umaLinha<R>(sql: Sql, text: string, params: unknown[]): Promise<R | null> {
  const { rows } = await sql.query(text, params);
  return (rows[0] as unknown as R | undefined) ?? null;
}
