import { randomUUID } from 'node:crypto';
import { type RecordedEvent } from '@frete/contracts';
import { EntregasWebhook } from '@frete/application';
import { webhooksProcessor } from '@frete/webhooks-processor';
import { freshDatabase, type TestDatabase } from '../support/db';

/** The delivery queue against real PostgreSQL: what the processor records, and what the dispatcher may claim. */
describe('webhook deliveries', () => {
  let db: TestDatabase;
  let entregas: EntregasWebhook;
  const agora = new Date('2026-11-24T12:00:00Z');
  const depois = (ms: number) => new Date(agora.getTime() + ms);

  beforeAll(async () => {
    db = await freshDatabase();
    entregas = new EntregasWebhook(db.pool);
  });
  afterAll(() => db.drop());

  const endpoint = async (companyId: string, eventos: string[], ativo = true): Promise<string> => {
    const id = randomUUID();
    await db.pool.query(
      `INSERT INTO rm.webhooks (webhook_id, company_id, url, eventos, ativo, segredo_versao, segredo_impressao, criado_em, atualizado_em)
       VALUES ($1, $2, 'https://8.8.8.8/x', $3, $4, 1, 'f', now(), now())`,
      [id, companyId, eventos, ativo],
    );
    return id;
  };

  const loteConcluido = (companyId: string, batchId: string): RecordedEvent => ({
    id: randomUUID(),
    type: 'lote.concluido',
    schemaVersion: 1,
    data: { batch_id: batchId, company_id: companyId, status: 'done', total_linhas: 2, emitidas: 2, duplicadas: 0, falhas: 0 },
    metadata: { company_id: companyId, correlation_id: 'c', causation_id: null, request_id: null, actor: 'system' },
    streamId: `lote-${batchId}`,
    revision: 3n,
    position: { commit: 1n, prepare: 1n },
    recordedAt: agora,
  });

  const linhas = async (webhookId: string) =>
    (await db.pool.query(`SELECT tipo, recurso, payload FROM webhook_entregas WHERE webhook_id = $1`, [webhookId])).rows;

  it('the processor records one delivery per subscribed active endpoint of the company, once however often the event comes', async () => {
    const company = randomUUID();
    const inscrito = await endpoint(company, ['lote.concluido']);
    const outroTipo = await endpoint(company, ['cte.autorizado']);
    const desativado = await endpoint(company, ['lote.concluido'], false);
    const outraEmpresa = await endpoint(randomUUID(), ['lote.concluido']);
    const processor = webhooksProcessor({ pool: db.pool, entregas, environment: 'homologacao', publicUrl: 'https://api.example.com' });
    expect(processor.handles('lote.concluido')).toBe(true);
    expect(processor.handles('veiculo.cadastrado')).toBe(false);
    const event = loteConcluido(company, 'b1');
    await processor.handle(event);
    await processor.handle(event);
    expect(await linhas(inscrito)).toEqual([
      {
        tipo: 'lote.concluido',
        recurso: 'lote-b1',
        payload: {
          type: 'lote.concluido',
          timestamp: agora.toISOString(),
          data: {
            id: 'b1',
            environment: 'homologacao',
            url: 'https://api.example.com/v1/fiscal/cte-subcontratacao/lote/b1',
            status: 'done',
            total_linhas: 2,
            emitidas: 2,
            duplicadas: 0,
            falhas: 0,
          },
        },
      },
    ]);
    for (const w of [outroTipo, desativado, outraEmpresa]) expect(await linhas(w)).toEqual([]);
  });

  const nova = (companyId: string, webhookId: string, recurso: string, criada = agora) => ({
    id: randomUUID(),
    company_id: companyId,
    webhook_id: webhookId,
    evento_id: randomUUID(),
    tipo: 'lote.linha_processada',
    recurso,
    payload: {
      type: 'lote.linha_processada',
      timestamp: criada.toISOString(),
      data: { id: recurso, environment: 'homologacao' as const, url: '/' },
    },
    criada_em: criada,
  });

  it('claims deliveries of one resource in order: none while an earlier one is pending', async () => {
    const company = randomUUID();
    const w = await endpoint(company, ['lote.linha_processada']);
    const primeira = nova(company, w, 'lote-x', agora);
    const segunda = nova(company, w, 'lote-x', agora);
    await entregas.registrar([primeira, segunda]);
    const vagas = () => 10;
    const doEndpoint = <T extends { webhook_id: string }>(es: T[]) => es.filter((e) => e.webhook_id === w);
    const [claimed, ...resto] = doEndpoint(await entregas.reivindicar(depois(1), 10, 60_000, vagas));
    expect(claimed!.id).toBe(primeira.id);
    expect(resto).toEqual([]);
    // The first failed and waits for its retry: the second still waits behind it.
    const falha = { iniciada_em: depois(1), status_http: 500, resposta: 'x', erro: null, duracao_ms: 3 };
    await entregas.registrarTentativa(claimed!, falha, false, depois(10_000));
    expect((await entregas.reivindicar(depois(2), 10, 60_000, vagas)).filter((e) => e.webhook_id === w)).toEqual([]);
    // Once the first is delivered, the second goes.
    const [retry] = (await entregas.reivindicar(depois(10_001), 10, 60_000, vagas)).filter((e) => e.webhook_id === w);
    expect(retry!.id).toBe(primeira.id);
    await entregas.registrarTentativa(retry!, { ...falha, status_http: 200 }, true, null);
    const [proxima] = (await entregas.reivindicar(depois(10_002), 10, 60_000, vagas)).filter((e) => e.webhook_id === w);
    expect(proxima!.id).toBe(segunda.id);
    expect((await entregas.ler(company, w, primeira.id))!.historico!.map((t) => t.status_http)).toEqual([500, 200]);
  });

  it('claims at most the free slots of an endpoint, and never a delivery another claim holds', async () => {
    const company = randomUUID();
    const w = await endpoint(company, ['lote.linha_processada']);
    await entregas.registrar([1, 2, 3, 4].map((i) => nova(company, w, `lote-${i}`)));
    const doEndpoint = <T extends { webhook_id: string }>(es: T[]) => es.filter((e) => e.webhook_id === w);
    expect(doEndpoint(await entregas.reivindicar(depois(1), 10, 60_000, (id) => (id === w ? 1 : 10)))).toHaveLength(1);
    // Two dispatchers at once: the remaining three are shared, none twice (the first claim's lease holds it meanwhile).
    const [a, b] = await Promise.all([
      entregas.reivindicar(depois(2), 10, 60_000, () => 10),
      entregas.reivindicar(depois(2), 10, 60_000, () => 10),
    ]);
    const ids = [...doEndpoint(a), ...doEndpoint(b)].map((e) => e.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    // Once a lease passes (a dispatcher died mid-send), the delivery is claimed again: at least once.
    expect(doEndpoint(await entregas.reivindicar(depois(60_003), 10, 60_000, () => 10))).toHaveLength(4);
  });

  it('sends nothing for a disabled endpoint', async () => {
    const company = randomUUID();
    const w = await endpoint(company, ['lote.linha_processada'], false);
    await entregas.registrar([nova(company, w, 'lote-d')]);
    expect((await entregas.reivindicar(depois(1), 10, 60_000, () => 10)).filter((e) => e.webhook_id === w)).toEqual([]);
  });
});
