import { randomCnpj, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { pollUntil } from '../support/emissora';
import { chaveTeste } from '../support/cte-montar';
import { nfeKey } from '../support/cte-xml';
import { comProtocolo, type CteContratante, cteContratanteXml, type EnderecoCte, type MunicipioCte } from '../support/cte-contratante';
import { MOTORISTA_CPF, PLACA, relatorioFinal, subcontratadaPronta } from '../support/lote';

const CAMPINAS: MunicipioCte = { cMun: '3509502', xMun: 'CAMPINAS', UF: 'SP' };
const SAO_PAULO: MunicipioCte = { cMun: '3550308', xMun: 'SAO PAULO', UF: 'SP' };
const RIO: MunicipioCte = { cMun: '3304557', xMun: 'RIO DE JANEIRO', UF: 'RJ' };
const enderecoSemOpcionais = (municipio: MunicipioCte): EnderecoCte => ({
  xLgr: 'RUA DAS FLORES',
  nro: '100',
  xBairro: 'CENTRO',
  municipio,
});

let numero = 0;
/**
 * A contractor's CT-e with every element CT-e 4.00 makes optional left out: no CEP, IE, complement, phone, e-mail or
 * country anywhere, no vCarga, no components, no compl, no docAnt, no QR code. The sender and the recipient are
 * optional too, but a subcontracting CT-e needs them (G053/G054): they are there, bare; so is one NF-e, since a normal
 * CT-e and its subcontracting carry infDoc (G036, rejection 693: the pre-flight refuses a counter-CT-e without it).
 */
const semOpcionais = (contratante: string, over: Partial<CteContratante> = {}): CteContratante => ({
  cUF: '35',
  serie: 1,
  numero: ++numero,
  tpAmb: 2,
  tpServ: 0,
  inicio: CAMPINAS,
  fim: RIO,
  toma: 0,
  emit: {
    CNPJ: contratante,
    xNome: 'CONTRATANTE TRANSPORTES SA',
    ender: { xLgr: 'AV DO TRANSPORTE', nro: '1', xBairro: 'DISTRITO', municipio: SAO_PAULO },
    CRT: '3',
  },
  rem: { CNPJ: '11222333000181', xNome: 'REMETENTE INDUSTRIA LTDA', ender: enderecoSemOpcionais(CAMPINAS) },
  dest: { CPF: '52998224725', xNome: 'JOSE DESTINATARIO', ender: enderecoSemOpcionais(RIO) },
  vTPrest: 1500_00,
  componentes: [],
  icms: { grupo: 'ICMS45', cst: '40' },
  carga: { proPred: 'PECAS', infQ: [{ cUnid: '01', tpMed: 'PESO BRUTO', qCarga: '1000.0000' }] },
  documentos: { tipo: 'nfe', chaves: [nfeKey()] },
  RNTRC: '12345678',
  qrCode: false,
  ...over,
});

/** The text of the first `<name>` within the first `<within>`. */
const grupo = (xml: string, within: string) => new RegExp(`<${within}>[\\s\\S]*?</${within}>`).exec(xml)?.[0] ?? '';

describe('counter-CT-e of a contractor CT-e without the optional elements of CT-e 4.00 (issue 11, defect 2)', () => {
  jest.setTimeout(120_000);
  let app: TestApp;
  let sub: TestCarrier;
  const contratante = randomCnpj();

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_FISCAL_PER_MIN: '100000', RATE_LIMIT_IP_PER_MIN: '100000' });
    sub = await subcontratadaPronta(app);
  });
  afterAll(() => app?.close());

  const receber = async (c: CteContratante): Promise<string> => {
    const { chave, xml } = cteContratanteXml(c);
    const r = await sub.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: comProtocolo(xml, chave, c.tpAmb) });
    expect(r.status).toBe(201);
    return chave;
  };
  /** The counter-CT-e of the received `chave`, by the registered driver and vehicle, at R$ 800,00. */
  const contra = (chave: string) =>
    sub.call('POST', '/v1/fiscal/cte/contra', {
      chave_cte_original: chave,
      motorista: { cpf: MOTORISTA_CPF },
      placa: PLACA,
      valor_frete: 800,
    });
  const lido = async (id: string) => {
    const r = await sub.call('GET', `/v1/fiscal/cte/${id}`);
    expect(r.status).toBe(200);
    return r.body.data;
  };
  const listaInteira = async () => {
    const r = await sub.call('GET', '/v1/fiscal/cte?per_page=100');
    expect(r.status).toBe(200);
    return r.body.data as { id: string }[];
  };
  const xmlDe = async (id: string) => {
    const r = await sub.call('GET', `/v1/fiscal/cte/${id}/xml`);
    expect(r.status).toBe(200);
    return r.text;
  };

  it('POST /fiscal/cte/contra: issued and authorized; GET /fiscal/cte/{id} and GET /fiscal/cte answer 200 and carry the absence', async () => {
    const chave = await receber(semOpcionais(contratante));
    const res = await contra(chave);
    expect(res.status).toBe(202);
    const id = res.body.data.id as string;

    // Before the fix the stored plan had `cep: ''`: the detail and the whole list answered 500.
    const rascunho = (await lido(id)).rascunho;
    expect(await listaInteira()).toEqual(expect.arrayContaining([expect.objectContaining({ id })]));
    for (const parte of [rascunho.remetente, rascunho.destinatario, rascunho.tomador.parte]) {
      expect(parte.endereco).not.toHaveProperty('cep');
      expect(parte.endereco).not.toHaveProperty('complemento');
    }
    expect(rascunho.remetente).not.toHaveProperty('ie');
    expect(rascunho.carga).not.toHaveProperty('valor'); // no vCarga in the contractor's CT-e: none invented

    expect((await pollUntil(sub, `/v1/fiscal/cte/${id}/consulta`)).body.data.situacao).toBe('autorizado');
    const xml = await xmlDe(id);
    for (const tag of ['rem', 'dest', 'toma4']) expect(grupo(xml, tag)).not.toContain('<CEP>');
    expect(grupo(xml, 'infCarga')).not.toContain('<vCarga>');
    expect((await lido(id)).situacao).toBe('autorizado');
    expect((await sub.call('GET', `/v1/fiscal/cte/${id}/dacte`)).status).toBe(200);
  });

  it("what the layout allows beyond the input's limits (cargo value and quantities of 13 and 11 digits, 25 quantities) is carried and shown", async () => {
    const infQ = Array.from({ length: 25 }, (_, i) => ({
      cUnid: '01',
      tpMed: 'PESO BRUTO',
      qCarga: i === 0 ? '99999999999.9999' : `${i}.1234`,
    }));
    const comCep = (e: EnderecoCte): EnderecoCte => ({ ...e, CEP: '01001000' });
    const base = semOpcionais(contratante);
    const chave = await receber({
      ...base,
      emit: { ...base.emit, ender: comCep(base.emit.ender) },
      rem: { ...base.rem!, ender: comCep(base.rem!.ender) },
      dest: { ...base.dest!, ender: comCep(base.dest!.ender) },
      carga: { vCarga: '9999999999999.99', proPred: 'TURBINAS', infQ },
    });
    const res = await contra(chave);
    expect(res.status).toBe(202);
    const id = res.body.data.id as string;
    const { carga } = (await lido(id)).rascunho;
    expect(carga.valor).toBe(9999999999999.99);
    expect(carga.quantidades).toHaveLength(25);
    expect(await listaInteira()).toEqual(expect.arrayContaining([expect.objectContaining({ id })]));
    expect((await pollUntil(sub, `/v1/fiscal/cte/${id}/consulta`)).body.data.situacao).toBe('autorizado');
    const infCarga = grupo(await xmlDe(id), 'infCarga');
    expect(infCarga).toContain('<vCarga>9999999999999.99</vCarga>');
    expect(infCarga).toContain('<qCarga>99999999999.9999</qCarga>');
    expect(infCarga.match(/<infQ>/g)).toHaveLength(25);
  });

  it('through a batch: the row is emitted, and its counter-CT-e answers 200 alone and in the list', async () => {
    const docAnt = chaveTeste('60701190000104', 9, '57', '35');
    const chave = await receber(
      semOpcionais(contratante, { tpServ: 1, docAnt: { CNPJ: '60701190000104', xNome: 'PRIMEIRA TRANSPORTADORA', chaves: [docAnt] } }),
    );
    const r = await sub.call('POST', '/v1/fiscal/cte-subcontratacao/lote', {
      subcontratada: { cnpj: sub.cnpj },
      motorista: { cpf: MOTORISTA_CPF },
      placa: PLACA,
      ctes: [{ chave, valor: 250 }],
    });
    expect(r.status).toBe(202);
    const report = (await relatorioFinal(sub, r.body.data.batch_id)).body.data;
    expect(report).toMatchObject({ status: 'done', rows: [{ chave, status: 'emitted' }] });
    const id = report.rows[0].counter_cte_id as string;
    const doc = await lido(id);
    expect(doc).toMatchObject({ situacao: 'autorizado', contra_cte: { chave_original: chave, lote_id: r.body.data.batch_id } });
    expect(doc.rascunho.remetente.endereco).not.toHaveProperty('cep');
    expect(await listaInteira()).toEqual(expect.arrayContaining([expect.objectContaining({ id })]));
    expect((await sub.call('GET', `/v1/fiscal/cte-subcontratacao/${chave}`)).body.data).toMatchObject({
      status: 'subcontratado',
      access_key: chave,
    });
  });
});
