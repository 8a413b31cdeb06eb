import fs from 'node:fs';
import path from 'node:path';
import { AmbienteNacionalSimulado } from '@frete/adapters';
import { AUTORIDADES, expectError, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { emissora, pollUntil, rascunhoEmitivel } from '../support/emissora';
import { MOTORISTA_CPF, PLACA, postarLote1a1, relatorioFinal, subcontratadaPronta } from '../support/lote';

/**
 * Issue 30, the whole path through both doors of the authority (in process, and SOAP 1.2 over mutual TLS to the local
 * authority server): a contractor issues a CT-e naming the subcontractor in `autorizados_xml`; the subcontractor's
 * consultation of the national distribution brings it into the inbox byte for byte, and a batch uses it; the
 * cancellation arrives after the hour's wait and refuses what would subcontract it; an NF-e naming the carrier in
 * `transporta` reaches its NF-e list; nobody receives what does not name it.
 */

const HORA = 3_600_000;
const JUST = 'CANCELADO A PEDIDO DO TOMADOR DO SERVICO';
const NFE_FIXTURE = path.join(__dirname, '..', 'fixtures', 'nfe', '41170706117473000150550010000463202612756525-procNFe.xml');

/** A real authorized NF-e whose `transp` names `cnpj` as the carrier (`transporta`): what the authority distributes to it. */
function nfeComTransportadora(cnpj: string): string {
  const xml = fs.readFileSync(NFE_FIXTURE, 'utf8');
  const comTransportadora = xml.replace(
    /<modFrete>0<\/modFrete>/,
    `<modFrete>0</modFrete><transporta><CNPJ>${cnpj}</CNPJ><xNome>SUBCONTRATADA TRANSPORTES LTDA</xNome></transporta>`,
  );
  if (comTransportadora === xml) throw new Error('the NF-e fixture has no modFrete to follow');
  return comTransportadora;
}

/** The company's distribution state of one service. */
async function estadoDe(c: TestCarrier, servico: 'cte' | 'nfe'): Promise<Record<string, unknown>> {
  const r = await c.call('GET', '/v1/fiscal/distribuicao');
  expect(r.status).toBe(200);
  return (r.body.data.servicos as Record<string, unknown>[]).find((x) => x.servico === servico)!;
}

/** Asks a consultation now and waits until the processor recorded its answer. */
async function consultar(c: TestCarrier, servico: 'cte' | 'nfe'): Promise<Record<string, unknown>> {
  const antes = (await estadoDe(c, servico)).ultima_consulta_em;
  const r = await c.call('POST', '/v1/fiscal/distribuicao/consultas', { servico });
  expect(r.status).toBe(202);
  for (let i = 0; i < 300; i++) {
    const s = await estadoDe(c, servico);
    if (!s.consulta_em_andamento && s.ultima_consulta_em !== antes) return s;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`the ${servico} consultation of ${c.cnpj} was not answered`);
}

describe.each(AUTORIDADES)('documents that arrive by themselves: the national distribution (authority: %s)', (autoridade) => {
  let app: TestApp;
  let offsetMs = 0;
  const clock = () => new Date(Date.now() + offsetMs);

  beforeAll(async () => {
    // The schedule looks once at the start (no company yet) and then hourly: the consultations here are the test's.
    app = await startTestApp(
      { SERVICES: 'api,projector,emission-processor,payout-processor,distribuicao-processor', DISTRIBUICAO_INTERVALO_S: '3600' },
      { clock, autoridade },
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  let contratante: TestCarrier;
  let sub: TestCarrier;
  let outra: TestCarrier;

  /** A CT-e of the contractor naming the subcontractor in autXML, authorized: its id, key and archived cteProc. */
  async function cteParaSubcontratada(): Promise<{ id: string; chave: string; xml: string }> {
    const d = await contratante.call('POST', '/v1/fiscal/cte', { ...rascunhoEmitivel(), autorizados_xml: [sub.cnpj] });
    expect(d.status).toBe(201);
    const id = d.body.data.id as string;
    expect(d.body.data.rascunho.autorizados_xml).toEqual([sub.cnpj]);
    expect((await contratante.call('POST', `/v1/fiscal/cte/${id}/emissao`)).status).toBe(202);
    const r = await pollUntil(contratante, `/v1/fiscal/cte/${id}/consulta`, (x) => x.body?.data?.situacao === 'autorizado');
    const xml = await contratante.call('GET', `/v1/fiscal/cte/${id}/xml`);
    expect(xml.status).toBe(200);
    return { id, chave: r.body.data.access_key as string, xml: xml.text };
  }

  it("a contractor's CT-e naming the subcontractor reaches its inbox byte for byte by the consultation, and a batch uses it", async () => {
    contratante = await emissora(app, 'CONTRATANTE TRANSPORTES SA');
    sub = await subcontratadaPronta(app);
    outra = await emissora(app, 'OUTRA TRANSPORTES LTDA');
    const cte = await cteParaSubcontratada();
    expect(cte.xml).toContain(`<autXML><CNPJ>${sub.cnpj}</CNPJ></autXML>`);

    const inicial = await sub.call('GET', '/v1/fiscal/distribuicao');
    expect(inicial.body.data).toMatchObject({ habilitada: true });

    const estado = await consultar(sub, 'cte');
    expect(estado).toMatchObject({ ultimo_cstat: 138, ultimo_nsu: '000000000000001', max_nsu: '000000000000001' });
    // Everything the service held was read: the next consultation waits the hour.
    expect(Date.parse(estado.proxima_consulta as string)).toBeGreaterThan(clock().getTime() + HORA - 60_000);

    const caixa = await sub.call('GET', `/v1/fiscal/cte-subcontratacao/${cte.chave}`);
    expect(caixa.status).toBe(200);
    expect(caixa.body.data).toMatchObject({ origem: 'distribuicao', received_count: 1, allows_counter_cte: true });
    const bytes = await sub.call('GET', `/v1/fiscal/cte-subcontratacao/${cte.chave}/xml`);
    expect(bytes.status).toBe(200);
    expect(bytes.text).toBe(cte.xml);

    const docs = await sub.call('GET', '/v1/fiscal/distribuicao/documentos');
    expect(docs.status).toBe(200);
    expect(docs.body.data).toEqual([
      expect.objectContaining({
        servico: 'cte',
        nsu: '000000000000001',
        chave: cte.chave,
        destino: 'caixa_cte',
        schema: 'procCTe_v4.00.xsd',
      }),
    ]);
    const bruto = await sub.call('GET', '/v1/fiscal/distribuicao/documentos/cte/000000000000001');
    expect(bruto.status).toBe(200);
    expect(bruto.text).toBe(cte.xml);

    // During the hour's wait nothing is asked: 429 with when to come back.
    const cedo = await sub.call('POST', '/v1/fiscal/distribuicao/consultas', { servico: 'cte' });
    expectError(cedo, 429, 'consulta_bloqueada');
    expect(Number(cedo.headers.get('retry-after'))).toBeGreaterThan(HORA / 1000 - 120);

    // A company the CT-e does not name receives nothing of it.
    expect(await consultar(outra, 'cte')).toMatchObject({ ultimo_cstat: 137, ultimo_nsu: '000000000000000' });
    expect((await outra.call('GET', `/v1/fiscal/cte-subcontratacao/${cte.chave}`)).status).toBe(404);
    expect((await outra.call('GET', '/v1/fiscal/distribuicao/documentos')).body.data).toEqual([]);
    // Nor does it see the subcontractor's documents.
    expect((await outra.call('GET', '/v1/fiscal/distribuicao/documentos/cte/000000000000001')).status).toBe(404);

    const regra = await sub.call('POST', '/v1/fiscal/regras-tributacao', {
      uf_origem: 'SP',
      uf_destino: 'RJ',
      icms: { cst: '00', aliquota: 12 },
    });
    expect([201, 409, 422]).toContain(regra.status);
    const lote = await postarLote1a1(sub, [cte.chave]);
    expect(lote.status).toBe(202);
    const relatorio = await relatorioFinal(sub, lote.body.data.batch_id as string);
    expect(relatorio.body.data.status).toBe('done');
    expect(relatorio.body.data.progress.counts).toMatchObject({ emitted: 1 });
  });

  it("the contractor's cancellation arrives after the hour's wait, and what would subcontract the CT-e is refused", async () => {
    const cte = await cteParaSubcontratada();
    offsetMs += HORA + 60_000;
    // Since the last consultation: the subcontractor's own counter-CT-e of the batch (kept only), then this CT-e.
    expect(await consultar(sub, 'cte')).toMatchObject({ ultimo_cstat: 138, ultimo_nsu: '000000000000003' });
    expect((await sub.call('GET', `/v1/fiscal/cte-subcontratacao/${cte.chave}`)).body.data.origem).toBe('distribuicao');
    const recebidos = await sub.call('GET', '/v1/fiscal/distribuicao/documentos?servico=cte');
    expect(recebidos.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ nsu: '000000000000002', destino: 'guardado', schema: 'procCTe_v4.00.xsd' }),
        expect.objectContaining({ nsu: '000000000000003', chave: cte.chave, destino: 'caixa_cte' }),
      ]),
    );

    const canc = await contratante.call('POST', `/v1/fiscal/cte/${cte.id}/eventos/cancelamento`, { justificativa: JUST });
    expect(canc.status).toBe(200);
    offsetMs += HORA + 60_000;
    expect(await consultar(sub, 'cte')).toMatchObject({ ultimo_cstat: 138, ultimo_nsu: '000000000000004' });

    const docs = await sub.call('GET', '/v1/fiscal/distribuicao/documentos?servico=cte');
    expect(docs.body.data).toContainEqual(
      expect.objectContaining({ nsu: '000000000000004', chave: cte.chave, destino: 'cancelamento_cte', schema: 'procEventoCTe_v4.00.xsd' }),
    );
    const caixa = await sub.call('GET', `/v1/fiscal/cte-subcontratacao/${cte.chave}`);
    expect(caixa.body.data.allows_counter_cte).toBe(false);

    expectError(
      await sub.call('POST', '/v1/fiscal/cte/contra', {
        chave_cte_original: cte.chave,
        motorista: { cpf: MOTORISTA_CPF },
        placa: PLACA,
        valor_frete: 100,
      }),
      422,
      'cte_contratante_cancelado',
    );
    const lote = await postarLote1a1(sub, [cte.chave]);
    expect(lote.status).toBe(202);
    const relatorio = await relatorioFinal(sub, lote.body.data.batch_id as string);
    expect(relatorio.body.data.rows[0]).toMatchObject({
      status: 'failed',
      error: expect.objectContaining({ code: 'cte_contratante_cancelado' }),
    });
  });

  it('an NF-e naming the carrier in transporta reaches its NF-e list, and only its', async () => {
    const xml = nfeComTransportadora(sub.cnpj);
    if (app.autoridadeLocal) await app.autoridadeLocal.registrarNfe(xml);
    else await new AmbienteNacionalSimulado({ pool: app.db.pool, clock }).registrarNfe(xml);

    expect(await consultar(sub, 'nfe')).toMatchObject({ ultimo_cstat: 138, ultimo_nsu: '000000000000001' });
    const nfe = await sub.call('GET', '/v1/fiscal/nfe/41170706117473000150550010000463202612756525');
    expect(nfe.status).toBe(200);
    expect(nfe.body.data.origem).toBe('distribuicao');
    expect(await consultar(outra, 'nfe')).toMatchObject({ ultimo_cstat: 137 });
    expect((await outra.call('GET', '/v1/fiscal/nfe/41170706117473000150550010000463202612756525')).status).toBe(404);
  });
});
