import { randomUUID } from 'node:crypto';
import { recebedorDistribuicao } from '@frete/application';
import { randomCnpj, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { buildCteXml, nfeKey } from '../support/cte-xml';
import { type NavegadorHttp, sessaoDe } from '../support/console';
import { emissora } from '../support/emissora';

const AREA = '/console/caixa-de-entrada';

/** Issue 30, point 5: the inbox shows the distribution's state; an operator consults now, an admin turns it on or off. */
describe('console: the distribution block of the inbox', () => {
  let app: TestApp;
  let c: TestCarrier;
  let outra: TestCarrier;
  let leitura: NavegadorHttp;
  let operador: NavegadorHttp;
  let admin: NavegadorHttp;

  beforeAll(async () => {
    app = await startTestApp();
    c = await emissora(app, 'DISTRIBUICAO PAINEL LTDA');
    outra = await emissora(app, 'OUTRA DO PAINEL LTDA');
    leitura = await sessaoDe(app, c, 'leitura');
    operador = await sessaoDe(app, c, 'operador');
    admin = await sessaoDe(app, c, 'admin');
  });
  afterAll(() => app?.close());

  /** The block's section of the page, so that what is asserted is in it. */
  const bloco = (html: string) => {
    const i = html.indexOf('<section aria-labelledby="distribuicao">');
    expect(i).toBeGreaterThanOrEqual(0);
    return html.slice(i, html.indexOf('</section>', i));
  };

  it("shows the sandbox's default and both services at NSU zero; a reader gets no action, and is refused one", async () => {
    const res = await leitura.get(AREA);
    expect(res.status).toBe(200);
    const b = bloco(res.html);
    expect(b).toContain('Distribuição do Ambiente Nacional');
    expect(b).toContain('<strong>Consulta ligada</strong> (padrão do ambiente de homologação).');
    expect(b).toContain('<caption>Distribuição por serviço</caption>');
    expect(b.match(/<code>000000000000000<\/code>/g)).toHaveLength(2);
    expect(b).toMatch(/<td>CT-e<\/td>/);
    expect(b).toMatch(/<td>NF-e<\/td>/);
    expect(b).not.toContain('Consultar agora');
    expect(b).not.toContain('Desligar a consulta');
    expect((await leitura.post(`${AREA}/distribuicao/consultas`, {})).status).toBe(403);
    expect((await leitura.post(`${AREA}/distribuicao`, { habilitada: 'false' })).status).toBe(403);
  });

  it('an operator consults now (in progress), sees the answer, and is told to wait after 137 (429 with Retry-After)', async () => {
    const pagina = await operador.get(AREA);
    expect(bloco(pagina.html)).toContain('Consultar agora');
    // The switch is the admin's.
    expect(bloco(pagina.html)).not.toContain('Desligar a consulta');
    expect((await operador.post(`${AREA}/distribuicao`, { habilitada: 'false' })).status).toBe(403);

    const pedida = await operador.post(`${AREA}/distribuicao/consultas`, {});
    expect(pedida.status).toBe(303);
    expect(decodeURIComponent(pedida.headers.get('location')!)).toContain('Consulta pedida: CT-e e NF-e.');
    const andamento = bloco((await operador.get(AREA)).html);
    expect(andamento.match(/Pedida em \d{2}\/\d{2}\/\d{4}/g)).toHaveLength(2);

    // The service answers 137 to both, as the processor records it.
    const estado = (await c.call('GET', '/v1/fiscal/distribuicao')).body.data.servicos as {
      servico: 'cte' | 'nfe';
      consulta_em_andamento: { consulta_id: string };
    }[];
    for (const s of estado) {
      const ctx = {
        companyId: c.companyId,
        correlationId: randomUUID(),
        causationId: null,
        requestId: randomUUID(),
        actor: 'test',
        now: new Date(),
      };
      await app.running.application.handlers.distribuicao.registrar(
        ctx,
        c.companyId,
        s.servico,
        s.consulta_em_andamento.consulta_id,
        {
          tipo: 'consultado',
          cstat: 137,
          motivo: 'Nenhum documento localizado',
          ult_nsu: '000000000000000',
          max_nsu: '000000000000000',
          documentos: [],
        },
        randomUUID(),
      );
    }
    await app.running.platform.readYourWrites.waitFor(c.companyId);
    const respondida = bloco((await operador.get(AREA)).html);
    expect(respondida.match(/137 – Nenhum documento localizado/g)).toHaveLength(2);
    expect(respondida).not.toContain('Pedida em');

    const espera = await operador.post(`${AREA}/distribuicao/consultas`, {});
    expect(espera.status).toBe(429);
    expect(Number(espera.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(espera.html).toContain('Consulta em espera');
    expect(espera.html).toMatch(/Próxima consulta permitida em \d{2}\/\d{2}\/\d{4}/);
    expect(espera.html).toContain('consulta_bloqueada');

    // Another company's block shows none of this.
    const deOutra = bloco((await (await sessaoDe(app, outra, 'leitura')).get(AREA)).html);
    expect(deOutra).not.toContain('137 – Nenhum documento localizado');
    expect(deOutra.match(/<code>000000000000000<\/code>/g)).toHaveLength(2);
  });

  it("the inbox tells a CT-e the distribution brought from one sent (origem), never another company's", async () => {
    const enviado = buildCteXml({ emitenteCnpj: randomCnpj(), emitenteNome: 'CONTRATANTE QUE ENVIOU SA', nfeChaves: [nfeKey()] });
    expect((await c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: enviado.xml })).status).toBe(201);
    // What the processor does with a procCTe of an answer: the inbox's own handler records it, canal distribuicao.
    const distribuido = buildCteXml({ emitenteCnpj: randomCnpj(), emitenteNome: 'CONTRATANTE DISTRIBUIDA SA', nfeChaves: [nfeKey()] });
    const recebedor = recebedorDistribuicao({
      documents: app.running.platform.documents,
      handlers: { caixaCte: app.running.application.handlers.caixaCte, nfe: app.running.application.handlers.nfe },
      clock: () => new Date(),
    });
    const r = await recebedor.registrar(
      { companyId: c.companyId, cnpj: c.cnpj, environment: 'homologacao' },
      'cte',
      { nsu: '000000000000001', schema: 'procCTe_v4.00.xsd', xml: Buffer.from(distribuido.xml, 'utf8') },
      { eventId: randomUUID(), correlationId: randomUUID() },
    );
    expect(r).toMatchObject({ destino: 'caixa_cte', chave: distribuido.chave });
    // A processor's write records no request's watermark: the read model is awaited by reading it.
    for (let i = 0; i < 100 && (await c.call('GET', `/v1/fiscal/cte-subcontratacao/${distribuido.chave}`)).status !== 200; i++) {
      await new Promise((ok) => setTimeout(ok, 50));
    }

    const res = await leitura.get(AREA);
    const linha = (chave: string) => {
      const i = res.html.indexOf(chave);
      expect(i).toBeGreaterThanOrEqual(0);
      return res.html.slice(res.html.lastIndexOf('<tr', i), res.html.indexOf('</tr>', i));
    };
    expect(res.html).toContain('<th scope="col">Origem</th>');
    expect(linha(distribuido.chave)).toContain('<td>Distribuição (Ambiente Nacional)</td>');
    expect(linha(enviado.chave)).toContain('<td>Enviado</td>');
    const deOutra = await (await sessaoDe(app, outra, 'leitura')).get(AREA);
    expect(deOutra.html).not.toContain(distribuido.chave);
  });

  it('an admin turns it off (the choice shown, no consultation offered, 422 if asked) and on again; a bad value is 400', async () => {
    await admin.get(AREA);
    const off = await admin.post(`${AREA}/distribuicao`, { habilitada: 'false' });
    expect(off.status).toBe(303);
    expect(decodeURIComponent(off.headers.get('location')!)).toContain('Consulta da distribuição desligada.');
    const desligada = bloco((await admin.get(AREA)).html);
    expect(desligada).toContain('<strong>Consulta desligada</strong>.');
    expect(desligada).toContain('Ligar a consulta');
    expect(desligada).not.toContain('Consultar agora');
    expect((await c.call('GET', '/v1/fiscal/distribuicao')).body.data.habilitada).toBe(false);

    const recusada = await operador.post(`${AREA}/distribuicao/consultas`, {});
    expect(recusada.status).toBe(422);
    expect(recusada.html).toContain('A distribuição de documentos está desligada nesta empresa');

    for (const habilitada of ['talvez', '', 'TRUE']) {
      expect((await admin.post(`${AREA}/distribuicao`, { habilitada })).status).toBe(400);
    }
    expect((await admin.post(`${AREA}/distribuicao`, {})).status).toBe(400);

    const on = await admin.post(`${AREA}/distribuicao`, { habilitada: 'true' });
    expect(on.status).toBe(303);
    expect(bloco((await admin.get(AREA)).html)).toContain('<strong>Consulta ligada</strong>.');
  });
});
