import { type ApiResponse, expectError, startTestApp, type TestApp, type TestCarrier } from '../support/app';

/** A JSON answer's body, as the tests read it. */
type Json = ApiResponse['body'];
import { cteAutorizado, emissora } from '../support/emissora';
import { iniciarReceptor, type Receptor, verificar } from '../support/receptor-webhooks';

/**
 * Webhooks over real HTTP: a receiver on 127.0.0.1 (allowed by WEBHOOKS_ALLOWED_HOSTS) verifying every signature with
 * `standardwebhooks`; retry schedule in milliseconds so that the retry window (1.5 s) ends within a test.
 */
describe('webhooks', () => {
  let app: TestApp;
  let receptor: Receptor;
  let c: TestCarrier;
  let outra: TestCarrier;

  beforeAll(async () => {
    receptor = await iniciarReceptor();
    app = await startTestApp({
      SERVICES: 'api,projector,emission-processor,payout-processor,webhooks-processor',
      WEBHOOKS_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOKS_RETRY_BASE_MS: '20',
      WEBHOOKS_RETRY_MAX_MS: '80',
      WEBHOOKS_RETRY_WINDOW_MS: '1500',
      WEBHOOKS_TIMEOUT_MS: '1000',
      WEBHOOKS_POLL_MS: '25',
    });
    c = await emissora(app, 'WEBHOOKS TRANSPORTES LTDA', ['fiscal', 'webhooks']);
    outra = await app.carrier({ scopes: ['webhooks'] });
  });
  afterAll(async () => {
    await app?.close();
    await receptor?.close();
  });

  const criar = async (path: string, eventos: string[] = ['cte.autorizado'], who: TestCarrier = c) => {
    const r = await who.call('POST', '/v1/webhooks', { url: `${receptor.url}${path}`, eventos });
    expect(r.status).toBe(201);
    return { id: r.body.data.id as string, secret: r.body.data.secret as string };
  };

  /** Polls one delivery until `done`. */
  const entregaAte = async (webhookId: string, entregaId: string, done: (d: Json) => boolean, who: TestCarrier = c) => {
    for (let i = 0; i < 400; i++) {
      const r = await who.call('GET', `/v1/webhooks/${webhookId}/entregas/${entregaId}`);
      expect(r.status).toBe(200);
      if (done(r.body.data)) return r.body.data;
      await new Promise((res) => setTimeout(res, 25));
    }
    throw new Error(`delivery ${entregaId} did not reach the expected state`);
  };

  describe('endpoints', () => {
    it('replays a creation retried with its Idempotency-Key: the same endpoint and secret, stored sealed', async () => {
      const key = `webhook-${Date.now()}`;
      const body = { url: `${receptor.url}/idempotente`, eventos: ['cte.autorizado'] };
      const primeiro = await c.call('POST', '/v1/webhooks', body, { 'idempotency-key': key });
      expect(primeiro.status).toBe(201);
      const again = await c.call('POST', '/v1/webhooks', body, { 'idempotency-key': key });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.data).toEqual(primeiro.body.data);
      const secret = primeiro.body.data.secret as string;
      const { rows } = await app.db.pool.query<{ body: Buffer }>('SELECT body FROM idempotency_keys WHERE company_id = $1 AND key = $2', [
        c.companyId,
        key,
      ]);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.body.toString('latin1')).not.toContain(secret.slice('whsec_'.length));
      expect(rows[0]!.body.toString('latin1')).not.toContain('idempotente');
      const lista = await c.call('GET', '/v1/webhooks');
      expect(lista.body.data.filter((w: { url: string }) => w.url.endsWith('/idempotente'))).toHaveLength(1);
    });

    it('creates (secret once), reads, lists, updates, rotates and removes an endpoint', async () => {
      const criado = await c.call('POST', '/v1/webhooks', {
        url: `${receptor.url}/crud`,
        eventos: ['cte.autorizado', 'lote.concluido', 'cte.autorizado'],
        descricao: 'ERP',
      });
      expect(criado.status).toBe(201);
      const d = criado.body.data;
      expect(d.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(d).toMatchObject({
        url: `${receptor.url}/crud`,
        eventos: ['cte.autorizado', 'lote.concluido'],
        ativo: true,
        segredo_versao: 1,
      });
      expect(criado.body.environment).toBe('homologacao');

      const lido = await c.call('GET', `/v1/webhooks/${d.id}`);
      expect(lido.status).toBe(200);
      expect(lido.body.data.secret).toBeUndefined();
      expect(lido.body.data.segredo_impressao).toBe(d.segredo_impressao);

      const lista = await c.call('GET', '/v1/webhooks');
      expect(lista.status).toBe(200);
      expect(lista.body.data.map((w: { id: string }) => w.id)).toContain(d.id);
      expect(lista.body.meta).toMatchObject({ page: 1, per_page: 20 });

      const alterado = await c.call('PATCH', `/v1/webhooks/${d.id}`, { eventos: ['mdfe.encerrado'], descricao: null });
      expect(alterado.status).toBe(200);
      expect(alterado.body.data).toMatchObject({ eventos: ['mdfe.encerrado'], descricao: null, url: `${receptor.url}/crud` });

      const rotacao = await c.call('POST', `/v1/webhooks/${d.id}/segredo`);
      expect(rotacao.status).toBe(200);
      expect(rotacao.body.data.secret).toMatch(/^whsec_/);
      expect(rotacao.body.data.secret).not.toBe(d.secret);
      expect(rotacao.body.data.segredo_versao).toBe(2);
      expect(rotacao.body.data.segredo_impressao).not.toBe(d.segredo_impressao);

      expect((await c.call('DELETE', `/v1/webhooks/${d.id}`)).status).toBe(204);
      expectError(await c.call('GET', `/v1/webhooks/${d.id}`), 404, 'nao_encontrado');
      expectError(await c.call('DELETE', `/v1/webhooks/${d.id}`), 404, 'nao_encontrado');
    });

    it('keeps the secret out of the event log (only its fingerprint)', async () => {
      const { id, secret } = await criar('/segredo-fora-do-log');
      const { rows } = await app.db.pool.query(`SELECT data::text AS data FROM es_events WHERE stream_id = $1`, [`webhook-${id}`]);
      expect(rows.length).toBe(1);
      expect(rows[0].data).not.toContain(secret.slice(6, 30));
      const sealed = await app.db.pool.query(`SELECT ciphertext FROM webhook_segredos WHERE webhook_id = $1`, [id]);
      expect(Buffer.from(sealed.rows[0].ciphertext).toString('latin1')).not.toContain(secret.slice(6, 30));
    });

    it('refuses bad input with clear codes', async () => {
      const url = `${receptor.url}/x`;
      const desconhecido = expectError(
        await c.call('POST', '/v1/webhooks', { url, eventos: ['cte.autorizado', 'cte.voou'] }),
        400,
        'validacao',
      );
      expect(desconhecido.error.message).toContain('cte.voou');
      expect(desconhecido.error.details.fields).toEqual([expect.objectContaining({ field: 'eventos.1' })]);
      expectError(await c.call('POST', '/v1/webhooks', { url, eventos: [] }), 400, 'validacao');
      expectError(await c.call('POST', '/v1/webhooks', { url }), 400, 'validacao');
      expectError(await c.call('POST', '/v1/webhooks', { url: 'not a url', eventos: ['cte.autorizado'] }), 400, 'validacao');
      expectError(await c.call('POST', '/v1/webhooks', { url: 'ftp://8.8.8.8/x', eventos: ['cte.autorizado'] }), 400, 'validacao');
      expectError(
        await c.call('POST', '/v1/webhooks', { url: 'https://user:pw@8.8.8.8/x', eventos: ['cte.autorizado'] }),
        400,
        'validacao',
      );
      expectError(await c.call('POST', '/v1/webhooks', { url, eventos: ['cte.autorizado'], extra: 1 }), 400, 'validacao');
      expectError(
        await c.call('POST', '/v1/webhooks', { url: `https://8.8.8.8/${'a'.repeat(2100)}`, eventos: ['cte.autorizado'] }),
        400,
        'validacao',
      );
      expectError(await c.call('POST', '/v1/webhooks', '{"url":', { 'content-type': 'application/json' }), 400, 'validacao');
      const { id } = await criar('/x');
      expectError(await c.call('PATCH', `/v1/webhooks/${id}`, {}), 400, 'validacao');
      expectError(await c.call('PATCH', `/v1/webhooks/${id}`, { eventos: ['nada.feito'] }), 400, 'validacao');
      expectError(await c.call('GET', `/v1/webhooks/${id}/entregas?status=talvez`), 400, 'validacao');
    });

    it('refuses non-HTTPS and non-public targets (SSRF), at creation and update', async () => {
      const eventos = ['cte.autorizado'];
      // 127.0.0.1 is this app's allow-list: see the suite without it below.
      for (const url of [
        'http://8.8.8.8/hook',
        'https://10.0.0.1/hook',
        'https://127.0.0.2/hook',
        'https://localhost/hook',
        'https://[::1]/hook',
        'https://169.254.169.254/latest/meta-data',
        'https://192.168.0.10/hook',
        'https://[fd00::1]/hook',
        'https://[::ffff:10.0.0.1]/hook',
        'https://100.64.0.1/hook',
        'https://0.0.0.0/hook',
      ]) {
        const r = await c.call('POST', '/v1/webhooks', { url, eventos });
        expect({ url, status: r.status, code: r.body?.error?.code }).toEqual({ url, status: 400, code: 'webhook_destino_recusado' });
      }
      // A public address over HTTPS is accepted (nothing is sent to it here).
      const publico = await c.call('POST', '/v1/webhooks', { url: 'https://8.8.8.8/hook', eventos });
      expect(publico.status).toBe(201);
      expectError(
        await c.call('PATCH', `/v1/webhooks/${publico.body.data.id}`, { url: 'https://10.1.2.3/x' }),
        400,
        'webhook_destino_recusado',
      );
      expect((await c.call('DELETE', `/v1/webhooks/${publico.body.data.id}`)).status).toBe(204);
    });

    it("isolates tenants: another company's endpoint and deliveries are not found", async () => {
      const { id } = await criar('/isolamento');
      const teste = await c.call('POST', `/v1/webhooks/${id}/teste`);
      expect(teste.status).toBe(202);
      const entregaId = teste.body.data.id as string;
      for (const [method, path, body] of [
        ['GET', `/v1/webhooks/${id}`],
        ['PATCH', `/v1/webhooks/${id}`, { descricao: 'x' }],
        ['DELETE', `/v1/webhooks/${id}`],
        ['POST', `/v1/webhooks/${id}/segredo`],
        ['POST', `/v1/webhooks/${id}/reativar`],
        ['POST', `/v1/webhooks/${id}/teste`],
        ['GET', `/v1/webhooks/${id}/entregas`],
        ['GET', `/v1/webhooks/${id}/entregas/${entregaId}`],
        ['POST', `/v1/webhooks/${id}/entregas/${entregaId}/reenvio`],
      ] as [string, string, unknown?][]) {
        expectError(await outra.call(method, path, body), 404, 'nao_encontrado');
      }
      expect((await outra.call('GET', '/v1/webhooks')).body.data).toEqual([]);
      // Malformed and unknown ids are not found either.
      expectError(await c.call('GET', '/v1/webhooks/nao-e-uuid'), 404, 'nao_encontrado');
      expectError(await c.call('POST', '/v1/webhooks/00000000-0000-4000-8000-000000000000/teste'), 404, 'nao_encontrado');
      expectError(await c.call('GET', `/v1/webhooks/${id}/entregas/00000000-0000-4000-8000-000000000000`), 404, 'nao_encontrado');
      expectError(await c.call('POST', `/v1/webhooks/${id}/entregas/xyz/reenvio`), 404, 'nao_encontrado');
    });

    it('needs the scope webhooks', async () => {
      const semEscopo = await app.carrier({ scopes: ['fiscal'] });
      expectError(await semEscopo.call('GET', '/v1/webhooks'), 403, 'escopo_nao_habilitado');
      expectError(
        await semEscopo.call('POST', '/v1/webhooks', { url: 'https://8.8.8.8/x', eventos: ['cte.autorizado'] }),
        403,
        'escopo_nao_habilitado',
      );
    });
  });

  describe('delivery', () => {
    it('delivers cte.autorizado of a CT-e issued in the sandbox, signed, with the payload shape', async () => {
      const { id, secret } = await criar('/cte', ['cte.autorizado', 'cte.rejeitado']);
      await criar('/cte-outra', ['cte.autorizado'], outra);
      const cte = await cteAutorizado(c);
      const [recebido] = await receptor.esperar('/cte', 1);
      const payload = verificar(secret, recebido!) as Json;
      expect(payload).toEqual({
        type: 'cte.autorizado',
        timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        data: expect.objectContaining({ id: cte.id, environment: 'homologacao', url: `/v1/fiscal/cte/${cte.id}`, chave: cte.chave }),
      });
      // A wrong secret does not verify.
      expect(() => verificar(`whsec_${Buffer.alloc(32).toString('base64')}`, recebido!)).toThrow();
      // The link answers the resource.
      expect((await c.call('GET', payload.data.url)).status).toBe(200);
      const lista = await c.call('GET', `/v1/webhooks/${id}/entregas`);
      expect(lista.status).toBe(200);
      expect(lista.body.data).toEqual([
        expect.objectContaining({
          id: recebido!.headers['webhook-id'],
          tipo: 'cte.autorizado',
          status: 'entregue',
          tentativas: 1,
          ultimo_status_http: 200,
        }),
      ]);
      expect(typeof lista.body.data[0].ultima_duracao_ms).toBe('number');
      // Another company's endpoint subscribed to the same type hears nothing of this company's CT-e.
      expect(receptor.dePath('/cte-outra')).toEqual([]);
    });

    it('an endpoint counts from its creation to its removal, though the processor keeps the subscribed endpoints in memory', async () => {
      // The processor looks up this company's endpoints for cte.autorizado here, and keeps the answer.
      const antes = await cteAutorizado(c);
      const { id } = await criar('/memoria', ['cte.autorizado']);
      const durante = await cteAutorizado(c);
      const recebidos = await receptor.esperar('/memoria', 1);
      expect(recebidos.map((r) => (JSON.parse(r.body) as Json).data.id)).toEqual([durante.id]);
      expect((await c.call('DELETE', `/v1/webhooks/${id}`)).status).toBe(204);
      const depois = await cteAutorizado(c);
      // The next endpoint's delivery of `depois` shows the processor handled it; the removed one heard nothing of it.
      await criar('/memoria-testemunha', ['cte.autorizado']);
      await cteAutorizado(c);
      await receptor.esperar('/memoria-testemunha', 1);
      expect(receptor.dePath('/memoria').map((r) => (JSON.parse(r.body) as Json).data.id)).toEqual([durante.id]);
      expect([antes.id, depois.id]).not.toContain(durante.id);
    });

    it('retries after a 500: the delivery log shows both attempts, and the same webhook-id', async () => {
      receptor.responder('/500-depois-200', [500, 200]);
      const { id, secret } = await criar('/500-depois-200');
      const teste = await c.call('POST', `/v1/webhooks/${id}/teste`);
      expect(teste.status).toBe(202);
      expect(teste.body.data).toMatchObject({ tipo: 'webhook.teste', status: 'pendente' });
      const entrega = await entregaAte(id, teste.body.data.id, (d) => d.status === 'entregue');
      expect(entrega.historico).toEqual([
        expect.objectContaining({ numero: 1, status_http: 500, resposta: 'answer 500 to request 1', erro: null }),
        expect.objectContaining({ numero: 2, status_http: 200, resposta: 'answer 200 to request 2' }),
      ]);
      const recebidos = receptor.dePath('/500-depois-200');
      expect(recebidos).toHaveLength(2);
      expect(new Set(recebidos.map((r) => r.headers['webhook-id']))).toEqual(new Set([teste.body.data.id]));
      for (const r of recebidos) expect((verificar(secret, r) as Json).type).toBe('webhook.teste');
      // Redelivery: sent again, a third attempt, with the same id.
      const reenvio = await c.call('POST', `/v1/webhooks/${id}/entregas/${teste.body.data.id}/reenvio`);
      expect(reenvio.status).toBe(202);
      const denovo = await entregaAte(id, teste.body.data.id, (d) => d.tentativas === 3 && d.status === 'entregue');
      expect(denovo.historico).toHaveLength(3);
      expect(receptor.dePath('/500-depois-200')).toHaveLength(3);
    });

    it('logs at most 1,024 characters of an answer, and does not follow a redirect', async () => {
      receptor.responder('/longa', [200], 'é'.repeat(5000));
      const longa = await criar('/longa');
      const t1 = await c.call('POST', `/v1/webhooks/${longa.id}/teste`);
      const e1 = await entregaAte(longa.id, t1.body.data.id, (d) => d.status === 'entregue');
      expect(e1.ultima_resposta).toBe('é'.repeat(1024));
      expect(e1.historico[0].resposta).toHaveLength(1024);

      receptor.responder('/redireciona', [302]);
      const redir = await criar('/redireciona');
      const t2 = await c.call('POST', `/v1/webhooks/${redir.id}/teste`);
      const e2 = await entregaAte(redir.id, t2.body.data.id, (d) => d.tentativas >= 1);
      expect(e2.historico[0]).toMatchObject({ status_http: 302 });
      expect(e2.status).not.toBe('entregue');
      expect(receptor.dePath('/redireciona/elsewhere')).toEqual([]);
      await c.call('DELETE', `/v1/webhooks/${redir.id}`);
    });

    it('checks the target again at each attempt (a host that now resolves to a private address is refused)', async () => {
      const criado = await c.call('POST', '/v1/webhooks', { url: 'https://8.8.8.8/hook', eventos: ['cte.autorizado'] });
      expect(criado.status).toBe(201);
      const id = criado.body.data.id as string;
      // As if its host's DNS answer changed after creation: what is sent now would reach the private network.
      await app.db.pool.query(`UPDATE rm.webhooks SET url = 'https://10.0.0.1/hook' WHERE webhook_id = $1`, [id]);
      const teste = await c.call('POST', `/v1/webhooks/${id}/teste`);
      const e = await entregaAte(id, teste.body.data.id, (d) => d.tentativas >= 1);
      expect(e.historico[0]).toMatchObject({ status_http: null, erro: expect.stringContaining('target refused') });
      expect(e.historico[0].erro).toContain('10.0.0.1 is a private address');
      await c.call('DELETE', `/v1/webhooks/${id}`);
    });

    it('signs with the rotated secret from the rotation on', async () => {
      const { id, secret } = await criar('/rotacao');
      const rot = await c.call('POST', `/v1/webhooks/${id}/segredo`);
      const novo = rot.body.data.secret as string;
      const teste = await c.call('POST', `/v1/webhooks/${id}/teste`);
      await entregaAte(id, teste.body.data.id, (d) => d.status === 'entregue');
      const [r] = receptor.dePath('/rotacao');
      expect((verificar(novo, r!) as Json).type).toBe('webhook.teste');
      expect(() => verificar(secret, r!)).toThrow();
    });

    it('disables an endpoint failing for a whole window; deliveries stop; re-enabling resumes them', async () => {
      receptor.responder('/sempre-500', [500]);
      const { id } = await criar('/sempre-500');
      const teste = await c.call('POST', `/v1/webhooks/${id}/teste`);
      const falha = await entregaAte(id, teste.body.data.id, (d) => d.status === 'falhou');
      expect(falha.historico.length).toBeGreaterThanOrEqual(3);
      expect(falha.historico.every((t: { status_http: number }) => t.status_http === 500)).toBe(true);
      let w;
      for (let i = 0; i < 200; i++) {
        w = await c.call('GET', `/v1/webhooks/${id}`);
        if (!w.body.data.ativo) break;
        await new Promise((res) => setTimeout(res, 25));
      }
      expect(w!.body.data).toMatchObject({ ativo: false, desativado_motivo: 'every delivery failed for 1.5 s (last: HTTP 500)' });
      // Nothing more is sent: a test and a redelivery are refused, and the receiver hears nothing new.
      const antes = receptor.dePath('/sempre-500').length;
      expectError(await c.call('POST', `/v1/webhooks/${id}/teste`), 422, 'webhook_desativado');
      expectError(await c.call('POST', `/v1/webhooks/${id}/entregas/${teste.body.data.id}/reenvio`), 422, 'webhook_desativado');
      await new Promise((res) => setTimeout(res, 300));
      expect(receptor.dePath('/sempre-500').length).toBe(antes);

      receptor.responder('/sempre-500', [200]);
      const reativado = await c.call('POST', `/v1/webhooks/${id}/reativar`);
      expect(reativado.status).toBe(200);
      expect(reativado.body.data).toMatchObject({ ativo: true, desativado_motivo: null });
      const outro = await c.call('POST', `/v1/webhooks/${id}/teste`);
      expect(outro.status).toBe(202);
      await entregaAte(id, outro.body.data.id, (d) => d.status === 'entregue');
    });

    it('a receiver that never answers does not slow the API; the attempt times out', async () => {
      receptor.responder('/nunca', 'nunca');
      const { id } = await criar('/nunca', ['cte.autorizado']);
      const teste = await c.call('POST', `/v1/webhooks/${id}/teste`);
      await receptor.esperar('/nunca', 1);
      // While the receiver holds a delivery open, the API answers (reads and writes): no timing threshold, the answers
      // are counted as they arrive with the request still hanging at the receiver.
      let respondidasComEntregaPendurada = 0;
      for (let i = 0; i < 5; i++) {
        expect((await c.call('GET', '/v1/webhooks')).status).toBe(200);
        expect((await c.call('GET', `/v1/webhooks/${id}`)).status).toBe(200);
        if (receptor.pendurados() > 0) respondidasComEntregaPendurada++;
      }
      expect((await c.call('POST', '/v1/webhooks', { url: `${receptor.url}/outro`, eventos: ['lote.concluido'] })).status).toBe(201);
      expect(respondidasComEntregaPendurada).toBeGreaterThan(0);
      const e = await entregaAte(id, teste.body.data.id, (d) => d.tentativas >= 1);
      expect(e.historico[0]).toMatchObject({ status_http: null, erro: expect.stringContaining('TIMEOUT') });
      // The other processors go on: a CT-e is issued and authorized meanwhile, and its event is recorded for the endpoint.
      const cte = await cteAutorizado(c);
      const doCte = await receptor.esperarUm('/nunca', (r) => (JSON.parse(r.body) as Json).data.id === cte.id);
      expect((JSON.parse(doCte.body) as Json).type).toBe('cte.autorizado');
      // Removing the endpoint ends its pending deliveries: the CT-e's, whose attempt the receiver still holds (its retry
      // window, 1.5 s, is far from over), ends as removed; the test delivery's window may have ended first, under load.
      expect((await c.call('DELETE', `/v1/webhooks/${id}`)).status).toBe(204);
      const { rows } = await app.db.pool.query(
        `SELECT payload->>'type' AS tipo, status, ultimo_erro FROM webhook_entregas WHERE webhook_id = $1 ORDER BY seq`,
        [id],
      );
      expect(rows).toEqual([
        { tipo: 'webhook.teste', status: 'falhou', ultimo_erro: expect.stringMatching(/^(the endpoint was removed|TIMEOUT: .*)$/) },
        { tipo: 'cte.autorizado', status: 'falhou', ultimo_erro: 'the endpoint was removed' },
      ]);
    });
  });
});

describe('webhooks without an allow-list', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ SERVICES: 'api,projector,webhooks-processor' });
  });
  afterAll(() => app?.close());

  it('refuses plain HTTP and loopback targets, 127.0.0.1 included', async () => {
    const c = await app.carrier({ scopes: ['webhooks'] });
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://[::1]/hook',
      'https://10.0.0.1/hook',
    ]) {
      const r = await c.call('POST', '/v1/webhooks', { url, eventos: ['lote.concluido'] });
      expect({ url, status: r.status, code: r.body?.error?.code }).toEqual({ url, status: 400, code: 'webhook_destino_recusado' });
    }
  });
});
