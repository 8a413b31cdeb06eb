import { randomInt } from 'node:crypto';
import { accessKeyCheckDigit } from '@frete/domain';

/** A party of the generated CT-e. */
export interface CteParty {
  cnpj: string;
  nome: string;
  uf?: string;
  municipio?: string;
  codigoIbge?: string;
}

export interface CteXmlOptions {
  emitenteCnpj: string;
  emitenteNome?: string;
  /** Emitter's UF code in the key (cUF); 35 = SP. */
  cUF?: string;
  serie?: number;
  numero?: number;
  /** 1 production, 2 sandbox. */
  tpAmb?: 1 | 2;
  /** 0 normal, 1 subcontracting, 2 redispatch, 3 intermediate redispatch, 4 linked to multimodal. */
  tpServ?: 0 | 1 | 2 | 3 | 4;
  /** toma3 code 0–3, or 4 for group toma4 with `tomador4`. */
  toma?: 0 | 1 | 2 | 3 | 4;
  tomador4?: CteParty;
  remetente?: CteParty;
  destinatario?: CteParty;
  expedidor?: CteParty;
  recebedor?: CteParty;
  inicio?: { codigoIbge: string; municipio: string; uf: string };
  fim?: { codigoIbge: string; municipio: string; uf: string };
  vTPrest?: string;
  vRec?: string;
  nfeChaves?: string[];
  /** Wrap in cteProc with an authorization protocol (cStat 100); false gives a bare CTe. */
  protocolo?: boolean;
  /** cStat of the protocol (100 authorized). */
  cStat?: number;
  /** Extra text inside `<compl><xObs>` to make two versions of the same key differ. */
  observacao?: string;
  /** Layout version written in infCte@versao. */
  versao?: string;
}

export interface GeneratedCte {
  chave: string;
  xml: string;
}

const party = (tag: string, enderTag: string, p: CteParty) =>
  `<${tag}><CNPJ>${p.cnpj}</CNPJ><IE>ISENTO</IE><xNome>${p.nome}</xNome>` +
  `<${enderTag}><xLgr>RUA DAS FLORES</xLgr><nro>100</nro><xBairro>CENTRO</xBairro>` +
  `<cMun>${p.codigoIbge ?? '3550308'}</cMun><xMun>${p.municipio ?? 'SAO PAULO'}</xMun><CEP>01001000</CEP><UF>${p.uf ?? 'SP'}</UF>` +
  `<cPais>1058</cPais><xPais>BRASIL</xPais></${enderTag}></${tag}>`;

/** Builds a CT-e 4.00 (cteProc or bare CTe) with a valid access key, shaped like the authority's documents. */
export function buildCteXml(o: CteXmlOptions): GeneratedCte {
  const cUF = o.cUF ?? '35';
  const serie = o.serie ?? 1;
  const numero = o.numero ?? randomInt(1, 999_999_999);
  const cCT = String(randomInt(10_000_000, 99_999_999));
  const first43 = `${cUF}2611${o.emitenteCnpj}57${String(serie).padStart(3, '0')}${String(numero).padStart(9, '0')}1${cCT}`;
  const chave = first43 + accessKeyCheckDigit(first43);
  const tpAmb = o.tpAmb ?? 2;
  const inicio = o.inicio ?? { codigoIbge: '3509502', municipio: 'CAMPINAS', uf: 'SP' };
  const fim = o.fim ?? { codigoIbge: '3304557', municipio: 'RIO DE JANEIRO', uf: 'RJ' };
  const rem = o.remetente ?? { cnpj: '11222333000181', nome: 'REMETENTE INDUSTRIA LTDA', municipio: 'CAMPINAS', codigoIbge: '3509502' };
  const dest = o.destinatario ?? {
    cnpj: '45997418000153',
    nome: 'DESTINATARIO COMERCIO SA',
    municipio: 'RIO DE JANEIRO',
    codigoIbge: '3304557',
    uf: 'RJ',
  };
  const toma = o.toma ?? 0;
  const tomaXml =
    toma === 4
      ? `<toma4><toma>4</toma>${party('x', 'enderToma', o.tomador4 ?? rem).replace(/^<x>|<\/x>$/g, '')}</toma4>`
      : `<toma3><toma>${toma}</toma></toma3>`;
  const vTPrest = o.vTPrest ?? '1500.00';
  const vRec = o.vRec ?? vTPrest;
  const nfes = (o.nfeChaves ?? []).map((k) => `<infNFe><chave>${k}</chave></infNFe>`).join('');
  const cte =
    `<CTe xmlns="http://www.portalfiscal.inf.br/cte"><infCte versao="${o.versao ?? '4.00'}" Id="CTe${chave}">` +
    `<ide><cUF>${cUF}</cUF><cCT>${cCT}</cCT><CFOP>6353</CFOP><natOp>PRESTACAO DE SERVICO DE TRANSPORTE</natOp><mod>57</mod>` +
    `<serie>${serie}</serie><nCT>${numero}</nCT><dhEmi>2026-11-20T10:00:00-03:00</dhEmi><tpImp>1</tpImp><tpEmis>1</tpEmis>` +
    `<cDV>${chave[43]}</cDV><tpAmb>${tpAmb}</tpAmb><tpCTe>0</tpCTe><procEmi>0</procEmi><verProc>frete-test</verProc>` +
    `<cMunEnv>3550308</cMunEnv><xMunEnv>SAO PAULO</xMunEnv><UFEnv>SP</UFEnv><modal>01</modal><tpServ>${o.tpServ ?? 0}</tpServ>` +
    `<cMunIni>${inicio.codigoIbge}</cMunIni><xMunIni>${inicio.municipio}</xMunIni><UFIni>${inicio.uf}</UFIni>` +
    `<cMunFim>${fim.codigoIbge}</cMunFim><xMunFim>${fim.municipio}</xMunFim><UFFim>${fim.uf}</UFFim>` +
    `<retira>1</retira><indIEToma>1</indIEToma>${tomaXml}</ide>` +
    `<compl><xObs>${o.observacao ?? 'GERADO EM TESTE'}</xObs></compl>` +
    `<emit><CNPJ>${o.emitenteCnpj}</CNPJ><IE>123456789012</IE><xNome>${o.emitenteNome ?? 'TRANSPORTADORA EMITENTE LTDA'}</xNome>` +
    `<enderEmit><xLgr>AV DO TRANSPORTE</xLgr><nro>1</nro><xBairro>DISTRITO</xBairro><cMun>3550308</cMun><xMun>SAO PAULO</xMun>` +
    `<CEP>01001000</CEP><UF>SP</UF></enderEmit><CRT>3</CRT></emit>` +
    party('rem', 'enderReme', rem) +
    (o.expedidor ? party('exped', 'enderExped', o.expedidor) : '') +
    (o.recebedor ? party('receb', 'enderReceb', o.recebedor) : '') +
    party('dest', 'enderDest', dest) +
    `<vPrest><vTPrest>${vTPrest}</vTPrest><vRec>${vRec}</vRec><Comp><xNome>FRETE PESO</xNome><vComp>${vTPrest}</vComp></Comp></vPrest>` +
    `<imp><ICMS><ICMS00><CST>00</CST><vBC>${vTPrest}</vBC><pICMS>12.00</pICMS><vICMS>180.00</vICMS></ICMS00></ICMS></imp>` +
    `<infCTeNorm><infCarga><vCarga>25000.00</vCarga><proPred>PECAS</proPred><infQ><cUnid>01</cUnid><tpMed>PESO BRUTO</tpMed><qCarga>1000.0000</qCarga></infQ></infCarga>` +
    `<infDoc>${nfes}</infDoc><infModal versaoModal="4.00"><rodo><RNTRC>12345678</RNTRC></rodo></infModal></infCTeNorm>` +
    `</infCte></CTe>`;
  if (o.protocolo === false) return { chave, xml: `<?xml version="1.0" encoding="UTF-8"?>${cte}` };
  const prot =
    `<protCTe versao="4.00"><infProt><tpAmb>${tpAmb}</tpAmb><verAplic>SVRS-TEST</verAplic><chCTe>${chave}</chCTe>` +
    `<dhRecbto>2026-11-20T10:00:05-03:00</dhRecbto><nProt>1${cUF}260000${String(numero).padStart(7, '0').slice(-7)}</nProt>` +
    `<digVal>AAAA</digVal><cStat>${o.cStat ?? 100}</cStat><xMotivo>${(o.cStat ?? 100) === 100 ? 'Autorizado o uso do CT-e' : 'Uso Denegado'}</xMotivo></infProt></protCTe>`;
  return {
    chave,
    xml: `<?xml version="1.0" encoding="UTF-8"?><cteProc xmlns="http://www.portalfiscal.inf.br/cte" versao="4.00">${cte}${prot}</cteProc>`,
  };
}

/** A valid NF-e access key (model 55) of the given issuer, for CT-e that transport it. */
export function nfeKey(emitenteCnpj = '11222333000181', numero = randomInt(1, 999_999_999)): string {
  const first43 = `352611${emitenteCnpj}55001${String(numero).padStart(9, '0')}1${String(randomInt(10_000_000, 99_999_999))}`;
  return first43 + accessKeyCheckDigit(first43);
}
