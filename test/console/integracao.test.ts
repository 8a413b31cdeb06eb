import { createHash } from 'node:crypto';
import { Rejection } from '@frete/domain';
import { request, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { type NavegadorHttp, sessaoDe } from '../support/console';
import { iniciarReceptor, type Receptor, verificar, AMBIENTE_COM_WEBHOOKS } from '../support/receptor-webhooks';

const BASE = '/console/integracao';

/** Posts a form whose fields may repeat (checkboxes), with the page's form token, as a browser would. */
async function postarPares(app: TestApp, nav: NavegadorHttp, path: string, pares: [string, string][]) {
  const body = new URLSearchParams([['_csrf', nav.csrf ?? ''], ...pares]);
  const res = await fetch(app.url + path, {
    method: 'POST',
    headers: { cookie: [...nav.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
    body,
    redirect: 'manual',
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

const entre = (html: string, re: RegExp): string => {
  const m = re.exec(html);
  if (!m) throw new Error(`nothing matches ${re} in the page`);
  return m[1]!;
};

/** Issue 18, point 2: integration settings (credentials and webhooks), for a company's admins only. */
describe('the panel: integration settings (/console/integracao)', () => {
  let app: TestApp;
  let receptor: Receptor;
  let carrier: TestCarrier;
  let outra: TestCarrier;
  let admin: NavegadorHttp;
  const atorDe = (c: TestCarrier) => `usuario:usuario-admin-${c.companyId}`;

  beforeAll(async () => {
    receptor = await iniciarReceptor();
    app = await startTestApp(AMBIENTE_COM_WEBHOOKS);
    carrier = await app.carrier({ scopes: ['fiscal', 'webhooks'] });
    outra = await app.carrier({ scopes: ['fiscal', 'webhooks'] });
    admin = await sessaoDe(app, carrier, 'admin');
  });
  afterAll(async () => {
    await app?.close();
    await receptor?.close();
  });

  const status = (authorization: string) => request(`${app.url}/v1/fiscal/status`, 'GET', undefined, { authorization });
  const atorDoEvento = async (tipo: string, campo: string, valor: string) => {
    const { rows } = await app.db.pool.query<{ actor: string }>(
      `SELECT metadata->>'actor' AS actor FROM es_events WHERE event_type = $1 AND data->>$2 = $3`,
      [tipo, campo, valor],
    );
    return rows.map((r) => r.actor);
  };

  describe('credentials', () => {
    it('offers exactly the environment the deployment serves and every scope', async () => {
      const res = await admin.get(BASE);
      expect(res.status).toBe(200);
      const ambiente = entre(res.html, /<select id="campo-ambiente" name="ambiente"[^>]*>(.*?)<\/select>/);
      expect([...ambiente.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1])).toEqual(['homologacao']);
      for (const s of ['fiscal', 'operacao', 'cadastros', 'consultas', 'auditoria', 'webhooks']) {
        expect(res.html).toContain(`name="escopos" value="${s}"`);
      }
      expect(res.html).toContain('href="/console/integracao/webhooks"');
    });

    it('creates a static key shown once that works against the API, lists it without the secret, and revokes it after a confirmation', async () => {
      await admin.get(BASE);
      const criada = await admin.post(`${BASE}/credenciais`, { tipo: 'api-key', ambiente: 'homologacao', escopos: 'fiscal' });
      expect(criada.status).toBe(201);
      expect(criada.headers.get('cache-control')).toBe('no-store');
      expect(criada.html).toContain('não será mostrado de novo');
      const chave = entre(
        criada.html,
        /<label for="segredo-api_key">Chave da API<\/label><input id="segredo-api_key"[^>]* value="(fk_hml_[\w-]+)"/,
      );

      const ok = await status(`Bearer ${chave}`);
      expect(ok.status).toBe(200);
      expect(ok.body.data.empresa.cnpj).toBe(carrier.cnpj);

      const lista = await admin.get(BASE);
      expect(lista.html).not.toContain(chave);
      expect(lista.html).toContain(`${chave.slice(0, 11)}…`);
      const sha = createHash('sha256').update(chave).digest('hex');
      const { rows } = await app.db.pool.query<{ id: string }>(
        `SELECT data->>'credential_id' AS id FROM es_events WHERE event_type = 'credential.issued' AND data->>'secret_sha256' = $1`,
        [sha],
      );
      const id = rows[0]!.id;
      expect(await atorDoEvento('credential.issued', 'credential_id', id)).toEqual([atorDe(carrier)]);
      expect(lista.html).toContain(`action="${BASE}/credenciais/${id}/revogar"`);

      // The row's button asks first; nothing is revoked yet.
      const pergunta = await admin.post(`${BASE}/credenciais/${id}/revogar`, {});
      expect(pergunta.status).toBe(200);
      expect(pergunta.html).toContain('Confirmar revogação');
      expect((await status(`Bearer ${chave}`)).status).toBe(200);

      const revogada = await admin.post(`${BASE}/credenciais/${id}/revogar`, { confirmar: 'sim' });
      expect(revogada.status).toBe(303);
      expect(revogada.headers.get('location')).toMatch(/^\/console\/integracao\?aviso=/);
      expect((await status(`Bearer ${chave}`)).status).toBe(401);
      expect(await atorDoEvento('credential.revoked', 'credential_id', id)).toEqual([atorDe(carrier)]);
      const depois = await admin.get(revogada.headers.get('location')!);
      expect(depois.html).toContain('Credencial revogada.');
      expect(depois.html).toMatch(/Revogada em/);
      expect(depois.html).not.toContain(`action="${BASE}/credenciais/${id}/revogar"`);
    });

    it('creates an OAuth client whose secret, shown once, gets a token the API accepts', async () => {
      await admin.get(BASE);
      const criada = await postarPares(app, admin, `${BASE}/credenciais`, [
        ['tipo', 'oauth'],
        ['ambiente', 'homologacao'],
        ['escopos', 'operacao'],
        ['escopos', 'fiscal'],
      ]);
      expect(criada.status).toBe(201);
      const clientId = entre(criada.html, /id="segredo-client_id"[^>]* value="(cli_hml_[\w-]+)"/);
      const clientSecret = entre(criada.html, /id="segredo-client_secret"[^>]* value="(cs_[\w-]+)"/);
      expect(criada.html).toContain('fiscal, operacao');

      const token = await fetch(`${app.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
      });
      expect(token.status).toBe(200);
      const corpo = (await token.json()) as { access_token: string; scope: string };
      expect(corpo.scope).toBe('fiscal operacao');
      const ok = await status(`Bearer ${corpo.access_token}`);
      expect(ok.status).toBe(200);
      expect(ok.body.data.credencial).toEqual({ tipo: 'oauth', escopos: ['fiscal', 'operacao'] });

      const lista = await admin.get(BASE);
      expect(lista.html).toContain(clientId);
      expect(lista.html).not.toContain(clientSecret);
    });

    it('re-renders the form with 400 and the message for a bad input, keeping what was typed', async () => {
      await admin.get(BASE);
      const antes = await app.db.pool.query(`SELECT count(*)::int AS n FROM rm.credentials WHERE company_id = $1`, [carrier.companyId]);
      const semEscopo = await admin.post(`${BASE}/credenciais`, { tipo: 'oauth', ambiente: 'homologacao' });
      expect(semEscopo.status).toBe(400);
      expect(semEscopo.html).toContain('Marque ao menos um escopo');
      expect(semEscopo.html).toMatch(/<option value="oauth" selected/);

      const outroAmbiente = await admin.post(`${BASE}/credenciais`, { tipo: 'api-key', ambiente: 'producao', escopos: 'fiscal' });
      expect(outroAmbiente.status).toBe(400);
      expect(outroAmbiente.html).toContain('só para Homologação');
      expect(outroAmbiente.html).toMatch(/name="escopos" value="fiscal" checked/);

      const tipo = await admin.post(`${BASE}/credenciais`, { tipo: 'senha', ambiente: 'homologacao', escopos: 'fiscal' });
      expect(tipo.status).toBe(400);
      const escopo = await admin.post(`${BASE}/credenciais`, { tipo: 'api-key', ambiente: 'homologacao', escopos: 'admin' });
      expect(escopo.status).toBe(400);
      expect(escopo.html).toContain('Escopo desconhecido: admin');
      const depois = await app.db.pool.query(`SELECT count(*)::int AS n FROM rm.credentials WHERE company_id = $1`, [carrier.companyId]);
      expect(depois.rows[0].n).toBe(antes.rows[0].n);
    });

    it("never lists another company's credentials, and cannot revoke them (404 page)", async () => {
      const lista = await admin.get(BASE);
      expect(lista.html).not.toContain(outra.credentialId);
      expect(lista.html).toContain(carrier.credentialId);
      for (const form of [{}, { confirmar: 'sim' }] as Record<string, string>[]) {
        const res = await admin.post(`${BASE}/credenciais/${outra.credentialId}/revogar`, form);
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      }
      expect((await admin.post(`${BASE}/credenciais/nao-existe/revogar`, { confirmar: 'sim' })).status).toBe(404);
      expect((await outra.call('GET', '/v1/fiscal/status')).status).toBe(200);
      // The handler checks the tenant too, whoever calls it.
      const ctx = {
        companyId: carrier.companyId,
        correlationId: 'teste',
        causationId: null,
        requestId: null,
        actor: 'usuario:teste',
        now: new Date(),
      };
      await expect(app.running.application.handlers.credential.revogar(ctx, outra.credentialId)).rejects.toMatchObject(
        new Rejection('nao_encontrado', `credential ${outra.credentialId} not found`),
      );
    });
  });

  describe('webhooks', () => {
    it('creates an endpoint (secret shown once), lists it, sends a test delivery to its log, disables, re-enables and removes it', async () => {
      const pagina = await admin.get(`${BASE}/webhooks`);
      expect(pagina.status).toBe(200);
      expect(pagina.html).toContain('name="eventos" value="cte.autorizado"');
      const url = `${receptor.url}/painel`;
      const criado = await postarPares(app, admin, `${BASE}/webhooks`, [
        ['url', url],
        ['descricao', 'ERP da matriz'],
        ['eventos', 'cte.autorizado'],
        ['eventos', 'lote.concluido'],
      ]);
      expect(criado.status).toBe(201);
      expect(criado.headers.get('cache-control')).toBe('no-store');
      const segredo = entre(criado.html, /id="segredo-segredo"[^>]* value="(whsec_[A-Za-z0-9+/=]+)"/);
      const id = entre(criado.html, /href="\/console\/integracao\/webhooks\/([0-9a-f-]{36})"/);
      expect(await atorDoEvento('webhook.criado', 'webhook_id', id)).toEqual([atorDe(carrier)]);

      const lista = await admin.get(`${BASE}/webhooks`);
      expect(lista.html).toContain(url);
      expect(lista.html).toContain('cte.autorizado, lote.concluido');
      expect(lista.html).not.toContain(segredo);
      const api = await carrier.call('GET', `/v1/webhooks/${id}`);
      expect(api.body.data).toMatchObject({ url, eventos: ['cte.autorizado', 'lote.concluido'], descricao: 'ERP da matriz', ativo: true });

      const detalhe = await admin.get(`${BASE}/webhooks/${id}`);
      expect(detalhe.status).toBe(200);
      expect(detalhe.html).toContain('Nenhuma entrega ainda.');
      expect(detalhe.html).not.toContain(segredo);
      const teste = await admin.post(`${BASE}/webhooks/${id}/teste`, {});
      expect(teste.status).toBe(303);
      const [recebido] = await receptor.esperar('/painel', 1);
      expect(verificar(segredo, recebido!)).toMatchObject({ type: 'webhook.teste' });
      let log = '';
      for (let i = 0; i < 200 && !log.includes('Entregue'); i++) {
        log = (await admin.get(`${BASE}/webhooks/${id}`)).html;
        if (!log.includes('Entregue')) await new Promise((r) => setTimeout(r, 25));
      }
      expect(log).toContain('webhook.teste');
      expect(log).toContain('Entregue');
      expect(log).toContain(`hx-get="${BASE}/webhooks/${id}/entregas?pagina=1"`);
      // The log refreshes itself: htmx fetches the table alone.
      const fragmento = await admin.get(`${BASE}/webhooks/${id}/entregas`, { 'hx-request': 'true' });
      expect(fragmento.status).toBe(200);
      expect(fragmento.html).toMatch(/^<div id="entregas-log"/);
      expect(fragmento.html).toContain('webhook.teste');
      expect(fragmento.html).not.toContain('<html');

      expect((await admin.post(`${BASE}/webhooks/${id}/desativar`, {})).status).toBe(303);
      expect((await carrier.call('GET', `/v1/webhooks/${id}`)).body.data.ativo).toBe(false);
      expect(await atorDoEvento('webhook.desativado', 'webhook_id', id)).toEqual([atorDe(carrier)]);
      const desativado = await admin.get(`${BASE}/webhooks/${id}`);
      expect(desativado.html).toContain('Desativado em');
      expect(desativado.html).toContain('Reativar');
      expect(desativado.html).not.toContain('Enviar evento de teste');
      // A business refusal of the handler: its 422 page with the message.
      const recusado = await admin.post(`${BASE}/webhooks/${id}/teste`, {});
      expect(recusado.status).toBe(422);
      expect(recusado.html).toContain('is disabled: re-enable it first');
      expect((await admin.post(`${BASE}/webhooks/${id}/reativar`, {})).status).toBe(303);
      expect((await carrier.call('GET', `/v1/webhooks/${id}`)).body.data.ativo).toBe(true);

      await admin.get(`${BASE}/webhooks/${id}`);
      const pergunta = await admin.post(`${BASE}/webhooks/${id}/remover`, {});
      expect(pergunta.status).toBe(200);
      expect(pergunta.html).toContain('Confirmar remoção');
      const removido = await admin.post(`${BASE}/webhooks/${id}/remover`, { confirmar: 'sim' });
      expect(removido.status).toBe(303);
      expect(removido.headers.get('location')).toMatch(/^\/console\/integracao\/webhooks\?aviso=/);
      expect((await carrier.call('GET', `/v1/webhooks/${id}`)).status).toBe(404);
      expect((await admin.get(`${BASE}/webhooks`)).html).not.toContain(url);
      expect((await admin.get(`${BASE}/webhooks/${id}`)).status).toBe(404);
      expect(await atorDoEvento('webhook.removido', 'webhook_id', id)).toEqual([atorDe(carrier)]);
    });

    it('re-renders the form with 400 for a bad URL or no event, with the message', async () => {
      await admin.get(`${BASE}/webhooks`);
      const semUrl = await admin.post(`${BASE}/webhooks`, { url: '', eventos: 'cte.autorizado' });
      expect(semUrl.status).toBe(400);
      expect(semUrl.html).toContain('Informe a URL');
      const semEvento = await admin.post(`${BASE}/webhooks`, { url: `${receptor.url}/x`, descricao: 'digitado' });
      expect(semEvento.status).toBe(400);
      expect(semEvento.html).toContain('Marque ao menos um evento');
      expect(semEvento.html).toContain('value="digitado"');
      const privado = await admin.post(`${BASE}/webhooks`, { url: 'https://10.0.0.1/ganchos', eventos: 'cte.autorizado' });
      expect(privado.status).toBe(400);
      expect(privado.html).toContain('value="https://10.0.0.1/ganchos"');
      const esquema = await admin.post(`${BASE}/webhooks`, { url: 'ftp://exemplo.com.br/x', eventos: 'cte.autorizado' });
      expect(esquema.status).toBe(400);
      expect(esquema.html).toContain('the scheme must be https');
      const evento = await admin.post(`${BASE}/webhooks`, { url: `${receptor.url}/x`, eventos: 'cte.inventado' });
      expect(evento.status).toBe(400);
      expect(evento.html).toContain('Evento desconhecido: cte.inventado');
    });

    it("never lists another company's endpoints, nor shows or changes them (404 page)", async () => {
      const delas = await outra.call('POST', '/v1/webhooks', { url: `${receptor.url}/outra`, eventos: ['cte.autorizado'] });
      expect(delas.status).toBe(201);
      const id = delas.body.data.id as string;
      expect((await admin.get(`${BASE}/webhooks`)).html).not.toContain('/outra');
      expect((await admin.get(`${BASE}/webhooks/${id}`)).status).toBe(404);
      expect((await admin.get(`${BASE}/webhooks/${id}/entregas`, { 'hx-request': 'true' })).status).toBe(404);
      for (const acao of ['remover', 'desativar', 'teste']) {
        const res = await admin.post(`${BASE}/webhooks/${id}/${acao}`, { confirmar: 'sim' });
        expect({ acao, status: res.status }).toEqual({ acao, status: 404 });
      }
      expect((await outra.call('GET', `/v1/webhooks/${id}`)).body.data.ativo).toBe(true);
    });
  });

  describe('who may use it', () => {
    it.each(['operador', 'leitura'] as const)('answers %s a 403 page for every page and form', async (papel) => {
      const nav = await sessaoDe(app, carrier, papel);
      for (const path of [BASE, `${BASE}/webhooks`]) {
        const res = await nav.get(path);
        expect({ path, status: res.status }).toEqual({ path, status: 403 });
        expect(res.html).toContain('só para administradores');
      }
      await nav.get('/console');
      expect(nav.csrf).toBeTruthy();
      const antes = await app.db.pool.query(`SELECT count(*)::int AS n FROM rm.credentials WHERE company_id = $1`, [carrier.companyId]);
      const posts: [string, Record<string, string>][] = [
        [`${BASE}/credenciais`, { tipo: 'api-key', ambiente: 'homologacao', escopos: 'fiscal' }],
        [`${BASE}/credenciais/${carrier.credentialId}/revogar`, { confirmar: 'sim' }],
        [`${BASE}/webhooks`, { url: `${receptor.url}/papel`, eventos: 'cte.autorizado' }],
      ];
      for (const [path, form] of posts) {
        const res = await nav.post(path, form);
        expect({ path, status: res.status }).toEqual({ path, status: 403 });
      }
      const depois = await app.db.pool.query(`SELECT count(*)::int AS n FROM rm.credentials WHERE company_id = $1`, [carrier.companyId]);
      expect(depois.rows[0].n).toBe(antes.rows[0].n);
      expect((await carrier.call('GET', '/v1/fiscal/status')).status).toBe(200);
    });

    it('refuses a POST without the form token with 403', async () => {
      await admin.get(BASE);
      const res = await admin.post(`${BASE}/credenciais`, { _csrf: '', tipo: 'api-key', ambiente: 'homologacao', escopos: 'fiscal' });
      expect(res.status).toBe(403);
      const webhook = await admin.post(`${BASE}/webhooks`, { _csrf: '', url: `${receptor.url}/csrf`, eventos: 'cte.autorizado' });
      expect(webhook.status).toBe(403);
    });
  });
});
