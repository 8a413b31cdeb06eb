import { type Sql } from './projector';
import { afterClause, decodeCursor, encodeCursor, type OrderKey } from './list-cursor';

/** Brazil keeps -03:00 all year since 2019: a day filter is that day's midnight to the next, Brasília time. */
const dayStart = (param: string) => `(${param} || 'T00:00:00-03:00')::timestamptz`;
const nextDayStart = (param: string) => `((${param}::date + 1)::text || 'T00:00:00-03:00')::timestamptz`;

/** What a list's filter asks of the page: by `cursor` when given, else by `page`. */
export interface PageRequest {
  page: number;
  per_page: number;
  cursor?: string;
}

/**
 * The WHERE clause of a company's list, built clause by clause with every value as a parameter, and the one way
 * lists are counted and paged (ruling 9).
 */
export class ListQuery {
  private readonly where: string[];
  private readonly params: unknown[];

  /** With several columns, a row is the company's when any of them names it (a batch: its owner or its requester). */
  constructor(companyColumn: string | string[], companyId: string) {
    const columns = [companyColumn].flat();
    this.where = [columns.length === 1 ? `${columns[0]} = $1` : `(${columns.map((c) => `${c} = $1`).join(' OR ')})`];
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

  /**
   * A page of a list that also offers a cursor: by `cursor` (the rows after the one it names) when given, else by
   * `page`; either way `next_cursor` names this page's last row when more rows follow, null at the end. `total`
   * counts the whole filtered list. An invalid cursor throws `CursorInvalido`.
   */
  async keysetPage<R>(
    sql: Sql,
    q: {
      list: string;
      from: string;
      /** What the count reads, when `from` joins more than the filter needs. */
      countFrom?: string;
      columns: string;
      keys: readonly OrderKey[];
    },
    f: PageRequest,
  ): Promise<{ rows: R[]; total: number; next_cursor: string | null }> {
    const after = f.cursor === undefined ? null : decodeCursor(q.list, f.cursor, q.keys);
    const filter = this.where.join(' AND ');
    const total = await sql.query(`SELECT count(*)::int AS n FROM ${q.countFrom ?? q.from} WHERE ${filter}`, this.params);
    const where = after ? `${filter} AND ${afterClause(q.keys, after, (v) => this.param(v))}` : filter;
    const limit = Math.trunc(f.per_page);
    const offset = after ? 0 : Math.trunc((f.page - 1) * f.per_page);
    const keyColumns = q.keys.map((k, i) => `(${k.expr})::text AS "__cursor_${i}"`).join(', ');
    const orderBy = q.keys.map((k) => `${k.expr} ${k.dir}`).join(', ');
    // One row more than the page says whether another page follows.
    const { rows } = await sql.query(
      `SELECT ${q.columns}, ${keyColumns} FROM ${q.from} WHERE ${where} ORDER BY ${orderBy} LIMIT ${limit + 1} OFFSET ${offset}`,
      this.params,
    );
    const more = rows.length > limit;
    const page = rows.slice(0, limit) as Record<string, unknown>[];
    const last = page[page.length - 1];
    const next_cursor =
      more && last
        ? encodeCursor(
            q.list,
            q.keys.map((_, i) => String(last[`__cursor_${i}`])),
          )
        : null;
    for (const r of page) for (let i = 0; i < q.keys.length; i++) delete r[`__cursor_${i}`];
    return { rows: page as unknown as R[], total: total.rows[0]!.n as number, next_cursor };
  }
}
