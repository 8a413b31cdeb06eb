import { gzipSync } from 'node:zlib';
import {
  abrirDocZip,
  AutoridadeIndisponivel,
  destinoAn,
  destinoSefaz,
  distDFeIntXml,
  DistribuicaoDFeIndisponivel,
  ENDERECOS_AN,
  envelopeDaRespostaDistribuicao,
  envelopeDeFalha,
  envelopeDistribuicao,
  lerEnvelope,
  MAX_DOCUMENTO_DISTRIBUIDO,
  nsu15,
  type PedidoDistribuicao,
  ProvedorIndisponivel,
  retornoDistribuicao,
  SERVICOS_AN,
  SOAP_DISTRIBUICAO,
} from '@frete/adapters';
import { childElements, FiscalSchemas, type XmlElement } from '@frete/documents';

/**
 * The national distribution's messages without a server: AN routing, the request `distDFeInt` and its envelope as
 * sped-cte/sped-nfe `sefazDistDFe` and the WSDL-generated stubs write them, and the answer `retDistDFeInt` (built here
 * by hand, as the schema describes it) mapped to the port's types.
 */

const CTE = 'http://www.portalfiscal.inf.br/cte';
const NFE = 'http://www.portalfiscal.inf.br/nfe';
const CNPJ = '11222333000181';
const pedido = (o: Partial<PedidoDistribuicao> = {}): PedidoDistribuicao => ({
  servico: 'cte',
  cUFAutor: '43',
  documento: CNPJ,
  ultNSU: '000000000000000',
  ...o,
});
const depois = new Date('2026-11-20T13:05:30Z');

/** CT-e 1.00's `dhResp` has no offset (AAAA-MM-DDTHH:MM:SS), NF-e 1.01's is `TDateTimeUTC`: the schemas' patterns. */
const DH_RESP = { cte: '2026-11-20T10:05:00', nfe: '2026-11-20T10:05:00-03:00' } as const;

/** A `retDistDFeInt` as the schema orders it (`retDistDFeInt_v1.0x.xsd`), inside the WSDL's answer wrappers. */
function resposta(o: {
  servico?: 'cte' | 'nfe';
  cStat: number;
  xMotivo: string;
  ultNSU?: string;
  maxNSU?: string;
  docZips?: { nsu: string; schema: string; conteudo: string }[];
}): { status: number; corpo: string } {
  const s = SOAP_DISTRIBUICAO[o.servico ?? 'cte'];
  const lote = o.docZips?.length
    ? `<loteDistDFeInt>${o.docZips.map((d) => `<docZip NSU="${d.nsu}" schema="${d.schema}">${d.conteudo}</docZip>`).join('')}</loteDistDFeInt>`
    : '';
  const ret =
    `<retDistDFeInt xmlns="${s.portal}" versao="${s.versao}"><tpAmb>2</tpAmb><verAplic>1.0.0</verAplic><cStat>${o.cStat}</cStat>` +
    `<xMotivo>${o.xMotivo}</xMotivo><dhResp>${DH_RESP[o.servico ?? 'cte']}</dhResp>` +
    (o.ultNSU === undefined ? '' : `<ultNSU>${o.ultNSU}</ultNSU>`) +
    (o.maxNSU === undefined ? '' : `<maxNSU>${o.maxNSU}</maxNSU>`) +
    `${lote}</retDistDFeInt>`;
  return { status: 200, corpo: envelopeDaRespostaDistribuicao(o.servico ?? 'cte', ret) };
}

const filhos = (el: XmlElement) => childElements(el);

const schemas = new FiscalSchemas();
afterAll(() => schemas.close());
/** The `retDistDFeInt` of an answer, as the schema validates it (the envelope taken off). */
const retDe = (corpo: string) => /<retDistDFeInt[\s\S]*<\/retDistDFeInt>/.exec(corpo)![0];

describe('national distribution: routing as data', () => {
  it('has both services of AN built in, both environments (sped-cte, sped-nfe service tables)', () => {
    expect(SERVICOS_AN).toEqual(['CTeDistribuicaoDFe', 'NFeDistribuicaoDFe']);
    expect(destinoAn('CTeDistribuicaoDFe', 'producao')).toEqual({
      autorizador: 'AN',
      url: 'https://www1.cte.fazenda.gov.br/CTeDistribuicaoDFe/CTeDistribuicaoDFe.asmx',
    });
    expect(destinoAn('CTeDistribuicaoDFe', 'homologacao').url).toBe(
      'https://hom1.cte.fazenda.gov.br/CTeDistribuicaoDFe/CTeDistribuicaoDFe.asmx',
    );
    expect(destinoAn('NFeDistribuicaoDFe', 'producao').url).toBe(
      'https://www1.nfe.fazenda.gov.br/NFeDistribuicaoDFe/NFeDistribuicaoDFe.asmx',
    );
    expect(destinoAn('NFeDistribuicaoDFe', 'homologacao').url).toBe(
      'https://hom1.nfe.fazenda.gov.br/NFeDistribuicaoDFe/NFeDistribuicaoDFe.asmx',
    );
    expect(Object.keys(ENDERECOS_AN).sort()).toEqual([...SERVICOS_AN].sort());
  });

  it('lets SEFAZ_ENDPOINTS ({"AN": {…}}) win over SEFAZ_BASE_URL (<base>/AN/<Service>), which wins over the table', () => {
    const base = { baseUrl: 'https://127.0.0.1:8443/' };
    expect(destinoAn('CTeDistribuicaoDFe', 'homologacao', base).url).toBe('https://127.0.0.1:8443/AN/CTeDistribuicaoDFe');
    expect(destinoAn('NFeDistribuicaoDFe', 'producao', base).url).toBe('https://127.0.0.1:8443/AN/NFeDistribuicaoDFe');
    const ambos = { ...base, endpoints: { AN: { CTeDistribuicaoDFe: 'https://an.example/cte' } } };
    expect(destinoAn('CTeDistribuicaoDFe', 'producao', ambos).url).toBe('https://an.example/cte');
    expect(destinoAn('NFeDistribuicaoDFe', 'producao', ambos).url).toBe('https://127.0.0.1:8443/AN/NFeDistribuicaoDFe');
    // An AN entry changes nothing for the authorizers.
    expect(destinoSefaz('BA', 'CTeConsultaV4', 'homologacao', { endpoints: { AN: { CTeConsultaV4: 'https://x/y' } } }).url).toBe(
      'https://cte-homologacao.svrs.rs.gov.br/ws/CTeConsultaV4/CTeConsultaV4.asmx',
    );
  });
});

describe('national distribution: the request', () => {
  it('writes distDFeInt 1.00 for CT-e and 1.01 for NF-e: tpAmb, cUFAutor, CNPJ or CPF, distNSU/ultNSU of 15 digits', () => {
    expect(distDFeIntXml(pedido({ ultNSU: '000000000000123' }), 2)).toBe(
      `<distDFeInt xmlns="${CTE}" versao="1.00"><tpAmb>2</tpAmb><cUFAutor>43</cUFAutor><CNPJ>${CNPJ}</CNPJ>` +
        '<distNSU><ultNSU>000000000000123</ultNSU></distNSU></distDFeInt>',
    );
    expect(distDFeIntXml(pedido({ servico: 'nfe', cUFAutor: '35', documento: '12345678909', ultNSU: '42' }), 1)).toBe(
      `<distDFeInt xmlns="${NFE}" versao="1.01"><tpAmb>1</tpAmb><cUFAutor>35</cUFAutor><CPF>12345678909</CPF>` +
        '<distNSU><ultNSU>000000000000042</ultNSU></distNSU></distDFeInt>',
    );
    expect(nsu15('7')).toBe('000000000000007');
    expect(() => nsu15('1234567890123456')).toThrow(/not up to 15 digits/);
    expect(() => distDFeIntXml(pedido({ ultNSU: '12a' }), 2)).toThrow(/not up to 15 digits/);
    expect(() => distDFeIntXml(pedido({ documento: '1122233300018' }), 2)).toThrow(/neither a CNPJ nor a CPF/);
    expect(() => distDFeIntXml(pedido({ cUFAutor: 'RS' }), 2)).toThrow(/not an IBGE UF code/);
  });

  it("wraps it in SOAP 1.2 <x>DistDFeInteresse/<x>DadosMsg of the service's WSDL namespace, with no header; the official schemas accept it", async () => {
    for (const servico of ['cte', 'nfe'] as const) {
      const s = SOAP_DISTRIBUICAO[servico];
      const dados = distDFeIntXml(pedido({ servico }), 2);
      const xml = envelopeDistribuicao(servico, dados);
      expect(xml).not.toContain('Header');
      const lido = lerEnvelope(xml);
      if (lido.tipo !== 'corpo') throw new Error(lido.tipo);
      expect(lido.cabecalho).toBeNull();
      expect([lido.conteudo.localName, lido.conteudo.namespaceURI]).toEqual([`${servico}DistDFeInteresse`, s.wsdl]);
      const [dadosMsg] = filhos(lido.conteudo);
      expect([dadosMsg!.localName, dadosMsg!.namespaceURI]).toEqual([`${servico}DadosMsg`, s.wsdl]);
      const [dist] = filhos(dadosMsg!);
      expect([dist!.localName, dist!.namespaceURI, dist!.getAttribute('versao')]).toEqual(['distDFeInt', s.portal, s.versao]);
      expect(xml).toContain(dados);
      expect(await schemas.validate(dados, servico === 'cte' ? 'distDFeInt_v1.00.xsd' : 'distDFeInt_v1.01.xsd')).toEqual({
        valid: true,
        errors: [],
      });
    }
    expect(await schemas.validate(distDFeIntXml(pedido({ servico: 'nfe', documento: '12345678909' }), 1), 'distDFeInt_v1.01.xsd')).toEqual({
      valid: true,
      errors: [],
    });
    expect(SOAP_DISTRIBUICAO.cte).toMatchObject({
      servico: 'CTeDistribuicaoDFe',
      wsdl: 'http://www.portalfiscal.inf.br/cte/wsdl/CTeDistribuicaoDFe',
      acao: 'http://www.portalfiscal.inf.br/cte/wsdl/CTeDistribuicaoDFe/cteDistDFeInteresse',
      resultado: 'cteDistDFeInteresseResult',
    });
    expect(SOAP_DISTRIBUICAO.nfe).toMatchObject({
      servico: 'NFeDistribuicaoDFe',
      wsdl: 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeDistribuicaoDFe',
      acao: 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeDistribuicaoDFe/nfeDistDFeInteresse',
      resultado: 'nfeDistDFeInteresseResult',
    });
  });
});

describe('national distribution: the answer', () => {
  // Bytes a reserialiser would change: a declaration with single quotes, CRLF, attribute order, an empty element.
  const cte = Buffer.from(
    `<?xml version='1.0' encoding='UTF-8'?>\r\n<cteProc versao="4.00" xmlns="${CTE}"><CTe><infCte Id="CTe1" versao="4.00"/></CTe><x></x></cteProc>`,
    'utf8',
  );
  const evento = Buffer.from(`<procEventoCTe xmlns="${CTE}" versao="4.00"><eventoCTe/></procEventoCTe>`, 'utf8');
  const b64 = (b: Buffer) => gzipSync(b).toString('base64');

  it('138: every docZip unzipped to its bytes, in order, with its NSU and schema; ultNSU, maxNSU and dhResp as written', async () => {
    const http = resposta({
      cStat: 138,
      xMotivo: 'Documento(s) localizado(s)',
      ultNSU: '000000000000002',
      maxNSU: '000000000000009',
      docZips: [
        { nsu: '000000000000001', schema: 'procCTe_v4.00.xsd', conteudo: b64(cte) },
        { nsu: '000000000000002', schema: 'procEventoCTe_v4.00.xsd', conteudo: b64(evento) },
      ],
    });
    // The answer built here is one the official schema accepts.
    expect(await schemas.validate(retDe(http.corpo), 'retDistDFeInt_v1.00.xsd')).toEqual({ valid: true, errors: [] });
    const r = await retornoDistribuicao('cte', http, { tentarApos: depois });
    expect(r).toEqual({
      tipo: 'consultado',
      cStat: 138,
      xMotivo: 'Documento(s) localizado(s)',
      ultNSU: '000000000000002',
      maxNSU: '000000000000009',
      dhResp: '2026-11-20T10:05:00',
      documentos: [
        { nsu: '000000000000001', schema: 'procCTe_v4.00.xsd', xml: cte },
        { nsu: '000000000000002', schema: 'procEventoCTe_v4.00.xsd', xml: evento },
      ],
    });
    if (r.tipo !== 'consultado' || !('xml' in r.documentos[0]!)) throw new Error('expected a document');
    expect(r.documentos[0].xml.equals(cte)).toBe(true);
  });

  it('a broken docZip is its own erro (with the text as received) while the others of the answer are read', async () => {
    const bomba = gzipSync(Buffer.alloc(MAX_DOCUMENTO_DISTRIBUIDO + 1, 0x20)).toString('base64');
    const naoGzip = Buffer.from('<cteProc/>').toString('base64');
    const r = await retornoDistribuicao(
      'cte',
      resposta({
        cStat: 138,
        xMotivo: 'Documento(s) localizado(s)',
        ultNSU: '000000000000014',
        maxNSU: '000000000000014',
        docZips: [
          { nsu: '000000000000010', schema: 'procCTe_v4.00.xsd', conteudo: '%%%não é base64%%%' },
          { nsu: '000000000000011', schema: 'procCTe_v4.00.xsd', conteudo: naoGzip },
          { nsu: '000000000000012', schema: 'procCTe_v4.00.xsd', conteudo: bomba },
          { nsu: '000000000000013', schema: 'procCTe_v4.00.xsd', conteudo: b64(cte).slice(0, 24) },
          { nsu: '000000000000014', schema: 'procCTe_v4.00.xsd', conteudo: b64(cte) },
        ],
      }),
      { tentarApos: depois },
    );
    if (r.tipo !== 'consultado') throw new Error(r.tipo);
    expect(r.documentos).toEqual([
      { nsu: '000000000000010', schema: 'procCTe_v4.00.xsd', erro: 'docZip is not Base64', conteudo: '%%%não é base64%%%' },
      { nsu: '000000000000011', schema: 'procCTe_v4.00.xsd', erro: expect.stringMatching(/^docZip is not gzip: /), conteudo: naoGzip },
      {
        nsu: '000000000000012',
        schema: 'procCTe_v4.00.xsd',
        erro: `docZip unzips to more than ${MAX_DOCUMENTO_DISTRIBUIDO} bytes`,
        conteudo: bomba,
      },
      {
        nsu: '000000000000013',
        schema: 'procCTe_v4.00.xsd',
        erro: expect.stringMatching(/^docZip is not gzip: /),
        conteudo: b64(cte).slice(0, 24),
      },
      { nsu: '000000000000014', schema: 'procCTe_v4.00.xsd', xml: cte },
    ]);
    // The cap is an option: a smaller one refuses a document the default reads.
    expect(await abrirDocZip(b64(cte), cte.length - 1)).toEqual({ erro: `docZip unzips to more than ${cte.length - 1} bytes` });
    expect(await abrirDocZip(b64(cte), cte.length)).toEqual({ xml: cte });
    expect(await abrirDocZip('  \n')).toEqual({ erro: 'docZip is empty' });
  });

  it('137: nothing found, the NSU asked returned; NF-e answers are read in their own namespace', async () => {
    const http = resposta({
      servico: 'nfe',
      cStat: 137,
      xMotivo: 'Nenhum documento localizado',
      ultNSU: '000000000000042',
      maxNSU: '000000000000042',
    });
    expect(await schemas.validate(retDe(http.corpo), 'retDistDFeInt_v1.01.xsd')).toEqual({ valid: true, errors: [] });
    const r = await retornoDistribuicao('nfe', http, { tentarApos: depois });
    expect(r).toEqual({
      tipo: 'consultado',
      cStat: 137,
      xMotivo: 'Nenhum documento localizado',
      ultNSU: '000000000000042',
      maxNSU: '000000000000042',
      dhResp: '2026-11-20T10:05:00-03:00',
      documentos: [],
    });
    // An NF-e answer to a CT-e consultation carries no CT-e retDistDFeInt: nothing is concluded from it.
    const trocada = resposta({ servico: 'nfe', cStat: 137, xMotivo: 'x', ultNSU: '000000000000042', maxNSU: '000000000000042' });
    expect(await retornoDistribuicao('cte', trocada, { tentarApos: depois })).toEqual({
      tipo: 'sem_resposta',
      motivo: 'the answer carries no retDistDFeInt',
    });
  });

  it('656 and every other status are rejeitado with the service’s cStat and text (the poller keeps the block)', async () => {
    expect(
      await retornoDistribuicao(
        'cte',
        resposta({ cStat: 656, xMotivo: 'Rejeição: Consumo Indevido', ultNSU: '000000000000000', maxNSU: '000000000000000' }),
        { tentarApos: depois },
      ),
    ).toEqual({ tipo: 'rejeitado', cStat: 656, xMotivo: 'Rejeição: Consumo Indevido' });
    expect(
      await retornoDistribuicao(
        'nfe',
        resposta({ servico: 'nfe', cStat: 593, xMotivo: 'Rejeição: CNPJ-Base consultado difere do CNPJ-Base do Certificado Digital' }),
        { tentarApos: depois },
      ),
    ).toEqual({ tipo: 'rejeitado', cStat: 593, xMotivo: 'Rejeição: CNPJ-Base consultado difere do CNPJ-Base do Certificado Digital' });
  });

  it('an answer that concludes nothing is sem_resposta: unreadable, without cStat, 138 without its NSUs or a docZip without one', async () => {
    const o = { tentarApos: depois };
    expect(await retornoDistribuicao('cte', { status: 200, corpo: '<html>proxy</html>' }, o)).toMatchObject({
      tipo: 'sem_resposta',
      motivo: 'unreadable answer: not a SOAP 1.2 envelope',
    });
    const semCStat = resposta({ cStat: 138, xMotivo: 'x' });
    semCStat.corpo = semCStat.corpo.replace('<cStat>138</cStat>', '');
    expect(await retornoDistribuicao('cte', semCStat, o)).toEqual({ tipo: 'sem_resposta', motivo: 'retDistDFeInt carries no cStat' });
    expect(await retornoDistribuicao('cte', resposta({ cStat: 138, xMotivo: 'x', maxNSU: '000000000000001' }), o)).toEqual({
      tipo: 'sem_resposta',
      motivo: '138 without a 15-digit ultNSU and maxNSU',
    });
    const semNsu = resposta({
      servico: 'nfe',
      cStat: 138,
      xMotivo: 'x',
      ultNSU: '000000000000001',
      maxNSU: '000000000000001',
      docZips: [{ nsu: '', schema: 'resNFe_v1.01.xsd', conteudo: gzipSync('<resNFe/>').toString('base64') }],
    });
    expect(await retornoDistribuicao('nfe', semNsu, o)).toEqual({
      tipo: 'sem_resposta',
      motivo: '138 with a docZip whose NSU is not 15 digits ("")',
    });
  });

  it('an HTTP failure or a SOAP fault throws AutoridadeIndisponivel (falha_no_servidor) with the time to try again', async () => {
    const falha = { status: 500, corpo: envelopeDeFalha('Receiver', 'Server was unable to process request.') };
    const erro = await retornoDistribuicao('cte', falha, { tentarApos: depois }).catch((e: unknown) => e);
    expect(erro).toBeInstanceOf(AutoridadeIndisponivel);
    expect(erro).toMatchObject({
      code: 'autoridade_indisponivel',
      motivo: 'falha_no_servidor',
      cStat: null,
      xMotivo: 'HTTP 500 SOAP fault soap12:Receiver: Server was unable to process request.',
      tentarApos: depois,
    });
    await expect(retornoDistribuicao('cte', { ...falha, status: 200 }, { tentarApos: depois })).rejects.toMatchObject({
      motivo: 'falha_no_servidor',
      xMotivo: expect.stringMatching(/^HTTP 200 SOAP fault/),
    });
    await expect(retornoDistribuicao('nfe', { status: 502, corpo: 'Bad Gateway' }, { tentarApos: depois })).rejects.toMatchObject({
      motivo: 'falha_no_servidor',
      xMotivo: 'HTTP 502 Bad Gateway',
    });
  });
});

describe('national distribution: no service', () => {
  it('is not available and refuses with provedor_indisponivel, answering nothing on its behalf', async () => {
    const nenhuma = new DistribuicaoDFeIndisponivel();
    expect(nenhuma.disponivel).toBe(false);
    const erro = await nenhuma.consultar().catch((e: unknown) => e);
    expect(erro).toBeInstanceOf(ProvedorIndisponivel);
    expect(erro).toMatchObject({ code: 'provedor_indisponivel' });
  });
});
