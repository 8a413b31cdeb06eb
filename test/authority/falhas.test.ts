import { type ServicoSefaz } from '@frete/adapters';
import { type FiscalRootSchema } from '@frete/documents';
import { clienteA1, iniciarAutoridadeLocalDeTeste, type AutoridadeLocalDeTeste } from '../support/autoridade-local';
import { CTE_NS, EMITENTE, MDFE_NS, assinar, cteXml, evCancCTe, eventoCteXml } from '../support/autoridade-xml';
import { areaDeRecepcao, envelope, falhaSoapDe, pedirHttps, type OpcoesPedido, retornoDe } from '../support/soap-cliente';

/**
 * Injected faults, one per failure path of a client: latency and a dropped answer after processing, HTTP 500 with a
 * SOAP fault and the channel statuses (108, 109, 678) without processing; programmatic and over `/_falhas`.
 */

const { a1, cliente } = clienteA1(EMITENTE);
const clock = () => new Date('2026-11-20T13:05:00Z');

let autoridade: AutoridadeLocalDeTeste;
beforeAll(async () => {
  autoridade = await iniciarAutoridadeLocalDeTeste({ clock });
});
afterAll(() => autoridade?.close());
afterEach(() => autoridade.falhas.limpar());

let proximo = 3_000;
const cteAssinado = () => {
  const { chave, xml } = cteXml({ numero: proximo++ });
  return { chave, xml: assinar(xml, 'infCte', a1) };
};
const pedir = (caminho: string, corpo: string, o: Partial<OpcoesPedido> = {}) =>
  pedirHttps(autoridade.url, caminho, corpo, { ca: autoridade.caPem, cliente, ...o });
const consSitCTe = (chave: string) =>
  `<consSitCTe xmlns="${CTE_NS}" versao="4.00"><tpAmb>2</tpAmb><xServ>CONSULTAR</xServ><chCTe>${chave}</chCTe></consSitCTe>`;
const consStatServCTe = `<consStatServCTe xmlns="${CTE_NS}" versao="4.00"><tpAmb>2</tpAmb><cUF>43</cUF><xServ>STATUS</xServ></consStatServCTe>`;
const receberPedido = (xml: string) => pedir('/RS/CTeRecepcaoSincV4', envelope('CTeRecepcaoSincV4', areaDeRecepcao(xml)));
const consultaPedido = (chave: string) => pedir('/RS/CTeConsultaV4', envelope('CTeConsultaV4', consSitCTe(chave)));
const cStat = async (servico: ServicoSefaz, pedido: Promise<Awaited<ReturnType<typeof pedir>>>, nome: string) =>
  retornoDe(servico, await pedido, nome).texto('cStat');
const situacao = (chave: string) => cStat('CTeConsultaV4', consultaPedido(chave), 'retConsSitCTe');

describe('faults after processing', () => {
  it('latencia answers the processed request ms late', async () => {
    autoridade.falhas.programar({ tipo: 'latencia', ms: 400, servico: 'CTeRecepcaoSincV4', vezes: 1 });
    const { chave, xml } = cteAssinado();
    const inicio = Date.now();
    expect(await cStat('CTeRecepcaoSincV4', receberPedido(xml), 'retCTe')).toBe('100');
    // A lower bound only: the answer cannot come before the injected delay.
    expect(Date.now() - inicio).toBeGreaterThanOrEqual(400);
    expect(await situacao(chave)).toBe('100');
  });

  it('sem_resposta processes the request and drops the connection without answering', async () => {
    autoridade.falhas.programar({ tipo: 'sem_resposta', servico: 'CTeRecepcaoSincV4', vezes: 1 });
    const { chave, xml } = cteAssinado();
    await expect(receberPedido(xml)).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(await situacao(chave)).toBe('100');
    // The event path too: the cancellation is registered though its answer was lost.
    autoridade.falhas.programar({ tipo: 'sem_resposta', servico: 'CTeRecepcaoEventoV4', vezes: 1 });
    const consulta = retornoDe('CTeConsultaV4', await consultaPedido(chave), 'retConsSitCTe');
    const nProt = /<nProt>([0-9]{15})<\/nProt>/.exec(consulta.bruto)![1]!;
    const evento = assinar(eventoCteXml({ chave, tpEvento: '110111', det: evCancCTe(nProt) }), 'infEvento', a1);
    await expect(pedir('/RS/CTeRecepcaoEventoV4', envelope('CTeRecepcaoEventoV4', evento.replace(/^<\?xml[^>]*\?>/, '')))).rejects.toThrow(
      /socket hang up|ECONNRESET/,
    );
    expect(await situacao(chave)).toBe('101');
  });
});

describe('faults without processing', () => {
  it('erro_servidor answers HTTP 500 with a SOAP 1.2 Receiver fault, processing nothing', async () => {
    autoridade.falhas.programar({ tipo: 'erro_servidor', vezes: 1 });
    const { chave, xml } = cteAssinado();
    const r = await receberPedido(xml);
    expect(r.status).toBe(500);
    expect(falhaSoapDe(r)).toEqual({
      codigo: 'soap12:Receiver',
      motivo: 'the authority server failed (injected fault): nothing was processed',
    });
    expect(await situacao(chave)).toBe('217');
  });

  it.each([
    [108, 'Serviço Paralisado Momentaneamente (curto prazo)'],
    [109, 'Serviço Paralisado sem Previsão'],
    // Consumo indevido as the authorizers answer it (MOC CT-e 4.00 §8): 678, with each model's text (checked below).
    [678, 'Rejeição: Consumo Indevido'],
  ] as const)('status %i is answered in the service’s answer element, schema-valid, processing nothing', async (codigo, xMotivo) => {
    autoridade.falhas.programar({ tipo: 'status', cStat: codigo });
    const { chave, xml } = cteAssinado();
    const casos: [ServicoSefaz, string, string, FiscalRootSchema][] = [
      ['CTeRecepcaoSincV4', areaDeRecepcao(xml), 'retCTe', 'retCTe_v4.00.xsd'],
      ['CTeConsultaV4', consSitCTe(chave), 'retConsSitCTe', 'retConsSitCTe_v4.00.xsd'],
      ['CTeRecepcaoEventoV4', '<eventoCTe/>', 'retEventoCTe', 'retEventoCTe_v4.00.xsd'],
      ['CTeStatusServicoV4', consStatServCTe, 'retConsStatServCTe', 'retConsStatServCTe_v4.00.xsd'],
      ['MDFeRecepcaoSinc', 'x', 'retMDFe', 'retMDFe_v3.00.xsd'],
      ['MDFeConsulta', 'x', 'retConsSitMDFe', 'retConsSitMDFe_v3.00.xsd'],
      ['MDFeRecepcaoEvento', 'x', 'retEventoMDFe', 'retEventoMDFe_v3.00.xsd'],
      ['MDFeStatusServico', 'x', 'retConsStatServMDFe', 'retConsStatServMDFe_v3.00.xsd'],
      ['MDFeConsNaoEnc', 'x', 'retConsMDFeNaoEnc', 'retConsMDFeNaoEnc_v3.00.xsd'],
    ];
    for (const [servico, dados, nome, schema] of casos) {
      const autorizador = servico.startsWith('CTe') ? 'RS' : 'SVRS';
      const r = retornoDe(servico, await pedir(`/${autorizador}/${servico}`, envelope(servico, dados)), nome);
      // The events' answer has them in infEvento.
      const [, c, x] = /<cStat>([0-9]+)<\/cStat><xMotivo>([^<]*)<\/xMotivo>/.exec(r.bruto) ?? [];
      // MDF-e's 678 reads "Uso Indevido" (codigos.ts, CSTAT_CONSUMO_INDEVIDO).
      const esperado = codigo === 678 && servico.startsWith('MDFe') ? 'Rejeição: Uso Indevido' : xMotivo;
      expect({ servico, cStat: c, xMotivo: x }).toEqual({ servico, cStat: String(codigo), xMotivo: esperado });
      expect({ servico, ...(await autoridade.schemas.validate(r.bruto, schema)) }).toEqual({ servico, valid: true, errors: [] });
      expect(r.bruto).toContain(`xmlns="${servico.startsWith('CTe') ? CTE_NS : MDFE_NS}"`);
    }
    autoridade.falhas.limpar();
    expect(await situacao(chave)).toBe('217');
  });
});

describe('rules', () => {
  it('hit their service only, as many times as asked, the first rule that matches first', async () => {
    autoridade.falhas.programar([
      { tipo: 'status', cStat: 108, servico: 'CTeStatusServicoV4', vezes: 2 },
      { tipo: 'status', cStat: 109, vezes: 1 },
    ]);
    const statusServico = () =>
      cStat('CTeStatusServicoV4', pedir('/RS/CTeStatusServicoV4', envelope('CTeStatusServicoV4', consStatServCTe)), 'retConsStatServCTe');
    expect(autoridade.falhas.listar()).toEqual([
      { tipo: 'status', cStat: 108, servico: 'CTeStatusServicoV4', vezes: 2 },
      { tipo: 'status', cStat: 109, vezes: 1 },
    ]);
    // The consultation skips the status-only rule and takes the one for every service.
    expect(await situacao(cteAssinado().chave)).toBe('109');
    expect(await statusServico()).toBe('108');
    expect(autoridade.falhas.listar()).toEqual([{ tipo: 'status', cStat: 108, servico: 'CTeStatusServicoV4', vezes: 1 }]);
    expect(await statusServico()).toBe('108');
    expect(await statusServico()).toBe('107');
    expect(await situacao(cteAssinado().chave)).toBe('217');
  });

  it('refuses a rule that is not one (programmatically)', () => {
    expect(() => autoridade.falhas.programar({ tipo: 'status', cStat: 200 as 108 })).toThrow(
      'invalid fault rule: cStat must be 108, 109 or 678',
    );
    expect(() => autoridade.falhas.programar({ tipo: 'latencia', ms: -1 })).toThrow(/ms must be an integer from 0 to 300000/);
    expect(autoridade.falhas.listar()).toEqual([]);
  });
});

describe('/_falhas (for integrators, on the same mutual-TLS server)', () => {
  const admin = (method: string, corpo = '') => pedir('/_falhas', corpo, { method, contentType: 'application/json' });
  const json = (r: { corpo: string }) => JSON.parse(r.corpo) as unknown;

  it('adds rules (POST), lists them (GET) and clears them (DELETE)', async () => {
    const criado = await admin('POST', JSON.stringify({ tipo: 'erro_servidor', servico: 'CTeConsultaV4' }));
    expect({ status: criado.status, corpo: json(criado) }).toEqual({
      status: 201,
      corpo: { regras: [{ tipo: 'erro_servidor', servico: 'CTeConsultaV4' }] },
    });
    const varias = await admin('POST', JSON.stringify([{ tipo: 'latencia', ms: 10, vezes: 3 }]));
    expect(json(varias)).toEqual({
      regras: [
        { tipo: 'erro_servidor', servico: 'CTeConsultaV4' },
        { tipo: 'latencia', ms: 10, vezes: 3 },
      ],
    });
    expect((await consultaPedido(cteAssinado().chave)).status).toBe(500);
    expect(json(await admin('GET'))).toEqual({
      regras: [
        { tipo: 'erro_servidor', servico: 'CTeConsultaV4' },
        { tipo: 'latencia', ms: 10, vezes: 3 },
      ],
    });
    const limpo = await admin('DELETE');
    expect({ status: limpo.status, corpo: json(limpo) }).toEqual({ status: 200, corpo: { regras: [] } });
    expect(await situacao(cteAssinado().chave)).toBe('217');
  });

  it('answers 400 to what is not a rule and 405 to other methods, changing nothing', async () => {
    const casos: [string, string][] = [
      ['{', 'the body is not JSON: send a rule or an array of rules'],
      ['[]', 'the array of rules is empty'],
      ['{"tipo":"explodir"}', 'tipo must be one of latencia, sem_resposta, erro_servidor, status, doczip_corrompido'],
      ['{"tipo":"status","cStat":100}', 'cStat must be 108, 109 or 678'],
      [
        '{"tipo":"status","cStat":656}',
        "cStat 656 is the national distribution's consumo indevido; the CT-e and MDF-e authorizers answer 678",
      ],
      ['{"tipo":"latencia","ms":999999}', 'ms must be an integer from 0 to 300000'],
      [
        '{"tipo":"sem_resposta","servico":"NFeAutorizacao4"}',
        expect.stringMatching(/^servico "NFeAutorizacao4" is not one of CTeRecepcaoSincV4, /) as unknown as string,
      ],
      ['{"tipo":"sem_resposta","vezes":0}', 'vezes must be a positive integer'],
      ['[{"tipo":"sem_resposta"},{"tipo":"status"}]', 'rule 1: cStat must be 108, 109 or 678'],
      ['{"tipo":"sem_resposta","ms":5}', 'ms belongs to latencia only'],
      ['{"tipo":"sem_resposta","outro":1}', 'unknown field "outro"; a rule has tipo, servico, vezes, ms, cStat, nsu'],
    ];
    for (const [corpo, erro] of casos) {
      const r = await admin('POST', corpo);
      expect({ corpo, status: r.status, json: json(r) }).toEqual({ corpo, status: 400, json: { erro } });
    }
    const put = await admin('PUT', '{}');
    expect({ status: put.status, json: json(put) }).toEqual({
      status: 405,
      json: { erro: 'method PUT is not allowed on /_falhas: use POST, DELETE or GET' },
    });
    expect(autoridade.falhas.listar()).toEqual([]);
  });
});
