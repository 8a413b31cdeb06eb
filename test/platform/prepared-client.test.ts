import { createPool } from '@frete/platform';

describe('the pool prepares parameterised statements once per connection', () => {
  const pool = createPool(process.env.TEST_DATABASE_URL!, 1);
  afterAll(() => pool.end());

  it('a statement with parameters is prepared once and reused; one without runs as given', async () => {
    for (let i = 0; i < 3; i++) expect((await pool.query('SELECT $1::int + 1 AS n', [i])).rows[0]).toEqual({ n: i + 1 });
    await pool.query('SELECT $1::text AS t', ['x']);
    await pool.query('SELECT 1; SELECT 2');
    const { rows } = await pool.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements ORDER BY statement', []);
    expect(rows.map((r) => r.statement)).toEqual(['SELECT $1::int + 1 AS n', 'SELECT $1::text AS t']);
  });

  it('a statement that fails to prepare is not remembered: the next call prepares it again', async () => {
    await expect(pool.query('SELECT $1::int FROM no_such_table', [1])).rejects.toThrow(/no_such_table/);
    await pool.query('CREATE TEMP TABLE no_such_table (x int)');
    expect((await pool.query('SELECT $1::int FROM no_such_table', [1])).rows).toEqual([]);
  });
});
