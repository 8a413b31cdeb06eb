import { randomUUID } from 'node:crypto';
import { codigoTotp } from '@frete/application';
import { type PapelUsuario } from '@frete/contracts';
import { COOKIE_SESSAO } from '@frete/console';
import { startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { navegadorHttp, type NavegadorHttp } from '../support/console';

/** Issue 18, point 1: people and sessions of the company panel. */
describe('panel users and sessions (/console/entrar, /console/conta, /console/usuarios)', () => {
  let app: TestApp;
  let carrier: TestCarrier;
  let outra: TestCarrier;
  beforeAll(async () => {
    // The test client connects from loopback: trusted as the proxy, its X-Forwarded-For gives each browser an address.
    app = await startTestApp({ TRUST_PROXY: '127.0.0.1' });
    [carrier, outra] = await Promise.all([app.carrier(), app.carrier()]);
    // Twice in full runs the start took over the default 90 s while the distributed suite's eight processes held both cores.
  }, 240_000);
  afterAll(() => app?.close());

  const handler = () => app.running.application.handlers.usuario;
  const SENHA = 'uma senha bem comprida';

  /** A user as `pnpm ops user create` makes one: a one-time password. */
  async function criar(c: TestCarrier, papel: PapelUsuario, email = `${papel}-${randomUUID().slice(0, 8)}@exemplo.com.br`) {
    const id = randomUUID();
    const criado = await handler().criar(
      { companyId: c.companyId, correlationId: id, causationId: null, requestId: null, actor: 'operator', now: new Date() },
      { company_id: c.companyId, email, papel },
    );
    return { ...criado, senha: criado.senha_temporaria };
  }

  /** A browser from its own address (the per-address throttle stays out of the other cases). */
  function navegador(ip = `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`): NavegadorHttp {
    const nav = navegadorHttp(app);
    const get = nav.get.bind(nav);
    const post = nav.post.bind(nav);
    nav.get = (path, headers = {}) => get(path, { 'x-forwarded-for': ip, ...headers });
    nav.post = (path, form, headers = {}) => post(path, form, { 'x-forwarded-for': ip, ...headers });
    return nav;
  }

  async function entrar(nav: NavegadorHttp, email: string, senha: string, volta?: string) {
    await nav.get(`/console/entrar${volta ? `?volta=${encodeURIComponent(volta)}` : ''}`);
    return nav.post('/console/entrar', { email, senha, ...(volta ? { volta } : {}) });
  }

  /** A user who already changed the one-time password, logged in. */
  async function logado(c: TestCarrier, papel: PapelUsuario) {
    const u = await criar(c, papel);
    const nav = navegador();
    expect((await entrar(nav, u.email, u.senha)).headers.get('location')).toBe('/console/entrar/nova-senha');
    await nav.get('/console/entrar/nova-senha');
    const res = await nav.post('/console/entrar/nova-senha', { nova: SENHA, confirmacao: SENHA });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console');
    return { ...u, nav };
  }

  async function eventos(usuarioId: string): Promise<{ tipo: string; ator: string }[]> {
    // A refused login's event is appended after its answer.
    await handler().registrosPendentes();
    const { rows } = await app.db.pool.query<{ tipo: string; ator: string }>(
      `SELECT event_type AS tipo, metadata->>'actor' AS ator FROM es_events WHERE data->>'usuario_id' = $1 ORDER BY global_position`,
      [usuarioId],
    );
    return rows;
  }

  it('logs in with a one-time password, forces its change, and sets a strict session cookie', async () => {
    const u = await criar(carrier, 'operador');
    const nav = navegador();
    const form = await nav.get('/console/entrar?volta=%2Fconsole%2Fcte');
    expect(form.status).toBe(200);
    expect(form.html).toContain('name="email"');
    const res = await nav.post('/console/entrar', { email: u.email.toUpperCase(), senha: u.senha, volta: '/console/cte' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console/entrar/nova-senha?volta=%2Fconsole%2Fcte');
    // No session before the new password: the panel still sends to the login.
    expect(nav.cookies.has(COOKIE_SESSAO)).toBe(false);
    expect((await nav.get('/console')).status).toBe(303);

    await nav.get('/console/entrar/nova-senha?volta=%2Fconsole%2Fcte');
    const curta = await nav.post('/console/entrar/nova-senha?volta=%2Fconsole%2Fcte', { nova: 'curta', confirmacao: 'curta' });
    expect(curta.status).toBe(400);
    expect(curta.html).toContain('12 caracteres');
    const diferentes = await nav.post('/console/entrar/nova-senha', { nova: SENHA, confirmacao: `${SENHA}!` });
    expect(diferentes.status).toBe(400);
    const ok = await nav.post('/console/entrar/nova-senha?volta=%2Fconsole%2Fcte', { nova: SENHA, confirmacao: SENHA });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/console/cte');
    const cookie = ok.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE_SESSAO}=`))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/console/);
    expect((await nav.get('/console')).status).toBe(200);

    // The one-time password is gone; the new one works, and `volta` never leads off the panel.
    expect((await entrar(navegador(), u.email, u.senha)).status).toBe(401);
    const outraVez = await entrar(navegador(), u.email, SENHA, 'https://mal.example/');
    expect(outraVez.headers.get('location')).toBe('/console');
    expect((await entrar(navegador(), u.email, SENHA, '//mal.example/console/')).headers.get('location')).toBe('/console');

    const tipos = await eventos(u.usuario_id);
    expect(tipos[0]).toEqual({ tipo: 'usuario.criado', ator: 'operator' });
    for (const e of tipos.slice(1)) expect(e.ator).toBe(`usuario:${u.usuario_id}`);
    expect(tipos.map((e) => e.tipo)).toEqual(
      expect.arrayContaining(['usuario.senha_alterada', 'usuario.sessao_aberta', 'usuario.login_recusado']),
    );
  });

  it('answers a wrong password and an unknown e-mail alike (401), then throttles the e-mail (429, Retry-After)', async () => {
    const u = await logado(carrier, 'leitura');
    const nav = navegador();
    const errada = await entrar(nav, u.email, 'senha errada, bem comprida');
    const desconhecido = await entrar(nav, `ninguem-${randomUUID()}@exemplo.com.br`, 'senha errada, bem comprida');
    expect(errada.status).toBe(401);
    expect(desconhecido.status).toBe(401);
    const semToken = (html: string) =>
      html.replace(/(value|content)="[^"]*"/g, '').replace(/ninguem-[^"<]*|[a-z]+-[0-9a-f]{8}@exemplo\.com\.br/g, '');
    expect(semToken(desconhecido.html)).toBe(semToken(errada.html));
    expect(errada.html).toContain('E-mail ou senha incorretos.');

    for (let i = 0; i < 4; i++) expect((await entrar(navegador(), u.email, `errada ${i} bem comprida`)).status).toBe(401);
    // Five failures: even the right password is not checked now.
    const limitado = await entrar(navegador(), u.email, SENHA);
    expect(limitado.status).toBe(429);
    expect(Number(limitado.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limitado.html).toContain('Muitas tentativas');
    const recusas = (await eventos(u.usuario_id)).filter((e) => e.tipo === 'usuario.login_recusado');
    expect(recusas).toHaveLength(5);
    expect(recusas.every((e) => e.ator === `usuario:${u.usuario_id}`)).toBe(true);
  });

  it('takes about as long for an unknown e-mail as for a wrong password (a hash is checked either way)', async () => {
    const u = await logado(carrier, 'leitura');
    const tempo = async (email: string) => {
      const nav = navegador();
      await nav.get('/console/entrar');
      const inicio = performance.now();
      expect((await nav.post('/console/entrar', { email, senha: 'senha errada, bem comprida' })).status).toBe(401);
      return performance.now() - inicio;
    };
    const errada: number[] = [];
    const desconhecido: number[] = [];
    // Four of each, under the e-mail's throttle (5): medians, since a loaded machine stalls single requests.
    for (let i = 0; i < 4; i++) {
      errada.push(await tempo(u.email));
      desconhecido.push(await tempo(`ninguem-${randomUUID()}@exemplo.com.br`));
    }
    const mediana = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Loose on purpose: without the dummy hash an unknown e-mail answers an order of magnitude faster.
    expect(mediana(desconhecido)).toBeGreaterThan(mediana(errada) * 0.3);
  });

  it('throttles an address after 20 failures, whatever the e-mails', async () => {
    const nav = navegador('10.250.0.1');
    for (let i = 0; i < 20; i++)
      expect((await entrar(nav, `x${i}-${randomUUID()}@exemplo.com.br`, 'qualquer senha comprida')).status).toBe(401);
    expect((await entrar(nav, `y-${randomUUID()}@exemplo.com.br`, 'qualquer senha comprida')).status).toBe(429);
    expect((await entrar(navegador('10.250.0.2'), `y-${randomUUID()}@exemplo.com.br`, 'qualquer senha comprida')).status).toBe(401);
  });

  it('ends the session on logout: the old cookie is refused afterwards', async () => {
    const u = await logado(carrier, 'operador');
    const token = u.nav.cookies.get(COOKIE_SESSAO)!;
    await u.nav.get('/console');
    const sair = await u.nav.post('/console/sair', {});
    expect(sair.status).toBe(303);
    expect(sair.headers.getSetCookie().some((c) => c.startsWith(`${COOKIE_SESSAO}=;`))).toBe(true);
    const velho = navegador();
    velho.cookies.set(COOKIE_SESSAO, token);
    expect((await velho.get('/console')).status).toBe(303);
    const ev = await eventos(u.usuario_id);
    expect(ev.at(-1)).toEqual({ tipo: 'usuario.sessao_encerrada', ator: `usuario:${u.usuario_id}` });
  });

  it('throttles guesses of the current password on the account page as the login does (429)', async () => {
    const u = await logado(carrier, 'leitura');
    await u.nav.get('/console/conta');
    const tentar = (atual: string) =>
      u.nav.post('/console/conta/senha', { atual, nova: 'outra senha comprida', confirmacao: 'outra senha comprida' });
    for (let i = 0; i < 5; i++) expect((await tentar(`palpite numero ${i} comprido`)).status).toBe(400);
    const barrada = await tentar(SENHA);
    expect(barrada.status).toBe(429);
    expect(barrada.html).toContain('muitas tentativas com a senha errada');
    // The right password is not even checked while the e-mail is throttled: the login is held back too.
    expect((await entrar(navegador(), u.email, SENHA)).status).toBe(429);
  });

  it('changes the password, ending the other sessions but not this one', async () => {
    const u = await logado(carrier, 'operador');
    const outro = navegador();
    expect((await entrar(outro, u.email, SENHA)).status).toBe(303);
    expect((await outro.get('/console')).status).toBe(200);

    await u.nav.get('/console/conta');
    const errada = await u.nav.post('/console/conta/senha', {
      atual: 'não é a atual nem de longe',
      nova: 'outra senha comprida',
      confirmacao: 'outra senha comprida',
    });
    expect(errada.status).toBe(400);
    expect(errada.html).toContain('a senha atual não confere');
    const curta = await u.nav.post('/console/conta/senha', { atual: SENHA, nova: 'curta', confirmacao: 'curta' });
    expect(curta.status).toBe(400);
    const ok = await u.nav.post('/console/conta/senha', {
      atual: SENHA,
      nova: 'outra senha comprida',
      confirmacao: 'outra senha comprida',
    });
    expect(ok.status).toBe(303);
    expect((await u.nav.get('/console/conta')).status).toBe(200);
    expect((await outro.get('/console')).status).toBe(303);
    expect((await entrar(navegador(), u.email, 'outra senha comprida')).status).toBe(303);
    expect((await eventos(u.usuario_id)).filter((e) => e.tipo === 'usuario.senha_alterada')).toHaveLength(2);
  });

  it('enables TOTP with a QR code, then asks for the code at login (a wrong code is refused), and disables it', async () => {
    const u = await logado(carrier, 'admin');
    await u.nav.get('/console/conta');
    const qr = await u.nav.post('/console/conta/totp/iniciar', {});
    expect(qr.status).toBe(200);
    expect(qr.html).toContain('<svg');
    expect(qr.html).toContain('otpauth://totp/');
    const segredo = /aria-label="Chave secreta">([A-Z2-7]+)</.exec(qr.html)![1]!;
    const errado = await u.nav.post('/console/conta/totp/ativar', {
      codigo: '000000' === codigoTotp(segredo, u.email, new Date()) ? '111111' : '000000',
    });
    expect(errado.status).toBe(400);
    // The same secret is shown again, to try another code.
    expect(errado.html).toContain(segredo);
    // Each code is good once: the confirmation uses the previous period's (still accepted), the login now's, the
    // deactivation the next period's.
    const passo = (periodos: number) => codigoTotp(segredo, u.email, new Date(Date.now() + periodos * 30_000));
    const ativo = await u.nav.post('/console/conta/totp/ativar', { codigo: passo(-1) });
    expect(ativo.status).toBe(303);
    // The secret is in no event.
    const { rows } = await app.db.pool.query(
      `SELECT count(*)::int AS n FROM es_events WHERE data::text LIKE $1 OR metadata::text LIKE $1`,
      [`%${segredo}%`],
    );
    expect(rows[0].n).toBe(0);

    const nav = navegador();
    const passo1 = await entrar(nav, u.email, SENHA);
    expect(passo1.status).toBe(303);
    expect(passo1.headers.get('location')).toBe('/console/entrar/codigo');
    expect(nav.cookies.has(COOKIE_SESSAO)).toBe(false);
    await nav.get('/console/entrar/codigo');
    const certo = passo(0);
    const falho = await nav.post('/console/entrar/codigo', { codigo: certo === '123456' ? '654321' : '123456' });
    expect(falho.status).toBe(401);
    const ok = await nav.post('/console/entrar/codigo', { codigo: certo });
    expect(ok.status).toBe(303);
    expect((await nav.get('/console')).status).toBe(200);
    // The same code again, on another login, is refused: it was used.
    const outro = navegador();
    await entrar(outro, u.email, SENHA);
    await outro.get('/console/entrar/codigo');
    expect((await outro.post('/console/entrar/codigo', { codigo: certo })).status).toBe(401);
    expect(outro.cookies.has(COOKIE_SESSAO)).toBe(false);
    // Without the first step there is no second.
    const direto = navegador();
    expect((await direto.get('/console/entrar/codigo')).status).toBe(303);

    await nav.get('/console/conta');
    expect((await nav.post('/console/conta/totp/desativar', { codigo: '99' })).status).toBe(400);
    expect((await nav.post('/console/conta/totp/desativar', { codigo: certo })).status).toBe(400);
    expect((await nav.post('/console/conta/totp/desativar', { codigo: passo(1) })).status).toBe(303);
    expect((await entrar(navegador(), u.email, SENHA)).headers.get('location')).toBe('/console');
    const tipos = (await eventos(u.usuario_id)).map((e) => e.tipo);
    expect(tipos).toEqual(expect.arrayContaining(['usuario.totp_ativado', 'usuario.totp_desativado']));
  });

  it('lets an admin invite a user who logs in with the one-time password; roles and deactivation end sessions', async () => {
    const admin = await logado(carrier, 'admin');
    const alheio = await criar(outra, 'admin');
    const lista = await admin.nav.get('/console/usuarios');
    expect(lista.status).toBe(200);
    expect(lista.html).toContain(admin.email);
    expect(lista.html).not.toContain(alheio.email);

    const email = `convidado-${randomUUID().slice(0, 8)}@exemplo.com.br`;
    expect((await admin.nav.post('/console/usuarios', { email: 'não é e-mail', papel: 'leitura' })).status).toBe(400);
    expect((await admin.nav.post('/console/usuarios', { email, papel: 'chefe' })).status).toBe(400);
    const convite = await admin.nav.post('/console/usuarios', { email, papel: 'operador' });
    expect(convite.status).toBe(200);
    const senha = /aria-label="Senha provisória">([^<]+)</.exec(convite.html)![1]!;
    expect(convite.html).toContain(email);
    // The same e-mail again: refused, the first stays.
    expect((await admin.nav.post('/console/usuarios', { email: email.toUpperCase(), papel: 'admin' })).status).toBe(422);
    expect((await admin.nav.post('/console/usuarios', { email: alheio.email, papel: 'admin' })).status).toBe(422);

    const convidado = navegador();
    expect((await entrar(convidado, email, senha)).headers.get('location')).toBe('/console/entrar/nova-senha');
    await convidado.get('/console/entrar/nova-senha');
    expect((await convidado.post('/console/entrar/nova-senha', { nova: SENHA, confirmacao: SENHA })).status).toBe(303);
    expect((await convidado.get('/console')).html).toContain(`${email} (operador)`);
    expect((await convidado.get('/console/usuarios')).status).toBe(403);

    const { rows } = await app.db.pool.query<{ usuario_id: string }>(`SELECT usuario_id FROM rm.usuarios WHERE email = $1`, [email]);
    const id = rows[0]!.usuario_id;
    await admin.nav.get('/console/usuarios');
    expect((await admin.nav.post(`/console/usuarios/${alheio.usuario_id}/desativar`, {})).status).toBe(404);
    expect((await admin.nav.post(`/console/usuarios/${admin.usuario_id}/desativar`, {})).status).toBe(422);
    expect((await admin.nav.post(`/console/usuarios/${id}/papel`, { papel: 'leitura' })).status).toBe(303);
    expect((await convidado.get('/console')).status).toBe(303);
    const comoLeitura = navegador();
    await entrar(comoLeitura, email, SENHA);
    expect((await comoLeitura.get('/console')).html).toContain(`${email} (leitura)`);
    expect((await comoLeitura.get('/console/usuarios')).status).toBe(403);
    expect((await comoLeitura.post('/console/usuarios', { email: `x-${email}`, papel: 'admin' })).status).toBe(403);

    expect((await admin.nav.post(`/console/usuarios/${id}/desativar`, {})).status).toBe(303);
    expect((await comoLeitura.get('/console')).status).toBe(303);
    expect((await entrar(navegador(), email, SENHA)).status).toBe(401);
    const depois = await admin.nav.get('/console/usuarios');
    expect(depois.html).toContain('Desativado');

    const ev = await eventos(id);
    expect(ev[0]).toEqual({ tipo: 'usuario.criado', ator: `usuario:${admin.usuario_id}` });
    expect(ev.filter((e) => e.tipo === 'usuario.papel_alterado' || e.tipo === 'usuario.desativado')).toEqual([
      { tipo: 'usuario.papel_alterado', ator: `usuario:${admin.usuario_id}` },
      { tipo: 'usuario.desativado', ator: `usuario:${admin.usuario_id}` },
    ]);
    expect(ev.at(-1)).toEqual({ tipo: 'usuario.login_recusado', ator: `usuario:${id}` });
  });

  it("an admin resets a user's password: one-time, shown once, forced change at the next login, sessions ended, recorded", async () => {
    const admin = await logado(carrier, 'admin');
    const u = await logado(carrier, 'operador');
    const alheio = await criar(outra, 'operador');
    await admin.nav.get('/console/usuarios');
    const res = await admin.nav.post(`/console/usuarios/${u.usuario_id}/senha`, {});
    expect(res.status).toBe(200);
    expect(res.html).toContain(`Senha de ${u.email} redefinida`);
    const provisoria = /aria-label="Senha provisória">([^<]+)</.exec(res.html)![1]!;
    expect(provisoria).not.toBe(SENHA);
    // Shown once: the list again does not carry it.
    expect((await admin.nav.get('/console/usuarios')).html).not.toContain(provisoria);
    // The user's open session ended; the old password no longer opens one; the one-time one forces a new password.
    expect((await u.nav.get('/console')).status).toBe(303);
    expect((await entrar(navegador(), u.email, SENHA)).status).toBe(401);
    const nav = navegador();
    expect((await entrar(nav, u.email, provisoria)).headers.get('location')).toBe('/console/entrar/nova-senha');
    expect((await nav.get('/console')).status).toBe(303);
    await nav.get('/console/entrar/nova-senha');
    const nova = 'outra senha bem comprida';
    expect((await nav.post('/console/entrar/nova-senha', { nova, confirmacao: nova })).headers.get('location')).toBe('/console');
    expect((await nav.get('/console')).status).toBe(200);

    // Not their own (Minha conta asks for the current one), not another company's user, not by a non-admin.
    expect((await admin.nav.post(`/console/usuarios/${admin.usuario_id}/senha`, {})).status).toBe(422);
    expect((await admin.nav.post(`/console/usuarios/${alheio.usuario_id}/senha`, {})).status).toBe(404);
    await nav.get('/console');
    expect((await nav.post(`/console/usuarios/${admin.usuario_id}/senha`, {})).status).toBe(403);
    const ctx = (ator: string) => ({
      companyId: carrier.companyId,
      correlationId: randomUUID(),
      causationId: null,
      requestId: null,
      actor: `usuario:${ator}`,
      now: new Date(),
    });
    await expect(handler().redefinirSenha(ctx(u.usuario_id), admin.usuario_id)).rejects.toMatchObject({ code: 'escopo_nao_habilitado' });
    expect((await entrar(navegador(), admin.email, SENHA)).status).toBe(303);

    const ev = await eventos(u.usuario_id);
    const senhas = ev.filter((e) => e.tipo === 'usuario.senha_alterada');
    expect(senhas).toEqual([
      { tipo: 'usuario.senha_alterada', ator: `usuario:${u.usuario_id}` },
      { tipo: 'usuario.senha_alterada', ator: `usuario:${admin.usuario_id}` },
      { tipo: 'usuario.senha_alterada', ator: `usuario:${u.usuario_id}` },
    ]);
    const { rows } = await app.db.pool.query<{ temporaria: boolean }>(
      `SELECT (data->>'senha_temporaria')::boolean AS temporaria FROM es_events WHERE data->>'usuario_id' = $1 AND event_type = 'usuario.senha_alterada' ORDER BY global_position`,
      [u.usuario_id],
    );
    expect(rows.map((r) => r.temporaria)).toEqual([false, true, false]);
  });

  it('keeps the panel and the API apart: a session cookie is nothing to /v1, an API key does not open /console', async () => {
    const u = await logado(carrier, 'admin');
    const api = await fetch(`${app.url}/v1/fiscal/status`, { headers: { cookie: `${COOKIE_SESSAO}=${u.nav.cookies.get(COOKIE_SESSAO)}` } });
    expect(api.status).toBe(401);
    const painel = await fetch(`${app.url}/console/usuarios`, {
      headers: { authorization: `Bearer ${carrier.apiKey}` },
      redirect: 'manual',
    });
    expect(painel.status).toBe(303);
    expect(painel.headers.get('location')).toMatch(/^\/console\/entrar/);
  });
});

/** Issue 26, point 5: without TRUST_PROXY the header is anyone's to write, so the address counted is the socket's. */
describe('the login throttle per address without TRUST_PROXY', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('counts the socket address: a new forged X-Forwarded-For on every attempt still meets the 429 after 20 failures', async () => {
    const nav = navegadorHttp(app);
    const tentar = async (i: number) => {
      const forjado = { 'x-forwarded-for': `10.251.0.${i}` };
      await nav.get('/console/entrar', forjado);
      return nav.post('/console/entrar', { email: `x${i}-${randomUUID()}@exemplo.com.br`, senha: 'qualquer senha comprida' }, forjado);
    };
    for (let i = 0; i < 20; i++) expect((await tentar(i)).status).toBe(401);
    const limitado = await tentar(20);
    expect(limitado.status).toBe(429);
    expect(Number(limitado.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
