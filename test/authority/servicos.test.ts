import { AutoridadeFiscalSimulada, elementosBrutos, type ServicoSefaz } from '@frete/adapters';
import { type FiscalRootSchema } from '@frete/documents';
import { clienteA1, iniciarAutoridadeLocalDeTeste, type AutoridadeLocalDeTeste } from '../support/autoridade-local';
import {
  CTE_NS,
  EMITENTE,
  MDFE_NS,
  assinar,
  cteXml,
  evCCeCTe,
  evCancCTe,
  evEncMDFe,
  eventoCteXml,
  eventoMdfeXml,
  mdfeXml,
  type CteOpcoes,
} from '../support/autoridade-xml';
import { areaDeRecepcao, envelope, pedirHttps, type OpcoesPedido, retornoDe, type Retorno } from '../support/soap-cliente';

/**
 * The local authority's services over real TLS, with an A1 as client certificate: each answers the official answer
 * element, schema-valid, with what the simulated authority's rules wrote, byte for byte.
 */

const { a1, cliente } = clienteA1(EMITENTE);

/** 2026-11-20 10:05 in São Paulo: after the fixtures' dhEmi. */
const INICIO = new Date('2026-11-20T13:05:00Z');
const HORA = 3_600_000;
let agora = INICIO;
const clock = () => agora;

let autoridade: AutoridadeLocalDeTeste;
/** The same rules in process, on the same database: what the local server answers must be what they hold. */
let emProcesso: AutoridadeFiscalSimulada;

beforeAll(async () => {
  autoridade = await iniciarAutoridadeLocalDeTeste({ clock });
  emProcesso = new AutoridadeFiscalSimulada({ pool: autoridade.pool, clock, schemas: autoridade.schemas });
});
afterAll(() => autoridade?.close());
beforeEach(() => {
  agora = INICIO;
});

let proximo = 1_000;
const numero = () => proximo++;

const pedir = (caminho: string, corpo: string, o: Partial<OpcoesPedido> = {}) =>
  pedirHttps(autoridade.url, caminho, corpo, { ca: autoridade.caPem, cliente, ...o });

/** A service's answer element at `/<autorizador>/<servico>` (or `caminho`). */
async function chamar(servico: ServicoSefaz, dados: string, nome: string, o: { autorizador?: string; caminho?: string } = {}) {
  const caminho = o.caminho ?? `/${o.autorizador ?? (servico.startsWith('CTe') ? 'RS' : 'SVRS')}/${servico}`;
  return retornoDe(servico, await pedir(caminho, envelope(servico, dados)), nome);
}

async function esquemaValido(xml: string, schema: FiscalRootSchema) {
  expect(await autoridade.schemas.validate(xml, schema)).toEqual({ valid: true, errors: [] });
}

const cteAssinado = (o: Partial<CteOpcoes> = {}) => {
  const { chave, xml } = cteXml({ numero: numero(), ...o });
  return { chave, xml: assinar(xml, 'infCte', a1) };
};
const mdfeAssinado = (o: { ctes: string[]; infCpl?: string }) => {
  const { chave, xml } = mdfeXml({ numero: numero(), ...o });
  return { chave, xml: assinar(xml, 'infMDFe', a1) };
};
const receberCte = (xml: string, o: { autorizador?: string; caminho?: string } = {}) =>
  chamar('CTeRecepcaoSincV4', areaDeRecepcao(xml), 'retCTe', o);
const receberMdfe = (xml: string) => chamar('MDFeRecepcaoSinc', areaDeRecepcao(xml), 'retMDFe');

const consSitCTe = (chave: string, tpAmb = '2') =>
  `<consSitCTe xmlns="${CTE_NS}" versao="4.00"><tpAmb>${tpAmb}</tpAmb><xServ>CONSULTAR</xServ><chCTe>${chave}</chCTe></consSitCTe>`;
const consultarCte = (chave: string, o: { caminho?: string } = {}) => chamar('CTeConsultaV4', consSitCTe(chave), 'retConsSitCTe', o);
const consultarMdfe = (chave: string) =>
  chamar(
    'MDFeConsulta',
    `<consSitMDFe xmlns="${MDFE_NS}" versao="3.00"><tpAmb>2</tpAmb><xServ>CONSULTAR</xServ><chMDFe>${chave}</chMDFe></consSitMDFe>`,
    'retConsSitMDFe',
  );
const eventoCte = (o: Parameters<typeof eventoCteXml>[0]) => assinar(eventoCteXml(o), 'infEvento', a1);
const eventoMdfe = (o: Parameters<typeof eventoMdfeXml>[0]) => assinar(eventoMdfeXml(o), 'infEvento', a1);
/** The signed event inside the data area, as a client sends it (without the XML declaration). */
const semDeclaracao = (xml: string) => xml.replace(/^<\?xml[^>]*\?>/, '');
const enviarEventoCte = (xml: string) => chamar('CTeRecepcaoEventoV4', semDeclaracao(xml), 'retEventoCTe');
const enviarEventoMdfe = (xml: string) => chamar('MDFeRecepcaoEvento', semDeclaracao(xml), 'retEventoMDFe');

const status = (r: Retorno) => ({ cStat: r.texto('cStat'), xMotivo: r.texto('xMotivo') });
const protCTeDe = (r: Retorno) => elementosBrutos(r.bruto, 'protCTe', CTE_NS);
const protMDFeDe = (r: Retorno) => elementosBrutos(r.bruto, 'protMDFe', MDFE_NS);

/**
 * A consultation answer with events: the official schema's `procEventoCTe` admits one wildcard element, while the
 * authorities (and the clients that read them) put the event and its answer side by side, as in the distribution
 * file. So the answer is checked against its schema without them, and each against `procEventoCTe_v4.00.xsd`.
 */
async function consultaValida(r: Retorno, modelo: 'cte' | 'mdfe') {
  const [nome, ns, schemaRet, schemaProc]: [string, string, FiscalRootSchema, FiscalRootSchema] =
    modelo === 'cte'
      ? ['procEventoCTe', CTE_NS, 'retConsSitCTe_v4.00.xsd', 'procEventoCTe_v4.00.xsd']
      : ['procEventoMDFe', MDFE_NS, 'retConsSitMDFe_v3.00.xsd', 'procEventoMDFe_v3.00.xsd'];
  const procs = elementosBrutos(r.bruto, nome, ns);
  let semEventos = r.bruto;
  for (const p of procs) semEventos = semEventos.replace(p.replace(` xmlns="${ns}"`, ''), '');
  await esquemaValido(semEventos, schemaRet);
  for (const p of procs) await esquemaValido(p, schemaProc);
  return procs;
}

describe('CT-e reception (CTeRecepcaoSincV4)', () => {
  it('authorizes a signed CT-e (100): retCTe schema-valid, protCTe byte for byte the rules’ protocol', async () => {
    const { chave, xml } = cteAssinado();
    const r = await receberCte(xml);
    await esquemaValido(r.bruto, 'retCTe_v4.00.xsd');
    expect({ tpAmb: r.texto('tpAmb'), cUF: r.texto('cUF'), verAplic: r.texto('verAplic'), ...status(r) }).toEqual({
      tpAmb: '2',
      cUF: '43',
      verAplic: 'SIMULADA-1.0',
      cStat: '100',
      xMotivo: 'Autorizado o uso do CT-e',
    });
    const consulta = await emProcesso.consultarCte(chave);
    if (consulta.tipo !== 'encontrado') throw new Error(JSON.stringify(consulta));
    expect(protCTeDe(r)).toEqual([consulta.protocolo.xml]);
    expect(consulta.protocolo.chave).toBe(chave);
  });

  it('answers the same number again as a real authority does: 204 (same key) or 539 (another key), cStat and xMotivo only', async () => {
    const n = numero();
    const primeiro = cteAssinado({ numero: n, codigo: '11111119' });
    const p = protCTeDe(await receberCte(primeiro.xml));
    const nProt = /<nProt>([0-9]{15})<\/nProt>/.exec(p[0]!)![1]!;
    agora = new Date(INICIO.getTime() + HORA);

    const duplicado = await receberCte(primeiro.xml);
    await esquemaValido(duplicado.bruto, 'retCTe_v4.00.xsd');
    expect(status(duplicado)).toEqual({
      cStat: '204',
      xMotivo: `Rejeição: Duplicidade de CT-e [nProt:${nProt}][dhAut: 2026-11-20T10:05:00-03:00]`,
    });
    expect(protCTeDe(duplicado)).toEqual([]);

    const outraChave = await receberCte(cteAssinado({ numero: n, codigo: '22222228' }).xml);
    expect(status(outraChave)).toEqual({
      cStat: '539',
      xMotivo: `Rejeição: Duplicidade de CT-e, com diferença na Chave de Acesso [chCTe: ${primeiro.chave}][nProt:${nProt}][dhAut: 2026-11-20T10:05:00-03:00]`,
    });
    expect(protCTeDe(outraChave)).toEqual([]);
  });

  it('answers a rejection with its cStat and no protocol; the document stays unknown (217)', async () => {
    const rejeitado = cteAssinado({ xObs: 'SIMULAR:REJEICAO:209' });
    const r = await receberCte(rejeitado.xml);
    await esquemaValido(r.bruto, 'retCTe_v4.00.xsd');
    expect(status(r)).toEqual({ cStat: '209', xMotivo: 'Rejeição: IE do emitente inválida' });
    expect(protCTeDe(r)).toEqual([]);
    // A document its schema refuses: the rules' 225, as in process.
    const semEmitente = cteAssinado({ alterar: (x) => x.replace(/<xNome>[^<]*<\/xNome>/, '') });
    expect(status(await receberCte(semEmitente.xml))).toEqual({
      cStat: '225',
      xMotivo: expect.stringMatching(/^Rejeição: Falha no Schema XML do CT-e \[/),
    });
    expect(status(await consultarCte(rejeitado.chave))).toEqual({
      cStat: '217',
      xMotivo: 'Rejeição: CT-e não consta na base de dados da SEFAZ',
    });
  });

  it('carries the protCTe of a denial (301–306)', async () => {
    const r = await receberCte(cteAssinado({ xObs: 'SIMULAR:DENEGACAO:302' }).xml);
    await esquemaValido(r.bruto, 'retCTe_v4.00.xsd');
    expect(status(r)).toEqual({ cStat: '302', xMotivo: 'Uso Denegado: Irregularidade fiscal do remetente' });
    expect(protCTeDe(r)[0]).toMatch(/<cStat>302<\/cStat>/);
  });

  it('answers 105 while the document is in processing, and the consultation finds it once processed', async () => {
    const { chave, xml } = cteAssinado({ xObs: 'SIMULAR:PENDENTE:1' });
    const r = await receberCte(xml);
    await esquemaValido(r.bruto, 'retCTe_v4.00.xsd');
    expect(status(r)).toEqual({ cStat: '105', xMotivo: 'Lote em processamento' });
    expect(status(await consultarCte(chave))).toEqual({ cStat: '105', xMotivo: 'Lote em processamento' });
    const achado = await consultarCte(chave);
    expect(status(achado)).toEqual({ cStat: '100', xMotivo: 'Autorizado o uso do CT-e' });
    expect(protCTeDe(achado)).toHaveLength(1);
  });

  it('processes a SIMULAR:TIMEOUT document and drops the connection without answering; the consultation finds it authorized', async () => {
    const { chave, xml } = cteAssinado({ xObs: 'SIMULAR:TIMEOUT' });
    await expect(pedir('/RS/CTeRecepcaoSincV4', envelope('CTeRecepcaoSincV4', areaDeRecepcao(xml)))).rejects.toThrow(
      /socket hang up|ECONNRESET/,
    );
    const r = await consultarCte(chave);
    await consultaValida(r, 'cte');
    expect(status(r)).toEqual({ cStat: '100', xMotivo: 'Autorizado o uso do CT-e' });
    const consulta = await emProcesso.consultarCte(chave);
    if (consulta.tipo !== 'encontrado') throw new Error(JSON.stringify(consulta));
    expect(protCTeDe(r)).toEqual([consulta.protocolo.xml]);
  });
});

describe('CT-e consultation and events (CTeConsultaV4, CTeRecepcaoEventoV4)', () => {
  it('registers events (135, the rules’ retEventoCTe), answers 631 and rejections in a retEventoCTe, and lists the events in procEventoCTe', async () => {
    const { chave, xml } = cteAssinado();
    const nProt = /<nProt>([0-9]{15})<\/nProt>/.exec((await receberCte(xml)).bruto)![1]!;

    const cce = eventoCte({ chave, tpEvento: '110110', det: evCCeCTe([{ grupo: 'ide', campo: 'natOp', valor: 'PRESTACAO DE SERVICO' }]) });
    const rCce = await enviarEventoCte(cce);
    await esquemaValido(rCce.bruto, 'retEventoCTe_v4.00.xsd');
    const protocolos = await emProcesso.consultarCte(chave);
    if (protocolos.tipo !== 'encontrado') throw new Error(JSON.stringify(protocolos));
    expect(rCce.bruto).toBe(protocolos.eventos[0]!.xml);
    expect(rCce.bruto).toMatch(/<cStat>135<\/cStat>/);

    const repetido = await enviarEventoCte(cce);
    await esquemaValido(repetido.bruto, 'retEventoCTe_v4.00.xsd');
    expect(repetido.bruto).toBe(
      `<retEventoCTe xmlns="${CTE_NS}" versao="4.00"><infEvento><tpAmb>2</tpAmb><verAplic>SIMULADA-1.0</verAplic><cOrgao>43</cOrgao>` +
        `<cStat>631</cStat><xMotivo>Rejeição: Duplicidade de evento [nProt:${protocolos.eventos[0]!.nProt}][dhRegEvento: 2026-11-20T10:05:00-03:00]</xMotivo>` +
        `<chCTe>${chave}</chCTe><tpEvento>110110</tpEvento><nSeqEvento>1</nSeqEvento></infEvento></retEventoCTe>`,
    );

    // The cancellation with another protocol: the rules' 222.
    const errado = await enviarEventoCte(eventoCte({ chave, tpEvento: '110111', det: evCancCTe('143260000000000') }));
    await esquemaValido(errado.bruto, 'retEventoCTe_v4.00.xsd');
    expect(errado.bruto).toMatch(/<cStat>222<\/cStat><xMotivo>Rejeição: Protocolo de Autorização de Uso difere do cadastrado<\/xMotivo>/);

    // The correction letter is registered: the cancellation then is refused (523); the consultation shows the letter.
    expect((await enviarEventoCte(eventoCte({ chave, tpEvento: '110111', det: evCancCTe(nProt) }))).bruto).toMatch(/<cStat>523<\/cStat>/);
    const r = await consultarCte(chave);
    const procs = await consultaValida(r, 'cte');
    expect(status(r)).toEqual({ cStat: '100', xMotivo: 'Autorizado o uso do CT-e' });
    // The event as the client sent it and the authority's answer, byte for byte.
    expect(procs).toEqual([
      `<procEventoCTe xmlns="${CTE_NS}" versao="4.00">${semDeclaracao(cce)}${protocolos.eventos[0]!.xml}</procEventoCTe>`,
    ]);
  });

  it('answers a cancelled CT-e with 101, its protCTe and the cancellation’s procEventoCTe', async () => {
    const { chave, xml } = cteAssinado();
    const nProt = /<nProt>([0-9]{15})<\/nProt>/.exec((await receberCte(xml)).bruto)![1]!;
    const cancelamento = eventoCte({ chave, tpEvento: '110111', det: evCancCTe(nProt) });
    const registrado = await enviarEventoCte(cancelamento);
    expect(registrado.bruto).toMatch(/<cStat>135<\/cStat>/);
    const r = await consultarCte(chave);
    const procs = await consultaValida(r, 'cte');
    expect(status(r)).toEqual({ cStat: '101', xMotivo: 'Cancelamento de CT-e homologado' });
    expect(protCTeDe(r)).toHaveLength(1);
    expect(procs).toEqual([
      `<procEventoCTe xmlns="${CTE_NS}" versao="4.00">${semDeclaracao(cancelamento)}${registrado.bruto}</procEventoCTe>`,
    ]);
  });

  it('refuses a consultation its schema refuses (215) or of the other environment (252), and an unknown key (217)', async () => {
    const r = await chamar('CTeConsultaV4', consSitCTe('123'), 'retConsSitCTe');
    await esquemaValido(r.bruto, 'retConsSitCTe_v4.00.xsd');
    expect(status(r)).toEqual({ cStat: '215', xMotivo: expect.stringMatching(/^Rejeição: Falha no schema XML \[\/consSitCTe\/chCTe: /) });
    const producao = await chamar('CTeConsultaV4', consSitCTe(cteAssinado().chave, '1'), 'retConsSitCTe');
    expect(status(producao)).toEqual({ cStat: '252', xMotivo: 'Rejeição: Ambiente informado diverge do Ambiente de recebimento' });
    const outro = await chamar('CTeConsultaV4', `<consStatServCTe xmlns="${CTE_NS}" versao="4.00"/>`, 'retConsSitCTe');
    expect(status(outro).cStat).toBe('215');
    expect(status(await consultarCte(cteAssinado().chave))).toEqual({
      cStat: '217',
      xMotivo: 'Rejeição: CT-e não consta na base de dados da SEFAZ',
    });
  });
});

describe('status (CTeStatusServicoV4, MDFeStatusServico)', () => {
  it('answers 107 in operation, schema-valid, for the UF asked (CT-e) or the header’s (MDF-e)', async () => {
    const cte = await chamar(
      'CTeStatusServicoV4',
      `<consStatServCTe xmlns="${CTE_NS}" versao="4.00"><tpAmb>2</tpAmb><cUF>43</cUF><xServ>STATUS</xServ></consStatServCTe>`,
      'retConsStatServCTe',
    );
    await esquemaValido(cte.bruto, 'retConsStatServCTe_v4.00.xsd');
    expect(cte.bruto).toBe(
      `<retConsStatServCTe xmlns="${CTE_NS}" versao="4.00"><tpAmb>2</tpAmb><verAplic>SIMULADA-1.0</verAplic><cStat>107</cStat>` +
        '<xMotivo>Serviço em Operação</xMotivo><cUF>43</cUF><dhRecbto>2026-11-20T10:05:00-03:00</dhRecbto><tMed>1</tMed></retConsStatServCTe>',
    );
    const mdfe = await chamar(
      'MDFeStatusServico',
      `<consStatServMDFe xmlns="${MDFE_NS}" versao="3.00"><tpAmb>2</tpAmb><xServ>STATUS</xServ></consStatServMDFe>`,
      'retConsStatServMDFe',
    );
    await esquemaValido(mdfe.bruto, 'retConsStatServMDFe_v3.00.xsd');
    expect({ ...status(mdfe), cUF: mdfe.texto('cUF') }).toEqual({ cStat: '107', xMotivo: 'Serviço em Operação', cUF: '43' });
  });
});

describe('authorizers: each serves its UFs, at its path and at the real tables’ paths', () => {
  it('answers 226 to a document (or a status) sent to an authorizer that does not serve its UF', async () => {
    // The fixture's emitter is in RS: SP authorizes SP, SVC-RS is the contingency of SP's states.
    for (const autorizador of ['SP', 'SVC-RS', 'MG']) {
      const r = await receberCte(cteAssinado().xml, { autorizador });
      await esquemaValido(r.bruto, 'retCTe_v4.00.xsd');
      expect({ autorizador, ...status(r), cUF: r.texto('cUF') }).toEqual({
        autorizador,
        cStat: '226',
        xMotivo: 'Rejeição: Código da UF do Emitente diverge da UF autorizadora',
        cUF: autorizador === 'MG' ? '31' : autorizador === 'SP' ? '35' : '43',
      });
    }
    const statusSp = await chamar(
      'CTeStatusServicoV4',
      `<consStatServCTe xmlns="${CTE_NS}" versao="4.00"><tpAmb>2</tpAmb><cUF>43</cUF><xServ>STATUS</xServ></consStatServCTe>`,
      'retConsStatServCTe',
      { autorizador: 'SP' },
    );
    await esquemaValido(statusSp.bruto, 'retConsStatServCTe_v4.00.xsd');
    expect(status(statusSp).cStat).toBe('226');
    // RS's contingency authorizer (SVC-SP) and SVRS, on whose hosts RS authorizes, take it.
    expect(status(await receberCte(cteAssinado().xml, { autorizador: 'SVC-SP' })).cStat).toBe('100');
    expect(status(await receberCte(cteAssinado().xml, { autorizador: 'SVRS' })).cStat).toBe('100');
  });

  it('answers at the real tables’ paths as SVRS', async () => {
    const { chave, xml } = cteAssinado();
    const r = await receberCte(xml, { caminho: '/ws/CTeRecepcaoSincV4/CTeRecepcaoSincV4.asmx' });
    expect(status(r).cStat).toBe('100');
    expect(status(await consultarCte(chave, { caminho: '/CTeWS/WS/CTeConsultaV4.asmx' })).cStat).toBe('100');
    expect(status(await consultarCte(chave, { caminho: '/cte/services/CTeConsultaV4' })).cStat).toBe('100');
  });
});

describe('MDF-e (MDFeRecepcaoSinc, MDFeConsulta, MDFeRecepcaoEvento, MDFeConsNaoEnc)', () => {
  it('authorizes an MDF-e, lists it not closed (111), closes it (135), answers 132 with the procEventoMDFe and then none not closed (112)', async () => {
    const { chave: cte } = cteAssinado();
    const { chave, xml } = mdfeAssinado({ ctes: [cte] });
    const r = await receberMdfe(xml);
    await esquemaValido(r.bruto, 'retMDFe_v3.00.xsd');
    expect(status(r)).toEqual({ cStat: '100', xMotivo: 'Autorizado o uso do MDF-e' });
    const consulta = await emProcesso.consultarMdfe(chave);
    if (consulta.tipo !== 'encontrado') throw new Error(JSON.stringify(consulta));
    expect(protMDFeDe(r)).toEqual([consulta.protocolo.xml]);

    const naoEncerrados = () =>
      chamar(
        'MDFeConsNaoEnc',
        `<consMDFeNaoEnc xmlns="${MDFE_NS}" versao="3.00"><tpAmb>2</tpAmb><xServ>CONSULTAR NÃO ENCERRADOS</xServ><CNPJ>${EMITENTE}</CNPJ></consMDFeNaoEnc>`,
        'retConsMDFeNaoEnc',
      );
    const abertos = await naoEncerrados();
    await esquemaValido(abertos.bruto, 'retConsMDFeNaoEnc_v3.00.xsd');
    expect(status(abertos)).toEqual({ cStat: '111', xMotivo: 'Consulta não encerrados localizou MDF-e nessa situação' });
    expect(abertos.bruto).toContain(`<infMDFe><chMDFe>${chave}</chMDFe><nProt>${consulta.protocolo.nProt}</nProt></infMDFe>`);

    const encerramento = eventoMdfe({ chave, tpEvento: '110112', det: evEncMDFe(consulta.protocolo.nProt) });
    const registrado = await enviarEventoMdfe(encerramento);
    await esquemaValido(registrado.bruto, 'retEventoMDFe_v3.00.xsd');
    expect(registrado.bruto).toMatch(/<cStat>135<\/cStat>/);
    const repetido = await enviarEventoMdfe(encerramento);
    await esquemaValido(repetido.bruto, 'retEventoMDFe_v3.00.xsd');
    expect(repetido.bruto).toMatch(/<cStat>631<\/cStat>/);

    const encerrado = await consultarMdfe(chave);
    const procs = await consultaValida(encerrado, 'mdfe');
    expect(status(encerrado)).toEqual({ cStat: '132', xMotivo: 'Encerramento de MDF-e homologado' });
    expect(procs).toEqual([
      `<procEventoMDFe xmlns="${MDFE_NS}" versao="3.00">${semDeclaracao(encerramento)}${registrado.bruto}</procEventoMDFe>`,
    ]);
    const fechados = await naoEncerrados();
    await esquemaValido(fechados.bruto, 'retConsMDFeNaoEnc_v3.00.xsd');
    expect(status(fechados).cStat).toBe('112');
  });

  it('answers a rejected MDF-e with its cStat and a duplicate with 204', async () => {
    const rejeitado = await receberMdfe(mdfeAssinado({ ctes: [cteAssinado().chave], infCpl: 'SIMULAR:REJEICAO:611' }).xml);
    await esquemaValido(rejeitado.bruto, 'retMDFe_v3.00.xsd');
    expect(status(rejeitado).cStat).toBe('611');
    expect(protMDFeDe(rejeitado)).toEqual([]);
    const { xml } = mdfeAssinado({ ctes: [cteAssinado().chave] });
    await receberMdfe(xml);
    const duplicado = await receberMdfe(xml);
    expect(status(duplicado).cStat).toBe('204');
    expect(protMDFeDe(duplicado)).toEqual([]);
  });
});
