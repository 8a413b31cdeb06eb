import { createHash } from 'node:crypto';
import {
  AutoridadeFiscalIndisponivel,
  AutoridadeFiscalSimulada,
  ProvedorIndisponivel,
  type RetornoAutorizacao,
  type RetornoConsulta,
  lerSentinelaDocumento,
  montarCteProc,
  montarMdfeProc,
  montarProcEventoCte,
  montarProcEventoMdfe,
} from '@frete/adapters';
import { FiscalSchemas, verifyFiscalSignature } from '@frete/documents';
import { readPkcs12 } from '@frete/platform';
import { Rejection } from '@frete/domain';
import { cnpjFrom, makeA1 } from '../support/certificates';
import { freshDatabase, type TestDatabase } from '../support/db';
import {
  EMITENTE,
  NFE_DO_CTE,
  assinar,
  chaveDe,
  cteXml,
  evCCeCTe,
  evCECTe,
  evCancCECTe,
  evCancCTe,
  evCancMDFe,
  evEncMDFe,
  evIncCondutorMDFe,
  eventoCteXml,
  eventoMdfeXml,
  mdfeXml,
  type Assinante,
  type CteOpcoes,
  type MdfeOpcoes,
} from '../support/autoridade-xml';
import { autorizado, registrado } from '../support/retorno-autoridade';

const SENHA = 'senha-do-a1';
const VALIDADE = { notBefore: new Date('2020-01-01T00:00:00Z'), notAfter: new Date('2040-01-01T00:00:00Z') };
// The carrier's A1 as the service reads it.
const a1: Assinante = readPkcs12(
  makeA1({ cnpj: EMITENTE, razao: 'TRANSPORTADORA EXEMPLO LTDA', password: SENHA, cnpjIn: 'otherName', ...VALIDADE }).pfx,
  SENHA,
);
const outraEmpresa = makeA1({
  cnpj: '45997418000153',
  razao: 'OUTRA TRANSPORTADORA',
  password: SENHA,
  cnpjIn: 'otherName',
  keyIndex: 1,
  ...VALIDADE,
});
const semCnpj = makeA1({ cnpj: EMITENTE, razao: 'SEM CNPJ', password: SENHA, cnpjIn: 'none', ...VALIDADE });
const vencido = makeA1({
  cnpj: EMITENTE,
  razao: 'VENCIDO',
  password: SENHA,
  cnpjIn: 'otherName',
  notBefore: new Date('2020-01-01T00:00:00Z'),
  notAfter: new Date('2025-01-01T00:00:00Z'),
});

/** 2026-11-20 10:05 in São Paulo: after the fixtures' dhEmi. */
const INICIO = new Date('2026-11-20T13:05:00Z');
let agora = INICIO;
const clock = () => agora;
const HORA = 3_600_000;

const schemas = new FiscalSchemas();
let db: TestDatabase;
let autoridade: AutoridadeFiscalSimulada;

beforeAll(async () => {
  db = await freshDatabase();
  autoridade = new AutoridadeFiscalSimulada({ pool: db.pool, clock, schemas });
});
afterAll(async () => {
  await autoridade?.close();
  await db?.drop();
  await schemas.close();
});
beforeEach(() => {
  agora = INICIO;
});

// Every test uses numbers of its own.
let proximo = 100;
const numero = () => proximo++;

const cteAssinado = (o: Partial<CteOpcoes> = {}, assinante = a1) => {
  const { chave, xml } = cteXml({ numero: numero(), ...o });
  return { chave, xml: assinar(xml, 'infCte', assinante) };
};
const eventoCte = (o: Parameters<typeof eventoCteXml>[0], assinante = a1) => assinar(eventoCteXml(o), 'infEvento', assinante);
const mdfeAssinado = (o: Partial<MdfeOpcoes> & { ctes: string[] }, assinante = a1) => {
  const { chave, xml } = mdfeXml({ numero: numero(), ...o });
  return { chave, xml: assinar(xml, 'infMDFe', assinante) };
};
const eventoMdfe = (o: Parameters<typeof eventoMdfeXml>[0], assinante = a1) => assinar(eventoMdfeXml(o), 'infEvento', assinante);

const digestOf = (xml: string) => /<DigestValue>([^<]+)<\/DigestValue>/.exec(xml)![1]!;

const rejeitado = (cStat: number, xMotivo?: string | RegExp) => ({
  tipo: 'rejeitado',
  cStat,
  xMotivo: xMotivo === undefined ? expect.any(String) : typeof xMotivo === 'string' ? xMotivo : expect.stringMatching(xMotivo),
});

/** An authorized CT-e (and its protocol). */
async function cteAutorizado(o: Partial<CteOpcoes> = {}) {
  const cte = cteAssinado(o);
  const protocolo = autorizado(await autoridade.autorizarCte(cte.xml));
  return { ...cte, protocolo };
}

describe('CT-e authorization', () => {
  it('authorizes with 100 and a protocol that makes a valid cteProc byte for byte', async () => {
    const { chave, xml } = cteAssinado();
    const r = await autoridade.autorizarCte(xml);
    expect(r).toEqual({
      tipo: 'autorizado',
      cStat: 100,
      xMotivo: 'Autorizado o uso do CT-e',
      protocolo: {
        modelo: 'cte',
        chave,
        tpAmb: 2,
        verAplic: 'SIMULADA-1.0',
        cStat: 100,
        xMotivo: 'Autorizado o uso do CT-e',
        nProt: expect.stringMatching(/^14326[0-9]{10}$/),
        dhRecbto: '2026-11-20T10:05:00-03:00',
        digVal: digestOf(xml),
        xml: expect.any(String),
      },
    });
    const p = autorizado(r);
    expect(p.xml).toBe(
      `<protCTe xmlns="http://www.portalfiscal.inf.br/cte" versao="4.00"><infProt Id="ID${p.nProt}"><tpAmb>2</tpAmb><verAplic>SIMULADA-1.0</verAplic>` +
        `<chCTe>${chave}</chCTe><dhRecbto>2026-11-20T10:05:00-03:00</dhRecbto><nProt>${p.nProt}</nProt><digVal>${p.digVal}</digVal>` +
        '<cStat>100</cStat><xMotivo>Autorizado o uso do CT-e</xMotivo></infProt></protCTe>',
    );
    // nProt: 1, cUF, year, then 10 digits derived from the key and the digest.
    const h = BigInt(`0x${createHash('sha256').update(`${chave}:${p.digVal}`).digest('hex').slice(0, 24)}`);
    expect(p.nProt).toBe(`14326${(h % 10_000_000_000n).toString().padStart(10, '0')}`);

    const proc = montarCteProc(xml, p);
    expect(proc).toBe(
      `<?xml version="1.0" encoding="UTF-8"?><cteProc xmlns="http://www.portalfiscal.inf.br/cte" versao="4.00">${xml.replace(/^<\?xml[^>]*\?>/, '')}${p.xml}</cteProc>`,
    );
    expect(await schemas.validate(proc, 'procCTe_v4.00.xsd')).toEqual({ valid: true, errors: [] });
    expect(verifyFiscalSignature(proc, { element: 'infCte' }).valid).toBe(true);

    const consulta = await autoridade.consultarCte(chave);
    expect(consulta).toEqual({
      tipo: 'encontrado',
      cStat: 100,
      xMotivo: 'Autorizado o uso do CT-e',
      situacao: 'autorizado',
      protocolo: p,
      eventos: [],
      eventosEmProcessamento: [],
    });
  });

  it('answers a resubmission of the same key with 204 carrying the protocol, and tells whether the content is the one authorized', async () => {
    const n = numero();
    const { xml } = cteAssinado({ numero: n });
    const p = autorizado(await autoridade.autorizarCte(xml));
    agora = new Date(INICIO.getTime() + HORA);
    const dados = `[nProt:${p.nProt}][dhAut: ${p.dhRecbto}]`;
    expect(await autoridade.autorizarCte(xml)).toEqual({
      tipo: 'duplicidade',
      cStat: 204,
      xMotivo: `Rejeição: Duplicidade de CT-e ${dados}`,
      situacao: 'autorizado',
      mesmoConteudo: true,
      protocolo: p,
    });
    // Same key, another content (a value changed before signing): still 204 (G158 looks at the number), not the same content.
    const outro = cteAssinado({ numero: n, alterar: (x) => x.replace('<vCarga>25000.00</vCarga>', '<vCarga>25000.01</vCarga>') });
    expect(await autoridade.autorizarCte(outro.xml)).toMatchObject({ tipo: 'duplicidade', cStat: 204, mesmoConteudo: false, protocolo: p });
  });

  it('answers another key of the same number with 539 carrying the authorized key and protocol', async () => {
    const n = numero();
    const primeiro = cteAssinado({ numero: n, codigo: '11111119' });
    const p = autorizado(await autoridade.autorizarCte(primeiro.xml));
    const segundo = cteAssinado({ numero: n, codigo: '22222229' });
    expect(segundo.chave).not.toBe(primeiro.chave);
    expect(await autoridade.autorizarCte(segundo.xml)).toEqual({
      tipo: 'duplicidade',
      cStat: 539,
      xMotivo: `Rejeição: Duplicidade de CT-e, com diferença na Chave de Acesso [chCTe: ${primeiro.chave}][nProt:${p.nProt}][dhAut: ${p.dhRecbto}]`,
      situacao: 'autorizado',
      mesmoConteudo: false,
      protocolo: p,
    });
    // Another series is another number.
    autorizado(await autoridade.autorizarCte(cteAssinado({ numero: n, serie: 2 }).xml));
  });

  it('serialises concurrent submissions of the same CT-e: one 100, the other 204', async () => {
    const { xml } = cteAssinado();
    const rs = await Promise.all([autoridade.autorizarCte(xml), autoridade.autorizarCte(xml), autoridade.autorizarCte(xml)]);
    expect(rs.map((r) => r.tipo).sort()).toEqual(['autorizado', 'duplicidade', 'duplicidade']);
  });

  it('keeps its state in PostgreSQL: another instance (a restart, another API copy) knows what was authorized', async () => {
    const { chave, xml } = cteAssinado();
    const p = autorizado(await autoridade.autorizarCte(xml));
    const outra = new AutoridadeFiscalSimulada({ pool: db.pool, clock, schemas });
    expect(await outra.consultarCte(chave)).toMatchObject({ tipo: 'encontrado', cStat: 100, protocolo: p });
    expect(await outra.autorizarCte(xml)).toMatchObject({ tipo: 'duplicidade', cStat: 204 });
    await outra.close();
  });
});

describe('CT-e rejections', () => {
  it('243 for XML that is not well-formed (or hostile)', async () => {
    expect(await autoridade.autorizarCte('<CTe><infCte>')).toEqual(rejeitado(243, 'Rejeição: XML Mal Formado'));
    expect(await autoridade.autorizarCte('<!DOCTYPE CTe [<!ENTITY x "y">]><CTe/>')).toEqual(rejeitado(243));
  });

  it('225 for a schema failure, with the first error in xMotivo', async () => {
    const { xml } = cteAssinado({ alterar: (x) => x.replace('<CRT>3</CRT>', '') });
    expect(await autoridade.autorizarCte(xml)).toEqual(
      rejeitado(225, /^Rejeição: Falha no Schema XML do CT-e \[\/CTe\/infCte\/emit: Element '.*'/),
    );
    const semAssinatura = cteXml({ numero: numero() }).xml;
    expect(await autoridade.autorizarCte(semAssinatura)).toEqual(rejeitado(225, /ds:Signature/));
  });

  it('580 for a failure in the modal schema (the second pass)', async () => {
    const { xml } = cteAssinado({ alterar: (x) => x.replace('<RNTRC>12345678</RNTRC>', '<RNTRC>1234567X</RNTRC>') });
    expect(await autoridade.autorizarCte(xml)).toEqual(
      rejeitado(
        580,
        /^Rejeição: Falha no Schema XML específico para o modal \[\/CTe\/infCte\/infCTeNorm\/infModal\/rodo\/RNTRC: Element 'RNTRC': \[facet 'pattern'\]/,
      ),
    );
  });

  it('297 when the signed content was changed, 298 when the signature departs from the standard, 290 for an unreadable certificate', async () => {
    const { xml } = cteAssinado();
    expect(await autoridade.autorizarCte(xml.replace('<vTPrest>1500.00</vTPrest>', '<vTPrest>1500.01</vTPrest>'))).toEqual(
      rejeitado(297, 'Rejeição: Assinatura difere do calculado'),
    );
    const value = /<SignatureValue>([^<]+)<\/SignatureValue>/.exec(xml)![1]!;
    expect(
      await autoridade.autorizarCte(xml.replace(value, value.slice(0, 10) + (value[10] === 'A' ? 'B' : 'A') + value.slice(11))),
    ).toEqual(rejeitado(297));
    // The two transforms, swapped: the schema allows both, the standard fixes their order.
    const transforms = /<Transforms>(<Transform [^>]*\/>)(<Transform [^>]*\/>)<\/Transforms>/.exec(xml)!;
    expect(await autoridade.autorizarCte(xml.replace(transforms[0], `<Transforms>${transforms[2]}${transforms[1]}</Transforms>`))).toEqual(
      rejeitado(298, 'Rejeição: Assinatura difere do padrão do Projeto'),
    );
    expect(await autoridade.autorizarCte(xml.replace(/<X509Certificate>[^<]+</, '<X509Certificate>AAAA<'))).toEqual(
      rejeitado(290, 'Rejeição: Certificado Assinatura inválido'),
    );
  });

  it('291 for a certificate outside its validity at the clock, 292 for one without CNPJ, 213 for another company’s', async () => {
    expect(await autoridade.autorizarCte(cteAssinado({}, vencido).xml)).toEqual(
      rejeitado(291, 'Rejeição: Certificado Assinatura Data Validade'),
    );
    expect(await autoridade.autorizarCte(cteAssinado({}, semCnpj).xml)).toEqual(
      rejeitado(292, 'Rejeição: Certificado Assinatura sem CNPJ'),
    );
    expect(await autoridade.autorizarCte(cteAssinado({}, outraEmpresa).xml)).toEqual(
      rejeitado(213, 'Rejeição: CNPJ-Base do Emitente difere do CNPJ-Base do Certificado Digital'),
    );
    // A branch of the same company signs with the head office's certificate.
    const filial = cnpjFrom('112223330002');
    autorizado(await autoridade.autorizarCte(cteAssinado({ cnpj: filial }).xml));
  });

  it('previous documents (G059–G063): 521 without docAnt for subcontracting, 747 with docAnt on a normal service, 745 for another taker', async () => {
    autorizado(await autoridade.autorizarCte(cteAssinado({ numero: 9101, tpServ: '1' }).xml));
    const semDocAnt = cteAssinado({ numero: 9102, tpServ: '1', alterar: (x) => x.replace(/<docAnt>.*<\/docAnt>/, '') });
    expect(await autoridade.autorizarCte(semDocAnt.xml)).toEqual(rejeitado(521));
    const normalComDocAnt = cteAssinado({
      numero: 9103,
      tpServ: '1',
      alterar: (x) => x.replace('<tpServ>1</tpServ>', '<tpServ>0</tpServ>'),
    });
    expect(await autoridade.autorizarCte(normalComDocAnt.xml)).toEqual(rejeitado(747));
    const outroTomador = cteAssinado({
      numero: 9104,
      tpServ: '2',
      alterar: (x) => x.replace('<toma3><toma>0</toma></toma3>', '<toma3><toma>3</toma></toma3>'),
    });
    expect(await autoridade.autorizarCte(outroTomador.xml)).toEqual(rejeitado(745));
  });

  it('252 for the production environment', async () => {
    expect(await autoridade.autorizarCte(cteAssinado({ tpAmb: '1' }).xml)).toEqual(
      rejeitado(252, 'Rejeição: Ambiente informado diverge do Ambiente de recebimento'),
    );
  });

  it('226 for a UF the authority does not serve, 247 for an emitter of another UF', async () => {
    const soSp = new AutoridadeFiscalSimulada({ pool: db.pool, clock, schemas, ufsAtendidas: ['35'] });
    expect(await soSp.autorizarCte(cteAssinado().xml)).toEqual(
      rejeitado(226, 'Rejeição: Código da UF do Emitente diverge da UF autorizadora'),
    );
    await soSp.close();
    const { xml } = cteAssinado({ alterar: (x) => x.replace('<CEP>90250000</CEP><UF>RS</UF>', '<CEP>90250000</CEP><UF>SC</UF>') });
    expect(await autoridade.autorizarCte(xml)).toEqual(rejeitado(247, 'Rejeição: Sigla da UF do Emitente diverge da UF autorizadora'));
  });

  it('227 when the key is not the concatenation of the fields (each field), 253 for a wrong check digit', async () => {
    const n = numero();
    const codigo = '31415926';
    const chave = chaveDe({ numero: n, codigo });
    const mudancas: [string, (x: string) => string][] = [
      [
        'cUF',
        (x) => x.replace('<cUF>43</cUF>', '<cUF>42</cUF>').replace('<CEP>90250000</CEP><UF>RS</UF>', '<CEP>90250000</CEP><UF>SC</UF>'),
      ],
      ['AAMM', (x) => x.replace('<dhEmi>2026-11-20T10:00:00-03:00</dhEmi>', '<dhEmi>2026-10-20T10:00:00-03:00</dhEmi>')],
      ['CNPJ', (x) => x.replace(`<emit><CNPJ>${EMITENTE}</CNPJ>`, `<emit><CNPJ>${cnpjFrom('112223330002')}</CNPJ>`)],
      ['serie', (x) => x.replace('<serie>1</serie>', '<serie>2</serie>')],
      ['nCT', (x) => x.replace(`<nCT>${n}</nCT>`, `<nCT>${n + 1}</nCT>`)],
      ['tpEmis', (x) => x.replace('<tpEmis>1</tpEmis>', '<tpEmis>7</tpEmis>')],
      ['cCT', (x) => x.replace(`<cCT>${codigo}</cCT>`, '<cCT>27182818</cCT>')],
      ['cDV', (x) => x.replace(`<cDV>${chave.slice(43)}</cDV>`, `<cDV>${(Number(chave.slice(43)) + 1) % 10}</cDV>`)],
    ];
    for (const [campo, alterar] of mudancas) {
      const { xml } = cteAssinado({ numero: n, codigo, alterar });
      expect([campo, await autoridade.autorizarCte(xml)]).toEqual([campo, rejeitado(227, 'Rejeição: Erro na composição do Campo ID')]);
    }
    // Fields and Id agree, but the check digit is wrong.
    const errado = `${chave.slice(0, 43)}${(Number(chave.slice(43)) + 1) % 10}`;
    const { xml } = cteAssinado({
      numero: n,
      codigo,
      alterar: (x) => x.replaceAll(chave, errado).replace(`<cDV>${chave.slice(43)}</cDV>`, `<cDV>${errado.slice(43)}</cDV>`),
    });
    expect(await autoridade.autorizarCte(xml)).toEqual(rejeitado(253, 'Rejeição: Dígito Verificador da chave de acesso composta inválido'));
  });

  it('207 for an invalid emitter CNPJ', async () => {
    expect(await autoridade.autorizarCte(cteAssinado({ cnpj: '11222333000199' }).xml)).toEqual(
      rejeitado(207, 'Rejeição: CNPJ do emitente inválido'),
    );
  });

  it('consultation: 217 unknown, 236 wrong check digit, 215 not a key, 732 not a CT-e key', async () => {
    expect(await autoridade.consultarCte(chaveDe({ numero: 999_999, codigo: '12345678' }))).toEqual({
      tipo: 'nao_encontrado',
      cStat: 217,
      xMotivo: 'Rejeição: CT-e não consta na base de dados da SEFAZ',
    });
    const chave = chaveDe({ numero: 999_999, codigo: '12345678' });
    expect(await autoridade.consultarCte(chave.slice(0, 43) + ((Number(chave[43]) + 1) % 10))).toEqual(
      rejeitado(236, 'Rejeição: Chave de Acesso com dígito verificador inválido'),
    );
    expect(await autoridade.consultarCte('123')).toEqual(rejeitado(215, 'Rejeição: Falha no schema XML'));
    expect(await autoridade.consultarCte(chaveDe({ mod: '58', numero: 1, codigo: '12345678' }))).toEqual(
      rejeitado(732, 'Rejeição: Chave de acesso inválida (modelo diferente de 57)'),
    );
  });
});

describe('CT-e sentinels (compl/xObs)', () => {
  it('SIMULAR:TIMEOUT authorizes and loses the answer; the consultation and a resubmission (204) recover the authorization', async () => {
    const { chave, xml } = cteAssinado({ xObs: 'SIMULAR:TIMEOUT' });
    expect(await autoridade.autorizarCte(xml)).toEqual({ tipo: 'sem_resposta', motivo: expect.any(String) });
    agora = new Date(INICIO.getTime() + 60_000);
    const consulta = await autoridade.consultarCte(chave);
    expect(consulta).toMatchObject({ tipo: 'encontrado', cStat: 100, situacao: 'autorizado' });
    const p = (consulta as Extract<RetornoConsulta, { tipo: 'encontrado' }>).protocolo;
    expect(p.dhRecbto).toBe('2026-11-20T10:05:00-03:00');
    expect(await autoridade.autorizarCte(xml)).toEqual(
      expect.objectContaining({ tipo: 'duplicidade', cStat: 204, mesmoConteudo: true, protocolo: p }),
    );
    expect(await schemas.validate(montarCteProc(xml, p), 'procCTe_v4.00.xsd')).toEqual({ valid: true, errors: [] });
  });

  it('SIMULAR:PENDENTE answers 105 now and for the next two requests, then the authorization', async () => {
    const { chave, xml } = cteAssinado({ xObs: 'EMISSAO DE TESTE SIMULAR:PENDENTE' });
    const processando = { tipo: 'em_processamento', cStat: 105, xMotivo: 'Lote em processamento' };
    expect(await autoridade.autorizarCte(xml)).toEqual(processando);
    expect(await autoridade.consultarCte(chave)).toEqual(processando);
    expect(await autoridade.autorizarCte(xml)).toEqual(processando);
    const consulta = await autoridade.consultarCte(chave);
    expect(consulta).toMatchObject({ tipo: 'encontrado', cStat: 100 });
    expect(await autoridade.autorizarCte(xml)).toMatchObject({ tipo: 'duplicidade', cStat: 204, mesmoConteudo: true });
    // Events on a CT-e still in processing: not in the base yet.
    const um = cteAssinado({ xObs: 'SIMULAR:PENDENTE:1' });
    expect(await autoridade.autorizarCte(um.xml)).toEqual(processando);
    const cancelamento = eventoCte({ chave: um.chave, tpEvento: '110111', det: evCancCTe('143260000000000') });
    expect(await autoridade.registrarEventoCte(cancelamento)).toEqual(rejeitado(217));
    expect(await autoridade.consultarCte(um.chave)).toEqual(processando);
    expect(await autoridade.consultarCte(um.chave)).toMatchObject({ tipo: 'encontrado', cStat: 100 });
  });

  it('SIMULAR:REJEICAO:<cStat> rejects with that code and its text; a code the manual does not list is refused (999)', async () => {
    expect(await autoridade.autorizarCte(cteAssinado({ xObs: 'SIMULAR:REJEICAO:219' }).xml)).toEqual(
      rejeitado(219, 'Rejeição: Circulação do CT-e verificada'),
    );
    // Statuses of the channel (108, 109, 656, 678) are not a document's rejection: the local server injects them.
    expect(await autoridade.autorizarCte(cteAssinado({ xObs: 'SIMULAR:REJEICAO:678' }).xml)).toEqual(rejeitado(999));
    expect(await autoridade.autorizarCte(cteAssinado({ xObs: 'SIMULAR:REJEICAO:531' }).xml)).toEqual(
      rejeitado(531, 'Rejeição: Valor a receber deve ser menor ou igual Valor da Prestação'),
    );
    const { chave, xml } = cteAssinado({ xObs: 'SIMULAR:REJEICAO:123' });
    expect(await autoridade.autorizarCte(xml)).toEqual(
      rejeitado(999, /^Rejeição: Erro não catalogado \(SIMULAR:REJEICAO pede 123, que não é uma rejeição listada/),
    );
    expect(await autoridade.autorizarCte(cteAssinado({ xObs: 'SIMULAR:REJEICAO:204' }).xml)).toEqual(rejeitado(999));
    // Nothing of a rejection is kept.
    expect(await autoridade.consultarCte(chave)).toMatchObject({ tipo: 'nao_encontrado', cStat: 217 });
  });

  it('SIMULAR:DENEGACAO denies use (301, or the code asked) with a protocol; the number is spent', async () => {
    const n = numero();
    const { chave, xml } = cteAssinado({ numero: n, xObs: 'SIMULAR:DENEGACAO' });
    const r = await autoridade.autorizarCte(xml);
    expect(r).toMatchObject({
      tipo: 'denegado',
      cStat: 301,
      xMotivo: 'Uso Denegado: Irregularidade fiscal do emitente',
      protocolo: { chave, cStat: 301, nProt: expect.stringMatching(/^[0-9]{15}$/) },
    });
    const p = (r as Extract<RetornoAutorizacao, { tipo: 'denegado' }>).protocolo;
    expect(await schemas.validate(montarCteProc(xml, p), 'procCTe_v4.00.xsd')).toEqual({ valid: true, errors: [] });
    expect(await autoridade.consultarCte(chave)).toMatchObject({
      tipo: 'encontrado',
      cStat: 110,
      xMotivo: 'Uso Denegado',
      situacao: 'denegado',
      protocolo: p,
    });
    expect(await autoridade.autorizarCte(xml)).toEqual(rejeitado(205, 'Rejeição: CT-e está denegado na base de dados da SEFAZ'));
    expect(await autoridade.autorizarCte(cteAssinado({ numero: n, codigo: '55555551' }).xml)).toMatchObject({
      tipo: 'duplicidade',
      cStat: 539,
      situacao: 'denegado',
    });
    const evento = eventoCte({ chave, tpEvento: '110110', det: evCCeCTe([{ grupo: 'compl', campo: 'xObs', valor: 'CORRIGIDO' }]) });
    expect(await autoridade.registrarEventoCte(evento)).toEqual(rejeitado(205));
    expect(await autoridade.autorizarCte(cteAssinado({ xObs: 'SIMULAR:DENEGACAO:302' }).xml)).toMatchObject({
      tipo: 'denegado',
      cStat: 302,
      xMotivo: 'Uso Denegado: Irregularidade fiscal do remetente',
    });
  });

  it('refuses an unknown or repeated-but-different sentinel (999) instead of ignoring it', async () => {
    expect(await autoridade.autorizarCte(cteAssinado({ xObs: 'SIMULAR:TIMEOUTS' }).xml)).toEqual(
      rejeitado(999, /sentinela desconhecida SIMULAR:TIMEOUTS/),
    );
    expect(await autoridade.autorizarCte(cteAssinado({ xObs: 'SIMULAR:EVENTO-PENDENTE' }).xml)).toEqual(rejeitado(999));
    expect(await autoridade.autorizarCte(cteAssinado({ xObs: 'SIMULAR:TIMEOUT SIMULAR:PENDENTE' }).xml)).toEqual(
      rejeitado(999, /mais de uma sentinela/),
    );
    expect(await autoridade.autorizarCte(cteAssinado({ xObs: 'SIMULAR:DENEGACAO:310' }).xml)).toEqual(rejeitado(999));
    expect(await autoridade.autorizarCte(cteAssinado({ xObs: 'SIMULAR:PENDENTE:21' }).xml)).toEqual(rejeitado(999));
    // Lower case is ordinary text.
    autorizado(await autoridade.autorizarCte(cteAssinado({ xObs: 'simular:timeout' }).xml));
    expect(lerSentinelaDocumento('SIMULAR:TIMEOUT e SIMULAR:TIMEOUT', 'cte')).toEqual({ sentinela: { tipo: 'timeout' } });
  });
});

describe('CT-e events', () => {
  const cancelar = (chave: string, nProt: string, o: { nSeq?: number; xJust?: string } = {}) =>
    eventoCte({ chave, tpEvento: '110111', nSeq: o.nSeq, det: evCancCTe(nProt, o.xJust) });
  const comprovar = (chave: string, nProt: string, nfes?: string[], xNome?: string) =>
    eventoCte({ chave, tpEvento: '110180', det: evCECTe(nProt, nfes, xNome) });

  it('cancels within 168 hours (135), with a valid procEventoCTe; the CT-e is then cancelled (101) and a resubmission gets 631', async () => {
    const cte = await cteAutorizado();
    agora = new Date(INICIO.getTime() + 167 * HORA);
    const evento = cancelar(cte.chave, cte.protocolo.nProt);
    const r = await autoridade.registrarEventoCte(evento);
    const p = registrado(r);
    expect(r).toEqual({ tipo: 'registrado', cStat: 135, xMotivo: 'Evento registrado e vinculado a CT-e', protocolo: p });
    expect(p).toEqual({
      modelo: 'cte',
      idEvento: `ID110111${cte.chave}001`,
      chave: cte.chave,
      tpEvento: '110111',
      nSeqEvento: 1,
      cOrgao: '43',
      tpAmb: 2,
      verAplic: 'SIMULADA-1.0',
      cStat: 135,
      xMotivo: 'Evento registrado e vinculado a CT-e',
      xEvento: 'Cancelamento',
      nProt: expect.stringMatching(/^14326[0-9]{10}$/),
      dhRegEvento: '2026-11-27T09:05:00-03:00',
      xml: expect.stringMatching(
        /^<retEventoCTe xmlns="http:\/\/www\.portalfiscal\.inf\.br\/cte" versao="4\.00"><infEvento Id="ID[0-9]{15}">/,
      ),
    });
    expect(await schemas.validate(montarProcEventoCte(evento, p), 'procEventoCTe_v4.00.xsd')).toEqual({ valid: true, errors: [] });
    expect(await autoridade.consultarCte(cte.chave)).toEqual({
      tipo: 'encontrado',
      cStat: 101,
      xMotivo: 'Cancelamento de CT-e homologado',
      situacao: 'cancelado',
      protocolo: cte.protocolo,
      eventos: [p],
      eventosEmProcessamento: [],
    });
    // The signed event as received, byte for byte, for a front door that answers with procEventoCTe.
    expect(await autoridade.eventosRecebidos(cte.chave)).toEqual(new Map([[p.idEvento, evento]]));
    expect(await autoridade.registrarEventoCte(evento)).toEqual({
      tipo: 'duplicidade',
      cStat: 631,
      xMotivo: `Rejeição: Duplicidade de evento [nProt:${p.nProt}][dhRegEvento: ${p.dhRegEvento}]`,
      protocolo: p,
    });
    // The CT-e stays authorized in the eyes of a resubmission, which reports where it stands.
    expect(await autoridade.autorizarCte(cte.xml)).toMatchObject({ tipo: 'duplicidade', cStat: 204, situacao: 'cancelado' });
    const cce = eventoCte({
      chave: cte.chave,
      tpEvento: '110110',
      det: evCCeCTe([{ grupo: 'compl', campo: 'xObs', valor: 'TEXTO CORRIGIDO' }]),
    });
    expect(await autoridade.registrarEventoCte(cce)).toEqual(
      rejeitado(218, `Rejeição: CT-e já está cancelado na base de dados da SEFAZ [nProt:${p.nProt}][dhCanc: ${p.dhRegEvento}]`),
    );
  });

  it('refuses the cancellation after 168 hours (220), with another protocol (222), in another sequence (636)', async () => {
    const cte = await cteAutorizado();
    expect(await autoridade.registrarEventoCte(cancelar(cte.chave, cte.protocolo.nProt, { nSeq: 2 }))).toEqual(
      rejeitado(636, 'Rejeição: O número sequencial do evento é maior que o permitido'),
    );
    expect(await autoridade.registrarEventoCte(cancelar(cte.chave, '143260000000001'))).toEqual(
      rejeitado(222, 'Rejeição: Protocolo de Autorização de Uso difere do cadastrado'),
    );
    agora = new Date(INICIO.getTime() + 168 * HORA + 1000);
    expect(await autoridade.registrarEventoCte(cancelar(cte.chave, cte.protocolo.nProt))).toEqual(
      rejeitado(220, 'Rejeição: CT-e autorizado há mais de 7 dias (168 horas)'),
    );
  });

  it('registers a delivery proof, which blocks the cancellation (862) until it is cancelled (110181)', async () => {
    const cte = await cteAutorizado();
    const ce = comprovar(cte.chave, cte.protocolo.nProt);
    const pCe = registrado(await autoridade.registrarEventoCte(ce));
    expect(pCe).toMatchObject({ tpEvento: '110180', xEvento: 'Comprovante de Entrega do CT-e', cStat: 135 });
    expect(await schemas.validate(montarProcEventoCte(ce, pCe), 'procEventoCTe_v4.00.xsd')).toEqual({ valid: true, errors: [] });
    expect(await autoridade.registrarEventoCte(cancelar(cte.chave, cte.protocolo.nProt))).toEqual(
      rejeitado(862, 'Rejeição: Vedado o cancelamento quando houver evento de Comprovante de Entrega associado'),
    );
    // A second proof while the first stands: 870.
    const segunda = eventoCte({ chave: cte.chave, tpEvento: '110180', nSeq: 2, det: evCECTe(cte.protocolo.nProt) });
    expect(await autoridade.registrarEventoCte(segunda)).toEqual(rejeitado(870));

    expect(
      await autoridade.registrarEventoCte(
        eventoCte({ chave: cte.chave, tpEvento: '110181', det: evCancCECTe(cte.protocolo.nProt, '143260000000009') }),
      ),
    ).toEqual(rejeitado(866, 'Rejeição: Protocolo do evento a ser cancelado não existe, não está associado ao CT-e ou já está cancelado'));
    expect(
      await autoridade.registrarEventoCte(
        eventoCte({ chave: cte.chave, tpEvento: '110181', det: evCancCECTe('143260000000001', pCe.nProt) }),
      ),
    ).toEqual(rejeitado(222));
    const cancCe = eventoCte({ chave: cte.chave, tpEvento: '110181', det: evCancCECTe(cte.protocolo.nProt, pCe.nProt) });
    const pCancCe = registrado(await autoridade.registrarEventoCte(cancCe));
    expect(pCancCe).toMatchObject({ tpEvento: '110181', xEvento: 'Cancelamento do Comprovante de Entrega do CT-e' });
    expect(await schemas.validate(montarProcEventoCte(cancCe, pCancCe), 'procEventoCTe_v4.00.xsd')).toEqual({ valid: true, errors: [] });
    // The same proof cannot be cancelled twice.
    const deNovo = eventoCte({ chave: cte.chave, tpEvento: '110181', nSeq: 2, det: evCancCECTe(cte.protocolo.nProt, pCe.nProt) });
    expect(await autoridade.registrarEventoCte(deNovo)).toEqual(rejeitado(866));
    registrado(await autoridade.registrarEventoCte(cancelar(cte.chave, cte.protocolo.nProt)));
    const consulta = await autoridade.consultarCte(cte.chave);
    expect(consulta).toMatchObject({ situacao: 'cancelado', cStat: 101 });
    expect((consulta as Extract<RetornoConsulta, { tipo: 'encontrado' }>).eventos.map((e) => e.tpEvento)).toEqual([
      '110180',
      '110181',
      '110111',
    ]);
  });

  it('checks the delivery proof against the CT-e: protocol (222), its NF-e (864), NF-e required for tpServ 0 (865) and refused otherwise (871)', async () => {
    const cte = await cteAutorizado();
    expect(await autoridade.registrarEventoCte(comprovar(cte.chave, '143260000000001'))).toEqual(rejeitado(222));
    const alheia = '43261145997418000153550010000009991527903810';
    expect(await autoridade.registrarEventoCte(comprovar(cte.chave, cte.protocolo.nProt, [alheia]))).toEqual(
      rejeitado(864, `Rejeição: NF-e não possui relação com este CT-e [chNFe: ${alheia}]`),
    );
    expect(await autoridade.registrarEventoCte(comprovar(cte.chave, cte.protocolo.nProt, []))).toEqual(
      rejeitado(865, 'Rejeição: Comprovante de entrega deve relacionar NF-e para CT-e de tipo de serviço Normal'),
    );
    const sub = await cteAutorizado({ tpServ: '1' });
    expect(await autoridade.registrarEventoCte(comprovar(sub.chave, sub.protocolo.nProt, [NFE_DO_CTE]))).toEqual(rejeitado(871));
    registrado(await autoridade.registrarEventoCte(comprovar(sub.chave, sub.protocolo.nProt, [])));
  });

  it('refuses the cancellation after a correction letter (523), of a substitute (574), of a CT-e with a substitute (576) or a complement (660)', async () => {
    const comCce = await cteAutorizado();
    registrado(
      await autoridade.registrarEventoCte(
        eventoCte({ chave: comCce.chave, tpEvento: '110110', det: evCCeCTe([{ grupo: 'compl', campo: 'xObs', valor: 'OBS' }]) }),
      ),
    );
    expect(await autoridade.registrarEventoCte(cancelar(comCce.chave, comCce.protocolo.nProt))).toEqual(
      rejeitado(523, 'Rejeição: Vedado cancelamento quando existir evento Carta de Correção'),
    );

    const original = await cteAutorizado();
    const substituto = await cteAutorizado({ tpCTe: '3', referencia: original.chave });
    expect(await autoridade.registrarEventoCte(cancelar(substituto.chave, substituto.protocolo.nProt))).toEqual(
      rejeitado(574, 'Rejeição: Vedado o cancelamento de CT-e do tipo substituição (tipo=3)'),
    );
    expect(await autoridade.registrarEventoCte(cancelar(original.chave, original.protocolo.nProt))).toEqual(
      rejeitado(576, 'Rejeição: Vedado o cancelamento se possuir CT-e de Substituição associado'),
    );

    const complementado = await cteAutorizado();
    await cteAutorizado({ tpCTe: '1', referencia: complementado.chave });
    expect(await autoridade.registrarEventoCte(cancelar(complementado.chave, complementado.protocolo.nProt))).toEqual(
      rejeitado(660, 'Rejeição: Vedado o cancelamento se possuir CT-e Complementar associado'),
    );
  });

  it('registers correction letters 1–20 and refuses 21 (636) and the fields the manual forbids (681)', async () => {
    const cte = await cteAutorizado();
    const cce = (nSeq: number, grupo: string, campo: string) =>
      eventoCte({
        chave: cte.chave,
        tpEvento: '110110',
        nSeq,
        det: evCCeCTe([
          { grupo: 'compl', campo: 'xObs', valor: 'OBS CORRIGIDA' },
          { grupo, campo, valor: 'X1' },
        ]),
      });
    const p = registrado(await autoridade.registrarEventoCte(cce(1, 'rem', 'xNome')));
    expect(p).toMatchObject({ tpEvento: '110110', xEvento: 'Carta de Correção', idEvento: `ID110110${cte.chave}001` });
    registrado(await autoridade.registrarEventoCte(cce(20, 'enderReme', 'nro')));
    expect(await autoridade.registrarEventoCte(cce(21, 'rem', 'xNome'))).toEqual(rejeitado(636));
    expect(await autoridade.registrarEventoCte(cce(0, 'rem', 'xNome'))).toEqual(rejeitado(636));
    for (const [grupo, campo] of [
      ['vPrest', 'vTPrest'],
      ['emit', 'CNPJ'],
      ['ide', 'dhEmi'],
      ['ICMS00', 'vICMS'],
      ['toma3', 'toma'],
      ['dest', 'IE'],
    ]) {
      expect(await autoridade.registrarEventoCte(cce(2, grupo!, campo!))).toEqual(
        rejeitado(681, `Rejeição: Informação não pode ser alterada por carta de correção [${grupo}/${campo}]`),
      );
    }
  });

  it('refuses the cancellation while an MDF-e carrying the CT-e is authorized (528), and allows it once the MDF-e is cancelled', async () => {
    const cte = await cteAutorizado();
    const mdfe = mdfeAssinado({ ctes: [cte.chave] });
    const pMdfe = autorizado(await autoridade.autorizarMdfe(mdfe.xml));
    expect(await autoridade.registrarEventoCte(cancelar(cte.chave, cte.protocolo.nProt))).toEqual(
      rejeitado(528, 'Rejeição: Vedado cancelamento se exitir MDF-e autorizado para o CT-e'),
    );
    registrado(await autoridade.registrarEventoMdfe(eventoMdfe({ chave: mdfe.chave, tpEvento: '110111', det: evCancMDFe(pMdfe.nProt) })));
    registrado(await autoridade.registrarEventoCte(cancelar(cte.chave, cte.protocolo.nProt)));
  });

  it('applies the event rules every event shares (215, 630, 629, 628, 677, 627, 213, 632, 236, 217, 252, 297)', async () => {
    const cte = await cteAutorizado();
    const det = evCancCTe(cte.protocolo.nProt);
    const base = { chave: cte.chave, tpEvento: '110111', det };
    const registrar = (xml: string) => autoridade.registrarEventoCte(xml);
    expect(await registrar(eventoCte({ ...base, cOrgao: '4' }))).toEqual(
      rejeitado(215, /^Rejeição: Falha no schema XML \[\/eventoCTe\/infEvento\/cOrgao: /),
    );
    expect(await registrar(eventoCte({ ...base, det: evCancCTe(cte.protocolo.nProt, 'CURTA') }))).toEqual(
      rejeitado(
        630,
        /^Rejeição: Falha no Schema XML específico para o evento \[\/eventoCTe\/infEvento\/detEvento\/evCancCTe\/xJust: Element 'xJust': \[facet 'minLength'\]/,
      ),
    );
    expect(await registrar(eventoCte({ ...base, tpEvento: '110110' }))).toEqual(rejeitado(630, /110110 pede evCCeCTe, veio evCancCTe/));
    const desacordo =
      '<evPrestDesacordo><descEvento>Prestacao do Servico em Desacordo</descEvento><indDesacordoOper>1</indDesacordoOper><xObs>SERVICO NAO PRESTADO</xObs></evPrestDesacordo>';
    expect(await registrar(eventoCte({ ...base, tpEvento: '610112', det: desacordo }))).toEqual(
      rejeitado(629, 'Rejeição: O tpEvento informado inválido'),
    );
    // 610110 is the taker's event (MOC 4.00 Visão Geral §6.5): from the emitter it is 755, not 632 (test/authority/desacordo.test.ts).
    expect(await registrar(eventoCte({ ...base, tpEvento: '610110', det: desacordo }))).toEqual(
      rejeitado(755, 'Rejeição: Autor do evento prestação do serviço em desacordo deve ser o tomador do serviço do CT-e'),
    );
    expect(await registrar(eventoCte({ ...base, id: `ID110111${cte.chave}002` }))).toEqual(rejeitado(628));
    expect(await registrar(eventoCte({ ...base, cOrgao: '42' }))).toEqual(rejeitado(677, 'Rejeição: Órgão de recepção do evento inválido'));
    expect(await registrar(eventoCte({ ...base, cnpj: '11222333000199' }))).toEqual(
      rejeitado(627, 'Rejeição: CNPJ do autor do evento inválido'),
    );
    expect(await registrar(eventoCte(base, outraEmpresa))).toEqual(rejeitado(213));
    expect(await registrar(eventoCte({ ...base, cnpj: cnpjFrom('112223330002') }))).toEqual(
      rejeitado(632, 'Rejeição: O autor do evento diverge do emissor do CT-e'),
    );
    const semDv = cte.chave.slice(0, 43) + ((Number(cte.chave[43]) + 1) % 10);
    expect(await registrar(eventoCte({ ...base, chave: semDv }))).toEqual(rejeitado(236));
    expect(await registrar(eventoCte({ ...base, chave: chaveDe({ numero: 888_888, codigo: '12345678' }) }))).toEqual(
      rejeitado(217, 'Rejeição: CT-e não consta na base de dados da SEFAZ'),
    );
    expect(await registrar(eventoCte({ ...base, tpAmb: '1' }))).toEqual(rejeitado(252));
    expect(await registrar(eventoCte(base).replace('ERRO NA EMISSAO', 'ERRO NA EMISSAX'))).toEqual(rejeitado(297));
    expect(await registrar('<eventoCTe>')).toEqual(rejeitado(243));
  });

  it('SIMULAR:EVENTO-PENDENTE answers 105 until reconciled by consultations, then the event is registered and takes effect', async () => {
    const cte = await cteAutorizado();
    const evento = cancelar(cte.chave, cte.protocolo.nProt, { xJust: 'TESTE DE POLLING SIMULAR:EVENTO-PENDENTE' });
    const processando = { tipo: 'em_processamento', cStat: 105, xMotivo: 'Lote em processamento' };
    expect(await autoridade.registrarEventoCte(evento)).toEqual(processando);
    const id = `ID110111${cte.chave}001`;
    expect(await autoridade.consultarCte(cte.chave)).toMatchObject({ situacao: 'autorizado', eventos: [], eventosEmProcessamento: [id] });
    expect(await autoridade.registrarEventoCte(evento)).toEqual(processando);
    const reconciliado = await autoridade.consultarCte(cte.chave);
    expect(reconciliado).toMatchObject({ tipo: 'encontrado', cStat: 101, situacao: 'cancelado', eventosEmProcessamento: [] });
    const [p] = (reconciliado as Extract<RetornoConsulta, { tipo: 'encontrado' }>).eventos;
    expect(p).toMatchObject({ idEvento: id, cStat: 135, dhRegEvento: '2026-11-20T10:05:00-03:00' });
    expect(await autoridade.registrarEventoCte(evento)).toEqual(expect.objectContaining({ tipo: 'duplicidade', cStat: 631, protocolo: p }));
  });

  it('SIMULAR:TIMEOUT in an event registers it and loses the answer; SIMULAR:REJEICAO rejects it', async () => {
    const cte = await cteAutorizado();
    const ce = comprovar(cte.chave, cte.protocolo.nProt, undefined, 'SIMULAR:TIMEOUT');
    expect(await autoridade.registrarEventoCte(ce)).toEqual({ tipo: 'sem_resposta', motivo: expect.any(String) });
    const consulta = (await autoridade.consultarCte(cte.chave)) as Extract<RetornoConsulta, { tipo: 'encontrado' }>;
    expect(consulta.eventos).toEqual([expect.objectContaining({ tpEvento: '110180', cStat: 135 })]);
    expect(await autoridade.registrarEventoCte(ce)).toEqual(
      expect.objectContaining({ tipo: 'duplicidade', cStat: 631, protocolo: consulta.eventos[0] }),
    );

    const outro = await cteAutorizado();
    expect(await autoridade.registrarEventoCte(cancelar(outro.chave, outro.protocolo.nProt, { xJust: 'SIMULAR:REJEICAO:219' }))).toEqual(
      rejeitado(219, 'Rejeição: Circulação do CT-e verificada'),
    );
    expect(
      await autoridade.registrarEventoCte(cancelar(outro.chave, outro.protocolo.nProt, { xJust: 'SIMULAR:PENDENTE PARA EVENTO' })),
    ).toEqual(rejeitado(999));
    expect(await autoridade.consultarCte(outro.chave)).toMatchObject({ situacao: 'autorizado', eventos: [] });
  });
});

describe('MDF-e', () => {
  it('authorizes a signed MDF-e 3.00 (100, valid mdfeProc), with 204, 539 and the schema, signature, key and sentinel checks', async () => {
    const cte = await cteAutorizado();
    const n = numero();
    const mdfe = mdfeAssinado({ numero: n, ctes: [cte.chave] });
    const r = await autoridade.autorizarMdfe(mdfe.xml);
    expect(r).toMatchObject({
      tipo: 'autorizado',
      cStat: 100,
      xMotivo: 'Autorizado o uso do MDF-e',
      protocolo: { modelo: 'mdfe', chave: mdfe.chave },
    });
    const p = autorizado(r);
    expect(p.xml.startsWith(`<protMDFe xmlns="http://www.portalfiscal.inf.br/mdfe" versao="3.00"><infProt Id="ID${p.nProt}">`)).toBe(true);
    expect(await schemas.validate(montarMdfeProc(mdfe.xml, p), 'procMDFe_v3.00.xsd')).toEqual({ valid: true, errors: [] });
    expect(await autoridade.consultarMdfe(mdfe.chave)).toMatchObject({ tipo: 'encontrado', cStat: 100, protocolo: p });
    expect(await autoridade.autorizarMdfe(mdfe.xml)).toMatchObject({
      tipo: 'duplicidade',
      cStat: 204,
      xMotivo: `Rejeição: Duplicidade de MDF-e [nProt:${p.nProt}][dhAut: ${p.dhRecbto}]`,
      mesmoConteudo: true,
    });
    const outraChave = mdfeAssinado({ numero: n, codigo: '77777771', ctes: [cte.chave] });
    expect(await autoridade.autorizarMdfe(outraChave.xml)).toMatchObject({
      tipo: 'duplicidade',
      cStat: 539,
      xMotivo: `Rejeição: Duplicidade de MDF-e, com diferença na Chave de Acesso [chMDFe: ${mdfe.chave}][nProt:${p.nProt}][dhAut: ${p.dhRecbto}]`,
    });

    expect(
      await autoridade.autorizarMdfe(mdfeAssinado({ ctes: [cte.chave], alterar: (x) => x.replace('<tara>8000</tara>', '') }).xml),
    ).toEqual(rejeitado(580, /^Rejeição: Falha no Schema XML específico para o modal/));
    expect(
      await autoridade.autorizarMdfe(mdfeAssinado({ ctes: [cte.chave], alterar: (x) => x.replace('<tpEmis>1</tpEmis>', '') }).xml),
    ).toEqual(rejeitado(225, /^Rejeição: Falha no Schema XML do MDF-e/));
    expect(await autoridade.autorizarMdfe(mdfeAssinado({ ctes: [cte.chave], tpAmb: '1' }).xml)).toEqual(rejeitado(252));
    expect(await autoridade.autorizarMdfe(mdfeAssinado({ ctes: [cte.chave] }, outraEmpresa).xml)).toEqual(rejeitado(213));
    expect(
      await autoridade.autorizarMdfe(
        mdfeAssinado({ ctes: [cte.chave], alterar: (x) => x.replace('<serie>1</serie>', '<serie>3</serie>') }).xml,
      ),
    ).toEqual(rejeitado(227, 'Rejeição: Erro na composição do Campo ID'));
    expect(await autoridade.autorizarMdfe(mdfe.xml.replace('<vCarga>25000.00</vCarga>', '<vCarga>25000.10</vCarga>'))).toEqual(
      rejeitado(297),
    );

    const pendente = mdfeAssinado({ ctes: [cte.chave], infCpl: 'SIMULAR:PENDENTE:1' });
    expect(await autoridade.autorizarMdfe(pendente.xml)).toEqual({
      tipo: 'em_processamento',
      cStat: 105,
      xMotivo: 'Arquivo em processamento',
    });
    expect(await autoridade.consultarMdfe(pendente.chave)).toMatchObject({ tipo: 'em_processamento' });
    expect(await autoridade.consultarMdfe(pendente.chave)).toMatchObject({ tipo: 'encontrado', cStat: 100 });
    const perdido = mdfeAssinado({ ctes: [cte.chave], infCpl: 'SIMULAR:TIMEOUT' });
    expect(await autoridade.autorizarMdfe(perdido.xml)).toMatchObject({ tipo: 'sem_resposta' });
    expect(await autoridade.autorizarMdfe(perdido.xml)).toMatchObject({ tipo: 'duplicidade', cStat: 204, mesmoConteudo: true });
    expect(await autoridade.autorizarMdfe(mdfeAssinado({ ctes: [cte.chave], infCpl: 'SIMULAR:REJEICAO:611' }).xml)).toEqual(rejeitado(611));
    expect(await autoridade.autorizarMdfe(mdfeAssinado({ ctes: [cte.chave], infCpl: 'SIMULAR:DENEGACAO' }).xml)).toEqual(
      rejeitado(999, /o MDF-e não tem denegação de uso/),
    );
    expect(await autoridade.consultarMdfe(chaveDe({ mod: '58', numero: 777_777, codigo: '12345678' }))).toMatchObject({
      tipo: 'nao_encontrado',
      cStat: 217,
    });
    expect(await autoridade.consultarMdfe(cte.chave)).toEqual(
      rejeitado(236, 'Rejeição: Chave de Acesso inválida [Motivo: modelo diferente de 58]'),
    );
    const semDv = mdfe.chave.slice(0, 43) + ((Number(mdfe.chave[43]) + 1) % 10);
    expect(await autoridade.consultarMdfe(semDv)).toEqual(rejeitado(236, 'Rejeição: Chave de Acesso inválida [Motivo: DV inválido]'));
  });

  it('registers closing (132 then), driver inclusion and cancellation, with their basic rules', async () => {
    const cte = await cteAutorizado();
    const mdfe = mdfeAssinado({ ctes: [cte.chave] });
    const p = autorizado(await autoridade.autorizarMdfe(mdfe.xml));
    const condutor = eventoMdfe({ chave: mdfe.chave, tpEvento: '110114', det: evIncCondutorMDFe('52998224725') });
    const pCondutor = registrado(await autoridade.registrarEventoMdfe(condutor));
    expect(pCondutor).toMatchObject({
      tpEvento: '110114',
      xEvento: 'Inclusao Condutor',
      cStat: 135,
      xMotivo: 'Evento registrado e vinculado a MDF-e',
    });
    expect(await schemas.validate(montarProcEventoMdfe(condutor, pCondutor), 'procEventoMDFe_v3.00.xsd')).toEqual({
      valid: true,
      errors: [],
    });
    expect(
      await autoridade.registrarEventoMdfe(
        eventoMdfe({ chave: mdfe.chave, tpEvento: '110114', nSeq: 2, det: evIncCondutorMDFe('52998224726') }),
      ),
    ).toEqual(rejeitado(645, 'Rejeição: CPF do condutor inválido'));
    expect(
      await autoridade.registrarEventoMdfe(eventoMdfe({ chave: mdfe.chave, tpEvento: '110112', det: evEncMDFe('143260000000001') })),
    ).toEqual(rejeitado(222));
    expect(await autoridade.registrarEventoMdfe(eventoMdfe({ chave: mdfe.chave, tpEvento: '110113', det: evEncMDFe(p.nProt) }))).toEqual(
      rejeitado(629),
    );
    const naoEncerrados = await autoridade.consultarMdfeNaoEncerrados(EMITENTE);
    expect(naoEncerrados).toMatchObject({
      tipo: 'consultado',
      cStat: 111,
      xMotivo: 'Consulta não encerrados localizou MDF-e nessa situação',
    });
    expect(naoEncerrados.tipo === 'consultado' && naoEncerrados.mdfes).toContainEqual({ chave: mdfe.chave, nProt: p.nProt });
    const enc = eventoMdfe({ chave: mdfe.chave, tpEvento: '110112', det: evEncMDFe(p.nProt) });
    const pEnc = registrado(await autoridade.registrarEventoMdfe(enc));
    const depois = await autoridade.consultarMdfeNaoEncerrados(EMITENTE);
    expect(depois.tipo === 'consultado' && depois.mdfes.map((m) => m.chave)).not.toContain(mdfe.chave);
    expect(await autoridade.consultarMdfeNaoEncerrados('99999999000191')).toEqual({
      tipo: 'consultado',
      cStat: 112,
      xMotivo: 'Consulta não encerrados não localizou MDF-e nessa situação',
      mdfes: [],
    });
    expect(await autoridade.consultarMdfeNaoEncerrados('não é CNPJ')).toEqual(rejeitado(215));
    expect(await schemas.validate(montarProcEventoMdfe(enc, pEnc), 'procEventoMDFe_v3.00.xsd')).toEqual({ valid: true, errors: [] });
    expect(await autoridade.consultarMdfe(mdfe.chave)).toMatchObject({
      cStat: 132,
      xMotivo: 'Encerramento de MDF-e homologado',
      situacao: 'encerrado',
    });
    expect(await autoridade.registrarEventoMdfe(eventoMdfe({ chave: mdfe.chave, tpEvento: '110111', det: evCancMDFe(p.nProt) }))).toEqual(
      rejeitado(609, `Rejeição: MDF-e já está encerrado na base de dados da SEFAZ [nProt:${pEnc.nProt}][dhEnc: ${pEnc.dhRegEvento}]`),
    );
    // A closed MDF-e still blocks the CT-e's cancellation.
    expect(
      await autoridade.registrarEventoCte(eventoCte({ chave: cte.chave, tpEvento: '110111', det: evCancCTe(cte.protocolo.nProt) })),
    ).toEqual(rejeitado(528));

    const outro = mdfeAssinado({ ctes: [cte.chave] });
    const pOutro = autorizado(await autoridade.autorizarMdfe(outro.xml));
    const cancelar = (nSeq = 1) => eventoMdfe({ chave: outro.chave, tpEvento: '110111', nSeq, det: evCancMDFe(pOutro.nProt) });
    expect(await autoridade.registrarEventoMdfe(cancelar(2))).toEqual(rejeitado(636));
    expect(
      await autoridade.registrarEventoMdfe(eventoMdfe({ chave: outro.chave, tpEvento: '110111', det: evCancMDFe('143260000000001') })),
    ).toEqual(rejeitado(222, 'Rejeição: Protocolo de Autorização de Uso difere do cadastrado'));
    agora = new Date(INICIO.getTime() + 25 * HORA);
    expect(await autoridade.registrarEventoMdfe(cancelar())).toEqual(rejeitado(220, 'Rejeição: MDF-e autorizado há mais de 24 horas'));
    agora = new Date(INICIO.getTime() + 23 * HORA);
    const pCanc = registrado(await autoridade.registrarEventoMdfe(cancelar()));
    expect(await autoridade.consultarMdfe(outro.chave)).toMatchObject({
      cStat: 101,
      xMotivo: 'Cancelamento de MDF-e homologado',
      situacao: 'cancelado',
    });
    expect(
      await autoridade.registrarEventoMdfe(eventoMdfe({ chave: outro.chave, tpEvento: '110114', det: evIncCondutorMDFe('52998224725') })),
    ).toEqual(
      rejeitado(218, `Rejeição: MDF-e já está cancelado na base de dados da SEFAZ [nProt:${pCanc.nProt}][dhCanc: ${pCanc.dhRegEvento}]`),
    );
  });
});

describe('service status', () => {
  it('is in operation (107) for the UFs it serves, with the environment and the time; 226 for another', async () => {
    expect(await autoridade.statusServico('cte', '35')).toEqual({
      tipo: 'status',
      cStat: 107,
      xMotivo: 'Serviço em Operação',
      tpAmb: 2,
      verAplic: 'SIMULADA-1.0',
      cUF: '35',
      dhRecbto: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-03:00$/),
      tMed: 1,
      dhRetorno: null,
      xObs: null,
    });
    expect(await autoridade.statusServico('mdfe', '43')).toMatchObject({ tipo: 'status', cStat: 107 });
    expect(await autoridade.statusServico('cte', '99')).toEqual(rejeitado(226));
  });
});

describe('determinism', () => {
  it('gives identical answers to the same requests on two fresh databases', async () => {
    const cte = cteAssinado();
    const pendente = cteAssinado({ xObs: 'SIMULAR:PENDENTE' });
    const perdido = cteAssinado({ xObs: 'SIMULAR:TIMEOUT' });
    const mesmoNumero = cteAssinado({ numero: Number(cte.chave.slice(25, 34)), codigo: '99999997' });
    const run = async () => {
      const banco = await freshDatabase();
      const a = new AutoridadeFiscalSimulada({ pool: banco.pool, clock, schemas });
      const respostas: unknown[] = [];
      try {
        agora = INICIO;
        respostas.push(await a.autorizarCte(cte.xml));
        const p = (respostas[0] as Extract<RetornoAutorizacao, { tipo: 'autorizado' }>).protocolo;
        respostas.push(await a.autorizarCte(cte.xml), await a.autorizarCte(mesmoNumero.xml));
        respostas.push(
          await a.autorizarCte(pendente.xml),
          await a.consultarCte(pendente.chave),
          await a.consultarCte(pendente.chave),
          await a.consultarCte(pendente.chave),
        );
        respostas.push(await a.autorizarCte(perdido.xml), await a.consultarCte(perdido.chave));
        agora = new Date(INICIO.getTime() + 2 * HORA);
        const ce = eventoCte({ chave: cte.chave, tpEvento: '110180', det: evCECTe(p.nProt) });
        respostas.push(await a.registrarEventoCte(ce), await a.registrarEventoCte(ce), await a.consultarCte(cte.chave));
      } finally {
        await a.close();
        await banco.drop();
      }
      return respostas;
    };
    const primeira = await run();
    const segunda = await run();
    expect(segunda).toEqual(primeira);
    expect(primeira.map((r) => (r as { cStat?: number }).cStat ?? (r as { tipo: string }).tipo)).toEqual([
      100,
      204,
      539,
      105,
      105,
      105,
      100,
      'sem_resposta',
      100,
      135,
      631,
      100,
    ]);
  });
});

describe('AutoridadeFiscalIndisponivel (production without a provider)', () => {
  it('rejects every call with provedor_indisponivel (503 at the edge) and never answers for the authority', async () => {
    const indisponivel = new AutoridadeFiscalIndisponivel();
    const calls = [
      indisponivel.autorizarCte('<CTe/>'),
      indisponivel.consultarCte('x'),
      indisponivel.registrarEventoCte('<eventoCTe/>'),
      indisponivel.autorizarMdfe('<MDFe/>'),
      indisponivel.consultarMdfe('x'),
      indisponivel.registrarEventoMdfe('<eventoMDFe/>'),
      indisponivel.statusServico(),
      indisponivel.consultarMdfeNaoEncerrados(),
    ];
    for (const call of calls) {
      const error = await call.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ProvedorIndisponivel);
      expect(error).toBeInstanceOf(Rejection);
      expect(error).toMatchObject({ code: 'provedor_indisponivel' });
    }
  });
});
