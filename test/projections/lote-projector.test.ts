import { randomUUID } from 'node:crypto';
import { type DomainEvent, type LinhaPlanejada } from '@frete/contracts';
import { loteDe, loteProjector, type ProjectedEvent } from '@frete/projections';
import { freshDatabase, type TestDatabase } from '../support/db';

/**
 * The batch report's projector on events the HTTP tests cannot provoke: the simulated authority refuses or denies a
 * document only on a sentinel in its `xObs`, and a counter-CT-e's `xObs` is written by the service, not the client.
 */
describe('lote projector: rows follow their counter-CT-e', () => {
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

  const plano = (n: number): LinhaPlanejada[] =>
    Array.from({ length: n }, (_, linha) => ({
      linha,
      chave: `K${linha}`,
      perna: null,
      tipo_servico: 1,
      origem: null,
      destino: null,
      valor_centavos: 100,
      motorista_cpf: '52998224725',
      placa: 'ABC1D23',
    }));
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
  const pendente = (batch_id: string, companyId: string, linha: number, cte_id: string): DomainEvent => ({
    type: 'lote.linha_processada',
    data: {
      batch_id,
      company_id: companyId,
      linha,
      chave: `K${linha}`,
      perna: null,
      status: 'pending',
      tipo_servico: 1,
      counter_cte_id: cte_id,
      documento_financeiro: null,
      error: null,
    },
  });
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

  it('a refused or denied counter-CT-e fails its row with cte_rejeitado, keeping the counter_cte_id; all failed fails the batch', async () => {
    const sub = await company();
    const batch = await criado(sub, 2);
    const [a, b] = [randomUUID(), randomUUID()];
    await apply(pendente(batch, sub, 0, a));
    expect((await report(batch, sub)).lote.status).toBe('processing');
    await apply(pendente(batch, sub, 1, b));
    await apply({
      type: 'cte.rejeitado',
      data: { cte_id: a, company_id: sub, cstat: 539, motivo: 'Rejeicao: Duplicidade de CT-e com diferenca na Chave de Acesso' },
    });
    await apply({
      type: 'cte.denegado',
      data: {
        cte_id: b,
        company_id: sub,
        chave: 'X',
        protocolo: {
          numero: '1',
          recebido_em: '2026-11-22T09:00:00-03:00',
          cstat: 301,
          motivo: 'Uso Denegado: Irregularidade fiscal do emitente',
        },
      },
    });
    const erro = { code: 'cte_rejeitado', message: 'refused' };
    await apply({ type: 'lote.linha_rejeitada', data: { batch_id: batch, company_id: sub, linha: 0, counter_cte_id: a, error: erro } });
    expect((await report(batch, sub)).lote.status).toBe('processing');
    await apply({ type: 'lote.linha_rejeitada', data: { batch_id: batch, company_id: sub, linha: 1, counter_cte_id: b, error: erro } });
    await apply(concluido(batch, sub, 'failed', { falhas: 2 }));
    const r = await report(batch, sub);
    expect(r.linhas.map((l) => [l.status, l.counter_cte_id, l.error_code])).toEqual([
      ['failed', a, 'cte_rejeitado'],
      ['failed', b, 'cte_rejeitado'],
    ]);
    expect(r.linhas[0]!.error_message).toMatch(/cStat 539 Rejeicao: Duplicidade/);
    expect(r.linhas[1]!.error_message).toMatch(/cStat 301 Uso Denegado/);
    expect(r.lote.status).toBe('failed');
    expect(r.lote.concluido_em).not.toBeNull();
  });

  it('an emitted row stays pending for the batch until its payout is decided; a failed payout leaves it emitted', async () => {
    const sub = await company();
    const batch = await criado(sub, 2);
    const [a, b] = [randomUUID(), randomUUID()];
    await apply(pendente(batch, sub, 0, a));
    await apply(pendente(batch, sub, 1, b));
    await projetar('cte.autorizado', { cte_id: a, company_id: sub });
    await projetar('cte.autorizado', { cte_id: b, company_id: sub });
    expect((await report(batch, sub)).lote.status).toBe('processing');
    const doc = (cte_id: string) => ({
      company_id: sub,
      grupo: 'g',
      cte_id,
      chave: 'C',
      chave_original: 'K',
      documento_financeiro: null,
      lote_id: batch,
      posicao: 0,
      motorista_cpf: '52998224725',
      valor_centavos: 100,
    });
    await apply({
      type: 'repasse.documento_registrado',
      data: {
        ...doc(a),
        regra: { origem: 'padrao', parcelas: [{ posicao: 1, percentual: 100, dias: 0 }] },
        modo: 'automatico',
        registrado_em: '2026-11-22T12:00:00Z',
      },
    });
    expect((await report(batch, sub)).lote.status).toBe('processing');
    await apply({
      type: 'repasse.registro_falhou',
      data: { ...doc(b), code: 'motorista_nao_encontrado', message: 'gone', falhou_em: '2026-11-22T12:00:00Z' },
    });
    await apply(concluido(batch, sub, 'done', { emitidas: 2 }));
    const r = await report(batch, sub);
    expect(r.linhas.map((l) => [l.status, l.financeiro])).toEqual([
      ['emitted', 'ok'],
      ['emitted', 'failed'],
    ]);
    expect(r.lote.status).toBe('done');
  });

  it("a duplicated row is not moved by the existing counter-CT-e's events", async () => {
    const sub = await company();
    const batch = await criado(sub, 1);
    const existente = randomUUID();
    await apply({
      type: 'lote.linha_processada',
      data: {
        batch_id: batch,
        company_id: sub,
        linha: 0,
        chave: 'K0',
        perna: null,
        status: 'duplicated',
        tipo_servico: 2,
        counter_cte_id: existente,
        documento_financeiro: null,
        error: null,
      },
    });
    await apply(concluido(batch, sub, 'done', { duplicadas: 1 }));
    await apply({ type: 'cte.rejeitado', data: { cte_id: existente, company_id: sub, cstat: 539, motivo: 'x' } });
    const r = await report(batch, sub);
    expect(r.linhas.map((l) => [l.status, l.tipo_servico, l.error_code])).toEqual([['duplicated', 2, null]]);
    expect(r.lote.status).toBe('done');
  });

  it("the batch's status is what its decider decided: every row final is not yet the end, and a replayed end keeps the first instant", async () => {
    const sub = await company();
    const batch = await criado(sub, 1);
    await apply({
      type: 'lote.linha_processada',
      data: {
        batch_id: batch,
        company_id: sub,
        linha: 0,
        chave: 'K0',
        perna: null,
        status: 'failed',
        tipo_servico: 1,
        counter_cte_id: null,
        documento_financeiro: null,
        error: { code: 'cte_proprio', message: 'own' },
      },
    });
    expect((await report(batch, sub)).lote).toMatchObject({ status: 'processing', concluido_em: null });
    await apply(concluido(batch, sub, 'failed', { falhas: 1 }));
    const first = (await report(batch, sub)).lote;
    expect(first.status).toBe('failed');
    await apply(concluido(batch, sub, 'failed', { falhas: 1 }));
    expect((await report(batch, sub)).lote).toMatchObject({ status: 'failed', concluido_em: first.concluido_em });
  });
});
