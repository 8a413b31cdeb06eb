import { randomUUID } from 'node:crypto';
import { expectError, startTestApp, type ApiResponse, type TestApp, type TestCarrier } from '../support/app';
import { contraCteAutorizado } from '../support/repasse';

const PATH = '/v1/carriers/parcelas-repasse';
const CPF = '39053344705'; // automatic, the default rule: 100% at position 1

/**
 * Issue 26, point 2: a command that committed answers its success from what it recorded, even when the read models lag
 * far behind (here: stopped), and a retry of a payment whose answer was lost lands on the same order.
 */
describe('installment acts while the read models lag', () => {
  jest.setTimeout(120_000);
  let app: TestApp;
  let c: TestCarrier;

  const get = (documento: string) => c.call('GET', `${PATH}/${documento}`);
  const pagar = (documento: string, key?: string) =>
    c.call('POST', `${PATH}/pagar`, { documento, posicao: 1 }, key ? { 'Idempotency-Key': key } : {});

  async function registrado(): Promise<string> {
    const doc = await contraCteAutorizado(app, c, { cpf: CPF, valor_centavos: 12_345 });
    for (let i = 0; i < 200; i++) {
      if ((await get(doc.cte_id)).status === 200) return doc.cte_id;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error(`${doc.cte_id} was not registered`);
  }

  const eventos = async (cteId: string, type: string) => {
    const { rows } = await app.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM es_events WHERE event_type = $1 AND data->>'cte_id' = $2`,
      [type, cteId],
    );
    return rows[0]!.n;
  };

  beforeAll(async () => {
    // A read that waits for a write gives up after 150 ms: with the projector stopped, every wait times out.
    app = await startTestApp({ READ_YOUR_WRITES_TIMEOUT_MS: '150' });
    c = await app.carrier({ scopes: ['fiscal', 'operacao'] });
    expect(
      (await c.call('POST', '/v1/fiscal/motoristas', { cpf: CPF, nome: 'MOTORISTA DEFAULT', repasse: { modo: 'automatico' } })).status,
    ).toBe(201);
  });
  afterAll(() => app?.close());

  it('scan, release and payment answer what they recorded; the reads catch up once the projector runs again', async () => {
    const a = await registrado();
    const b = await registrado();
    await app.running.platform.projections.stop();
    try {
      const scan = await c.call('POST', `${PATH}/${a}/bipagem`);
      expect(scan.status).toBe(200);
      expect(scan.body.data).toMatchObject({ counter_cte_id: a, bipado_em: expect.any(String) });
      expect(scan.body.data.parcelas).toEqual([
        expect.objectContaining({ posicao: 1, valor: 123.45, situacao: 'liberada', liberada_por: 'bipagem', ordem_pagamento_id: null }),
      ]);
      // The read model has not seen the scan: a GET shows the document as it was (no 5xx either).
      expect((await get(a)).body.data.parcelas).toEqual([]);

      const paid = await pagar(a);
      expect(paid.status).toBe(202);
      expect(paid.body.data).toMatchObject({
        counter_cte_id: a,
        posicao: 1,
        valor: 123.45,
        situacao: 'pagamento_solicitado',
        ordem_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        solicitado_em: expect.any(String),
      });

      // Manual release on another document, answered the same way.
      await c.call('POST', `${PATH}/${b}/bipagem`);
      const again = await c.call('POST', `${PATH}/liberar`, { documento: b, posicao: 1 });
      expectError(again, 422, 'parcela_ja_liberada');
    } finally {
      await app.running.platform.projections.start();
    }
    await app.running.platform.projections.catchUp();
    const read = await get(a);
    expect(read.body.data.parcelas[0]).toMatchObject({ situacao: expect.stringMatching(/^(pagamento_solicitado|paga)$/) });
  });

  it('a payment retried with its Idempotency-Key after its answer was lost answers the same order, never a second one', async () => {
    const a = await registrado();
    expect((await c.call('POST', `${PATH}/${a}/bipagem`)).status).toBe(200);
    const key = `pagar-${randomUUID()}`;
    await app.running.platform.projections.stop();
    let first: ApiResponse;
    try {
      first = await pagar(a, key);
      expect(first.status).toBe(202);
      // A replay of the stored answer while the key is kept.
      const replay = await pagar(a, key);
      expect(replay.status).toBe(202);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.data.ordem_id).toBe(first.body.data.ordem_id);
      // The stored answer is gone (a 5xx released the key, or it expired): the request runs again, on the same order.
      await app.db.pool.query(`DELETE FROM idempotency_keys WHERE company_id = $1 AND key = $2`, [c.companyId, key]);
      const rerun = await pagar(a, key);
      expect(rerun.status).toBe(202);
      expect(rerun.headers.get('idempotent-replayed')).toBeNull();
      expect(rerun.body.data.ordem_id).toBe(first.body.data.ordem_id);
      // Another key is another request: the installment already has its order.
      expectError(await pagar(a, `pagar-${randomUUID()}`), 422, 'parcela_ja_paga');
    } finally {
      await app.running.platform.projections.start();
    }
    expect(await eventos(a, 'repasse.pagamento_solicitado')).toBe(1);
  });
});
