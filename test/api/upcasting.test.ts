import { randomUUID } from 'node:crypto';
import { START } from '@frete/contracts';
import { configuracaoStream } from '@frete/domain';
import { startTestApp, type TestApp, type TestCarrier } from '../support/app';

/**
 * `configuracao.atualizada` changed shape (v1: the pricing rule as a percentage double; v2: integer hundredths). A
 * company whose history holds both versions is read the same by the decider, the projector (live and rebuilt), the
 * store's subscribers (the processors' and the relay's view) and the audit log, which also shows v1 as recorded.
 */
describe('an event recorded in an older shape (configuracao.atualizada v1 and v2)', () => {
  let app: TestApp;
  let a: TestCarrier;
  const configuracao = () => a.call('GET', '/v1/fiscal/configuracao');
  const v1Id = randomUUID();

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.carrier({ scopes: ['fiscal', 'auditoria'] });
    const { platform } = app.running;
    // As a release before version 2 recorded it.
    await platform.store.append(
      configuracaoStream(a.companyId),
      [
        {
          id: v1Id,
          type: 'configuracao.atualizada',
          schemaVersion: 1,
          data: { company_id: a.companyId, changes: { percentual_frete_contra_cte: 12.5, rntrc: '12345678' } },
          metadata: { company_id: a.companyId, correlation_id: v1Id, causation_id: null, request_id: null, actor: 'operator' },
        },
      ],
      'no_stream',
    );
    await platform.projections.catchUpTo(await platform.store.headPosition());
  });
  afterAll(() => app?.close());

  it('the projector reads v1 through its upcaster', async () => {
    expect((await configuracao()).body.data).toMatchObject({ percentual_frete_contra_cte: 12.5, rntrc: '12345678' });
  });

  it('the decider folds v1: the same percentage records nothing, a new one records v2', async () => {
    const stream = configuracaoStream(a.companyId);
    expect((await a.call('PUT', '/v1/fiscal/configuracao', { percentual_frete_contra_cte: 12.5 })).status).toBe(200);
    expect(await app.running.platform.store.readStream(stream)).toHaveLength(1);
    const put = await a.call('PUT', '/v1/fiscal/configuracao', { percentual_frete_contra_cte: 33.33 });
    expect(put.body.data.percentual_frete_contra_cte).toBe(33.33);
    const recorded = await app.running.platform.store.recorded.readStream(stream);
    expect(recorded.map((e) => [e.schemaVersion, e.data])).toEqual([
      [1, { company_id: a.companyId, changes: { percentual_frete_contra_cte: 12.5, rntrc: '12345678' } }],
      [2, { company_id: a.companyId, changes: { percentual_frete_contra_cte_centesimos: 3333 } }],
    ]);
  });

  it("the store's readers (processors, relay) get both in the current shape", async () => {
    const { store } = app.running.platform;
    const all = await store.readAll(START, 100_000);
    const mine = all.filter((e) => e.streamId === configuracaoStream(a.companyId));
    expect(mine.map((e) => [e.schemaVersion, e.data])).toEqual([
      [2, { company_id: a.companyId, changes: { percentual_frete_contra_cte_centesimos: 1250, rntrc: '12345678' } }],
      [2, { company_id: a.companyId, changes: { percentual_frete_contra_cte_centesimos: 3333 } }],
    ]);
  });

  it('a rebuild of the read models gives the same row', async () => {
    const before = (await configuracao()).body.data;
    await app.running.platform.projections.rebuild();
    await app.running.platform.projections.start();
    expect((await configuracao()).body.data).toEqual(before);
  });

  it('the audit log shows v1 in the current shape and as recorded, and v2 as it is', async () => {
    const r = await a.call('GET', '/v1/auditoria/eventos?tipos=configuracao.atualizada');
    expect(r.status).toBe(200);
    const [velho, novo] = r.body.data;
    expect(velho).toMatchObject({
      id: v1Id,
      schema_version: 2,
      data: { changes: { percentual_frete_contra_cte_centesimos: 1250 } },
      recorded_schema_version: 1,
      recorded_data: { changes: { percentual_frete_contra_cte: 12.5 } },
    });
    expect(novo.schema_version).toBe(2);
    expect(novo).not.toHaveProperty('recorded_data');
  });
});
