import { randomUUID } from 'node:crypto';
import { type DomainEvent, type LinhaPlanejada } from '@frete/contracts';
import { type LoteCommand, type LoteEvent, loteDecider } from '@frete/domain';
import { loteDe, loteProjector, loteRelatorioView, type ProjectedEvent } from '@frete/projections';
import { freshDatabase, type TestDatabase } from '../support/db';
import { linhaPlanejada } from '../../domain/test/lote-planejado';

/**
 * The batch report's projector on events the HTTP tests cannot provoke (the simulated authority refuses or denies a
 * document only on a sentinel in its `xObs`, and a counter-CT-e's `xObs` is written by the service, not the client),
 * and on orders they cannot force: the rows are the batch's own events (`lote.*`), as its decider recorded them.
 */
describe('lote projector: rows as the batch recorded them', () => {
  let db: TestDatabase;
  let seq = 0n;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(() => db?.drop());

  /** Only the members the projector reads need to be there: a partial event is cast to the catalogue's. */
  const projetar = async (type: DomainEvent['type'], data: object) => {
    seq += 1n;
    await loteProjector.apply(db.pool, {
      type,
      data,
      id: randomUUID(),
      schemaVersion: 1,
      streamId: 's',
      revision: seq,
      position: { commit: seq, prepare: seq },
      recordedAt: new Date(Date.UTC(2026, 10, 22, 12, 0, Number(seq))),
      metadata: { company_id: null, correlation_id: 'c', causation_id: null, request_id: null, actor: 'test' },
    } as ProjectedEvent);
  };
  const apply = (e: DomainEvent) => projetar(e.type, e.data);

  const company = async () => {
    const id = randomUUID();
    await db.pool.query(
      `INSERT INTO rm.companies (company_id, cnpj, razao_social, carrier, fiscal_ready, fiscal_production, registered_at, updated_at)
       VALUES ($1, $2, 'SUB LTDA', true, true, false, now(), now())`,
      [id, id.slice(0, 14)],
    );
    return id;
  };

  const plano = (n: number): LinhaPlanejada[] => Array.from({ length: n }, (_, linha) => linhaPlanejada(linha, `K${linha}`));
  const criado = async (companyId: string, n: number) => {
    const batch_id = randomUUID();
    await apply({
      type: 'lote.criado',
      data: {
        batch_id,
        company_id: companyId,
        solicitante_company_id: null,
        ambiente: 'homologacao',
        modo: '1a1',
        parcelas: null,
        linhas: plano(n),
      },
    });
    return batch_id;
  };
  type LinhaProcessada = Extract<DomainEvent, { type: 'lote.linha_processada' }>;
  /** Row `linha` of the batch processed: pending, of service type 1 and no counter-CT-e yet, unless `over` says otherwise. */
  const processada = (batch_id: string, companyId: string, linha: number, over: Partial<LinhaProcessada['data']>): LinhaProcessada => ({
    type: 'lote.linha_processada',
    data: {
      batch_id,
      company_id: companyId,
      linha,
      chave: `K${linha}`,
      perna: null,
      status: 'pending',
      tipo_servico: 1,
      counter_cte_id: null,
      documento_financeiro: null,
      error: null,
      ...over,
    },
  });
  const pendente = (batch_id: string, companyId: string, linha: number, cte_id: string): DomainEvent =>
    processada(batch_id, companyId, linha, { counter_cte_id: cte_id });
  const report = async (batchId: string, companyId: string) => (await loteDe(db.pool, batchId, companyId))!;
  /** What the batch's decider appends once the row's last outcome is fed to it: the batch's end. */
  const concluido = (
    batch_id: string,
    company_id: string,
    status: 'done' | 'failed',
    linhas: { emitidas?: number; duplicadas?: number; falhas?: number },
  ): DomainEvent => {
    const { emitidas = 0, duplicadas = 0, falhas = 0 } = linhas;
    return {
      type: 'lote.concluido',
      data: { batch_id, company_id, status, total_linhas: emitidas + duplicadas + falhas, emitidas, duplicadas, falhas },
    };
  };

  const linha = (batch_id: string, company_id: string, n: number, counter_cte_id: string) => ({
    batch_id,
    company_id,
    linha: n,
    counter_cte_id,
  });
  const rejeitada = (batch_id: string, company_id: string, n: number, cte_id: string, message: string): DomainEvent => ({
    type: 'lote.linha_rejeitada',
    data: { ...linha(batch_id, company_id, n, cte_id), error: { code: 'cte_rejeitado', message } },
  });
  const emitida = (batch_id: string, company_id: string, n: number, cte_id: string): DomainEvent => ({
    type: 'lote.linha_emitida',
    data: linha(batch_id, company_id, n, cte_id),
  });
  const financeiro = (batch_id: string, company_id: string, n: number, cte_id: string, f: 'ok' | 'failed'): DomainEvent => ({
    type: 'lote.financeiro_registrado',
    data: { ...linha(batch_id, company_id, n, cte_id), financeiro: f },
  });
  const linhas = async (batchId: string, companyId: string) =>
    (await report(batchId, companyId)).linhas.map((l) => [l.status, l.financeiro, l.error_code, l.error_message]);

  it('a refused or denied counter-CT-e fails its row with the code and message the batch recorded, keeping the counter_cte_id', async () => {
    const sub = await company();
    const batch = await criado(sub, 2);
    const [a, b] = [randomUUID(), randomUUID()];
    await apply(pendente(batch, sub, 0, a));
    expect((await report(batch, sub)).lote.status).toBe('processing');
    await apply(pendente(batch, sub, 1, b));
    const recusa = 'the authority refused the counter-CT-e: cStat 539 Rejeicao: Duplicidade de CT-e com diferenca na Chave de Acesso';
    const denegacao = 'the authority denied the counter-CT-e: cStat 301 Uso Denegado: Irregularidade fiscal do emitente';
    await apply(rejeitada(batch, sub, 0, a, recusa));
    expect((await report(batch, sub)).lote.status).toBe('processing');
    await apply(rejeitada(batch, sub, 1, b, denegacao));
    await apply(concluido(batch, sub, 'failed', { falhas: 2 }));
    const r = await report(batch, sub);
    expect(r.linhas.map((l) => [l.status, l.counter_cte_id, l.error_code, l.error_message])).toEqual([
      ['failed', a, 'cte_rejeitado', recusa],
      ['failed', b, 'cte_rejeitado', denegacao],
    ]);
    expect(r.lote.status).toBe('failed');
    expect(r.lote.concluido_em).not.toBeNull();
  });

  it('a row is pending until the batch records its emission, and shows the financial step the batch recorded', async () => {
    const sub = await company();
    const batch = await criado(sub, 2);
    const [a, b] = [randomUUID(), randomUUID()];
    await apply(pendente(batch, sub, 0, a));
    await apply(pendente(batch, sub, 1, b));
    expect(await linhas(batch, sub)).toEqual([
      ['pending', null, null, null],
      ['pending', null, null, null],
    ]);
    // How the decider records a payout's outcome: the emission, then the financial step, in one append.
    await apply(emitida(batch, sub, 0, a));
    expect(await linhas(batch, sub)).toEqual([
      ['emitted', null, null, null],
      ['pending', null, null, null],
    ]);
    await apply(financeiro(batch, sub, 0, a, 'ok'));
    expect((await report(batch, sub)).lote.status).toBe('processing');
    await apply(emitida(batch, sub, 1, b));
    await apply(financeiro(batch, sub, 1, b, 'failed'));
    await apply(concluido(batch, sub, 'done', { emitidas: 2 }));
    const r = await report(batch, sub);
    // Spec section 3: a payout that could not be registered leaves the row emitted, never failed.
    expect(await linhas(batch, sub)).toEqual([
      ['emitted', 'ok', null, null],
      ['emitted', 'failed', null, null],
    ]);
    expect(loteRelatorioView({ ...r.lote, subcontratada_cnpj: '', subcontratada_nome: '' }, r.linhas).rows).toEqual([
      { chave: 'K0', perna: null, status: 'emitted', tipo_servico: 1, counter_cte_id: a, financeiro: 'ok' },
      { chave: 'K1', perna: null, status: 'emitted', tipo_servico: 1, counter_cte_id: b, financeiro: 'failed' },
    ]);
    expect(r.lote.status).toBe('done');
  });

  it('a financial step recorded before the emission (deliveries crossed, an older history) waits on the pending row', async () => {
    const sub = await company();
    const batch = await criado(sub, 1);
    const a = randomUUID();
    // As the decider before the payout's outcome carried the emission recorded it when the outcome came first.
    const historia: DomainEvent[] = [pendente(batch, sub, 0, a), financeiro(batch, sub, 0, a, 'ok')];
    for (const e of historia) await apply(e);
    const antes = await report(batch, sub);
    expect(antes.linhas.map((l) => [l.status, l.financeiro])).toEqual([['pending', 'ok']]);
    // The report shows the financial step of emitted rows only: the pending row shows none yet.
    expect(loteRelatorioView({ ...antes.lote, subcontratada_cnpj: '', subcontratada_nome: '' }, antes.linhas).rows[0]).not.toHaveProperty(
      'financeiro',
    );
    // Told again, today's decider records the emission alone (the financial step stands) and the batch's end.
    const criacao: DomainEvent = {
      type: 'lote.criado',
      data: {
        batch_id: batch,
        company_id: sub,
        solicitante_company_id: null,
        ambiente: 'homologacao',
        modo: '1a1',
        parcelas: null,
        linhas: plano(1),
      },
    };
    const state = [criacao, ...historia].reduce((s, e) => loteDecider.evolve(s, e as LoteEvent), loteDecider.initialState);
    const novos = loteDecider.decide({ type: 'RegistrarFinanceiroDaLinha', ...linha(batch, sub, 0, a), financeiro: 'failed' }, state, {
      now: new Date('2026-11-22T12:00:00Z'),
    });
    expect(novos.map((e) => e.type)).toEqual(['lote.linha_emitida', 'lote.concluido']);
    for (const e of novos) await apply(e as DomainEvent);
    const r = await report(batch, sub);
    expect(r.linhas.map((l) => [l.status, l.financeiro])).toEqual([['emitted', 'ok']]);
    expect(r.lote.status).toBe('done');
  });

  it("the counter-CT-e's and the payout's own events do not move a row: only the batch's record of them does", async () => {
    const sub = await company();
    const batch = await criado(sub, 2);
    const [a, b] = [randomUUID(), randomUUID()];
    await apply(pendente(batch, sub, 0, a));
    await apply(pendente(batch, sub, 1, b));
    await projetar('cte.autorizado', { cte_id: a, company_id: sub });
    await projetar('cte.rejeitado', { cte_id: b, company_id: sub, cstat: 539, motivo: 'x' });
    await projetar('repasse.documento_registrado', { cte_id: a, company_id: sub, lote_id: batch, posicao: 0 });
    await projetar('repasse.registro_falhou', { cte_id: a, company_id: sub, lote_id: batch, posicao: 0 });
    expect(await linhas(batch, sub)).toEqual([
      ['pending', null, null, null],
      ['pending', null, null, null],
    ]);
  });

  it("every row is what the batch's decider decided, outcome by outcome, duplicated and redelivered outcomes included", async () => {
    const sub = await company();
    const batch_id = randomUUID();
    const ids = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const ctx = { now: new Date('2026-11-22T12:00:00Z') };
    let state = loteDecider.initialState;
    /** The command through the decider, its events projected; then each row of the report against the decider's. */
    const decidir = async (c: LoteCommand) => {
      for (const e of loteDecider.decide(c, state, ctx)) {
        state = loteDecider.evolve(state, e);
        await apply(e as DomainEvent);
      }
      const r = await report(batch_id, sub);
      expect(
        r.linhas.map((l) => ({ linha: l.linha, status: l.status, counter_cte_id: l.counter_cte_id, financeiro: l.financeiro })),
      ).toEqual(Object.entries(state.processadas).map(([linha, l]) => ({ linha: Number(linha), ...l })));
      expect(r.lote.status).toBe(state.concluido ?? 'processing');
    };
    const base = { batch_id, company_id: sub };
    await decidir({
      type: 'CriarLote',
      ...base,
      solicitante_company_id: null,
      ambiente: 'homologacao',
      modo: '1a1',
      parcelas: null,
      linhas: plano(4),
    });
    const processada = (n: number, status: 'pending' | 'duplicated' | 'failed', counter_cte_id: string | null) => ({
      ...base,
      linha: n,
      chave: `K${n}`,
      perna: null,
      status,
      tipo_servico: 1,
      counter_cte_id,
      documento_financeiro: null,
      error: status === 'failed' ? { code: 'cte_proprio', message: 'own' } : null,
    });
    await decidir({
      type: 'RegistrarLinhas',
      ...base,
      linhas: [
        processada(0, 'pending', ids[0]!),
        processada(1, 'pending', ids[1]!),
        processada(2, 'duplicated', ids[2]!),
        processada(3, 'failed', null),
      ],
    });
    const recusa = { code: 'cte_rejeitado', message: 'the authority refused the counter-CT-e: cStat 539 Rejeicao' };
    await decidir({ type: 'RegistrarLinhaRejeitada', ...linha(batch_id, sub, 1, ids[1]!), error: recusa });
    // Redelivered, and a payout's outcome for a refused row: the decider records nothing, the rows do not move.
    await decidir({
      type: 'RegistrarLinhaRejeitada',
      ...linha(batch_id, sub, 1, ids[1]!),
      error: { code: 'cte_rejeitado', message: 'again' },
    });
    await decidir({ type: 'RegistrarFinanceiroDaLinha', ...linha(batch_id, sub, 1, ids[1]!), financeiro: 'ok' });
    // A duplicated row names another batch's document: its outcomes are not this row's.
    await decidir({ type: 'RegistrarLinhaRejeitada', ...linha(batch_id, sub, 2, ids[2]!), error: recusa });
    await decidir({ type: 'RegistrarFinanceiroDaLinha', ...linha(batch_id, sub, 0, ids[0]!), financeiro: 'failed' });
    await decidir({ type: 'RegistrarFinanceiroDaLinha', ...linha(batch_id, sub, 0, ids[0]!), financeiro: 'ok' });
    expect(state.concluido).toBe('done');
    const r = await report(batch_id, sub);
    expect(r.linhas.map((l) => [l.status, l.financeiro, l.error_code, l.error_message])).toEqual([
      ['emitted', 'failed', null, null],
      ['failed', null, 'cte_rejeitado', recusa.message],
      ['duplicated', null, null, null],
      ['failed', null, 'cte_proprio', 'own'],
    ]);
  });

  it("a duplicated row is not moved by the existing counter-CT-e's events", async () => {
    const sub = await company();
    const batch = await criado(sub, 1);
    const existente = randomUUID();
    await apply(processada(batch, sub, 0, { status: 'duplicated', tipo_servico: 2, counter_cte_id: existente }));
    await apply(concluido(batch, sub, 'done', { duplicadas: 1 }));
    await projetar('cte.rejeitado', { cte_id: existente, company_id: sub, cstat: 539, motivo: 'x' });
    const r = await report(batch, sub);
    expect(r.linhas.map((l) => [l.status, l.tipo_servico, l.error_code])).toEqual([['duplicated', 2, null]]);
    expect(r.lote.status).toBe('done');
  });

  it("the batch's status is what its decider decided: every row final is not yet the end, and a replayed end keeps the first instant", async () => {
    const sub = await company();
    const batch = await criado(sub, 1);
    await apply(processada(batch, sub, 0, { status: 'failed', error: { code: 'cte_proprio', message: 'own' } }));
    expect((await report(batch, sub)).lote).toMatchObject({ status: 'processing', concluido_em: null });
    await apply(concluido(batch, sub, 'failed', { falhas: 1 }));
    const first = (await report(batch, sub)).lote;
    expect(first.status).toBe('failed');
    await apply(concluido(batch, sub, 'failed', { falhas: 1 }));
    expect((await report(batch, sub)).lote).toMatchObject({ status: 'failed', concluido_em: first.concluido_em });
  });
});
