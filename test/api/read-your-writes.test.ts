import { randomUUID } from 'node:crypto';
import { type Position } from '@frete/contracts';
import { WATERMARK_CHANNEL } from '@frete/platform';
import { randomCnpj, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { postarLote1a1, receberCteDoContratante, relatorioFinal, subcontratadaPronta } from '../support/lote';
import { derrubarOuvintes, espiarSql, ouvir, outroProcesso, quandoOuvinte } from '../support/outro-processo';

/** A position no event reaches: a read that must wait for it can only time out (`readYourWritesTimeoutMs`). */
const ALEM: Position = { commit: 10n ** 15n, prepare: 10n ** 15n };

/**
 * Read your writes, kept in memory by each process (every watermark and checkpoint is notified): a read waits for
 * what its company's requests wrote, whichever process wrote it, and for nothing else.
 */
describe('read your writes', () => {
  jest.setTimeout(120_000);
  let app: TestApp;
  let outro: Awaited<ReturnType<typeof outroProcesso>>;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_FISCAL_PER_MIN: '100000', RATE_LIMIT_IP_PER_MIN: '100000' });
    // The process whose reads are looked at gives up waiting soon: a read held for a write can only time out here.
    outro = await outroProcesso(app, { readYourWritesTimeoutMs: 300 });
  });
  afterAll(async () => {
    await outro?.close();
    await app?.close();
  });

  const ryw = () => outro.platform.readYourWrites;

  it("holds a company's reads for a write another process recorded, and no other company's", async () => {
    const companyId = randomUUID();
    const ouviu = ouvir(outro.platform, WATERMARK_CHANNEL, (p) => p.includes(companyId));
    await app.running.platform.readYourWrites.recordWrite(companyId, ALEM);
    await ouviu;
    expect(await ryw().waitFor(companyId)).toBe(false);
    const sql = espiarSql(outro.platform.pool, /write_watermarks/);
    try {
      expect(await ryw().waitFor(randomUUID())).toBe(true);
    } finally {
      sql.parar();
    }
    // Nothing pending is known without asking the database.
    expect(sql.vistos).toEqual([]);
  });

  it('asks the database while it cannot listen, and catches up with what it missed once it listens again', async () => {
    const perdeu = quandoOuvinte(outro.platform, 'perdeu');
    const voltou = quandoOuvinte(outro.platform, 'voltou');
    await derrubarOuvintes(app.db.pool);
    await perdeu;
    const companyId = randomUUID();
    // Recorded straight in the table: nobody hears it.
    await app.db.pool.query(`INSERT INTO write_watermarks (company_id, commit_pos, prepare_pos) VALUES ($1, $2, $2)`, [
      companyId,
      ALEM.commit.toString(),
    ]);
    expect(await ryw().waitFor(companyId)).toBe(false);
    await voltou;
    const sql = espiarSql(outro.platform.pool, /write_watermarks/);
    try {
      expect(await ryw().waitFor(companyId)).toBe(false);
    } finally {
      sql.parar();
    }
    expect(sql.vistos).toEqual([]);
  });

  describe('a running batch', () => {
    let sub: TestCarrier;
    beforeAll(async () => {
      sub = await subcontratadaPronta(app);
    });

    const watermark = async (companyId: string): Promise<Position> => {
      const { rows } = await app.db.pool.query<{ commit_pos: string; prepare_pos: string }>(
        `SELECT commit_pos, prepare_pos FROM write_watermarks WHERE company_id = $1`,
        [companyId],
      );
      return { commit: BigInt(rows[0]!.commit_pos), prepare: BigInt(rows[0]!.prepare_pos) };
    };

    it('is read at once after its POST, and its processing records no watermark its reads would wait for', async () => {
      const contratante = randomCnpj();
      const chaves = await Promise.all(Array.from({ length: 4 }, () => receberCteDoContratante(sub, contratante)));
      const r = await postarLote1a1(sub, chaves);
      expect(r.status).toBe(202);
      const batchId = r.body.data.batch_id as string;
      const logo = await sub.call('GET', `/v1/fiscal/cte-subcontratacao/lote/${batchId}`);
      expect(logo.status).toBe(200);
      expect(logo.body.data.batch_id).toBe(batchId);
      const final = await relatorioFinal(sub, batchId);
      expect(final.body.data.rows.map((l: { status: string }) => l.status)).toEqual(['emitted', 'emitted', 'emitted', 'emitted']);
      // The last write of the company's requests was the batch's creation: the rows, counter-CT-e and payouts the
      // processors wrote afterwards moved nothing.
      const [criado] = await app.running.platform.store.readStream(`lote-${batchId}`);
      expect(await watermark(sub.companyId)).toEqual(criado!.position);
    });
  });
});
