import { gzipSync } from 'node:zlib';
import {
  a1DeOutraAc,
  certificadoServidorNaoConfiavel,
  clienteA1,
  iniciarAutoridadeLocalDeTeste,
  VALIDADE_A1,
  type AutoridadeLocalDeTeste,
} from '../support/autoridade-local';
import { CTE_NS, EMITENTE, assinar, cteXml } from '../support/autoridade-xml';
import { makeA1 } from '../support/certificates';
import {
  areaDeRecepcao,
  envelope,
  falhaSoapDe,
  pedirHttps,
  type OpcoesPedido,
  type RespostaHttp,
  retornoDe,
} from '../support/soap-cliente';

/**
 * The local authority's front door: who may talk to it (mutual TLS), what HTTP it takes, and hostile bodies, each
 * answered with the right status, and the server still serving after.
 */

const { a1, cliente } = clienteA1(EMITENTE);
const clock = () => new Date('2026-11-20T13:05:00Z');

let autoridade: AutoridadeLocalDeTeste;
beforeAll(async () => {
  autoridade = await iniciarAutoridadeLocalDeTeste({ clock });
});
afterAll(() => autoridade?.close());

let proximo = 2_000;
const cteAssinado = () => {
  const { chave, xml } = cteXml({ numero: proximo++ });
  return { chave, xml: assinar(xml, 'infCte', a1) };
};
const pedir = (caminho: string, corpo: string | Buffer, o: Partial<OpcoesPedido> = {}) =>
  pedirHttps(autoridade.url, caminho, corpo, { ca: autoridade.caPem, cliente, ...o });
const consSitCTe = (chave: string) =>
  `<consSitCTe xmlns="${CTE_NS}" versao="4.00"><tpAmb>2</tpAmb><xServ>CONSULTAR</xServ><chCTe>${chave}</chCTe></consSitCTe>`;
const situacao = async (chave: string) =>
  retornoDe('CTeConsultaV4', await pedir('/RS/CTeConsultaV4', envelope('CTeConsultaV4', consSitCTe(chave))), 'retConsSitCTe').texto(
    'cStat',
  );
const receber = (dados: string, o: Partial<OpcoesPedido> = {}) => pedir('/RS/CTeRecepcaoSincV4', envelope('CTeRecepcaoSincV4', dados), o);
const recepcao = async (dados: string) => {
  const r = retornoDe('CTeRecepcaoSincV4', await receber(dados), 'retCTe');
  return { cStat: r.texto('cStat'), xMotivo: r.texto('xMotivo') };
};

/** A SOAP 1.2 fault answered with `status`: its code and reason. */
function falha(r: RespostaHttp, status: number) {
  expect({ status: r.status, tipo: r.headers['content-type'] }).toEqual({ status, tipo: 'application/soap+xml; charset=utf-8' });
  return falhaSoapDe(r);
}

describe('mutual TLS', () => {
  // The handshake itself refuses (TLS 1.2: before the client sends its request): an alert when no certificate came,
  // the connection closed before the TLS session is established when the certificate is not accepted.
  const RECUSA_TLS = /alert (certificate required|handshake failure)|disconnected before secure TLS connection was established/i;

  it('refuses a client without a certificate in the handshake, processing nothing', async () => {
    const { chave, xml } = cteAssinado();
    await expect(receber(areaDeRecepcao(xml), { cliente: null })).rejects.toThrow(RECUSA_TLS);
    expect(await situacao(chave)).toBe('217');
  });

  it('refuses a client certificate of a CA it does not trust, or out of its validity, in the handshake, processing nothing', async () => {
    const { chave, xml } = cteAssinado();
    const alheio = a1DeOutraAc({
      cnpj: EMITENTE,
      razao: 'TRANSPORTADORA EXEMPLO LTDA',
      password: 'senha',
      cnpjIn: 'otherName',
      ...VALIDADE_A1,
    });
    await expect(receber(areaDeRecepcao(xml), { cliente: { key: alheio.privateKeyPem, cert: alheio.certificatePem } })).rejects.toThrow(
      RECUSA_TLS,
    );
    const vencido = makeA1({
      cnpj: EMITENTE,
      razao: 'VENCIDO',
      password: 'senha',
      cnpjIn: 'otherName',
      notBefore: new Date('2020-01-01T00:00:00Z'),
      notAfter: new Date('2021-01-01T00:00:00Z'),
    });
    await expect(receber(areaDeRecepcao(xml), { cliente: { key: vencido.privateKeyPem, cert: vencido.certificatePem } })).rejects.toThrow(
      RECUSA_TLS,
    );
    // Not even the fault administration opens to them.
    await expect(pedir('/_falhas', '', { method: 'GET', cliente: null })).rejects.toThrow(RECUSA_TLS);
    expect(await situacao(chave)).toBe('217');
  });

  it('is refused by a client that does not trust its server certificate (helper for the adapter’s test)', async () => {
    const naoConfiavel = await iniciarAutoridadeLocalDeTeste({
      clock,
      schemas: autoridade.schemas,
      pool: autoridade.pool,
      servidorNaoConfiavel: true,
    });
    try {
      const corpo = envelope('CTeConsultaV4', consSitCTe(cteAssinado().chave));
      // The client trusts the test server CA (caPem), which did not issue this server's certificate.
      await expect(pedirHttps(naoConfiavel.url, '/RS/CTeConsultaV4', corpo, { ca: naoConfiavel.caPem, cliente })).rejects.toThrow(
        /unable to verify the first certificate|self[- ]signed|unable to get local issuer/i,
      );
      // With the CA that did, it is an ordinary server.
      const { caPem } = certificadoServidorNaoConfiavel();
      expect(caPem).not.toBe(naoConfiavel.caPem);
      expect((await pedirHttps(naoConfiavel.url, '/RS/CTeConsultaV4', corpo, { ca: caPem, cliente })).status).toBe(200);
    } finally {
      await naoConfiavel.close();
    }
  });
});

describe('HTTP', () => {
  it('answers an unknown path (or a service its authorizer does not answer) with 404', async () => {
    const caminhos = ['/XX/CTeConsultaV4', '/SVRS/CTeNada', '/SP/MDFeRecepcaoSinc', '/CTeConsultaV4', '/', '/ws/CTeConsultaV4/nada.asmx'];
    for (const caminho of caminhos) {
      const r = await pedir(caminho, envelope('CTeConsultaV4', consSitCTe(cteAssinado().chave)));
      expect({ caminho, ...falha(r, 404) }).toEqual({ caminho, codigo: 'soap12:Sender', motivo: expect.stringMatching(/^no service at /) });
    }
  });

  it('answers a method other than POST with 405 and Allow: POST', async () => {
    const r = await pedir('/RS/CTeConsultaV4', '', { method: 'GET' });
    expect(falha(r, 405).motivo).toBe('method GET is not allowed: SOAP requests are POST');
    expect(r.headers.allow).toBe('POST');
  });

  it('answers a content type other than SOAP 1.2 in UTF-8 with 415', async () => {
    const corpo = envelope('CTeConsultaV4', consSitCTe(cteAssinado().chave));
    for (const contentType of ['text/xml; charset=utf-8', 'application/soap+xml; charset=iso-8859-1', 'application/json', null]) {
      const r = await pedir('/RS/CTeConsultaV4', corpo, { contentType });
      expect({ contentType, ...falha(r, 415) }).toEqual({
        contentType,
        codigo: 'soap12:Sender',
        motivo: expect.stringMatching(/is not SOAP 1\.2 \(application\/soap\+xml; charset=utf-8\)$/),
      });
    }
    // Parameters SOAP 1.2 clients add (action) are fine.
    const comAction = await pedir('/RS/CTeConsultaV4', corpo, { contentType: 'application/soap+xml; charset="UTF-8"; action="x"' });
    expect(comAction.status).toBe(200);
  });

  it('answers a body over 2 MB with 413 and goes on serving', async () => {
    const grande = envelope('CTeRecepcaoSincV4', 'A'.repeat(2 * 1024 * 1024));
    expect(falha(await pedir('/RS/CTeRecepcaoSincV4', grande), 413)).toEqual({
      codigo: 'soap12:Sender',
      motivo: 'the request body is over 2097152 bytes',
    });
    expect(await situacao(cteAssinado().chave)).toBe('217');
  });

  it('answers what is not a SOAP 1.2 request it can read with 400 and a Sender fault', async () => {
    const dados = consSitCTe(cteAssinado().chave);
    const bomba =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>' +
      `<soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body>&lol2;</soap12:Body></soap12:Envelope>`;
    const casos: [string, string | Buffer, RegExp][] = [
      ['not XML', 'isto não é XML', /^the SOAP 1\.2 envelope cannot be read \(malformed_xml/],
      [
        'a DOCTYPE (entity expansion)',
        bomba,
        /^the SOAP 1\.2 envelope cannot be read \(hostile_xml: DOCTYPE and entity declarations are not accepted\)$/,
      ],
      [
        'a SOAP 1.1 envelope',
        `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${dados}</s:Body></s:Envelope>`,
        /not a SOAP 1\.2 envelope/,
      ],
      [
        'another service’s data area',
        envelope('CTeStatusServicoV4', dados),
        /^the SOAP body must hold cteDadosMsg in http:\/\/www\.portalfiscal\.inf\.br\/cte\/wsdl\/CTeConsultaV4, not cteDadosMsg in .*CTeStatusServicoV4$/,
      ],
      [
        'a SOAP fault',
        '<?xml version="1.0"?><e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body><e:Fault/></e:Body></e:Envelope>',
        /^a SOAP fault is not a request$/,
      ],
      ['bytes that are not UTF-8', Buffer.from([0x3c, 0xff, 0xfe, 0x3e]), /^the request body is not UTF-8$/],
    ];
    for (const [caso, corpo, motivo] of casos) {
      const r = await pedir('/RS/CTeConsultaV4', corpo);
      expect({ caso, ...falha(r, 400) }).toEqual({ caso, codigo: 'soap12:Sender', motivo: expect.stringMatching(motivo) });
    }
    expect(await situacao(cteAssinado().chave)).toBe('217');
  });
});

describe('hostile receptions', () => {
  const motivo = (m: string) => ({ cStat: '225', xMotivo: `Rejeição: Falha no Schema XML do CT-e [Motivo: ${m}]` });

  it('rejects a data area that is not Base64 of gzip with 225', async () => {
    expect(await recepcao('não*é*base64')).toEqual(motivo('a área de dados não é Base64'));
    expect(await recepcao('QUJD=')).toEqual(motivo('a área de dados não é Base64'));
    expect(await recepcao('')).toEqual(motivo('a área de dados não é Base64'));
    expect(await recepcao(Buffer.from('<CTe/> sem gzip, só texto').toString('base64'))).toEqual(motivo('a área de dados não é gzip'));
    const cortado = gzipSync(Buffer.from(cteAssinado().xml)).subarray(0, 60).toString('base64');
    expect(await recepcao(cortado)).toEqual(motivo('falha na descompactação (gzip)'));
    expect(await recepcao(gzipSync(Buffer.from([0xc3, 0x28, 0xff])).toString('base64'))).toEqual(motivo('o documento não está em UTF-8'));
    expect(await recepcao(cteAssinado().xml.replace(/^<\?xml[^>]*\?>/, ''))).toEqual(
      motivo('a área de dados deve ser o documento compactado (gzip) em Base64, não XML'),
    );
  });

  it('rejects a gzip bomb (225) without inflating it whole, and goes on serving', async () => {
    // 64 MB of zeros are 64 KB gzipped: zlib stops at 5 MB.
    const bomba = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 }).toString('base64');
    expect(bomba.length).toBeLessThan(200_000);
    expect(await recepcao(bomba)).toEqual(motivo('o documento descompactado passa de 5242880 bytes'));
    const { xml } = cteAssinado();
    expect((await recepcao(areaDeRecepcao(xml))).cStat).toBe('100');
  });

  it('passes a document with a DOCTYPE to the rules, which refuse it (243)', async () => {
    const hostil = '<?xml version="1.0"?><!DOCTYPE CTe [<!ENTITY x SYSTEM "file:///etc/passwd">]><CTe>&x;</CTe>';
    expect(await recepcao(areaDeRecepcao(hostil))).toEqual({ cStat: '243', xMotivo: 'Rejeição: XML Mal Formado' });
  });

  it('refuses an event it cannot take byte for byte (a prefixed eventoCTe) with 215', async () => {
    const prefixado = `<c:eventoCTe xmlns:c="${CTE_NS}" versao="4.00"><c:infEvento Id="ID1"/></c:eventoCTe>`;
    const r = retornoDe(
      'CTeRecepcaoEventoV4',
      await pedir('/RS/CTeRecepcaoEventoV4', envelope('CTeRecepcaoEventoV4', prefixado)),
      'retEventoCTe',
    );
    expect(r.bruto).toMatch(
      /<cStat>215<\/cStat><xMotivo>Rejeição: Falha no schema XML \[eventoCTe deve vir sem prefixo de namespace\]<\/xMotivo>/,
    );
  });
});
