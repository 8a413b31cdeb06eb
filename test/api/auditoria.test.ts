import { execute } from '@frete/application';
import { loteDecider, loteStream, resolverLote } from '@frete/domain';
import { derivedEventId } from '@frete/platform';
import { startTestApp, expectError, type TestApp, type TestCarrier } from '../support/app';
import { cteAutorizado, emissora } from '../support/emissora';
import { type ApiResponse, request } from '../support/http';
import { auditorDe } from '../support/auditoria';
import {
  lotePreparadoEmSp,
  MOTORISTA_CPF,
  PLACA,
  postarLote1a1,
  receberCteDoContratante,
  relatorioFinal,
  subcontratadaPronta,
  criarLoteSolicitado,
} from '../support/lote';

const ESCOPOS = ['fiscal', 'operacao', 'auditoria'] as const;

describe('/v1/auditoria: the event history for auditors', () => {
  let app: TestApp;
  let a: TestCarrier;
  let b: TestCarrier;
  let semEscopo: TestCarrier;

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.carrier({ scopes: [...ESCOPOS] });
    b = await app.carrier({ scopes: [...ESCOPOS] });
    semEscopo = await app.carrier({ scopes: ['fiscal', 'operacao'] });
  });
  afterAll(() => app?.close());

  const historico = (c: TestCarrier, recurso: string, id: string) => c.call('GET', `/v1/auditoria/historico/${recurso}/${id}`);
  const ndjson = (c: TestCarrier, query = '') =>
    request(`${app.url}/v1/auditoria/eventos${query}`, 'GET', undefined, {
      authorization: `Bearer ${c.apiKey}`,
      accept: 'application/x-ndjson',
    });

  describe('the history of a resource', () => {
    it('a grant: both parties read its events in order, with actor, request id, correlation and hashes; a third company gets 404', async () => {
      const concedida = await a.call('POST', '/v1/fiscal/cte-subcontratacao/autorizacoes', { contratante: { cnpj: b.cnpj } });
      expect(concedida.status).toBe(201);
      const revogada = await a.call('DELETE', `/v1/fiscal/cte-subcontratacao/autorizacoes/${b.cnpj}`);
      expect(revogada.status).toBe(200);
      const id = concedida.body.data.id as string;
      const r = await historico(a, 'autorizacao', id);
      expect(r.status).toBe(200);
      const eventos = r.body.data.eventos as Record<string, unknown>[];
      expect(eventos.map((e) => [e.type, e.revision])).toEqual([
        ['autorizacao.concedida', 0],
        ['autorizacao.revogada', 1],
      ]);
      expect(eventos[0]).toMatchObject({
        actor: `credential:${a.credentialId}`,
        request_id: concedida.headers.get('x-request-id'),
        schema_version: 1,
        causation_id: null,
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        previous_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(eventos[1]!.request_id).toBe(revogada.headers.get('x-request-id'));
      expect((await historico(b, 'autorizacao', id)).body.data.eventos).toEqual(eventos);
      expectError(await historico(semEscopo, 'autorizacao', id), 403, 'escopo_nao_habilitado');
      const terceira = await app.carrier({ scopes: ['auditoria'] });
      expectError(await historico(terceira, 'autorizacao', id), 404, 'nao_encontrado');
    });

    it("the operational account: by the carrier's CNPJ; another carrier's CNPJ is 404", async () => {
      for (const [valor, referencia] of [
        [100, 'DEP-1'],
        [250.5, 'DEP-2'],
      ] as const) {
        expect((await a.call('POST', '/v1/conta-operacional/creditos', { valor, referencia })).status).toBe(201);
      }
      const r = await historico(a, 'conta-operacional', a.cnpj);
      expect(r.status).toBe(200);
      expect(r.body.data.eventos.map((e: { data: { valor_centavos?: number } }) => e.data.valor_centavos)).toEqual([10000, 25050]);
      expectError(await historico(b, 'conta-operacional', a.cnpj), 404, 'nao_encontrado');
    });

    it('a CT-e from draft to authorization; another company, a missing id and an unknown resource are refused', async () => {
      const emissoraA = await emissora(app, 'EMISSORA AUDITADA LTDA', ['fiscal', 'auditoria']);
      const { id } = await cteAutorizado(emissoraA);
      const r = await historico(emissoraA, 'cte', id);
      expect(r.status).toBe(200);
      const tipos = r.body.data.eventos.map((e: { type: string }) => e.type);
      expect(tipos[0]).toMatch(/^cte\./);
      expect(tipos).toContain('cte.autorizado');
      expect(r.body.data.eventos.map((e: { revision: number }) => e.revision)).toEqual(tipos.map((_: string, i: number) => i));
      // The draft and its emission request are the caller's acts; the signature and the verdict the emission processor's.
      const atores = new Map(r.body.data.eventos.map((e: { type: string; actor: string }) => [e.type, e.actor]));
      expect(atores.get('cte.emissao_solicitada')).toMatch(/^credential:/);
      expect(atores.get('cte.autorizado')).toBe('processor:emission');
      expectError(await historico(a, 'cte', id), 404, 'nao_encontrado');
      expectError(await historico(emissoraA, 'cte', '00000000-0000-4000-8000-000000000000'), 404, 'nao_encontrado');
      expectError(await historico(emissoraA, 'nota', id), 400, 'validacao');
    });

    it("a batch and one of its installment documents: the document's events only, though its group's stream holds others", async () => {
      const { sub, chaves } = await lotePreparadoEmSp(app, 2);
      const post = await postarLote1a1(sub, chaves);
      expect(post.status).toBe(202);
      const batchId = post.body.data.batch_id as string;
      const linhas = (await relatorioFinal(sub, batchId)).body.data.rows as { counter_cte_id: string }[];
      const auditor = await auditorDe(app, sub.cnpj);

      const lote = await auditor(`/v1/auditoria/historico/lote/${batchId}`);
      expect(lote.status).toBe(200);
      const tipos = lote.body.data.eventos.map((e: { type: string }) => e.type);
      expect(tipos[0]).toBe('lote.criado');
      expect(tipos).toContain('lote.concluido');

      const [um, outro] = linhas.map((l) => l.counter_cte_id);
      const doc = await auditor(`/v1/auditoria/historico/repasse/${um}`);
      expect(doc.status).toBe(200);
      const eventos = doc.body.data.eventos as { type: string; data: { cte_id: string }; stream: string }[];
      expect(eventos[0]!.type).toBe('repasse.documento_registrado');
      expect(eventos.every((e) => e.data.cte_id === um)).toBe(true);
      // Both documents are one driver's group in this batch: one stream, each history its own document's.
      const deOutro = (await auditor(`/v1/auditoria/historico/repasse/${outro}`)).body.data.eventos as {
        data: { cte_id: string };
        stream: string;
      }[];
      expect(deOutro[0]!.stream).toBe(eventos[0]!.stream);
      expect(deOutro.every((e) => e.data.cte_id === outro)).toBe(true);
      expectError(await historico(a, 'lote', batchId), 404, 'nao_encontrado');
      expectError(await historico(a, 'repasse', um!), 404, 'nao_encontrado');
    });

    it('hostile ids answer 404, never 5xx', async () => {
      for (const id of ["'; DROP TABLE es_events; --", '%00', 'x'.repeat(200), '..%2F..%2Fetc']) {
        for (const recurso of ['cte', 'repasse', 'conta-operacional', 'vale-pedagio']) {
          const r = await historico(a, recurso, encodeURIComponent(id));
          expect([400, 404]).toContain(r.status);
        }
      }
    });
  });

  describe("the company's log", () => {
    it('JSON pages in chain order, resumed with apos, only the caller company', async () => {
      const todos = await a.call('GET', '/v1/auditoria/eventos?limite=1000');
      expect(todos.status).toBe(200);
      const posicoes = todos.body.data.map((e: { position: number }) => e.position);
      expect(posicoes).toEqual(posicoes.map((_: number, i: number) => i + 1));
      expect(todos.body.meta.proxima).toBeNull();
      const ids = new Set(todos.body.data.map((e: { id: string }) => e.id));
      const deB = await b.call('GET', '/v1/auditoria/eventos?limite=1000');
      expect(deB.body.data.some((e: { id: string }) => ids.has(e.id))).toBe(false);

      const p1 = await a.call('GET', '/v1/auditoria/eventos?limite=2');
      expect(p1.body.data.map((e: { position: number }) => e.position)).toEqual([1, 2]);
      expect(p1.body.meta).toEqual({ apos: 0, limite: 2, proxima: 2 });
      const p2 = await a.call('GET', `/v1/auditoria/eventos?limite=2&apos=${p1.body.meta.proxima}`);
      expect(p2.body.data.map((e: { position: number }) => e.position)).toEqual([3, 4]);
      // Each event links to the one before it.
      expect(p2.body.data[0].previous_hash).toBe(p1.body.data[1].hash);
    });

    it('filters by type and by time; an unknown type or an empty window is 400 validacao', async () => {
      const r = await a.call('GET', '/v1/auditoria/eventos?tipos=autorizacao.concedida,%20autorizacao.revogada');
      expect(r.body.data.map((e: { type: string }) => e.type)).toEqual(['autorizacao.concedida', 'autorizacao.revogada']);
      const todos = (await a.call('GET', '/v1/auditoria/eventos?limite=1000')).body.data as { recorded_at: string }[];
      const meio = todos[2]!.recorded_at;
      const depois = await a.call('GET', `/v1/auditoria/eventos?limite=1000&de=${encodeURIComponent(meio)}`);
      expect(depois.body.data.every((e: { recorded_at: string }) => e.recorded_at >= meio)).toBe(true);
      const antes = await a.call('GET', `/v1/auditoria/eventos?limite=1000&ate=${encodeURIComponent(meio)}`);
      expect(antes.body.data.length + depois.body.data.length).toBe(todos.length);

      const t = expectError(await a.call('GET', '/v1/auditoria/eventos?tipos=cte.inventado'), 400, 'validacao');
      expect(t.error.details.fields).toEqual([{ field: 'tipos', message: expect.stringMatching(/cte\.inventado/) }]);
      expectError(
        await a.call('GET', `/v1/auditoria/eventos?de=${encodeURIComponent(meio)}&ate=${encodeURIComponent(meio)}`),
        400,
        'validacao',
      );
      expectError(await a.call('GET', '/v1/auditoria/eventos?de=ontem'), 400, 'validacao');
      expectError(await a.call('GET', '/v1/auditoria/eventos?apos=-1'), 400, 'validacao');
      expectError(await a.call('GET', '/v1/auditoria/eventos?limite=1001'), 400, 'validacao');
      expectError(await semEscopo.call('GET', '/v1/auditoria/eventos'), 403, 'escopo_nao_habilitado');
    });

    it('NDJSON: streamed, its total announced, resumable after the last position received', async () => {
      const json = (await a.call('GET', '/v1/auditoria/eventos?limite=1000')).body.data as { id: string; position: number }[];
      const r = await ndjson(a);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      const linhas = r.text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; position: number });
      expect(linhas).toEqual(json);
      expect(Number(r.headers.get('x-eventos-total'))).toBe(json.length);
      expect(Number(r.headers.get('x-posicao-final'))).toBe(json[json.length - 1]!.position);
      const resto = await ndjson(a, `?apos=${json[1]!.position}`);
      expect(
        resto.text
          .trimEnd()
          .split('\n')
          .map((l) => (JSON.parse(l) as { id: string }).id),
      ).toEqual(json.slice(2).map((e) => e.id));
      expect(Number(resto.headers.get('x-eventos-total'))).toBe(json.length - 2);
      const vazio = await ndjson(a, `?apos=${json[json.length - 1]!.position}`);
      expect(vazio.text).toBe('');
      expect(vazio.headers.get('x-eventos-total')).toBe('0');
    });
  });

  describe('the verification of the chain', () => {
    it("intact, until an event is edited in SQL: that event is named, and another company's chain stays intact", async () => {
      const v = await a.call('GET', '/v1/auditoria/verificacao');
      expect(v.status).toBe(200);
      expect(v.body.data).toMatchObject({ integra: true, primeiro_evento_divergente: null });
      const eventos = (await a.call('GET', '/v1/auditoria/eventos?limite=1000')).body.data as { id: string }[];
      expect(v.body.data.eventos_verificados).toBe(eventos.length);
      const alvo = eventos[2]!.id;
      await app.db.pool.query(`UPDATE es_events SET data = jsonb_set(data, '{adulterado}', 'true') WHERE event_id = $1`, [alvo]);
      expect((await a.call('GET', '/v1/auditoria/verificacao')).body.data).toMatchObject({
        integra: false,
        primeiro_evento_divergente: alvo,
      });
      expect((await b.call('GET', '/v1/auditoria/verificacao')).body.data).toMatchObject({
        integra: true,
        primeiro_evento_divergente: null,
      });
      expectError(await semEscopo.call('GET', '/v1/auditoria/verificacao'), 403, 'escopo_nao_habilitado');
    });
  });

  describe("a batch requested under a grant (issue 26): the batch in its owner's log, the request in the requester's", () => {
    interface Evento {
      position: number;
      id: string;
      type: string;
      stream: string;
      actor: string;
      request_id: string | null;
      causation_id: string | null;
      data: Record<string, unknown>;
      hash: string;
    }
    let con: TestCarrier;
    let sub: TestCarrier;
    let auditorSub: (path: string) => Promise<ApiResponse>;

    beforeAll(async () => {
      con = await app.carrier({ name: 'CONTRATANTE AUDITADA SA', scopes: ['fiscal', 'auditoria'] });
      sub = await subcontratadaPronta(app, 'SUBCONTRATADA AUDITADA LTDA');
      auditorSub = await auditorDe(app, sub.cnpj);
      expect((await sub.call('POST', '/v1/fiscal/cte-subcontratacao/autorizacoes', { contratante: { cnpj: con.cnpj } })).status).toBe(201);
    });

    const pedido = (chave: string) => ({
      subcontratada: { cnpj: sub.cnpj },
      motorista: { cpf: MOTORISTA_CPF },
      placa: PLACA,
      ctes: [{ chave, valor: 80 }],
    });
    const logDoContratante = async () => (await con.call('GET', '/v1/auditoria/eventos?limite=1000')).body.data as Evento[];
    const logDaSubcontratada = async () => (await auditorSub('/v1/auditoria/eventos?limite=1000')).body.data as Evento[];
    const doLote = (eventos: Evento[], batchId: string) => eventos.filter((e) => e.data.batch_id === batchId);
    /** The requester's log once it holds the batch's end: the emission processor records it after lote.concluido. */
    async function comOFim(batchId: string): Promise<Evento[]> {
      for (let i = 0; i < 100; i++) {
        const eventos = await logDoContratante();
        if (eventos.some((e) => e.type === 'solicitacao_lote.concluida' && e.data.batch_id === batchId)) return eventos;
        await new Promise((res) => setTimeout(res, 100));
      }
      throw new Error(`the end of batch ${batchId} never reached the requester's log`);
    }
    /** A batch on the subcontractor's account with the contractor as requester, created without the request's record. */
    async function criadoSemRegistro(batchId: string, chave: string): Promise<void> {
      const plano = resolverLote(pedido(chave), { motoristas: new Set([MOTORISTA_CPF]), placas: new Set([PLACA]) });
      const { store, readYourWrites, clock } = app.running.platform;
      await execute({ store, readYourWrites }, loteStream(batchId), loteDecider, criarLoteSolicitado(batchId, sub, con, plano), {
        companyId: sub.companyId,
        correlationId: batchId,
        causationId: null,
        requestId: null,
        actor: 'system',
        now: clock(),
      });
    }

    it("the subcontractor's log and chain hold the whole batch; the contractor's, its request and outcome without the subcontractor's ids", async () => {
      const post = await con.call('POST', '/v1/fiscal/cte-subcontratacao/lote', pedido(await receberCteDoContratante(sub, con.cnpj)));
      expect(post.status).toBe(202);
      const batchId = post.body.data.batch_id as string;
      const requestId = post.headers.get('x-request-id');
      const relatorio = (await relatorioFinal(con, batchId)).body.data;
      expect(relatorio.status).toBe('done');

      const daSub = doLote(await logDaSubcontratada(), batchId);
      expect(daSub[0]).toMatchObject({
        type: 'lote.criado',
        stream: `lote-${batchId}`,
        actor: `credential:${con.credentialId}`,
        request_id: requestId,
        data: { company_id: sub.companyId },
      });
      const tipos = daSub.map((e) => e.type);
      expect(tipos).toEqual(expect.arrayContaining(['lote.linha_processada', 'lote.linha_emitida', 'lote.concluido']));
      expect(tipos.filter((t) => t === 'lote.criado')).toHaveLength(tipos.filter((t) => t === 'lote.concluido').length);
      const verificacaoSub = (await auditorSub('/v1/auditoria/verificacao')).body.data;
      expect(verificacaoSub).toMatchObject({ integra: true, primeiro_evento_divergente: null });
      expect(verificacaoSub.eventos_verificados).toBe((await logDaSubcontratada()).length);

      const doCon = await comOFim(batchId);
      expect(doCon.filter((e) => e.type.startsWith('lote.'))).toEqual([]);
      expect(doLote(doCon, batchId)).toEqual([
        expect.objectContaining({
          type: 'solicitacao_lote.aceita',
          stream: `solicitacao-lote-${batchId}`,
          actor: `credential:${con.credentialId}`,
          request_id: requestId,
          data: {
            batch_id: batchId,
            company_id: con.companyId,
            subcontratada: { cnpj: sub.cnpj, nome: 'SUBCONTRATADA AUDITADA LTDA' },
            modo: '1a1',
            total_linhas: 1,
          },
        }),
        expect.objectContaining({
          type: 'solicitacao_lote.concluida',
          actor: 'processor:emission',
          causation_id: daSub.find((e) => e.type === 'lote.concluido')!.id,
          data: { batch_id: batchId, company_id: con.companyId, status: 'done', total_linhas: 1, emitidas: 1, duplicadas: 0, falhas: 0 },
        }),
      ]);
      expect(JSON.stringify(doCon)).not.toContain(sub.companyId);
      expect((await con.call('GET', '/v1/auditoria/verificacao')).body.data).toMatchObject({
        integra: true,
        eventos_verificados: doCon.length,
      });

      // The batch's history: its owner reads the batch's stream, its requester its own record of the request.
      const historicoSub = (await auditorSub(`/v1/auditoria/historico/lote/${batchId}`)).body.data.eventos as Evento[];
      expect(historicoSub.map((e) => e.id)).toEqual(daSub.map((e) => e.id));
      const historicoCon = await historico(con, 'lote', batchId);
      expect(historicoCon.status).toBe(200);
      expect(historicoCon.body.data.eventos.map((e: Evento) => e.type)).toEqual(['solicitacao_lote.aceita', 'solicitacao_lote.concluida']);
      expect(historicoCon.text).not.toContain(sub.companyId);
      expectError(await historico(semEscopo, 'lote', batchId), 403, 'escopo_nao_habilitado');
      expectError(await historico(b, 'lote', batchId), 404, 'nao_encontrado');
    });

    it('a retry with the Idempotency-Key records a request whose first answer failed after the batch was created', async () => {
      const chave = await receberCteDoContratante(sub, con.cnpj);
      const idempotencyKey = `retry-${chave.slice(-12)}`;
      const batchId = derivedEventId(con.companyId, `lote:${idempotencyKey}`);
      await criadoSemRegistro(batchId, chave);
      const retry = await con.call('POST', '/v1/fiscal/cte-subcontratacao/lote', pedido(chave), { 'idempotency-key': idempotencyKey });
      expect(retry.status).toBe(202);
      expect(retry.body.data.batch_id).toBe(batchId);
      const doCon = doLote(await comOFim(batchId), batchId);
      expect(doCon.map((e) => [e.type, e.actor, e.request_id])).toEqual([
        ['solicitacao_lote.aceita', `credential:${con.credentialId}`, retry.headers.get('x-request-id')],
        ['solicitacao_lote.concluida', 'processor:emission', null],
      ]);
    });

    it("without a retry, the batch's end records the missing request first, from the batch and the subcontractor's public names", async () => {
      const batchId = '6d2f7a0e-5b1c-4e8a-9c3d-2f4b6a8c0e1f';
      await criadoSemRegistro(batchId, await receberCteDoContratante(sub, con.cnpj));
      const doCon = doLote(await comOFim(batchId), batchId);
      expect(doCon.map((e) => [e.type, e.actor])).toEqual([
        ['solicitacao_lote.aceita', 'processor:emission'],
        ['solicitacao_lote.concluida', 'processor:emission'],
      ]);
      expect(doCon[0]!.data).toEqual({
        batch_id: batchId,
        company_id: con.companyId,
        subcontratada: { cnpj: sub.cnpj, nome: 'SUBCONTRATADA AUDITADA LTDA' },
        modo: '1a1',
        total_linhas: 1,
      });
      expect((await con.call('GET', '/v1/auditoria/verificacao')).body.data).toMatchObject({ integra: true });
    });
  });

  describe('OpenAPI', () => {
    it('documents the three routes with the auditoria scope, NDJSON and examples', async () => {
      const doc = (await request(`${app.url}/v1/openapi.json`, 'GET')).body;
      const eventos = doc.paths['/v1/auditoria/eventos'].get;
      expect(Object.keys(eventos.responses['200'].content)).toEqual(expect.arrayContaining(['application/json', 'application/x-ndjson']));
      expect(doc.paths['/v1/auditoria/historico/{recurso}/{id}'].get).toBeDefined();
      expect(doc.paths['/v1/auditoria/verificacao'].get).toBeDefined();
      // OpenAPI 3.1 schemas are JSON Schema 2020-12: `examples` is an array.
      expect(doc.components.schemas.EventoAuditado.examples[0]).toMatchObject({
        type: 'configuracao.atualizada',
        recorded_schema_version: 1,
      });
      expect(doc.components.schemas.VerificacaoCadeia.examples[0]).toEqual({
        integra: true,
        primeiro_evento_divergente: null,
        eventos_verificados: 1234,
      });
    });
  });
});
