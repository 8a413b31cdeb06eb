import { randomUUID } from 'node:crypto';
import { type ParcelaRepasse, type RecordedEvent } from '@frete/contracts';
import { vencimentoDe } from '@frete/domain';
import { payoutHandlers } from '@frete/payout-processor';
import { railInterno } from '@frete/adapters';
import { expectError, startTestApp, type ApiResponse, type TestApp, type TestCarrier } from '../support/app';
import { contraCteAutorizado, contraCteCancelado, type ContraCteSemeado, type ContraCteSemente, mdfeCom } from '../support/repasse';

const PATH = '/v1/carriers/parcelas-repasse';
const CPF_A = '52998224725'; // automatic, own rule 50/50
const CPF_B = '11144477735'; // manual, own rule 70/30
const CPF_D = '39053344705'; // automatic, no own rule
const CPF_GONE = '12345678909'; // removed from the registry before the authorization
const R602020: ParcelaRepasse[] = [
  { posicao: 1, percentual: 60, dias: 0 },
  { posicao: 2, percentual: 20, dias: 10 },
  { posicao: 3, percentual: 20, dias: 30 },
];

type Parcela = {
  posicao: number;
  valor: number;
  percentual: number;
  dias: number;
  situacao: string;
  liberada_por: string | null;
  liberada_em: string | null;
  vencimento: string | null;
};

describe("/v1/carriers/parcelas-repasse: the driver's payout installments", () => {
  let app: TestApp;
  let c: TestCarrier;
  let other: TestCarrier;

  const get = (documento: string) => c.call('GET', `${PATH}/${encodeURIComponent(documento)}`);
  const ato = (documento: string, path: 'bipagem' | 'conclusao' | 'prestacao-contas') =>
    c.call('POST', `${PATH}/${encodeURIComponent(documento)}/${path}`);
  const liberar = (documento: string, posicao: number) => c.call('POST', `${PATH}/liberar`, { documento, posicao });
  const pagar = (documento: string, posicao: number) => c.call('POST', `${PATH}/pagar`, { documento, posicao });
  const parcelas = (res: ApiResponse): Parcela[] => res.body.data.parcelas;

  /** Reads until `done`: the payout processor works in the background. */
  async function eventually(documento: string, done: (r: ApiResponse) => boolean = (r) => r.status === 200): Promise<ApiResponse> {
    for (let i = 0; i < 200; i++) {
      const r = await get(documento);
      if (done(r)) return r;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error(`${documento} did not reach the expected state`);
  }

  /** Seeds an authorized counter-CT-e and waits until the processor registered its payout. */
  async function registrado(s: ContraCteSemente): Promise<ContraCteSemeado> {
    const doc = await contraCteAutorizado(app, c, s);
    await eventually(doc.cte_id);
    return doc;
  }

  const eventosDoGrupo = async (grupo: string) => await app.running.platform.store.readStream(`repasse-${c.companyId}-${grupo}`);
  const contar = (events: RecordedEvent[], type: string, cteId: string) =>
    events.filter((e) => e.type === type && (e.data as { cte_id: string }).cte_id === cteId).length;

  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier({ scopes: ['fiscal', 'operacao'] });
    other = await app.carrier({ scopes: ['fiscal', 'operacao'] });
    const motorista = async (cpf: string, repasse: unknown) => {
      const res = await c.call('POST', '/v1/fiscal/motoristas', { cpf, nome: `MOTORISTA ${cpf.slice(0, 3)}`, repasse });
      expect(res.status).toBe(201);
      return res.body.data.id as number;
    };
    await motorista(CPF_A, {
      modo: 'automatico',
      parcelas: [
        { posicao: 1, percentual: 50, dias: 0 },
        { posicao: 2, percentual: 50, dias: 15 },
      ],
    });
    await motorista(CPF_B, {
      modo: 'manual',
      parcelas: [
        { posicao: 1, percentual: 70, dias: 0 },
        { posicao: 2, percentual: 30, dias: 5 },
      ],
    });
    await motorista(CPF_D, { modo: 'automatico' });
    const gone = await motorista(CPF_GONE, {});
    expect((await c.call('DELETE', `/v1/fiscal/motoristas/${gone}`)).status).toBe(204);
  });
  afterAll(() => app?.close());

  it("15 documents of one driver at the batch's 60/20/20: 9 whole documents at position 1, 3 at 2, 3 at 3", async () => {
    const docs: ContraCteSemeado[] = [];
    for (let linha = 0; linha < 15; linha++)
      docs.push(
        await contraCteAutorizado(app, c, { cpf: CPF_A, valor_centavos: 10_000 + linha, lote_id: 'L15', linha, parcelas: R602020 }),
      );
    for (const d of docs) await eventually(d.cte_id);

    const before = await get(docs[0]!.cte_id);
    expect(before.body.data).toMatchObject({
      counter_cte_id: docs[0]!.cte_id,
      chave: docs[0]!.chave,
      chave_original: docs[0]!.chave_original,
      motorista_cpf: CPF_A,
      valor: 100,
      grupo: `lote:L15:${CPF_A}`,
      lote_id: 'L15',
      posicao_no_grupo: 0,
      financeiro: 'ok',
      erro_financeiro: null,
      regra: { origem: 'lote', parcelas: R602020 },
      modo: 'automatico',
      bipado_em: null,
      cancelado: false,
      parcelas: [],
    });

    for (const [i, d] of docs.entries()) {
      const res = await ato(d.cte_id, 'bipagem');
      expect(res.status).toBe(200);
      const posicao = i < 9 ? 1 : i < 12 ? 2 : 3;
      expect(parcelas(res)).toEqual([
        expect.objectContaining({
          posicao,
          percentual: 100,
          valor: (10_000 + i) / 100,
          dias: R602020[posicao - 1]!.dias,
          // Automatic mode: the scan releases position 1 at once; 2 and 3 wait for completion and accountability.
          situacao: posicao === 1 ? 'liberada' : 'pendente',
          liberada_por: posicao === 1 ? 'bipagem' : null,
        }),
      ]);
    }
    const { rows } = await app.running.platform.pool.query(
      `SELECT posicao, count(*)::int AS n, sum(valor_centavos)::bigint AS total FROM rm.parcelas_repasse WHERE company_id = $1 AND grupo = $2 GROUP BY posicao ORDER BY posicao`,
      [c.companyId, `lote:L15:${CPF_A}`],
    );
    expect(rows.map((r) => [r.posicao, r.n])).toEqual([
      [1, 9],
      [2, 3],
      [3, 3],
    ]);

    // Completion releases position 2 of a document in the second bucket; of a first-bucket document it only records the act.
    const c9 = await ato(docs[9]!.cte_id, 'conclusao');
    expect(c9.status).toBe(200);
    expect(c9.body.data.concluido_em).not.toBeNull();
    expect(parcelas(c9)[0]).toMatchObject({ posicao: 2, situacao: 'liberada', liberada_por: 'conclusao' });
    const c0 = await ato(docs[0]!.cte_id, 'conclusao');
    expect(parcelas(c0)).toEqual([expect.objectContaining({ posicao: 1, liberada_por: 'bipagem' })]);
    const p12 = await ato(docs[12]!.cte_id, 'prestacao-contas');
    expect(parcelas(p12)[0]).toMatchObject({ posicao: 3, situacao: 'liberada', liberada_por: 'prestacao_contas' });
  });

  it('2 documents at 60/20/20 are each split into three installments, exact to the cent; automatic acts release 1, 2, 3', async () => {
    const a = await registrado({ cpf: CPF_A, valor_centavos: 10_001, lote_id: 'L2', linha: 0, parcelas: R602020 });
    const b = await registrado({ cpf: CPF_A, valor_centavos: 33_333, lote_id: 'L2', linha: 1, parcelas: R602020 });

    const sa = await ato(a.cte_id, 'bipagem');
    expect(sa.status).toBe(200);
    expect(parcelas(sa).map((p) => [p.posicao, p.percentual, p.valor, p.dias, p.situacao])).toEqual([
      [1, 60, 60.01, 0, 'liberada'],
      [2, 20, 20, 10, 'pendente'],
      [3, 20, 20, 30, 'pendente'],
    ]);
    const sb = await ato(b.cte_id, 'bipagem');
    expect(parcelas(sb).map((p) => p.valor)).toEqual([200, 66.66, 66.67]);

    const p1 = parcelas(sa)[0]!;
    expect(p1.vencimento).toBe(vencimentoDe(new Date(p1.liberada_em!), 0));
    const done = await ato(a.cte_id, 'conclusao');
    const p2 = parcelas(done)[1]!;
    expect(p2).toMatchObject({ situacao: 'liberada', liberada_por: 'conclusao', vencimento: vencimentoDe(new Date(p2.liberada_em!), 10) });
    expect(parcelas(done)[2]!.situacao).toBe('pendente');
    const contas = await ato(a.cte_id, 'prestacao-contas');
    expect(parcelas(contas)[2]).toMatchObject({ situacao: 'liberada', liberada_por: 'prestacao_contas' });

    // Repeating an act is 200 with nothing new.
    const again = await ato(a.cte_id, 'conclusao');
    expect(again.status).toBe(200);
    expect(again.body.data.concluido_em).toBe(done.body.data.concluido_em);
    expect(contar(await eventosDoGrupo(`lote:L2:${CPF_A}`), 'repasse.conclusao_registrada', a.cte_id)).toBe(1);
  });

  it('pays a released installment once: 202, the processor settles it to paga; paying or releasing again is 422 and moves nothing', async () => {
    const d = await registrado({ cpf: CPF_A, valor_centavos: 50_000, lote_id: 'LP', linha: 0, parcelas: R602020 });
    await ato(d.cte_id, 'bipagem');

    const paid = await pagar(d.cte_id, 1);
    expect(paid.status).toBe(202);
    expect(paid.body.data).toMatchObject({
      ordem_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      counter_cte_id: d.cte_id,
      chave: d.chave,
      posicao: 1,
      motorista_cpf: CPF_A,
      valor: 300,
      consulta: `/v1/carriers/parcelas-repasse/${d.cte_id}`,
    });
    expect(['pagamento_solicitado', 'paga']).toContain(paid.body.data.situacao);
    const settled = await eventually(d.cte_id, (r) => parcelas(r)[0]?.situacao === 'paga');
    expect(parcelas(settled)[0]).toMatchObject({ ordem_pagamento_id: paid.body.data.ordem_id, paga_em: expect.any(String) });

    expectError(await pagar(d.cte_id, 1), 422, 'parcela_ja_paga');
    expectError(await liberar(d.cte_id, 1), 422, 'parcela_ja_liberada');
    expectError(await pagar(d.cte_id, 2), 422, 'parcela_nao_liberada');

    const events = await eventosDoGrupo(`lote:LP:${CPF_A}`);
    expect(contar(events, 'repasse.pagamento_solicitado', d.cte_id)).toBe(1);
    expect(contar(events, 'repasse.parcela_paga', d.cte_id)).toBe(1);
    expect(contar(events, 'repasse.parcela_liberada', d.cte_id)).toBe(1);
  });

  it('the processor is idempotent on redelivery: registration, settlement and cancellation append nothing new', async () => {
    const d = await registrado({ cpf: CPF_A, valor_centavos: 7_000, lote_id: 'LR', linha: 0, parcelas: R602020 });
    await ato(d.cte_id, 'bipagem');
    expect((await pagar(d.cte_id, 1)).status).toBe(202);
    await eventually(d.cte_id, (r) => parcelas(r)[0]?.situacao === 'paga');
    await contraCteCancelado(app, c, d.cte_id);
    await eventually(d.cte_id, (r) => r.body.data.cancelado === true);

    const p = app.running.platform;
    const handlers = payoutHandlers({ store: p.store, readYourWrites: p.readYourWrites, clock: p.clock, rail: railInterno });
    const grupo = `lote:LR:${CPF_A}`;
    const before = await eventosDoGrupo(grupo);
    const causes = [
      ...(await p.store.readStream(`cte-${d.cte_id}`)).filter((e) => e.type === 'cte.autorizado' || e.type === 'cte.evento_registrado'),
      ...before.filter((e) => e.type === 'repasse.pagamento_solicitado'),
    ];
    expect(causes).toHaveLength(3);
    for (const e of causes) await handlers.get(e.type)!(e);
    expect((await eventosDoGrupo(grupo)).map((e) => e.id)).toEqual(before.map((e) => e.id));
  });

  it("the driver's rule when the batch has none; manual mode: the acts release nothing, only liberar does", async () => {
    const d = await registrado({ cpf: CPF_B, valor_centavos: 10_001 });
    expectError(await liberar(d.cte_id, 1), 422, 'parcelas_nao_geradas');
    expectError(await pagar(d.cte_id, 1), 422, 'parcelas_nao_geradas');
    expectError(await ato(d.cte_id, 'conclusao'), 422, 'parcelas_nao_geradas');

    const scan = await ato(d.cte_id, 'bipagem');
    expect(scan.body.data).toMatchObject({
      grupo: `cte:${d.cte_id}`,
      lote_id: null,
      posicao_no_grupo: 0,
      modo: 'manual',
      regra: {
        origem: 'motorista',
        parcelas: [
          { posicao: 1, percentual: 70, dias: 0 },
          { posicao: 2, percentual: 30, dias: 5 },
        ],
      },
    });
    expect(parcelas(scan).map((p) => [p.posicao, p.valor, p.situacao])).toEqual([
      [1, 70.01, 'pendente'],
      [2, 30, 'pendente'],
    ]);
    await ato(d.cte_id, 'conclusao');
    const contas = await ato(d.cte_id, 'prestacao-contas');
    expect(contas.body.data.prestado_contas_em).not.toBeNull();
    expect(parcelas(contas).map((p) => p.situacao)).toEqual(['pendente', 'pendente']);
    expectError(await pagar(d.cte_id, 1), 422, 'parcela_nao_liberada');

    const released = await liberar(d.cte_id, 2);
    expect(released.status).toBe(200);
    expect(parcelas(released)[1]).toMatchObject({ situacao: 'liberada', liberada_por: 'manual' });
    expect(parcelas(released)[1]!.vencimento).toBe(vencimentoDe(new Date(parcelas(released)[1]!.liberada_em!), 5));
    expectError(await liberar(d.cte_id, 2), 422, 'parcela_ja_liberada');
    expectError(await liberar(d.cte_id, 3), 422, 'parcela_nao_encontrada');
    expect(contar(await eventosDoGrupo(`cte:${d.cte_id}`), 'repasse.parcela_liberada', d.cte_id)).toBe(1);
  });

  it('the default rule (100% at position 1, dias 0) when neither the batch nor the driver has one', async () => {
    const d = await registrado({ cpf: CPF_D, valor_centavos: 12_345 });
    const scan = await ato(d.cte_id, 'bipagem');
    expect(scan.body.data.regra).toEqual({ origem: 'padrao', parcelas: [{ posicao: 1, percentual: 100, dias: 0 }] });
    expect(parcelas(scan)).toEqual([
      expect.objectContaining({ posicao: 1, percentual: 100, valor: 123.45, dias: 0, situacao: 'liberada' }),
    ]);
  });

  it('a driver removed from the registry: financeiro failed with motorista_nao_encontrado, no installments', async () => {
    const d = await contraCteAutorizado(app, c, { cpf: CPF_GONE, valor_centavos: 5_000 });
    const res = await eventually(d.cte_id);
    expect(res.body.data).toMatchObject({
      financeiro: 'failed',
      erro_financeiro: { code: 'motorista_nao_encontrado', message: expect.any(String) },
      regra: null,
      modo: null,
      parcelas: [],
    });
    expectError(await ato(d.cte_id, 'bipagem'), 422, 'motorista_nao_encontrado');
  });

  it('cancelling the counter-CT-e cancels its unpaid installments, keeps paid ones, and takes it out of the group', async () => {
    const [d0, d1, d2] = [
      await registrado({ cpf: CPF_A, valor_centavos: 30_000, lote_id: 'LC', linha: 0, parcelas: R602020 }),
      await registrado({ cpf: CPF_A, valor_centavos: 20_000, lote_id: 'LC', linha: 1, parcelas: R602020 }),
      await registrado({ cpf: CPF_A, valor_centavos: 10_000, lote_id: 'LC', linha: 2, parcelas: R602020 }),
    ] as const;
    // 3 documents, 3 installments: whole documents, one per position.
    expect(parcelas(await ato(d0.cte_id, 'bipagem'))).toEqual([expect.objectContaining({ posicao: 1, valor: 300, situacao: 'liberada' })]);
    expect(parcelas(await ato(d1.cte_id, 'bipagem'))).toEqual([expect.objectContaining({ posicao: 2, valor: 200, situacao: 'pendente' })]);
    expect((await pagar(d0.cte_id, 1)).status).toBe(202);
    await eventually(d0.cte_id, (r) => parcelas(r)[0]?.situacao === 'paga');

    await contraCteCancelado(app, c, d1.cte_id);
    const cancelled = await eventually(d1.cte_id, (r) => r.body.data.cancelado === true);
    expect(cancelled.body.data.cancelado_em).not.toBeNull();
    expect(parcelas(cancelled)).toEqual([expect.objectContaining({ posicao: 2, situacao: 'cancelada', cancelada_em: expect.any(String) })]);
    expectError(await liberar(d1.cte_id, 2), 422, 'parcela_cancelada');
    expectError(await ato(d1.cte_id, 'conclusao'), 422, 'documento_cancelado');

    // The group now has 2 live documents for 3 installments: the next scan splits instead of bucketing.
    const s2 = await ato(d2.cte_id, 'bipagem');
    expect(parcelas(s2).map((p) => [p.posicao, p.valor])).toEqual([
      [1, 60],
      [2, 20],
      [3, 20],
    ]);

    await contraCteCancelado(app, c, d0.cte_id);
    const paidStays = await eventually(d0.cte_id, (r) => r.body.data.cancelado === true);
    expect(parcelas(paidStays)).toEqual([expect.objectContaining({ posicao: 1, situacao: 'paga' })]);
  });

  it("reads a document by counter_cte_id, access key or ROUTE: document; another company's or an unknown one is 404", async () => {
    const route = `ROUTE:${'3'.repeat(44)}:3509502:3304557`;
    const d = await registrado({ cpf: CPF_A, valor_centavos: 4_321, lote_id: 'LR1', linha: 0, documento_financeiro: route });
    for (const documento of [d.cte_id, d.cte_id.toUpperCase(), d.chave, route]) {
      const res = await get(documento);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        environment: 'homologacao',
        data: { documento, counter_cte_id: d.cte_id, chave: d.chave, documento_financeiro: route, valor: 43.21 },
      });
    }
    expect((await ato(route, 'bipagem')).status).toBe(200);
    expect((await c.call('POST', `${PATH}/liberar`, { documento: d.chave, posicao: 2 })).status).toBe(200);

    for (const documento of [d.cte_id, d.chave, route])
      expectError(await other.call('GET', `${PATH}/${encodeURIComponent(documento)}`), 404, 'nao_encontrado');
    expectError(await other.call('POST', `${PATH}/liberar`, { documento: d.cte_id, posicao: 3 }), 404, 'nao_encontrado');
    expectError(await other.call('POST', `${PATH}/pagar`, { documento: d.cte_id, posicao: 1 }), 404, 'nao_encontrado');
    expectError(await get(randomUUID()), 404, 'nao_encontrado');
    expectError(await get('not-a-document'), 404, 'nao_encontrado');
  });

  it('403 escopo_nao_habilitado without scope operacao; 400 validacao for bad bodies', async () => {
    const fiscalOnly = await app.carrier({ scopes: ['fiscal'] });
    expectError(await fiscalOnly.call('GET', `${PATH}/${randomUUID()}`), 403, 'escopo_nao_habilitado');
    expectError(await fiscalOnly.call('POST', `${PATH}/liberar`, { documento: randomUUID(), posicao: 1 }), 403, 'escopo_nao_habilitado');
    expectError(
      await fiscalOnly.call('POST', `${PATH}/liberar-por-mdfe`, { mdfe_id: randomUUID(), posicao: 1 }),
      403,
      'escopo_nao_habilitado',
    );

    const fields = (body: ApiResponse['body']) => (body.error.details.fields as { field: string }[]).map((f) => f.field);
    expect(fields(expectError(await c.call('POST', `${PATH}/liberar`, { documento: randomUUID(), posicao: 4 }), 400, 'validacao'))).toEqual(
      ['posicao'],
    );
    expect(fields(expectError(await c.call('POST', `${PATH}/pagar`, { posicao: 1 }), 400, 'validacao'))).toEqual(['documento']);
    expect(
      fields(expectError(await c.call('POST', `${PATH}/pagar-por-mdfe`, { mdfe_id: randomUUID(), posicao: 0 }), 400, 'validacao')),
    ).toEqual(['posicao']);
    expectError(await c.call('POST', `${PATH}/liberar`, { documento: randomUUID(), posicao: 1, extra: true }), 400, 'validacao');
  });

  it("by MDF-e: acts only on existing installments of the MDF-e's drivers, one result per CT-e", async () => {
    const scanned = await registrado({ cpf: CPF_B, valor_centavos: 10_000, lote_id: 'LM', linha: 0, parcelas: R602020 });
    const unscanned = await registrado({ cpf: CPF_B, valor_centavos: 10_000, lote_id: 'LM', linha: 1, parcelas: R602020 });
    const otherDriver = await registrado({ cpf: CPF_A, valor_centavos: 10_000 });
    await ato(scanned.cte_id, 'bipagem');
    await ato(otherDriver.cte_id, 'bipagem');
    const plain = { cte_id: randomUUID(), chave: '3'.repeat(44) };
    const mdfeId = await mdfeCom(app, c, [scanned, unscanned, otherDriver, plain], [CPF_B]);

    const first = await c.call('POST', `${PATH}/liberar-por-mdfe`, { mdfe_id: mdfeId, posicao: 2 });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      mdfe_id: mdfeId,
      posicao: 2,
      resultados: [
        { cte_id: scanned.cte_id, chave: scanned.chave, status: 'ok' },
        {
          cte_id: unscanned.cte_id,
          chave: unscanned.chave,
          status: 'ignorado',
          motivo: { code: 'parcelas_nao_geradas', message: expect.any(String) },
        },
        {
          cte_id: otherDriver.cte_id,
          chave: otherDriver.chave,
          status: 'ignorado',
          motivo: { code: 'motorista_fora_do_mdfe', message: expect.any(String) },
        },
        { cte_id: plain.cte_id, chave: plain.chave, status: 'ignorado', motivo: { code: 'sem_repasse', message: expect.any(String) } },
      ],
    });
    expect(parcelas(await get(scanned.cte_id))[1]).toMatchObject({ situacao: 'liberada', liberada_por: 'manual' });
    expect(parcelas(await get(otherDriver.cte_id))[1]).toMatchObject({ situacao: 'pendente' });

    const again = await c.call('POST', `${PATH}/liberar-por-mdfe`, { mdfe_id: mdfeId, posicao: 2 });
    expect(again.body.data.resultados[0]).toMatchObject({ status: 'erro', error: { code: 'parcela_ja_liberada' } });

    const pay = await c.call('POST', `${PATH}/pagar-por-mdfe`, { mdfe_id: mdfeId, posicao: 2 });
    expect(pay.status).toBe(200);
    expect(pay.body.data.resultados.map((r: { status: string }) => r.status)).toEqual(['ok', 'ignorado', 'ignorado', 'ignorado']);
    const ordem = pay.body.data.resultados[0].ordem_id as string;
    const settled = await eventually(scanned.cte_id, (r) => parcelas(r)[1]?.situacao === 'paga');
    expect(settled.body.data.parcelas[1].ordem_pagamento_id).toBe(ordem);
    const unreleased = await c.call('POST', `${PATH}/pagar-por-mdfe`, { mdfe_id: mdfeId, posicao: 1 });
    expect(unreleased.body.data.resultados[0]).toMatchObject({ status: 'erro', error: { code: 'parcela_nao_liberada' } });

    expectError(await c.call('POST', `${PATH}/liberar-por-mdfe`, { mdfe_id: randomUUID(), posicao: 1 }), 404, 'nao_encontrado');
    expectError(await c.call('POST', `${PATH}/pagar-por-mdfe`, { mdfe_id: 'not-a-uuid', posicao: 1 }), 404, 'nao_encontrado');
    expectError(await other.call('POST', `${PATH}/pagar-por-mdfe`, { mdfe_id: mdfeId, posicao: 2 }), 404, 'nao_encontrado');
  });
});
