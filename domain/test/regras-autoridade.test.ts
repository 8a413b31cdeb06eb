import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NOME_HOMOLOGACAO, REGRAS_CTE, REGRAS_MDFE, accessKeyCheckDigit, type ContextoRegras, rejeicoesPrevistas } from '../src';

/**
 * The authority rule set (domain/src/autoridade/regras), rule by rule: a schema-valid CT-e that passes them all, and
 * for each rule one document broken so that it fails it.
 */

const FIXTURE = readFileSync(path.join(__dirname, '..', '..', 'test', 'fixtures', 'cte', 'minimo-v4.00.xml'), 'utf8');
const BASE = FIXTURE.replace('<xNome>REMETENTE INDUSTRIA LTDA</xNome>', `<xNome>${NOME_HOMOLOGACAO}</xNome>`).replace(
  '<xNome>DESTINATARIO COMERCIO SA</xNome>',
  `<xNome>${NOME_HOMOLOGACAO}</xNome>`,
);
/** 2026-11-20 10:05 in São Paulo: five minutes after the fixture's dhEmi. */
const CTX: ContextoRegras = { tpAmb: 2, agora: new Date('2026-11-20T13:05:00Z') };

const campo = (xml: string, tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1] ?? '';
/** Recomposes the Id and cDV from the fields (so that a changed key field breaks only the rule under test). */
function rechave(xml: string, prefixo = 'CTe', numero = 'nCT', codigo = 'cCT'): string {
  const emit = /<emit><CNPJ>([^<]+)<\/CNPJ>/.exec(xml)![1]!;
  const dhEmi = campo(xml, 'dhEmi');
  const k43 =
    campo(xml, 'cUF') +
    dhEmi.slice(2, 4) +
    dhEmi.slice(5, 7) +
    emit +
    campo(xml, 'mod') +
    campo(xml, 'serie').padStart(3, '0') +
    campo(xml, numero).padStart(9, '0') +
    campo(xml, 'tpEmis') +
    campo(xml, codigo).padStart(8, '0');
  const dv = accessKeyCheckDigit(k43);
  return xml.replace(/ Id="[A-Za-z]+[0-9A-Z]{44}"/, ` Id="${prefixo}${k43}${dv}"`).replace(/<cDV>[0-9]<\/cDV>/, `<cDV>${dv}</cDV>`);
}
const cStats = (xml: string, ctx: ContextoRegras = CTX, modelo: 'cte' | 'mdfe' = 'cte') =>
  rejeicoesPrevistas(modelo, xml, ctx).map((r) => r.cStat);

const ENDERECO = (tag: string, cMun = '4314902', uf = 'RS') =>
  `<${tag}><xLgr>RUA A</xLgr><nro>1</nro><xBairro>CENTRO</xBairro><cMun>${cMun}</cMun><xMun>X</xMun><UF>${uf}</UF></${tag}>`;
/** A party group (`exped`, `receb`, `toma4`) with its document, name and address. */
const parte = (tag: string, ender: string, o: { doc?: string; nome?: string; cMun?: string; uf?: string } = {}) =>
  `<${tag}>${o.doc ?? '<CNPJ>45997418000153</CNPJ>'}<IE>0960000029</IE><xNome>${o.nome ?? NOME_HOMOLOGACAO}</xNome>` +
  `${ENDERECO(ender, o.cMun, o.uf)}</${tag}>`;
const comExped = (o = {}) => BASE.replace('</rem>', `</rem>${parte('exped', 'enderExped', o)}`);
const comReceb = (o = {}) => BASE.replace('<dest>', `${parte('receb', 'enderReceb', o)}<dest>`);
const comToma4 = (o = {}) =>
  BASE.replace('<toma3><toma>0</toma></toma3>', `<toma4><toma>4</toma>${parte('toma4', 'enderToma', o).slice('<toma4>'.length)}`);

/** autXML after infCTeNorm (cteTiposBasico_v4.00.xsd), one per document given. */
const comAutXml = (...docs: string[]) => BASE.replace('</infCTeNorm>', `</infCTeNorm>${docs.map((x) => `<autXML>${x}</autXML>`).join('')}`);

/** docAnt of a subcontracting or redispatch, referring to the sender's CT-e (the taker). */
const CHAVE_ANTERIOR = (() => {
  const k43 = '4326114599741800015357001000000777140000001';
  return k43 + accessKeyCheckDigit(k43);
})();
const docAnt = (emitente = '45997418000153', chaves = [CHAVE_ANTERIOR]) =>
  `<docAnt><emiDocAnt><CNPJ>${emitente}</CNPJ><IE>0960000029</IE><UF>RS</UF><xNome>REMETENTE</xNome><idDocAnt>` +
  chaves.map((k) => `<idDocAntEle><chCTe>${k}</chCTe></idDocAntEle>`).join('') +
  '</idDocAnt></emiDocAnt></docAnt>';
const subcontratacao = (d = docAnt()) => BASE.replace('<tpServ>0</tpServ>', '<tpServ>1</tpServ>').replace('</infDoc>', `</infDoc>${d}`);

const NFE = '43261145997418000153550010000001231527903812';
const ibsCbs = (pIBSUF: string, pIBSMun: string, pCBS: string) =>
  BASE.replace(
    '</ICMS>',
    '</ICMS><IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib><gIBSCBS><vBC>1500.00</vBC>' +
      `<gIBSUF><pIBSUF>${pIBSUF}</pIBSUF><vIBSUF>1.50</vIBSUF></gIBSUF><gIBSMun><pIBSMun>${pIBSMun}</pIBSMun><vIBSMun>0.00</vIBSMun></gIBSMun>` +
      `<vIBS>1.50</vIBS><gCBS><pCBS>${pCBS}</pCBS><vCBS>13.50</vCBS></gCBS></gIBSCBS></IBSCBS>`,
  );

/** [rule, cStat, the broken document, context] */
const CASOS: [string, number, string, ContextoRegras?][] = [
  ['G001 environment', 252, BASE.replace('<tpAmb>2</tpAmb>', '<tpAmb>1</tpAmb>')],
  ['cUF not served', 226, BASE, { ...CTX, ufsAtendidas: new Set(['35']) }],
  [
    'G002 sender name in homologação',
    646,
    BASE.replace(
      `<rem><CNPJ>45997418000153</CNPJ><IE>0960000029</IE><xNome>${NOME_HOMOLOGACAO}`,
      '<rem><CNPJ>45997418000153</CNPJ><IE>0960000029</IE><xNome>REMETENTE',
    ),
  ],
  ['G003 shipper name', 647, comExped({ nome: 'EXPEDIDOR LTDA' })],
  ['G004 receiver name', 648, comReceb({ nome: 'RECEBEDOR LTDA' })],
  ['G005 recipient name', 649, BASE.replace(`<IE>250000001</IE><xNome>${NOME_HOMOLOGACAO}`, '<IE>250000001</IE><xNome>DESTINATARIO')],
  ['G006 reserved series', 670, rechave(BASE.replace('<serie>1</serie>', '<serie>890</serie>'))],
  ['G007 emitter UF', 247, BASE.replace('<CEP>90250000</CEP><UF>RS</UF>', '<CEP>90250000</CEP><UF>SC</UF>')],
  [
    'G010 contingency after emission',
    588,
    BASE.replace('</toma3>', '</toma3><dhCont>2026-11-20T11:00:00-03:00</dhCont><xJust>SEFAZ FORA DO AR POR TEMPO</xJust>'),
  ],
  ['G014 Id', 227, BASE.replace('<cCT>40308521</cCT>', '<cCT>40308522</cCT>')],
  [
    'G015 check digit',
    253,
    BASE.replace('Id="CTe43261111222333000181570010000000011403085211"', 'Id="CTe43261111222333000181570010000000011403085212"').replace(
      '<cDV>1</cDV>',
      '<cDV>2</cDV>',
    ),
  ],
  ['G016 normal CT-e without infCTeNorm', 458, BASE.replace(/<infCTeNorm>.*<\/infCTeNorm>/, '')],
  [
    'G017 complement without infCteComp',
    459,
    BASE.replace('<tpCTe>0</tpCTe>', '<tpCTe>1</tpCTe>').replace(/<infCTeNorm>.*<\/infCTeNorm>/, ''),
  ],
  ['G018 taker sender missing', 460, BASE.replace(/<rem>.*<\/rem>/, '')],
  ['G019 taker shipper missing', 461, BASE.replace('<toma>0</toma>', '<toma>1</toma>')],
  ['G020 taker receiver missing', 462, BASE.replace('<toma>0</toma>', '<toma>2</toma>')],
  ['G021 taker recipient missing', 463, BASE.replace('<toma>0</toma>', '<toma>3</toma>').replace(/<dest>.*<\/dest>/, '')],
  ['G036 infDoc missing', 693, BASE.replace(/<infDoc>.*<\/infDoc>/, '')],
  ['G037 infDoc on an intermediate redispatch', 694, comExped().replace('<tpServ>0</tpServ>', '<tpServ>3</tpServ>')],
  ['G039 NF-e twice', 527, BASE.replace('</infDoc>', `<infNFe><chave>${NFE}</chave></infNFe></infDoc>`)],
  ['G040 NF-e key invalid', 843, BASE.replace(`<chave>${NFE}</chave>`, `<chave>${NFE.slice(0, 43)}3</chave>`)],
  [
    'G045 an NFC-e (infOutros 65) in an interstate service',
    813,
    BASE.replace(/<infDoc>.*<\/infDoc>/, '<infDoc><infOutros><tpDoc>65</tpDoc><nDoc>123</nDoc></infOutros></infDoc>'),
  ],
  [
    'G046 total over the limit',
    650,
    BASE.replace('<vTPrest>1500.00</vTPrest><vRec>1500.00</vRec>', '<vTPrest>10000000.00</vTPrest><vRec>1500.00</vRec>'),
  ],
  ['G047 ICMS ≠ base × rate', 675, BASE.replace('<vICMS>180.00</vICMS>', '<vICMS>180.02</vICMS>')],
  ['G048 vRec over vTPrest', 531, BASE.replace('<vRec>1500.00</vRec>', '<vRec>1500.01</vRec>')],
  ['G049 CFOP not of transport', 676, BASE.replace('<CFOP>6353</CFOP>', '<CFOP>6102</CFOP>')],
  ['G050 CFOP of an intrastate service for an interstate one', 519, BASE.replace('<CFOP>6353</CFOP>', '<CFOP>5353</CFOP>')],
  [
    'G051 start outside the emitter UF needs 5932/6932',
    524,
    BASE.replace(
      '<cMunIni>4314902</cMunIni><xMunIni>PORTO ALEGRE</xMunIni><UFIni>RS</UFIni>',
      '<cMunIni>4106902</cMunIni><xMunIni>CURITIBA</xMunIni><UFIni>PR</UFIni>',
    ),
  ],
  ['G052 5932/6932 from the emitter UF', 908, BASE.replace('<CFOP>6353</CFOP>', '<CFOP>6932</CFOP>')],
  ['G053 sender missing', 469, BASE.replace('<toma>0</toma>', '<toma>3</toma>').replace(/<rem>.*<\/rem>/, '')],
  ['G054 recipient missing', 470, BASE.replace(/<dest>.*<\/dest>/, '')],
  ['G055 shipper missing on an intermediate redispatch', 474, comReceb().replace('<tpServ>0</tpServ>', '<tpServ>3</tpServ>')],
  ['G056 receiver missing on an intermediate redispatch', 475, comExped().replace('<tpServ>0</tpServ>', '<tpServ>3</tpServ>')],
  ['G059 subcontracting without docAnt', 521, BASE.replace('<tpServ>0</tpServ>', '<tpServ>1</tpServ>')],
  ['G060 docAnt on a normal service', 747, BASE.replace('</infDoc>', `</infDoc>${docAnt()}`)],
  ['G061 previous key twice', 543, subcontratacao(docAnt(undefined, [CHAVE_ANTERIOR, CHAVE_ANTERIOR]))],
  ['G062 previous key of another issuer', 733, subcontratacao(docAnt('45723174000110'))],
  ['G063 taker not the previous issuer', 745, subcontratacao().replace('<toma>0</toma>', '<toma>3</toma>')],
  [
    'G065 previous key invalid',
    844,
    subcontratacao(docAnt(undefined, [`${CHAVE_ANTERIOR.slice(0, 43)}${(Number(CHAVE_ANTERIOR[43]) + 1) % 10}`])),
  ],
  ['G102 emission after reception', 212, BASE, { ...CTX, agora: new Date('2026-11-20T12:54:00Z') }],
  ['G103 emission more than 168 h before', 228, BASE, { ...CTX, agora: new Date('2026-11-27T13:01:00Z') }],
  ['G104 emitter CNPJ', 207, rechave(BASE.replace('<emit><CNPJ>11222333000181</CNPJ>', '<emit><CNPJ>11222333000199</CNPJ>'))],
  ['G105 emitter IE', 229, BASE.replace('<IE>0960000011</IE>', '<IE>0000000000</IE>')],
  [
    'G112 emitter municipality outside its UF',
    712,
    BASE.replace(
      '<cMun>4314902</cMun><xMun>PORTO ALEGRE</xMun><CEP>90250000</CEP>',
      '<cMun>4205407</cMun><xMun>PORTO ALEGRE</xMun><CEP>90250000</CEP>',
    ),
  ],
  [
    'G113 emitter municipality unknown',
    713,
    BASE.replace(
      '<cMun>4314902</cMun><xMun>PORTO ALEGRE</xMun><CEP>90250000</CEP>',
      '<cMun>4399999</cMun><xMun>PORTO ALEGRE</xMun><CEP>90250000</CEP>',
    ),
  ],
  ['G114 sender CNPJ', 415, BASE.replace('<rem><CNPJ>45997418000153</CNPJ>', '<rem><CNPJ>45997418000154</CNPJ>')],
  ['G115 sender CPF', 416, BASE.replace('<rem><CNPJ>45997418000153</CNPJ>', '<rem><CPF>12345678900</CPF>')],
  [
    'G116 sender municipality outside its UF',
    418,
    BASE.replace(
      '<cMun>4314902</cMun><xMun>PORTO ALEGRE</xMun><CEP>90010000</CEP>',
      '<cMun>4205407</cMun><xMun>PORTO ALEGRE</xMun><CEP>90010000</CEP>',
    ),
  ],
  [
    'G117 sender municipality unknown',
    532,
    BASE.replace(
      '<cMun>4314902</cMun><xMun>PORTO ALEGRE</xMun><CEP>90010000</CEP>',
      '<cMun>4399999</cMun><xMun>PORTO ALEGRE</xMun><CEP>90010000</CEP>',
    ),
  ],
  ['G122 recipient CNPJ', 208, BASE.replace('<dest><CNPJ>60701190000104</CNPJ>', '<dest><CNPJ>60701190000105</CNPJ>')],
  ['G123 recipient CPF', 237, BASE.replace('<dest><CNPJ>60701190000104</CNPJ>', '<dest><CPF>11111111111</CPF>')],
  [
    'G124 recipient municipality outside its UF',
    424,
    BASE.replace(
      '<cMun>4205407</cMun><xMun>FLORIANOPOLIS</xMun><CEP>88010000</CEP>',
      '<cMun>4314902</cMun><xMun>FLORIANOPOLIS</xMun><CEP>88010000</CEP>',
    ),
  ],
  [
    'G125 recipient municipality unknown',
    533,
    BASE.replace(
      '<cMun>4205407</cMun><xMun>FLORIANOPOLIS</xMun><CEP>88010000</CEP>',
      '<cMun>4299999</cMun><xMun>FLORIANOPOLIS</xMun><CEP>88010000</CEP>',
    ),
  ],
  ['G132 shipper CNPJ', 428, comExped({ doc: '<CNPJ>45997418000154</CNPJ>' })],
  ['G133 shipper CPF', 429, comExped({ doc: '<CPF>12345678900</CPF>' })],
  ['G134 shipper municipality outside its UF', 431, comExped({ cMun: '4205407' })],
  ['G135 shipper municipality unknown', 534, comExped({ cMun: '4399999' })],
  ['G140 receiver CNPJ', 436, comReceb({ doc: '<CNPJ>45997418000154</CNPJ>' })],
  ['G141 receiver CPF', 437, comReceb({ doc: '<CPF>12345678900</CPF>' })],
  ['G142 receiver municipality outside its UF', 439, comReceb({ cMun: '4205407' })],
  ['G143 receiver municipality unknown', 535, comReceb({ cMun: '4399999' })],
  ['G148 taker CNPJ', 444, comToma4({ doc: '<CNPJ>45997418000154</CNPJ>' })],
  ['G149 taker CPF', 445, comToma4({ doc: '<CPF>12345678900</CPF>' })],
  ['G150 taker municipality outside its UF', 447, comToma4({ cMun: '4205407' })],
  ['G151 taker municipality unknown', 536, comToma4({ cMun: '4399999' })],
  ['G178 sending municipality outside its UF', 493, BASE.replace('<cMunEnv>4314902</cMunEnv>', '<cMunEnv>4205407</cMunEnv>')],
  ['G179 sending municipality unknown', 537, BASE.replace('<cMunEnv>4314902</cMunEnv>', '<cMunEnv>4399999</cMunEnv>')],
  ['G180 start municipality outside its UF', 456, BASE.replace('<cMunIni>4314902</cMunIni>', '<cMunIni>4205407</cMunIni>')],
  ['G181 start municipality unknown', 541, BASE.replace('<cMunIni>4314902</cMunIni>', '<cMunIni>4399999</cMunIni>')],
  ['G182 end municipality outside its UF', 414, BASE.replace('<cMunFim>4205407</cMunFim>', '<cMunFim>4314902</cMunFim>')],
  ['G183 end municipality unknown', 542, BASE.replace('<cMunFim>4205407</cMunFim>', '<cMunFim>4299999</cMunFim>')],
  ['G193 autXML CNPJ', 699, comAutXml('<CNPJ>45997418000153</CNPJ>', '<CNPJ>45997418000154</CNPJ>')],
  ['G194 autXML CPF', 700, comAutXml('<CPF>52998224725</CPF>', '<CPF>11111111111</CPF>')],
  ['G195 autXML repeated', 715, comAutXml('<CNPJ>45997418000153</CNPJ>', '<CPF>52998224725</CPF>', '<CNPJ>45997418000153</CNPJ>')],
  ['NT 2025.001 pIBSUF', 316, ibsCbs('0.1700', '0.0000', '0.9000')],
  ['NT 2025.001 pIBSMun', 321, ibsCbs('0.1000', '0.0500', '0.9000')],
  ['NT 2025.001 pCBS', 326, ibsCbs('0.1000', '0.0000', '8.8000')],
];

describe('the authority rule set (MOC CT-e 4.00 Anexo I, 2.1)', () => {
  test('the schema-valid sample with the homologação names passes every rule', () => {
    expect(rejeicoesPrevistas('cte', BASE, CTX)).toEqual([]);
    expect(rejeicoesPrevistas('cte', ibsCbs('0.1000', '0.0000', '0.9000'), CTX)).toEqual([]);
    expect(
      rejeicoesPrevistas('cte', comAutXml('<CNPJ>45997418000153</CNPJ>', '<CPF>52998224725</CPF>', '<CNPJ>12ABC34501DE35</CNPJ>'), CTX),
    ).toEqual([]);
  });

  // Every row with its context: a test function with more parameters than the row has would be taken as asking for `done`.
  test.each(CASOS.map(([nome, cStat, xml, ctx]) => [nome, cStat, xml, ctx ?? CTX] as const))('%s → %s', (_nome, cStat, xml, ctx) => {
    const rejeicoes = rejeicoesPrevistas('cte', xml, ctx);
    const r = rejeicoes.find((x) => x.cStat === cStat);
    expect(r).toBeDefined();
    const regra = REGRAS_CTE.find((x) => x.cStat === cStat)!;
    expect(r).toMatchObject({ regra: regra.regra, fonte: regra.fonte });
    expect(r!.xMotivo.startsWith(regra.xMotivo)).toBe(true);
  });

  test('every CT-e rule of the set has its broken document', () => {
    expect(REGRAS_CTE.map((r) => r.cStat).filter((c) => !CASOS.some(([, cStat]) => cStat === c))).toEqual([]);
  });

  test('the rules run in the manual’s order and each answers with the manual’s text and source', () => {
    const ids = REGRAS_CTE.map((r) => r.regra).filter((id) => /^G[0-9]{3}$/.test(id));
    expect(ids).toEqual([...ids].sort());
    for (const r of [...REGRAS_CTE, ...REGRAS_MDFE]) {
      expect(r.xMotivo).toMatch(/^Rejeição: /);
      expect(r.fonte).toMatch(/MOC|NT /);
    }
    // More than one failure: all are reported, first the one the authority answers.
    expect(cStats(BASE.replace('<tpAmb>2</tpAmb>', '<tpAmb>1</tpAmb>').replace('<vRec>1500.00</vRec>', '<vRec>1500.01</vRec>'))).toEqual([
      252, 531,
    ]);
  });

  test('the homologação literal is the exported constant, in the rule and in its text', () => {
    const g002 = REGRAS_CTE.find((r) => r.regra === 'G002')!;
    expect(g002.xMotivo).toContain(NOME_HOMOLOGACAO);
  });

  test('details the authority appends: the duplicated NF-e key, an invalid NF-e key and its reason', () => {
    const [dup] = rejeicoesPrevistas('cte', CASOS.find(([, c]) => c === 527)![2], CTX);
    expect(dup!.xMotivo).toBe(`Rejeição: NF-e duplicada no CT-e [chNFe: ${NFE}]`);
    const [invalida] = rejeicoesPrevistas('cte', CASOS.find(([, c]) => c === 843)![2], CTX);
    expect(invalida!.xMotivo).toBe(
      `Rejeição: Chave de acesso da NF-e transportada inválida [chNFe: ${NFE.slice(0, 43)}3][Motivo: DV inválido]`,
    );
  });

  test('CBS at zero is accepted on a ZFM/ALC route claimed by emit/ISUFEmit', () => {
    const zfm = ibsCbs('0.1000', '0.0000', '0.0000')
      .replace('<UFIni>RS</UFIni>', '<UFIni>AM</UFIni>')
      .replace('<UFFim>SC</UFFim>', '<UFFim>AM</UFFim>');
    expect(cStats(zfm)).toContain(326);
    expect(cStats(zfm.replace('<CRT>3</CRT>', '<ISUFEmit>123456789</ISUFEmit><CRT>3</CRT>'))).not.toContain(326);
  });

  test('a malformed document fails 243 alone', () => {
    expect(rejeicoesPrevistas('cte', '<CTe><infCte>', CTX)).toEqual([expect.objectContaining({ cStat: 243 })]);
  });
});

// ---- MDF-e -----------------------------------------------------------------------------------------------------

const MDFE_BASE = rechave(
  '<MDFe xmlns="http://www.portalfiscal.inf.br/mdfe"><infMDFe Id="MDFe00000000000000000000000000000000000000000000" versao="3.00"><ide><cUF>43</cUF>' +
    '<tpAmb>2</tpAmb><tpEmit>1</tpEmit><mod>58</mod><serie>1</serie><nMDF>7</nMDF><cMDF>41234567</cMDF><cDV>0</cDV><modal>1</modal>' +
    '<dhEmi>2026-11-20T10:30:00-03:00</dhEmi><tpEmis>1</tpEmis><procEmi>0</procEmi><verProc>frete-fiscal</verProc><UFIni>RS</UFIni>' +
    '<UFFim>SC</UFFim></ide><emit><CNPJ>11222333000181</CNPJ><IE>0960000011</IE><xNome>TRANSPORTADORA</xNome><enderEmit><xLgr>AV</xLgr>' +
    '<nro>1</nro><xBairro>B</xBairro><cMun>4314902</cMun><xMun>PORTO ALEGRE</xMun><UF>RS</UF></enderEmit></emit></infMDFe></MDFe>',
  'MDFe',
  'nMDF',
  'cMDF',
);
const CTE_KEY = (n: number) => {
  const k43 = `432611112223330001815700100000000${n}14030852${n}`;
  return k43 + accessKeyCheckDigit(k43);
};
/** The groups NT 2025.001 v1.03's rules 301–304 read, in the layout's places. */
function antt(o: { ctes: number; ncm?: boolean; infPag?: boolean; tac?: boolean; ciot?: boolean }): string {
  const infPag = o.infPag
    ? '<infPag><CNPJ>45997418000153</CNPJ><Comp><tpComp>99</tpComp><vComp>10.00</vComp></Comp><vContrato>10.00</vContrato><indPag>0</indPag>' +
      '<infBanc><PIX>a@b.com</PIX></infBanc></infPag>'
    : '';
  const ciot = o.ciot ? '<infCIOT><CIOT>123456789012</CIOT><CPF>12345678909</CPF></infCIOT>' : '';
  const prop = o.tac ? '<prop><CPF>12345678909</CPF><RNTRC>87654321</RNTRC><xNome>TAC</xNome><UF>RS</UF><tpProp>0</tpProp></prop>' : '';
  const ctes = Array.from({ length: o.ctes }, (_, i) => `<infCTe><chCTe>${CTE_KEY(i + 1)}</chCTe></infCTe>`).join('');
  return MDFE_BASE.replace(
    '</emit>',
    `</emit><infModal versaoModal="3.00"><rodo><infANTT><RNTRC>12345678</RNTRC>${ciot}${infPag}</infANTT><veicTracao><placa>ABC1D23</placa>` +
      `${prop}</veicTracao></rodo></infModal><infDoc><infMunDescarga><cMunDescarga>4205407</cMunDescarga>${ctes}</infMunDescarga></infDoc>` +
      (o.ncm ? '<prodPred><tpCarga>05</tpCarga><xProd>PECAS</xProd><NCM>87089990</NCM></prodPred>' : ''),
  );
}

const MDFE_CTX: ContextoRegras = { tpAmb: 2, agora: new Date('2026-11-20T13:35:00Z') };

describe('the authority rule set (MDF-e 3.00)', () => {
  test('a well-composed MDF-e passes', () => {
    expect(cStats(MDFE_BASE, MDFE_CTX, 'mdfe')).toEqual([]);
  });

  test.each<[string, number, string, ContextoRegras]>([
    ['environment', 252, MDFE_BASE.replace('<tpAmb>2</tpAmb>', '<tpAmb>1</tpAmb>'), MDFE_CTX],
    ['UF not served', 226, MDFE_BASE, { ...MDFE_CTX, ufsAtendidas: new Set(['35']) }],
    ['emitter UF', 247, MDFE_BASE.replace('<UF>RS</UF></enderEmit>', '<UF>SC</UF></enderEmit>'), MDFE_CTX],
    ['Id', 227, MDFE_BASE.replace('<cMDF>41234567</cMDF>', '<cMDF>41234568</cMDF>'), MDFE_CTX],
    [
      'check digit',
      253,
      (() => {
        const id = /Id="MDFe([0-9]{44})"/.exec(MDFE_BASE)![1]!;
        const errado = `${id.slice(0, 43)}${(Number(id[43]) + 1) % 10}`;
        return MDFE_BASE.replace(id, errado).replace(/<cDV>[0-9]<\/cDV>/, `<cDV>${errado[43]}</cDV>`);
      })(),
      MDFE_CTX,
    ],
    ['F55a carga lotação without the NCM', 301, antt({ ctes: 1, infPag: true }), MDFE_CTX],
    ['F55b carga lotação without the payment', 302, antt({ ctes: 1, ncm: true }), MDFE_CTX],
    ['F113a an owner TAC without payment and bank', 303, antt({ ctes: 2, tac: true }), MDFE_CTX],
    ['F113b an owner TAC without the CIOT', 304, antt({ ctes: 2, tac: true, infPag: true }), MDFE_CTX],
    [
      'emitter CNPJ',
      207,
      rechave(MDFE_BASE.replace('<CNPJ>11222333000181</CNPJ>', '<CNPJ>11222333000199</CNPJ>'), 'MDFe', 'nMDF', 'cMDF'),
      MDFE_CTX,
    ],
  ])('%s → %s', (_nome, cStat, xml, ctx) => {
    const [r] = rejeicoesPrevistas('mdfe', xml, ctx);
    expect(r?.cStat).toBe(cStat);
    expect(r?.xMotivo).toBe(REGRAS_MDFE.find((x) => x.cStat === cStat)!.xMotivo);
  });

  test('every MDF-e rule of the set is exercised above', () => {
    expect(REGRAS_MDFE.map((r) => r.cStat)).toEqual([252, 226, 247, 227, 253, 207, 301, 302, 303, 304]);
    expect(cStats(antt({ ctes: 1, ncm: true, infPag: true }), MDFE_CTX, 'mdfe')).toEqual([]);
    expect(cStats(antt({ ctes: 2, tac: true, infPag: true, ciot: true }), MDFE_CTX, 'mdfe')).toEqual([]);
  });
});
