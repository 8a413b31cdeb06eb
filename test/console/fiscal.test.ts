import { makeA1 } from '../support/certificates';
import { ENDERECO_SP } from '../support/emissora';
import { startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { type NavegadorHttp, sessaoDe } from '../support/console';

/** Posts the certificate form as a browser would: multipart, the form token in the action's query string. */
async function enviarCertificado(app: TestApp, nav: NavegadorHttp, arquivo: Buffer, senha: string | null, nome = 'empresa.pfx') {
  await nav.get('/console/configuracao');
  const form = new FormData();
  form.append('certificado', new Blob([new Uint8Array(arquivo)], { type: 'application/x-pkcs12' }), nome);
  if (senha !== null) form.append('senha', senha);
  const cookie = [...nav.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(`${app.url}/console/configuracao/certificado?_csrf=${encodeURIComponent(nav.csrf!)}`, {
    method: 'POST',
    headers: { cookie },
    body: form,
    redirect: 'manual',
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** Who appended the last event of a stream (`veiculos-<company>`). */
const ator = async (app: TestApp, stream: string): Promise<string> => {
  const { rows } = await app.db.pool.query(
    `SELECT metadata->>'actor' AS actor FROM es_events WHERE stream_id = $1 ORDER BY stream_revision DESC LIMIT 1`,
    [stream],
  );
  return (rows[0] as { actor: string }).actor;
};

/** Issue 18, point 3: the company's fiscal settings in the panel. */
describe('console: configuração fiscal, certificado e cadastros', () => {
  let app: TestApp;
  let carrier: TestCarrier;
  let outra: TestCarrier;
  beforeAll(async () => {
    app = await startTestApp();
    carrier = await app.carrier({ name: 'TRANSPORTES PAINEL LTDA' });
    outra = await app.carrier({ name: 'OUTRA TRANSPORTADORA LTDA' });
  });
  afterAll(() => app?.close());

  describe('configuração fiscal', () => {
    it('an admin sees the form and saves it; the API then answers the change, and the actor is the user', async () => {
      const nav = await sessaoDe(app, carrier, 'admin');
      const antes = await nav.get('/console/configuracao');
      expect(antes.status).toBe(200);
      expect(antes.html).toContain('aria-label="Configuração fiscal"');
      expect(antes.html).toContain(carrier.cnpj);
      const res = await nav.post('/console/configuracao', {
        inscricao_estadual: '123456789',
        regime_tributario: '3',
        rntrc: '12345678',
        serie_cte: '1',
        serie_mdfe: '2',
        percentual_frete_contra_cte: '12,5',
        'endereco.logradouro': ENDERECO_SP.logradouro,
        'endereco.numero': ENDERECO_SP.numero,
        'endereco.complemento': '',
        'endereco.bairro': ENDERECO_SP.bairro,
        'endereco.municipio': ENDERECO_SP.municipio,
        'endereco.uf': ENDERECO_SP.uf,
        'endereco.codigo_ibge': '',
        'endereco.cep': ENDERECO_SP.cep,
      });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toMatch(/^\/console\/configuracao\?aviso=/);
      const api = await carrier.call('GET', '/v1/fiscal/configuracao');
      expect(api.body.data).toMatchObject({
        inscricao_estadual: '123456789',
        regime_tributario: 3,
        rntrc: '12345678',
        serie_cte: 1,
        serie_mdfe: 2,
        percentual_frete_contra_cte: 12.5,
        endereco: { logradouro: 'AVENIDA PAULISTA', municipio: 'São Paulo', uf: 'SP', cep: '01310100' },
        completa: true,
      });
      const depois = await nav.get('/console/configuracao');
      expect(depois.html).toContain('value="12345678"');
      expect(depois.html).toContain('Configuração completa para emitir.');
      expect(await ator(app, `configuracao-${carrier.companyId}`)).toBe(`usuario:usuario-admin-${carrier.companyId}`);

      // Emptying a field clears it, as null does in the API's PUT.
      const valores = Object.fromEntries([...depois.html.matchAll(/name="([a-z_.]+)"[^>]*value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
      delete valores._csrf;
      const limpa = await nav.post('/console/configuracao', { ...valores, serie_mdfe: '', 'endereco.uf': 'SP', regime_tributario: '3' });
      expect(limpa.status).toBe(303);
      expect((await carrier.call('GET', '/v1/fiscal/configuracao')).body.data).toMatchObject({ serie_mdfe: null, serie_cte: 1 });
    });

    it('re-renders with 400 and the field message for input the contract refuses, keeping what was typed', async () => {
      const nav = await sessaoDe(app, carrier, 'admin');
      await nav.get('/console/configuracao');
      const res = await nav.post('/console/configuracao', { rntrc: '12AB', serie_cte: 'um', percentual_frete_contra_cte: '12.345' });
      expect(res.status).toBe(400);
      expect(res.html).toContain('role="alert"');
      expect(res.html).toMatch(/id="campo-rntrc-erro" class="erro">formato inválido/);
      expect(res.html).toMatch(/id="campo-serie_cte-erro" class="erro">deve ser um número inteiro/);
      expect(res.html).toMatch(/id="campo-percentual_frete_contra_cte-erro" class="erro">no máximo duas casas decimais/);
      expect(res.html).toContain('value="12AB"');
      // A municipality that is not in the IBGE table is the handler's refusal: 400 with its field.
      const ibge = await nav.post('/console/configuracao', {
        'endereco.logradouro': 'RUA A',
        'endereco.numero': '1',
        'endereco.bairro': 'CENTRO',
        'endereco.municipio': 'Cidade Que Não Existe',
        'endereco.uf': 'SP',
        'endereco.cep': '01310100',
      });
      expect(ibge.status).toBe(400);
      // Said in Portuguese, the handler's English message after it as the detail.
      expect(ibge.html).toMatch(/id="campo-endereco.municipio-erro" class="erro">valor não aceito \(detalhe: [^<]*IBGE/);
      expect(ibge.html).toContain('Há dados inválidos: confira os campos e tente de novo.');
      // A reserved series is a business rule: 422 with the reason, in Portuguese from its code.
      const reservada = await nav.post('/console/configuracao', { serie_cte: '900' });
      expect(reservada.status).toBe(422);
      expect(reservada.html).toContain('role="alert"');
      expect(reservada.html).toContain('Esta série está reservada e não pode ser usada.');
    });

    it('shows the configuration to leitura and operador without the form, and refuses their POST with 403', async () => {
      for (const papel of ['leitura', 'operador'] as const) {
        const nav = await sessaoDe(app, carrier, papel);
        const res = await nav.get('/console/configuracao');
        expect(res.status).toBe(200);
        expect(res.html).not.toContain('aria-label="Configuração fiscal"');
        expect(res.html).not.toContain('Enviar certificado</button>');
        expect(res.html).toContain('Inscrição estadual');
        expect((await nav.post('/console/configuracao', { rntrc: '87654321' })).status).toBe(403);
        expect((await enviarCertificado(app, nav, Buffer.from('x'), 'x')).status).toBe(403);
      }
      expect((await carrier.call('GET', '/v1/fiscal/configuracao')).body.data.rntrc).toBe('12345678');
    });
  });

  describe('certificado A1', () => {
    it('uploads the certificate and shows its metadata, without any warning far from expiry', async () => {
      const nav = await sessaoDe(app, carrier, 'admin');
      const semCert = await nav.get('/console/configuracao');
      expect(semCert.html).toContain('Nenhum certificado enviado');
      const a1 = makeA1({
        cnpj: carrier.cnpj,
        razao: 'TRANSPORTES PAINEL LTDA',
        password: 'segredo-A1',
        cnpjIn: 'otherName',
        serial: '0ABC1234',
      });
      const res = await enviarCertificado(app, nav, a1.pfx, 'segredo-A1');
      expect(res.status).toBe(303);
      const api = await carrier.call('GET', '/v1/fiscal/certificado');
      expect(api.body.data).toMatchObject({ presente: true, cnpj: carrier.cnpj, serial: '0ABC1234', nome_arquivo: 'empresa.pfx' });
      const pagina = await nav.get('/console/configuracao');
      expect(pagina.html).toContain('aria-label="Certificado atual"');
      expect(pagina.html).toContain('TRANSPORTES PAINEL LTDA');
      expect(pagina.html).toContain('0ABC1234');
      expect(pagina.html).toContain('Válido até');
      expect(pagina.html).not.toContain('class="alerta" role="alert"');
      expect(pagina.html).not.toContain('segredo-A1');
      expect(await ator(app, `certificado-${carrier.companyId}`)).toBe(`usuario:usuario-admin-${carrier.companyId}`);
    });

    it('refuses a wrong password, a file that is not a PKCS#12, an expired certificate and another CNPJ with 422 and the reason', async () => {
      const nav = await sessaoDe(app, carrier, 'admin');
      const a1 = makeA1({ cnpj: carrier.cnpj, razao: 'X', password: 'certa', cnpjIn: 'otherName' });
      const senha = await enviarCertificado(app, nav, a1.pfx, 'errada');
      expect(senha.status).toBe(422);
      expect(senha.html).toContain('A senha não abre este certificado.');

      const lixo = await enviarCertificado(app, nav, Buffer.from('isto não é um certificado'), 'x');
      expect(lixo.status).toBe(422);
      expect(lixo.html).toContain('não é um certificado A1 utilizável');

      const vencido = makeA1({
        cnpj: carrier.cnpj,
        razao: 'X',
        password: 'p',
        cnpjIn: 'otherName',
        notBefore: new Date('2020-01-01'),
        notAfter: new Date('2021-01-01'),
      });
      const exp = await enviarCertificado(app, nav, vencido.pfx, 'p');
      expect(exp.status).toBe(422);
      expect(exp.html).toContain('O certificado está vencido.');

      const alheio = makeA1({ cnpj: outra.cnpj, razao: 'OUTRA', password: 'p', cnpjIn: 'otherName' });
      const cnpj = await enviarCertificado(app, nav, alheio.pfx, 'p');
      expect(cnpj.status).toBe(422);
      expect(cnpj.html).toContain('O CNPJ do certificado não é o da empresa.');

      // The certificate sent before is still the one on file.
      expect((await carrier.call('GET', '/v1/fiscal/certificado')).body.data.serial).toBe('0ABC1234');
    });

    it('400 without a file, without the password or with another extension; 413 for a file over 10 MB', async () => {
      const nav = await sessaoDe(app, carrier, 'admin');
      const a1 = makeA1({ cnpj: carrier.cnpj, razao: 'X', password: 'p', cnpjIn: 'otherName' });
      expect((await enviarCertificado(app, nav, Buffer.alloc(0), 'p')).status).toBe(400);
      const semSenha = await enviarCertificado(app, nav, a1.pfx, null);
      expect(semSenha.status).toBe(400);
      expect(semSenha.html).toContain('Informe a senha do certificado.');
      expect((await enviarCertificado(app, nav, a1.pfx, 'p', 'cert.txt')).status).toBe(400);
      const grande = await enviarCertificado(app, nav, Buffer.alloc(10 * 1024 * 1024 + 10, 1), 'p');
      expect(grande.status).toBe(413);
      expect(grande.headers.get('content-type')).toMatch(/^text\/html/);
      // Without the form token in the query string the upload is refused before it is read.
      const cookie = [...nav.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const form = new FormData();
      form.append('certificado', new Blob([new Uint8Array(a1.pfx)]), 'a.pfx');
      form.append('senha', 'p');
      const semToken = await fetch(`${app.url}/console/configuracao/certificado`, { method: 'POST', headers: { cookie }, body: form });
      expect(semToken.status).toBe(403);
    });

    it('warns when the certificate expires within 30 days', async () => {
      const perto = await app.carrier({ name: 'TRANSPORTES VENCE LOGO LTDA' });
      const nav = await sessaoDe(app, perto, 'admin');
      const a1 = makeA1({
        cnpj: perto.cnpj,
        razao: 'TRANSPORTES VENCE LOGO LTDA',
        password: 'p',
        cnpjIn: 'otherName',
        notBefore: new Date(Date.now() - 300 * 86_400_000),
        notAfter: new Date(Date.now() + 10 * 86_400_000 + 3_600_000),
      });
      expect((await enviarCertificado(app, nav, a1.pfx, 'p')).status).toBe(303);
      const pagina = await nav.get('/console/configuracao');
      expect(pagina.html).toMatch(/class="alerta" role="alert">O certificado vence em 10 dias/);
      expect(pagina.html).toContain('Remover certificado</button>');
      // Only an admin removes it; then the page says there is none, as the API does.
      const leitura = await sessaoDe(app, perto, 'leitura');
      const semBotao = await leitura.get('/console/configuracao');
      expect(semBotao.html).not.toContain('Remover certificado</button>');
      expect((await leitura.post('/console/configuracao/certificado/remover', {})).status).toBe(403);
      expect((await nav.post('/console/configuracao/certificado/remover', {})).status).toBe(303);
      expect((await perto.call('GET', '/v1/fiscal/certificado')).body.data.presente).toBe(false);
      expect((await nav.get('/console/configuracao')).html).toContain('Nenhum certificado enviado');
      // Another company's certificate is not this one's.
      const outraNav = await sessaoDe(app, outra, 'admin');
      expect((await outraNav.get('/console/configuracao')).html).toContain('Nenhum certificado enviado');
    });

    it('says so when the certificate on file has expired', async () => {
      const vencendo = await app.carrier({ name: 'TRANSPORTES VENCEU LTDA' });
      const nav = await sessaoDe(app, vencendo, 'leitura');
      const admin = await sessaoDe(app, vencendo, 'admin');
      const fim = new Date(Math.ceil(Date.now() / 1000) * 1000 + 8000);
      const a1 = makeA1({
        cnpj: vencendo.cnpj,
        razao: 'X',
        password: 'p',
        cnpjIn: 'otherName',
        notBefore: new Date('2024-01-01'),
        notAfter: fim,
      });
      expect((await enviarCertificado(app, admin, a1.pfx, 'p')).status).toBe(303);
      await new Promise((r) => setTimeout(r, fim.getTime() - Date.now() + 200));
      const pagina = await nav.get('/console/configuracao');
      expect(pagina.html).toMatch(/class="alerta" role="alert">O certificado venceu em/);
    });
  });

  describe('cadastros', () => {
    it('lists the three registries', async () => {
      const nav = await sessaoDe(app, carrier, 'leitura');
      const res = await nav.get('/console/cadastros');
      expect(res.status).toBe(200);
      for (const href of ['/console/cadastros/veiculos', '/console/cadastros/motoristas', '/console/cadastros/regras-tributacao']) {
        expect(res.html).toContain(`href="${href}"`);
        expect((await nav.get(href)).status).toBe(200);
      }
    });

    it('an operador registers a vehicle; the API sees it, the list shows it, and the other company never does', async () => {
      const nav = await sessaoDe(app, carrier, 'operador');
      await nav.get('/console/cadastros/veiculos');
      const res = await nav.post('/console/cadastros/veiculos', {
        placa: 'abc-1d23',
        renavam: '',
        rntrc: '12345678',
        uf: 'SP',
        tara_kg: '8000',
        capacidade_kg: '20000',
        capacidade_m3: '',
        tipo_rodado: '03',
        tipo_carroceria: '02',
        tipo: 'tracao',
      });
      expect(res.status).toBe(303);
      const api = await carrier.call('GET', '/v1/fiscal/veiculos');
      expect(api.body.data).toEqual([
        expect.objectContaining({ placa: 'ABC1D23', rntrc: '12345678', uf: 'SP', tara_kg: 8000, capacidade_kg: 20000, tipo_rodado: '03' }),
      ]);
      const lista = await nav.get('/console/cadastros/veiculos');
      expect(lista.html).toContain('<caption>Veículos</caption>');
      expect(lista.html).toContain('ABC1D23');
      expect(lista.html).toContain('aria-label="Remover veículo ABC1D23"');
      expect(await ator(app, `veiculos-${carrier.companyId}`)).toBe(`usuario:usuario-operador-${carrier.companyId}`);

      await outra.call('POST', '/v1/fiscal/veiculos', { placa: 'XYZ9876' });
      const daOutra = await (await sessaoDe(app, outra, 'leitura')).get('/console/cadastros/veiculos');
      expect(daOutra.html).toContain('XYZ9876');
      expect(daOutra.html).not.toContain('ABC1D23');
      expect((await nav.get('/console/cadastros/veiculos')).html).not.toContain('XYZ9876');
      // Nor can it be opened or removed by id from the other company.
      const idOutra = (await outra.call('GET', '/v1/fiscal/veiculos')).body.data[0].id as number;
      const idMeu = api.body.data[0].id as number;
      if (idOutra !== idMeu) expect((await nav.get(`/console/cadastros/veiculos/${idOutra}`)).status).toBe(404);
      expect((await nav.get('/console/cadastros/veiculos/999999')).status).toBe(404);
    });

    it('edits and removes a vehicle through the page', async () => {
      const nav = await sessaoDe(app, carrier, 'admin');
      const criado = await carrier.call('POST', '/v1/fiscal/veiculos', { placa: 'EDT1234' });
      const id = criado.body.data.id as number;
      const form = await nav.get(`/console/cadastros/veiculos/${id}`);
      expect(form.status).toBe(200);
      expect(form.html).toContain('value="EDT1234"');
      expect((await nav.post(`/console/cadastros/veiculos/${id}`, { placa: 'EDT1234', tipo: 'reboque', capacidade_kg: '-1' })).status).toBe(
        400,
      );
      expect((await nav.post(`/console/cadastros/veiculos/${id}`, { placa: 'EDT1234', tipo: 'reboque' })).status).toBe(303);
      expect((await carrier.call('GET', `/v1/fiscal/veiculos/${id}`)).body.data.tipo).toBe('reboque');
      await nav.get('/console/cadastros/veiculos');
      expect((await nav.post(`/console/cadastros/veiculos/${id}/remover`, {})).status).toBe(303);
      expect((await carrier.call('GET', `/v1/fiscal/veiculos/${id}`)).status).toBe(404);
      expect((await nav.post(`/console/cadastros/veiculos/${id}/remover`, {})).status).toBe(404);
    });

    it('re-renders the vehicle form with 400 and the field messages; a duplicate plate is 422', async () => {
      const nav = await sessaoDe(app, carrier, 'operador');
      await nav.get('/console/cadastros/veiculos');
      const vazio = await nav.post('/console/cadastros/veiculos', { placa: '', tara_kg: 'muito' });
      expect(vazio.status).toBe(400);
      expect(vazio.html).toMatch(/id="campo-placa-erro" class="erro">obrigatório/);
      expect(vazio.html).toMatch(/id="campo-tara_kg-erro" class="erro">deve ser um número inteiro/);
      expect(vazio.html).toContain('value="muito"');
      // The domain's own check of the plate: 400 with its field.
      const placa = await nav.post('/console/cadastros/veiculos', { placa: '1234567' });
      expect(placa.status).toBe(400);
      expect(placa.html).toContain('id="campo-placa-erro"');
      const repetida = await nav.post('/console/cadastros/veiculos', { placa: 'ABC1D23' });
      expect(repetida.status).toBe(422);
      expect(repetida.html).toContain('role="alert"');
    });

    it("registers a third party's vehicle with its owner, and an edit keeps what it does not show", async () => {
      const nav = await sessaoDe(app, carrier, 'operador');
      await nav.get('/console/cadastros/veiculos');
      const semRntrc = await nav.post('/console/cadastros/veiculos', { placa: 'TER1234', 'proprietario.documento': '529.982.247-25' });
      expect(semRntrc.status).toBe(400);
      expect(semRntrc.html).toMatch(/id="campo-proprietario.nome-erro" class="erro">obrigatório/);
      const ok = await nav.post('/console/cadastros/veiculos', {
        placa: 'TER1234',
        'proprietario.documento': '529.982.247-25',
        'proprietario.nome': 'JOAO DA SILVA',
        'proprietario.rntrc': '12345678',
        'proprietario.tipo_proprietario': '0',
      });
      expect(ok.status).toBe(303);
      const veiculo = (await carrier.call('GET', '/v1/fiscal/veiculos?search=TER1234')).body.data[0];
      expect(veiculo.proprietario).toMatchObject({ documento: '52998224725', nome: 'JOAO DA SILVA', tipo_proprietario: 0 });
      const edicao = await nav.get(`/console/cadastros/veiculos/${veiculo.id}`);
      expect(edicao.html).toContain('value="JOAO DA SILVA"');

      // A driver's installment rule is not on the form: an edit in the panel sends it as stored.
      const m = await carrier.call('POST', '/v1/fiscal/motoristas', {
        cpf: '11144477735',
        nome: 'MARIA REPASSE',
        repasse: { modo: 'manual', parcelas: [{ posicao: 1, percentual: 100, dias: 0 }] },
      });
      expect(m.status).toBe(201);
      await nav.get(`/console/cadastros/motoristas/${m.body.data.id}`);
      expect(
        (await nav.post(`/console/cadastros/motoristas/${m.body.data.id}`, { cpf: '11144477735', nome: 'MARIA R. SOUZA' })).status,
      ).toBe(303);
      const depois = (await carrier.call('GET', `/v1/fiscal/motoristas/${m.body.data.id}`)).body.data;
      expect(depois).toMatchObject({
        nome: 'MARIA R. SOUZA',
        repasse: { modo: 'manual', parcelas: [{ posicao: 1, percentual: 100, dias: 0 }] },
      });
      await carrier.call('DELETE', `/v1/fiscal/motoristas/${m.body.data.id}`);
    });

    it('leitura sees the lists without forms and gets 403 on every POST', async () => {
      const nav = await sessaoDe(app, carrier, 'leitura');
      for (const area of ['veiculos', 'motoristas', 'regras-tributacao']) {
        const res = await nav.get(`/console/cadastros/${area}`);
        expect(res.html).not.toContain('Cadastrar ');
        expect(res.html).not.toContain('Remover');
        expect((await nav.post(`/console/cadastros/${area}`, { placa: 'LEI1234', cpf: '52998224725', nome: 'X' })).status).toBe(403);
        expect((await nav.post(`/console/cadastros/${area}/1`, {})).status).toBe(403);
        expect((await nav.post(`/console/cadastros/${area}/1/remover`, {})).status).toBe(403);
      }
      expect((await carrier.call('GET', '/v1/fiscal/veiculos?search=LEI')).body.data).toEqual([]);
    });

    it('registers a driver with a PIX key; invalid CPF and key give 400 with the field', async () => {
      const nav = await sessaoDe(app, carrier, 'operador');
      await nav.get('/console/cadastros/motoristas');
      const ruim = await nav.post('/console/cadastros/motoristas', { cpf: '', nome: 'J' });
      expect(ruim.status).toBe(400);
      expect(ruim.html).toMatch(/id="campo-cpf-erro" class="erro">obrigatório/);
      expect(ruim.html).toMatch(/id="campo-nome-erro" class="erro">mínimo de 2 caracteres/);
      const cpf = await nav.post('/console/cadastros/motoristas', { cpf: '11111111112', nome: 'JOSE' });
      expect(cpf.status).toBe(400);
      expect(cpf.html).toContain('id="campo-cpf-erro"');
      const chave = await nav.post('/console/cadastros/motoristas', {
        cpf: '52998224725',
        nome: 'JOSE',
        'chave_pix.tipo': 'email',
        'chave_pix.valor': 'nao-e-email',
      });
      expect(chave.status).toBe(400);
      expect(chave.html).toContain('id="campo-chave_pix.valor-erro"');
      const ok = await nav.post('/console/cadastros/motoristas', {
        cpf: '529.982.247-25',
        nome: 'JOSÉ DA SILVA',
        telefone: '11987654321',
        'chave_pix.tipo': 'email',
        'chave_pix.valor': 'Jose@Exemplo.com',
      });
      expect(ok.status).toBe(303);
      const api = await carrier.call('GET', '/v1/fiscal/motoristas');
      expect(api.body.data).toEqual([
        expect.objectContaining({ cpf: '52998224725', nome: 'JOSÉ DA SILVA', chave_pix: { tipo: 'email', valor: 'jose@exemplo.com' } }),
      ]);
      expect((await nav.get('/console/cadastros/motoristas')).html).toContain('JOSÉ DA SILVA');
      expect(await ator(app, `motoristas-${carrier.companyId}`)).toBe(`usuario:usuario-operador-${carrier.companyId}`);
      expect((await (await sessaoDe(app, outra, 'admin')).get('/console/cadastros/motoristas')).html).not.toContain('JOSÉ DA SILVA');
    });

    it('registers a tax rule; rules the contract or the domain refuse give 400 with the field', async () => {
      const nav = await sessaoDe(app, carrier, 'admin');
      await nav.get('/console/cadastros/regras-tributacao');
      const semUf = await nav.post('/console/cadastros/regras-tributacao', { uf_origem: '', uf_destino: 'RJ', 'icms.cst': '00' });
      expect(semUf.status).toBe(400);
      expect(semUf.html).toMatch(/id="campo-uf_origem-erro" class="erro">obrigatório/);
      const cst20 = await nav.post('/console/cadastros/regras-tributacao', {
        uf_origem: 'SP',
        uf_destino: 'RJ',
        'icms.cst': '20',
        'icms.aliquota': '12',
      });
      expect(cst20.status).toBe(400);
      expect(cst20.html).toContain('id="campo-icms.reducao_base-erro"');
      const ok = await nav.post('/console/cadastros/regras-tributacao', {
        uf_origem: 'SP',
        uf_destino: 'RJ',
        tp_serv: '',
        cfop: '6353',
        'icms.cst': '00',
        'icms.aliquota': '12',
        'icms.reducao_base': '',
      });
      expect(ok.status).toBe(303);
      const api = await carrier.call('GET', '/v1/fiscal/regras-tributacao');
      expect(api.body.data).toEqual([
        expect.objectContaining({
          uf_origem: 'SP',
          uf_destino: 'RJ',
          tp_serv: null,
          cfop: '6353',
          icms: { cst: '00', aliquota: 12, reducao_base: null },
        }),
      ]);
      expect((await nav.get('/console/cadastros/regras-tributacao')).html).toContain('6353');
      expect(await ator(app, `regras-tributacao-${carrier.companyId}`)).toBe(`usuario:usuario-admin-${carrier.companyId}`);
      const dup = await nav.post('/console/cadastros/regras-tributacao', {
        uf_origem: 'SP',
        uf_destino: 'RJ',
        'icms.cst': '00',
        'icms.aliquota': '7',
      });
      expect(dup.status).toBe(422);
    });
  });
});
