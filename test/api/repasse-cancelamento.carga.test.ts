import { startServices, type RunningServices } from '@frete/server';
import { expectError, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { MOTORISTA_CPF, subcontratadaPronta } from '../support/lote';
import { mdfeCom } from '../support/repasse';
import { cargaDeLotes, contraCtesDeUmLote, correr, noOutroProcesso, railGravado } from '../support/corrida-cancelamento';

/**
 * Issue 26, point 1: a payment and the cancellation of its counter-CT-e, asked at the same moment, repeated. The
 * cancellation holds the payout before the authority can register it, withdraws orders not yet handed to the bank
 * rail, and answers what had already left; the payout processor hands an order over only through the group's stream.
 */
describe('a payment racing its counter-CT-e cancellation', () => {
  jest.setTimeout(900_000);
  const LIMITES = { RATE_LIMIT_FISCAL_PER_MIN: '1000000', RATE_LIMIT_IP_PER_MIN: '1000000' };
  let app: TestApp;
  let sub: TestCarrier;
  /** The payout processor, started apart so that a test can hold it back. */
  let pagador: RunningServices;
  const rail = railGravado();
  const iniciarPagador = async () =>
    (pagador = await startServices({ ...app.config, services: ['payout-processor'] }, { adaptadores: { rail } }));

  beforeAll(async () => {
    app = await startTestApp({ ...LIMITES, SERVICES: 'api,projector,emission-processor' });
    await iniciarPagador();
    sub = await subcontratadaPronta(app, 'SUBCONTRATADA TRANSPORTES LTDA', ['fiscal', 'operacao']);
  });
  afterAll(async () => {
    await pagador?.stop();
    await app?.close();
  });

  describe('while the authority decides', () => {
    const PARCELAS = '/v1/carriers/parcelas-repasse';
    const cancelar = (cteId: string, justificativa: string) =>
      sub.call('POST', `/v1/fiscal/cte/${cteId}/eventos/cancelamento`, { justificativa });
    const pagar = (cteId: string) => sub.call('POST', `${PARCELAS}/pagar`, { documento: cteId, posicao: 1 });
    let ctes: string[];
    beforeAll(async () => {
      ctes = await contraCtesDeUmLote(sub, 4);
      for (const id of ctes) expect((await sub.call('POST', `${PARCELAS}/${id}/bipagem`)).status).toBe(200);
    });

    it('a pending cancellation holds the payout (422 documento_em_cancelamento) and withdraws the unsent order; its registration cancels it', async () => {
      const id = ctes[0]!;
      // The payout processor stopped: the order recorded now cannot reach the rail before the cancellation.
      await pagador.stop();
      let ordem: string;
      let eventKey: string;
      try {
        const pago = await pagar(id);
        expect(pago.status).toBe(202);
        ordem = pago.body.data.ordem_id;
        const pendente = await cancelar(id, 'FRETE CANCELADO PELO CONTRATANTE SIMULAR:EVENTO-PENDENTE:1');
        expect(pendente.status).toBe(202);
        eventKey = pendente.body.data.event_key;
        expect(pendente.body.data.repasse).toEqual({
          cancelado: false,
          em_cancelamento: true,
          parcelas_canceladas: [],
          parcelas_pagas: [],
          ordens_retiradas: [{ posicao: 1, ordem_pagamento_id: ordem, valor: 100 }],
        });
        expectError(await pagar(id), 422, 'documento_em_cancelamento');
        expectError(await sub.call('POST', `${PARCELAS}/liberar`, { documento: id, posicao: 1 }), 422, 'documento_em_cancelamento');
        const lido = await sub.call('GET', `${PARCELAS}/${id}`);
        expect(lido.body.data.parcelas[0]).toMatchObject({ situacao: 'liberada', ordem_pagamento_id: null });
      } finally {
        await iniciarPagador();
      }
      // The simulated authority answers 105 once more, then registers it.
      let reconciliado = await sub.call('POST', `/v1/fiscal/cte/${id}/eventos/${eventKey}/reconciliacao`);
      for (let i = 0; i < 5 && reconciliado.status === 202; i++)
        reconciliado = await sub.call('POST', `/v1/fiscal/cte/${id}/eventos/${eventKey}/reconciliacao`);
      expect(reconciliado.status).toBe(200);
      expect(reconciliado.body.data.repasse).toMatchObject({ cancelado: true, em_cancelamento: false, parcelas_canceladas: [1] });
      expect((await sub.call('GET', `${PARCELAS}/${id}`)).body.data.parcelas[0]).toMatchObject({ situacao: 'cancelada' });
      expectError(await pagar(id), 422, 'parcela_cancelada');
      // The withdrawn order never reached the rail.
      expect(rail.ordens.has(ordem!)).toBe(false);
      const pagas = await app.db.pool.query(
        `SELECT count(*)::int AS n FROM es_events WHERE event_type = 'repasse.parcela_paga' AND data->>'ordem_id' = $1`,
        [ordem],
      );
      expect(pagas.rows[0].n).toBe(0);
    });

    it('a refused cancellation lets the payout go on', async () => {
      const id = ctes[1]!;
      const recusado = await cancelar(id, 'FRETE CANCELADO PELO CONTRATANTE SIMULAR:REJEICAO:236');
      expectError(recusado, 422, 'regra_de_negocio');
      const pago = await pagar(id);
      expect(pago.status).toBe(202);
      const grupo = (await sub.call('GET', `${PARCELAS}/${id}`)).body.data.grupo;
      const tipos = (await app.running.platform.store.readStream(`repasse-${sub.companyId}-${grupo}`))
        .filter((e) => (e.data as { cte_id: string }).cte_id === id)
        .map((e) => e.type);
      expect(tipos).toEqual(
        expect.arrayContaining(['repasse.cancelamento_solicitado', 'repasse.cancelamento_recusado', 'repasse.pagamento_solicitado']),
      );
      expect(tipos.indexOf('repasse.pagamento_solicitado')).toBeGreaterThan(tipos.indexOf('repasse.cancelamento_recusado'));
    });

    it("the manifest's forms are held alike: pagar-por-mdfe answers the CT-e's error documento_em_cancelamento", async () => {
      const id = ctes[3]!;
      const doc = (await sub.call('GET', `${PARCELAS}/${id}`)).body.data;
      const mdfeId = await mdfeCom(app, sub, [{ cte_id: id, chave: doc.chave }], [MOTORISTA_CPF]);
      const pendente = await cancelar(id, 'FRETE CANCELADO PELO CONTRATANTE SIMULAR:EVENTO-PENDENTE:3');
      expect(pendente.status).toBe(202);
      for (const acao of ['pagar-por-mdfe', 'liberar-por-mdfe']) {
        const r = await sub.call('POST', `${PARCELAS}/${acao}`, { mdfe_id: mdfeId, posicao: 1 });
        expect(r.status).toBe(200);
        expect(r.body.data.resultados).toEqual([
          { cte_id: id, chave: doc.chave, status: 'erro', error: { code: 'documento_em_cancelamento', message: expect.any(String) } },
        ]);
      }
    });

    it('a paid installment stays paid and is listed in the answer', async () => {
      const id = ctes[2]!;
      const pago = await pagar(id);
      expect(pago.status).toBe(202);
      for (let i = 0; i < 100; i++) {
        const r = await sub.call('GET', `${PARCELAS}/${id}`);
        if (r.body.data.parcelas[0].situacao === 'paga') break;
        await new Promise((res) => setTimeout(res, 50));
      }
      const canc = await cancelar(id, 'FRETE CANCELADO PELO CONTRATANTE NA ORIGEM');
      expect(canc.status).toBe(200);
      expect(canc.body.data.repasse).toEqual({
        cancelado: true,
        em_cancelamento: false,
        parcelas_canceladas: [],
        parcelas_pagas: [{ posicao: 1, ordem_pagamento_id: pago.body.data.ordem_id, valor: 100, situacao: 'paga' }],
        ordens_retiradas: [],
      });
      expect((await sub.call('GET', `${PARCELAS}/${id}`)).body.data.parcelas[0]).toMatchObject({ situacao: 'paga' });
    });
  });

  const portas = (paga: TestCarrier = sub) => ({ cancela: sub, paga, rail, store: app.running.platform.store, companyId: sub.companyId });

  it('idle, one API: 150 races, no money moves after the cancellation and what moved is in its answer', async () => {
    const ctes = await contraCtesDeUmLote(sub, 150);
    const { placar, falhas } = await correr('uma API, ociosa', portas(), ctes);
    expect(falhas).toEqual([]);
    expect(placar.violacoes).toBe(0);
    expect(placar.corridas).toBe(150);
  });

  it("under another carrier's running batches: 100 races, the same", async () => {
    const ctes = await contraCtesDeUmLote(sub, 100);
    const carga = await cargaDeLotes(app, 150);
    try {
      const { placar, falhas } = await correr('uma API, sob lote', portas(), ctes);
      expect(falhas).toEqual([]);
      expect(placar.violacoes).toBe(0);
      expect(placar.corridas).toBe(100);
    } finally {
      await carga.parar();
    }
  });

  describe('across two API processes', () => {
    let outra: RunningServices;
    beforeAll(async () => {
      // A second API on the same database: its own memory, locks and stream caches, as another process has.
      outra = await startServices({ ...app.config, services: ['api'] });
    });
    afterAll(() => outra?.stop());

    it("the payment on the other API, under another carrier's running batches: 100 races, the same", async () => {
      const ctes = await contraCtesDeUmLote(sub, 100);
      const carga = await cargaDeLotes(app, 150);
      try {
        const { placar, falhas } = await correr('duas APIs, sob lote', portas(noOutroProcesso(sub, outra.url!)), ctes);
        expect(falhas).toEqual([]);
        expect(placar.violacoes).toBe(0);
        expect(placar.corridas).toBe(100);
      } finally {
        await carga.parar();
      }
    });
  });
});
