import fs from 'node:fs';
import { lerCatalogo, semDescricao } from '@frete/projections';
import { CATALOGO, gerarCatalogo } from '../../services/ops/src/catalogo';
import { freshDatabase, type TestDatabase } from '../support/db';

describe('catalogue of the read models (docs/catalogo-read-models.md)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(() => db.drop());

  it('has a comment for every table, view and column of schema rm', async () => {
    const catalogo = await lerCatalogo(db.pool);
    expect(catalogo.length).toBeGreaterThanOrEqual(30);
    expect(semDescricao(catalogo)).toEqual([]);
  });

  it('names a table or column added without its comment', async () => {
    await db.pool.query('CREATE TABLE rm.sem_catalogo (company_id text, valor_centavos bigint)');
    await db.pool.query(`COMMENT ON COLUMN rm.sem_catalogo.company_id IS 'Company.'`);
    expect(semDescricao(await lerCatalogo(db.pool))).toEqual(['rm.sem_catalogo', 'rm.sem_catalogo.valor_centavos']);
    await db.pool.query('DROP TABLE rm.sem_catalogo');
  });

  it('is, in the repository, exactly what the migrations of a freshly migrated database give (run `pnpm catalogo`)', async () => {
    const gerado = await gerarCatalogo(process.env.TEST_DATABASE_URL!);
    expect(fs.readFileSync(CATALOGO, 'utf8')).toBe(gerado);
  });
});
