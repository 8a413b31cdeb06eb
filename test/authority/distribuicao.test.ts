import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { elementosBrutos, lerEnvelope } from '@frete/adapters';
import { childElements, type XmlElement } from '@frete/documents';
import { clienteA1, iniciarAutoridadeLocalDeTeste, VALIDADE_A1, type AutoridadeLocalDeTeste } from '../support/autoridade-local';
import { EMITENTE, assinar, cteXml, evCancCTe, eventoCteXml } from '../support/autoridade-xml';
import { makeA1 } from '../support/certificates';
import { areaDeRecepcao, envelope, falhaSoapDe, pedirHttps, retornoDe, type OpcoesPedido } from '../support/soap-cliente';

/**
 * The national environment's two services on the local authority server, over mutual TLS, spoken to by a raw SOAP
 * client: the request as sped-cte/sped-nfe `Tools::sefazDistDFe` build it, the answer read as written.
 */

const { a1, cliente } = clienteA1(EMITENTE);
/** A carrier named in an NF-e's transporta, with its own A1. */
const TRANSPORTADORA = '07526557000100';
const a1Transportadora = makeA1({
  cnpj: TRANSPORTADORA,
  razao: 'TRANSPORTADORA DA NFE',
  password: 'senha',
  cnpjIn: 'otherName',
  keyIndex: 1,
  ...VALIDADE_A1,
});
const REMETENTE = '45997418000153';
const AUTORIZADO = '33000167000101';
const ZERO = '000000000000000';

const INICIO = new Date('2026-11-20T13:05:00Z');
const HORA = 3_600_000;
let agora = INICIO;
const clock = () => agora;

let autoridade: AutoridadeLocalDeTeste;

beforeAll(async () => {
  autoridade = await iniciarAutoridadeLocalDeTeste({ clock });
});
afterAll(() => autoridade?.close());
beforeEach(() => {
  autoridade.falhas.limpar();
});

const CTE = {
  caminho: '/AN/CTeDistribuicaoDFe',
  wsdl: 'http://www.portalfiscal.inf.br/cte/wsdl/CTeDistribuicaoDFe',
  portal: 'http://www.portalfiscal.inf.br/cte',
  versao: '1.00',
  m: 'cte',
};
const NFE = {
  caminho: '/AN/NFeDistribuicaoDFe',
  wsdl: 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeDistribuicaoDFe',
  portal: 'http://www.portalfiscal.inf.br/nfe',
  versao: '1.01',
  m: 'nfe',
};
type Servico = typeof CTE;

const distDFeInt = (s: Servico, documento: string, ultNSU = ZERO, extra = '') =>
  `<distDFeInt xmlns="${s.portal}" versao="${s.versao}"><tpAmb>2</tpAmb><cUFAutor>43</cUFAutor><CNPJ>${documento}</CNPJ>` +
  `${extra}<distNSU><ultNSU>${ultNSU}</ultNSU></distNSU></distDFeInt>`;

/** The SOAP 1.2 request as the libraries send it: `<x>DistDFeInteresse/<x>DadosMsg` in the WSDL namespace, no header. */
const envelopeDist = (s: Servico, dados: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body>` +
  `<${s.m}DistDFeInteresse xmlns="${s.wsdl}"><${s.m}DadosMsg xmlns="${s.wsdl}">${dados}</${s.m}DadosMsg></${s.m}DistDFeInteresse>` +
  `</soap12:Body></soap12:Envelope>`;

const pedir = (caminho: string, corpo: string, o: Partial<OpcoesPedido> = {}) =>
  pedirHttps(autoridade.url, caminho, corpo, { ca: autoridade.caPem, cliente, ...o });

interface Ret {
  bruto: string;
  texto(n: string): string | null;
  docZips: { nsu: string; schema: string; conteudo: string }[];
}

/** The answer's `retDistDFeInt`, checked to sit in `<x>DistDFeInteresseResponse/<x>DistDFeInteresseResult`. */
async function consultar(s: Servico, dados: string, o: Partial<OpcoesPedido> = {}): Promise<Ret> {
  const r = await pedir(s.caminho, envelopeDist(s, dados), o);
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toMatch(/^application\/soap\+xml; charset=utf-8/);
  const lido = lerEnvelope(r.corpo);
  if (lido.tipo !== 'corpo') throw new Error(`expected a SOAP answer: ${r.corpo.slice(0, 300)}`);
  expect(lido.conteudo.localName).toBe(`${s.m}DistDFeInteresseResponse`);
  expect(lido.conteudo.namespaceURI).toBe(s.wsdl);
  const resultado = childElements(lido.conteudo)[0]!;
  expect([resultado.localName, resultado.namespaceURI]).toEqual([`${s.m}DistDFeInteresseResult`, s.wsdl]);
  const ret = childElements(resultado)[0]!;
  expect([ret.localName, ret.namespaceURI]).toEqual(['retDistDFeInt', s.portal]);
  const filho = (el: XmlElement | undefined, n: string) => (el ? childElements(el).filter((c) => c.localName === n) : []);
  return {
    bruto: elementosBrutos(r.corpo, 'retDistDFeInt', s.portal)[0]!,
    texto: (n) => filho(ret, n)[0]?.textContent ?? null,
    docZips: filho(filho(ret, 'loteDistDFeInt')[0], 'docZip').map((d) => ({
      nsu: d.getAttribute('NSU') ?? '',
      schema: d.getAttribute('schema') ?? '',
      conteudo: d.textContent ?? '',
    })),
  };
}

const esquemaValido = async (s: Servico, xml: string) =>
  expect(await autoridade.schemas.validate(xml, s === CTE ? 'retDistDFeInt_v1.00.xsd' : 'retDistDFeInt_v1.01.xsd')).toEqual({
    valid: true,
    errors: [],
  });

async function guardado(servico: 'cte' | 'nfe', interessado: string, nsu: string): Promise<Buffer> {
  const { rows } = await autoridade.pool.query<{ xml: Buffer }>(
    'SELECT xml FROM ambiente_nacional_documentos WHERE servico = $1 AND interessado = $2 AND nsu = $3',
    [servico, interessado, BigInt(nsu).toString()],
  );
  return rows[0]!.xml;
}

let proximo = 3_000;
/** A CT-e authorized through the server's own reception, naming AUTORIZADO in autXML. */
async function cteAutorizadoPeloServidor() {
  const { chave, xml } = cteXml({
    numero: proximo++,
    alterar: (x) => x.replace('</infCTeNorm></infCte>', `</infCTeNorm><autXML><CNPJ>${AUTORIZADO}</CNPJ></autXML></infCte>`),
  });
  const assinado = assinar(xml, 'infCte', a1);
  const ret = retornoDe(
    'CTeRecepcaoSincV4',
    await pedir('/RS/CTeRecepcaoSincV4', envelope('CTeRecepcaoSincV4', areaDeRecepcao(assinado))),
    'retCTe',
  );
  const nProt = /<nProt>([0-9]+)<\/nProt>/.exec(ret.bruto)![1]!;
  return { chave, assinado, nProt };
}

describe('CTeDistribuicaoDFe over mutual TLS', () => {
  it('answers a schema-valid retDistDFeInt whose docZip unzips to the stored cteProc, then 656 within the hour', async () => {
    agora = INICIO;
    const { chave, assinado, nProt } = await cteAutorizadoPeloServidor();
    const evento = assinar(eventoCteXml({ chave, tpEvento: '110111', det: evCancCTe(nProt) }), 'infEvento', a1);
    retornoDe('CTeRecepcaoEventoV4', await pedir('/RS/CTeRecepcaoEventoV4', envelope('CTeRecepcaoEventoV4', evento)), 'retEventoCTe');

    const r = await consultar(CTE, distDFeInt(CTE, EMITENTE));
    await esquemaValido(CTE, r.bruto);
    expect([r.texto('cStat'), r.texto('xMotivo'), r.texto('tpAmb')]).toEqual(['138', 'Documento(s) localizado(s)', '2']);
    // CT-e 1.00: dhResp without a zone (its schema's pattern).
    expect(r.texto('dhResp')).toBe('2026-11-20T10:05:00');
    expect(r.docZips.map((d) => d.schema)).toEqual(['procCTe_v4.00.xsd', 'procEventoCTe_v4.00.xsd']);
    expect(r.texto('ultNSU')).toBe(r.docZips[1]!.nsu);
    expect(r.texto('maxNSU')).toBe(r.docZips[1]!.nsu);
    for (const d of r.docZips) {
      const bytes = gunzipSync(Buffer.from(d.conteudo, 'base64'));
      expect(bytes.equals(await guardado('cte', EMITENTE, d.nsu))).toBe(true);
    }
    const cteProc = gunzipSync(Buffer.from(r.docZips[0]!.conteudo, 'base64')).toString('utf8');
    expect(cteProc).toContain(assinado.replace(/^<\?xml[^?]*\?>/, ''));
    expect((await autoridade.schemas.validate(cteProc, 'procCTe_v4.00.xsd')).valid).toBe(true);

    agora = new Date(INICIO.getTime() + 10 * 60_000);
    const bloqueio = await consultar(CTE, distDFeInt(CTE, EMITENTE, r.texto('ultNSU')!));
    await esquemaValido(CTE, bloqueio.bruto);
    expect(bloqueio.texto('cStat')).toBe('656');
    expect(bloqueio.texto('ultNSU')).toBe(r.texto('ultNSU'));
    expect(bloqueio.docZips).toEqual([]);
  });

  it('answers 593 when the certificate is not the party’s, and 215 for a request outside the schema', async () => {
    const outro = await consultar(CTE, distDFeInt(CTE, REMETENTE));
    await esquemaValido(CTE, outro.bruto);
    expect([outro.texto('cStat'), outro.texto('xMotivo')]).toEqual([
      '593',
      'Rejeição: CNPJ-Base consultado difere do CNPJ-Base do Certificado Digital',
    ]);

    const curto = await consultar(CTE, distDFeInt(CTE, EMITENTE, '12345'));
    await esquemaValido(CTE, curto.bruto);
    expect(curto.texto('cStat')).toBe('215');
    expect(curto.texto('xMotivo')).toMatch(/^Rejeição: Falha no schema XML \[.*ultNSU/);

    const outraRaiz = await consultar(CTE, `<consSitCTe xmlns="${CTE.portal}" versao="4.00"/>`);
    expect(outraRaiz.texto('cStat')).toBe('215');
    await esquemaValido(CTE, outraRaiz.bruto);
  });

  it('refuses a body that is not this service’s operation with a SOAP Sender fault (400), and GET with 405', async () => {
    const r = await pedir(CTE.caminho, envelope('CTeConsultaV4', distDFeInt(CTE, EMITENTE)));
    expect(r.status).toBe(400);
    expect(falhaSoapDe(r)).toMatchObject({ codigo: 'soap12:Sender', motivo: expect.stringMatching(/cteDistDFeInteresse\/cteDadosMsg/) });
    expect((await pedir(CTE.caminho, '', { method: 'GET' })).status).toBe(405);
    expect((await pedir(CTE.caminho, envelopeDist(CTE, distDFeInt(CTE, EMITENTE)), { contentType: 'text/xml' })).status).toBe(415);
  });

  it('answers at the real table’s path too', async () => {
    agora = new Date(INICIO.getTime() + 10 * HORA);
    const r = await consultar({ ...CTE, caminho: '/CTeDistribuicaoDFe/CTeDistribuicaoDFe.asmx' }, distDFeInt(CTE, EMITENTE));
    // From NSU zero again: the same two documents (the CT-e and its cancellation).
    expect(r.texto('cStat')).toBe('138');
    expect(r.docZips.map((d) => d.schema)).toEqual(['procCTe_v4.00.xsd', 'procEventoCTe_v4.00.xsd']);
  });
});

describe('NFeDistribuicaoDFe and the NF-e hook', () => {
  const NFE_XML = readFileSync(
    path.join(__dirname, '..', 'fixtures', 'nfe', '41170706117473000150550010000463202612756525-procNFe.xml'),
    'utf8',
  ).replace(
    /<modFrete>0<\/modFrete>\s*<\/transp>/,
    `<modFrete>0</modFrete><transporta><CNPJ>${TRANSPORTADORA}</CNPJ></transporta></transp>`,
  );
  const clienteTransportadora = { key: a1Transportadora.privateKeyPem, cert: a1Transportadora.certificatePem };

  it('an NF-e registered through /_ambiente-nacional/nfe reaches the carrier byte for byte; a broken docZip is injected once', async () => {
    agora = INICIO;
    const registro = await pedir('/_ambiente-nacional/nfe', NFE_XML, { contentType: 'application/xml', cliente: clienteTransportadora });
    expect(registro.status).toBe(201);
    const corpo = JSON.parse(registro.corpo) as { chave: string; nsus: Record<string, string> };
    expect(corpo.chave).toBe('41170706117473000150550010000463202612756525');
    const nsu = corpo.nsus[TRANSPORTADORA]!;
    expect(nsu).toBe('000000000000001');

    autoridade.falhas.programar({ tipo: 'doczip_corrompido', nsu, servico: 'NFeDistribuicaoDFe', vezes: 1 });
    const quebrada = await consultar(NFE, distDFeInt(NFE, TRANSPORTADORA), { cliente: clienteTransportadora });
    expect(quebrada.docZips).toHaveLength(1);
    expect(quebrada.docZips[0]!.conteudo).toMatch(/^!/);
    expect(() => gunzipSync(Buffer.from(quebrada.docZips[0]!.conteudo, 'base64'))).toThrow();
    expect(autoridade.falhas.listar()).toEqual([]);

    // The rule is spent; an hour later (the answer reached maxNSU) the same NSU comes whole.
    agora = new Date(INICIO.getTime() + HORA + 1);
    const r = await consultar(NFE, distDFeInt(NFE, TRANSPORTADORA), { cliente: clienteTransportadora });
    await esquemaValido(NFE, r.bruto);
    expect([r.texto('cStat'), r.texto('ultNSU'), r.texto('maxNSU')]).toEqual(['138', nsu, nsu]);
    // NF-e 1.01: dhResp with its zone.
    expect(r.texto('dhResp')).toBe('2026-11-20T11:05:00-03:00');
    expect(r.docZips[0]!.schema).toBe('procNFe_v4.00.xsd');
    expect(gunzipSync(Buffer.from(r.docZips[0]!.conteudo, 'base64')).equals(Buffer.from(NFE_XML, 'utf8'))).toBe(true);
  });

  it('the hook refuses what is not an authorized nfeProc (400) and answers only POST (405)', async () => {
    const r = await pedir('/_ambiente-nacional/nfe', '<CTe xmlns="http://www.portalfiscal.inf.br/cte"/>', {
      contentType: 'application/xml',
    });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.corpo)).toEqual({ erro: expect.stringMatching(/^expected an nfeProc/) });
    expect((await pedir('/_ambiente-nacional/nfe', '', { method: 'GET' })).status).toBe(405);
    // The test support registers through the same environment.
    const outra = NFE_XML.replace(/<cNF>61275652<\/cNF>/, '<cNF>61275653</cNF>');
    await expect(autoridade.registrarNfe(outra)).resolves.toMatchObject({ nsus: { [TRANSPORTADORA]: '000000000000002' } });
  });
});

describe('faults on the distribution routes', () => {
  it('a dropped answer (processed, connection closed), a server error (500) and the channel’s 108', async () => {
    agora = new Date(INICIO.getTime() + 100 * HORA);
    autoridade.falhas.programar({ tipo: 'sem_resposta', servico: 'CTeDistribuicaoDFe', vezes: 1 });
    await expect(pedir(CTE.caminho, envelopeDist(CTE, distDFeInt(CTE, EMITENTE)))).rejects.toThrow(/socket hang up|ECONNRESET/);
    autoridade.falhas.programar({ tipo: 'erro_servidor', servico: 'CTeDistribuicaoDFe', vezes: 1 });
    const erro = await pedir(CTE.caminho, envelopeDist(CTE, distDFeInt(CTE, EMITENTE)));
    expect(erro.status).toBe(500);
    expect(falhaSoapDe(erro).codigo).toBe('soap12:Receiver');
    autoridade.falhas.programar({ tipo: 'status', cStat: 108, servico: 'CTeDistribuicaoDFe', vezes: 1 });
    const parado = await consultar(CTE, distDFeInt(CTE, EMITENTE));
    await esquemaValido(CTE, parado.bruto);
    expect(parado.texto('cStat')).toBe('108');
    // The dropped answer was processed (the party's two documents, up to maxNSU): the wait started then, so asking
    // from where that answer left it is 656.
    const depois = await consultar(CTE, distDFeInt(CTE, EMITENTE, '000000000000002'));
    expect(depois.texto('cStat')).toBe('656');
    expect(autoridade.atendidos()['AN/CTeDistribuicaoDFe']).toBeGreaterThanOrEqual(4);
  });

  it('refuses a broken-docZip rule for another service and a 678 for the national environment', () => {
    expect(() => autoridade.falhas.programar({ tipo: 'doczip_corrompido', nsu: ZERO, servico: 'CTeConsultaV4' })).toThrow(
      /doczip_corrompido hits/,
    );
    expect(() => autoridade.falhas.programar({ tipo: 'doczip_corrompido', nsu: '12' })).toThrow(/nsu must be 15 digits/);
    expect(() => autoridade.falhas.programar({ tipo: 'status', cStat: 678, servico: 'NFeDistribuicaoDFe' })).toThrow(/656/);
  });
});
