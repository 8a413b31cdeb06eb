import { type Sql } from './projector';

/** Brazil keeps -03:00 all year since 2019: a day filter is that day's midnight to the next, Brasília time. */
const dayStart = (param: string) => `(${param} || 'T00:00:00-03:00')::timestamptz`;
const nextDayStart = (param: string) => `((${param}::date + 1)::text || 'T00:00:00-03:00')::timestamptz`;

/**
 * The WHERE clause of a company's list, built clause by clause with every value as a parameter, and the one way
 * lists are counted and paged (ruling 9).
 */
export class ListQuery {
  private readonly where: string[];
  private readonly params: unknown[];

  constructor(companyColumn: string, companyId: string) {
    this.where = [`${companyColumn} = $1`];
    this.params = [companyId];
  }

  /** Adds a value as a parameter and returns its placeholder. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  and(clause: string): this {
    this.where.push(clause);
    return this;
  }

  /** `column` on or after the day (YYYY-MM-DD), and on or before the other, when given. */
  days(column: string, from?: string, to?: string): this {
    if (from) this.and(`${column} >= ${dayStart(this.param(from))}`);
    if (to) this.and(`${column} < ${nextDayStart(this.param(to))}`);
    return this;
  }

  async page<R>(
    sql: Sql,
    q: { from: string; columns: string; orderBy: string; page: number; per_page: number },
  ): Promise<{ rows: R[]; total: number }> {
    const filter = this.where.join(' AND ');
    const total = await sql.query(`SELECT count(*)::int AS n FROM ${q.from} WHERE ${filter}`, this.params);
    const limit = Math.trunc(q.per_page);
    const offset = Math.trunc((q.page - 1) * q.per_page);
    const { rows } = await sql.query(
      `SELECT ${q.columns} FROM ${q.from} WHERE ${filter} ORDER BY ${q.orderBy} LIMIT ${limit} OFFSET ${offset}`,
      this.params,
    );
    return { rows: rows as unknown as R[], total: total.rows[0]!.n as number };
  }
}
