import {
  CABECALHO_SOAP,
  cStatDoCanal,
  CSTAT_CONSUMO_INDEVIDO,
  elementoResultado,
  elementosBrutos,
  envelopeDaResposta,
  envelopeDeFalha,
  envelopeDoPedido,
  lerEnvelope,
  namespaceWsdl,
  PausasDoCanal,
  PORTAL_NS,
  primeiroNoNamespace,
  AutoridadeIndisponivel,
  SERVICOS_CTE,
  SERVICOS_MDFE,
} from '@frete/adapters';

const CTE = PORTAL_NS.cte;

describe('SOAP 1.2 codec of the authorities', () => {
  it("writes a request with the service's WSDL namespace and the data as given; the header only for MDF-e", () => {
    const xml = envelopeDoPedido({ servico: 'CTeConsultaV4', cUF: '43', versaoDados: '4.00', dados: '<consSitCTe/>' });
    expect(namespaceWsdl('CTeConsultaV4')).toBe('http://www.portalfiscal.inf.br/cte/wsdl/CTeConsultaV4');
    expect(namespaceWsdl('MDFeRecepcaoSinc')).toBe('http://www.portalfiscal.inf.br/mdfe/wsdl/MDFeRecepcaoSinc');
    const lido = lerEnvelope(xml);
    expect(lido.tipo).toBe('corpo');
    if (lido.tipo !== 'corpo') return;
    expect(lido.conteudo.localName).toBe('cteDadosMsg');
    expect(lido.conteudo.namespaceURI).toBe(namespaceWsdl('CTeConsultaV4'));
    // MOC CT-e 4.00a: "Eliminação do SOAP Header dos Webservices": a CT-e request carries none.
    expect(CABECALHO_SOAP).toEqual({ cte: false, mdfe: true });
    expect(lido.cabecalho).toBeNull();
    expect(xml).not.toContain('Header');
    expect(xml).not.toContain('cteCabecMsg');
    const mdfe = envelopeDoPedido({ servico: 'MDFeRecepcaoSinc', cUF: '35', versaoDados: '3.00', dados: 'H4sI' });
    expect(mdfe).toContain(`<mdfeDadosMsg xmlns="${namespaceWsdl('MDFeRecepcaoSinc')}">H4sI</mdfeDadosMsg>`);
    const lidoMdfe = lerEnvelope(mdfe);
    expect(lidoMdfe.tipo === 'corpo' && lidoMdfe.cabecalho?.localName).toBe('mdfeCabecMsg');
    expect(mdfe).toContain('<cUF>35</cUF><versaoDados>3.00</versaoDados>');
  });

  it('answers with the result element the WSDLs name, per service', () => {
    const nomes = Object.fromEntries([...SERVICOS_CTE, ...SERVICOS_MDFE].map((s) => [s, elementoResultado(s)]));
    expect(nomes).toEqual({
      CTeRecepcaoSincV4: 'cteRecepcaoResult',
      CTeConsultaV4: 'cteConsultaCTResult',
      CTeStatusServicoV4: 'cteStatusServicoCTResult',
      CTeRecepcaoEventoV4: 'cteRecepcaoEventoResult',
      MDFeRecepcaoSinc: 'mdfeRecepcaoResult',
      MDFeConsulta: 'mdfeConsultaMDFResult',
      MDFeStatusServico: 'mdfeStatusServicoMDFResult',
      MDFeRecepcaoEvento: 'mdfeRecepcaoEventoResult',
      MDFeConsNaoEnc: 'mdfeConsNaoEncResult',
    });
    const lido = lerEnvelope(envelopeDaResposta('CTeRecepcaoSincV4', `<retCTe xmlns="${CTE}"/>`));
    expect(lido.tipo === 'corpo' && [lido.conteudo.localName, lido.conteudo.namespaceURI]).toEqual([
      'cteRecepcaoResult',
      namespaceWsdl('CTeRecepcaoSincV4'),
    ]);
  });

  it("reads an answer's portal element wherever the result element puts it, and a fault with its code and reason", () => {
    const ret = `<retConsSitCTe xmlns="${CTE}" versao="4.00"><tpAmb>2</tpAmb><cStat>217</cStat></retConsSitCTe>`;
    const lido = lerEnvelope(envelopeDaResposta('CTeConsultaV4', ret));
    if (lido.tipo !== 'corpo') throw new Error(lido.tipo);
    expect(primeiroNoNamespace(lido.conteudo, CTE)?.localName).toBe('retConsSitCTe');
    const outroNome = `<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><x:qualquerResult xmlns:x="urn:x"><y>${ret}</y></x:qualquerResult></soap:Body></soap:Envelope>`;
    const outro = lerEnvelope(outroNome);
    expect(outro.tipo === 'corpo' && primeiroNoNamespace(outro.conteudo, CTE)?.localName).toBe('retConsSitCTe');
    expect(lerEnvelope(envelopeDeFalha('Receiver', 'Erro <interno> & cia'))).toEqual({
      tipo: 'falha',
      codigo: 'soap12:Receiver',
      motivo: 'Erro <interno> & cia',
    });
  });

  it('refuses what is not a SOAP 1.2 envelope, an empty body and hostile XML', () => {
    expect(lerEnvelope('<html/>')).toMatchObject({ tipo: 'ilegivel', motivo: 'not a SOAP 1.2 envelope' });
    expect(lerEnvelope('<Envelope xmlns="http://schemas.xmlsoap.org/soap/envelope/"><Body/></Envelope>').tipo).toBe('ilegivel');
    expect(lerEnvelope('<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body/></e:Envelope>')).toMatchObject({
      tipo: 'ilegivel',
      motivo: 'SOAP body is empty',
    });
    expect(lerEnvelope('<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>')).toMatchObject({ tipo: 'ilegivel', motivo: /^hostile_xml/ });
    expect(lerEnvelope('<a><b></a>')).toMatchObject({ tipo: 'ilegivel', motivo: /^malformed_xml/ });
  });

  it('takes elements byte for byte, declaring the inherited default namespace on a taken element only', () => {
    const prot = '<protCTe versao="4.00"><infProt Id="ID1"><cStat>100</cStat><xMotivo>Autorizado  o uso</xMotivo></infProt></protCTe>';
    const comNs = `<protCTe xmlns="${CTE}" versao="4.00"><infProt><nProt>1</nProt></infProt></protCTe>`;
    const texto = `<retCTe xmlns="${CTE}">${prot}</retCTe><outro>${comNs}<protCTe/></outro>`;
    expect(elementosBrutos(texto, 'protCTe', CTE)).toEqual([
      `<protCTe xmlns="${CTE}" versao="4.00"><infProt Id="ID1"><cStat>100</cStat><xMotivo>Autorizado  o uso</xMotivo></infProt></protCTe>`,
      comNs,
      `<protCTe xmlns="${CTE}"/>`,
    ]);
    // A longer name that starts the same is another element.
    expect(elementosBrutos('<protCTeX>a</protCTeX>', 'protCTe', CTE)).toEqual([]);
    expect(elementosBrutos('<protCTe><x>', 'protCTe', CTE)).toEqual([]);
  });
});

describe('pauses of the channel', () => {
  it('pauses the authorizer on 108 (base) and 109 (5 × base), the emitter on 678 (60 × base), and lets calls through after', () => {
    let agora = 1_000_000;
    const pausas = new PausasDoCanal(() => new Date(agora), 100);
    expect(() => pausas.verificar('SVRS', 'empresa-a')).not.toThrow();
    const p108 = pausas.pausar('SVRS', 'empresa-a', 108, 'Serviço Paralisado Momentaneamente (curto prazo)');
    expect(p108).toBeInstanceOf(AutoridadeIndisponivel);
    expect(p108).toMatchObject({ code: 'autoridade_indisponivel', motivo: 'paralisada', cStat: 108, tentarApos: new Date(agora + 100) });
    expect(() => pausas.verificar('SVRS', 'empresa-b')).toThrow(p108);
    expect(() => pausas.verificar('SP', 'empresa-a')).not.toThrow();
    agora += 100;
    expect(() => pausas.verificar('SVRS', 'empresa-b')).not.toThrow();

    expect(pausas.pausar('SP', 'empresa-a', 109, 'x').tentarApos).toEqual(new Date(agora + 500));
    // MOC CT-e 4.00 §8: consumo indevido is 678 at the authorizers (CSTAT_CONSUMO_INDEVIDO, both models).
    expect(CSTAT_CONSUMO_INDEVIDO).toEqual({ cte: 678, mdfe: 678 });
    const p678 = pausas.pausar('SVRS', 'empresa-a', 678, 'Rejeição: Consumo Indevido');
    expect(p678).toMatchObject({ motivo: 'consumo_indevido', tentarApos: new Date(agora + 6000) });
    expect(p678.details).toMatchObject({ cstat: 678, tentar_apos: new Date(agora + 6000).toISOString() });
    // 678 blocks the emitter, not the others.
    expect(() => pausas.verificar('SVRS', 'empresa-a')).toThrow(p678);
    expect(() => pausas.verificar('SVRS', 'empresa-b')).not.toThrow();
    agora += 6000;
    expect(() => pausas.verificar('SVRS', 'empresa-a')).not.toThrow();
    // 656 (the national distribution's code) is read the same way, should an authorizer answer it.
    expect(cStatDoCanal(656) && cStatDoCanal(678)).toBe(true);
    expect(pausas.pausar('SVRS', 'empresa-a', 656, 'x')).toMatchObject({ motivo: 'consumo_indevido', tentarApos: new Date(agora + 6000) });
  });
});
