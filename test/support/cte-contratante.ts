import { accessKeyCheckDigit, qrCodeText } from '@frete/domain';

/**
 * A contractor's CT-e 4.00 described group by group, every element the layout makes optional (`minOccurs="0"`) an
 * optional member here: absent member, absent element. `cteContratanteXml` writes it in the schema's element order
 * (cte_v4.00.xsd), so that any value of these types is a schema-valid CT-e once signed.
 */

export interface MunicipioCte {
  cMun: string;
  xMun: string;
  UF: string;
}

/** TEndereco (rem, exped, receb, dest, toma4); `pais` writes cPais/xPais (Brazil). */
export interface EnderecoCte {
  xLgr: string;
  nro: string;
  xCpl?: string;
  xBairro: string;
  municipio: MunicipioCte;
  CEP?: string;
  pais?: boolean;
}

/** A party: CNPJ or CPF, and what the layout lets it carry. `xFant` is written only where the layout has it (rem, toma4). */
export interface ParteCte {
  CNPJ?: string;
  CPF?: string;
  IE?: string;
  xNome: string;
  xFant?: string;
  fone?: string;
  email?: string;
  /** dest only. */
  ISUF?: string;
  ender: EnderecoCte;
}

export interface EmitenteCte {
  CNPJ: string;
  IE?: string;
  IEST?: string;
  xNome: string;
  xFant?: string;
  /** TEndeEmi: no country; its own optional `fone`. */
  ender: Omit<EnderecoCte, 'pais'> & { fone?: string };
  CRT: '1' | '2' | '3' | '4';
}

export type IcmsCte =
  | { grupo: 'ICMS00' }
  | { grupo: 'ICMS45'; cst: '40' | '41' | '51' }
  | { grupo: 'ICMS90'; pRedBC?: string; vCred?: string }
  | { grupo: 'ICMSOutraUF'; pRedBCOutraUF?: string }
  | { grupo: 'ICMSSN' };

export type DocumentosCte =
  | { tipo: 'nfe'; chaves: string[]; pin?: string; dPrev?: string }
  | { tipo: 'nf'; quantos: number; nRoma?: string; nPed?: string; nPeso?: string }
  | { tipo: 'outros'; tpDoc: '00' | '10' | '59' | '65' | '99'; descOutros?: string; nDoc?: string; dEmi?: string; vDocFisc?: string };

export interface CteContratante {
  cUF: string;
  serie: number;
  numero: number;
  tpAmb: 1 | 2;
  tpServ: 0 | 1 | 2 | 3;
  inicio: MunicipioCte;
  fim: MunicipioCte;
  xDetRetira?: string;
  /** toma3 code, or group toma4 with its party. */
  toma: 0 | 1 | 2 | 3 | { toma4: ParteCte };
  compl?: {
    xCaracAd?: string;
    xCaracSer?: string;
    xEmi?: string;
    xObs?: string;
    obsCont: { xCampo: string; xTexto: string }[];
    obsFisco: { xCampo: string; xTexto: string }[];
  };
  emit: EmitenteCte;
  rem?: ParteCte;
  exped?: ParteCte;
  receb?: ParteCte;
  dest?: ParteCte;
  /** Cents. */
  vTPrest: number;
  /** Components' names; their values split vTPrest. */
  componentes: string[];
  icms: IcmsCte;
  vTotTrib?: string;
  infAdFisco?: string;
  /** imp/IBSCBS, with or without its gIBSCBS group. */
  ibsCbs?: { gIBSCBS: boolean };
  carga: {
    vCarga?: string;
    proPred: string;
    xOutCat?: string;
    infQ: { cUnid: string; tpMed: string; qCarga: string }[];
    vCargaAverb?: string;
  };
  documentos?: DocumentosCte;
  /** Previous carriers' CT-e of the contractor (its own docAnt). */
  docAnt?: { CNPJ: string; IE?: { IE: string; UF: string }; xNome: string; chaves: string[] };
  RNTRC: string;
  qrCode: boolean;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const el = (name: string, value: string | undefined | null | false): string =>
  value === undefined || value === null || value === false ? '' : `<${name}>${value}</${name}>`;
const tx = (name: string, value: string | undefined) => el(name, value === undefined ? undefined : esc(value));
const dinheiro = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

const documento = (p: { CNPJ?: string; CPF?: string }) => (p.CPF !== undefined ? el('CPF', p.CPF) : el('CNPJ', p.CNPJ ?? ''));

function endereco(tag: string, e: EnderecoCte): string {
  return (
    `<${tag}>${tx('xLgr', e.xLgr)}${tx('nro', e.nro)}${tx('xCpl', e.xCpl)}${tx('xBairro', e.xBairro)}` +
    `${el('cMun', e.municipio.cMun)}${tx('xMun', e.municipio.xMun)}${el('CEP', e.CEP)}${el('UF', e.municipio.UF)}` +
    `${e.pais ? '<cPais>1058</cPais><xPais>BRASIL</xPais>' : ''}</${tag}>`
  );
}

type TagParte = 'toma4' | 'rem' | 'exped' | 'receb' | 'dest';
const ENDERECO: Record<TagParte, string> = {
  toma4: 'enderToma',
  rem: 'enderReme',
  exped: 'enderExped',
  receb: 'enderReceb',
  dest: 'enderDest',
};

function parte(tag: TagParte, p: ParteCte): string {
  const fantasia = tag === 'rem' || tag === 'toma4';
  return (
    `<${tag}>${tag === 'toma4' ? '<toma>4</toma>' : ''}${documento(p)}${el('IE', p.IE)}${tx('xNome', p.xNome)}` +
    `${fantasia ? tx('xFant', p.xFant) : ''}${el('fone', p.fone)}${tag === 'dest' ? el('ISUF', p.ISUF) : ''}` +
    `${endereco(ENDERECO[tag], p.ender)}${tx('email', p.email)}</${tag}>`
  );
}

function icms(i: IcmsCte, vBC: string): string {
  switch (i.grupo) {
    case 'ICMS00':
      return `<ICMS00><CST>00</CST><vBC>${vBC}</vBC><pICMS>12.00</pICMS><vICMS>0.00</vICMS></ICMS00>`;
    case 'ICMS45':
      return `<ICMS45><CST>${i.cst}</CST></ICMS45>`;
    case 'ICMS90':
      return `<ICMS90><CST>90</CST>${el('pRedBC', i.pRedBC)}<vBC>${vBC}</vBC><pICMS>7.00</pICMS><vICMS>0.00</vICMS>${el('vCred', i.vCred)}</ICMS90>`;
    case 'ICMSOutraUF':
      return `<ICMSOutraUF><CST>90</CST>${el('pRedBCOutraUF', i.pRedBCOutraUF)}<vBCOutraUF>${vBC}</vBCOutraUF><pICMSOutraUF>12.00</pICMSOutraUF><vICMSOutraUF>0.00</vICMSOutraUF></ICMSOutraUF>`;
    case 'ICMSSN':
      return '<ICMSSN><CST>90</CST><indSN>1</indSN></ICMSSN>';
  }
}

function documentos(d: DocumentosCte): string {
  switch (d.tipo) {
    case 'nfe':
      return d.chaves.map((k) => `<infNFe><chave>${k}</chave>${el('PIN', d.pin)}${el('dPrev', d.dPrev)}</infNFe>`).join('');
    case 'nf':
      return Array.from(
        { length: d.quantos },
        (_, i) =>
          `<infNF>${tx('nRoma', d.nRoma)}${tx('nPed', d.nPed)}<mod>01</mod><serie>1</serie><nDoc>${1000 + i}</nDoc><dEmi>2026-11-19</dEmi>` +
          '<vBC>0.00</vBC><vICMS>0.00</vICMS><vBCST>0.00</vBCST><vST>0.00</vST><vProd>1000.00</vProd><vNF>1000.00</vNF><nCFOP>5102</nCFOP>' +
          `${el('nPeso', d.nPeso)}</infNF>`,
      ).join('');
    case 'outros':
      return `<infOutros><tpDoc>${d.tpDoc}</tpDoc>${tx('descOutros', d.descOutros)}${tx('nDoc', d.nDoc)}${el('dEmi', d.dEmi)}${el('vDocFisc', d.vDocFisc)}</infOutros>`;
  }
}

/** The access key of the description (cUF, November 2026, the emitter, model 57, series, number, tpEmis 1, cCT from the number). */
export function chaveDoCte(c: Pick<CteContratante, 'cUF' | 'serie' | 'numero' | 'emit'>): { chave: string; cCT: string } {
  const cCT = String(10_000_000 + ((c.numero * 7_919) % 89_999_999));
  const first43 = `${c.cUF}2611${c.emit.CNPJ}57${String(c.serie).padStart(3, '0')}${String(c.numero).padStart(9, '0')}1${cCT}`;
  return { chave: first43 + accessKeyCheckDigit(first43), cCT };
}

/** The `<CTe>` of the description, unsigned (the caller signs `infCte` when it wants the Signature). */
export function cteContratanteXml(c: CteContratante): { chave: string; xml: string } {
  const { chave, cCT } = chaveDoCte(c);
  const vTPrest = dinheiro(c.vTPrest);
  const toma = typeof c.toma === 'number' ? `<toma3><toma>${c.toma}</toma></toma3>` : parte('toma4', c.toma.toma4);
  const tomador = typeof c.toma === 'number' ? [c.rem, c.exped, c.receb, c.dest][c.toma] : c.toma.toma4;
  const indIEToma = !tomador?.IE ? '9' : tomador.IE === 'ISENTO' ? '2' : '1';
  const ide =
    `<ide><cUF>${c.cUF}</cUF><cCT>${cCT}</cCT><CFOP>6353</CFOP><natOp>PRESTACAO DE SERVICO DE TRANSPORTE</natOp><mod>57</mod>` +
    `<serie>${c.serie}</serie><nCT>${c.numero}</nCT><dhEmi>2026-11-20T10:00:00-03:00</dhEmi><tpImp>1</tpImp><tpEmis>1</tpEmis>` +
    `<cDV>${chave[43]}</cDV><tpAmb>${c.tpAmb}</tpAmb><tpCTe>0</tpCTe><procEmi>0</procEmi><verProc>frete-teste</verProc>` +
    `<cMunEnv>${c.emit.ender.municipio.cMun}</cMunEnv>${tx('xMunEnv', c.emit.ender.municipio.xMun)}<UFEnv>${c.emit.ender.municipio.UF}</UFEnv>` +
    `<modal>01</modal><tpServ>${c.tpServ}</tpServ>` +
    `<cMunIni>${c.inicio.cMun}</cMunIni>${tx('xMunIni', c.inicio.xMun)}<UFIni>${c.inicio.UF}</UFIni>` +
    `<cMunFim>${c.fim.cMun}</cMunFim>${tx('xMunFim', c.fim.xMun)}<UFFim>${c.fim.UF}</UFFim>` +
    `<retira>${c.xDetRetira ? 0 : 1}</retira>${tx('xDetRetira', c.xDetRetira)}<indIEToma>${indIEToma}</indIEToma>${toma}</ide>`;
  const compl = c.compl
    ? `<compl>${tx('xCaracAd', c.compl.xCaracAd)}${tx('xCaracSer', c.compl.xCaracSer)}${tx('xEmi', c.compl.xEmi)}${tx('xObs', c.compl.xObs)}` +
      c.compl.obsCont.map((o) => `<ObsCont xCampo="${esc(o.xCampo)}">${tx('xTexto', o.xTexto)}</ObsCont>`).join('') +
      c.compl.obsFisco.map((o) => `<ObsFisco xCampo="${esc(o.xCampo)}">${tx('xTexto', o.xTexto)}</ObsFisco>`).join('') +
      '</compl>'
    : '';
  const e = c.emit;
  const emit =
    `<emit><CNPJ>${e.CNPJ}</CNPJ>${el('IE', e.IE)}${el('IEST', e.IEST)}${tx('xNome', e.xNome)}${tx('xFant', e.xFant)}` +
    `<enderEmit>${tx('xLgr', e.ender.xLgr)}${tx('nro', e.ender.nro)}${tx('xCpl', e.ender.xCpl)}${tx('xBairro', e.ender.xBairro)}` +
    `<cMun>${e.ender.municipio.cMun}</cMun>${tx('xMun', e.ender.municipio.xMun)}${el('CEP', e.ender.CEP)}<UF>${e.ender.municipio.UF}</UF>${el('fone', e.ender.fone)}</enderEmit>` +
    `<CRT>${e.CRT}</CRT></emit>`;
  const partes = [
    c.rem && parte('rem', c.rem),
    c.exped && parte('exped', c.exped),
    c.receb && parte('receb', c.receb),
    c.dest && parte('dest', c.dest),
  ].join('');
  const n = c.componentes.length;
  const comps = c.componentes
    .map((nome, i) => {
      const cents = i < n - 1 ? Math.floor(c.vTPrest / n) : c.vTPrest - Math.floor(c.vTPrest / n) * (n - 1);
      return `<Comp>${tx('xNome', nome)}<vComp>${dinheiro(cents)}</vComp></Comp>`;
    })
    .join('');
  const vPrest = `<vPrest><vTPrest>${vTPrest}</vTPrest><vRec>${vTPrest}</vRec>${comps}</vPrest>`;
  const ibsCbs = c.ibsCbs
    ? `<IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib>${
        c.ibsCbs.gIBSCBS
          ? `<gIBSCBS><vBC>${vTPrest}</vBC><gIBSUF><pIBSUF>0.10</pIBSUF><vIBSUF>0.00</vIBSUF></gIBSUF><gIBSMun><pIBSMun>0.00</pIBSMun><vIBSMun>0.00</vIBSMun></gIBSMun>` +
            '<vIBS>0.00</vIBS><gCBS><pCBS>0.90</pCBS><vCBS>0.00</vCBS></gCBS></gIBSCBS>'
          : ''
      }</IBSCBS>`
    : '';
  const imp = `<imp><ICMS>${icms(c.icms, vTPrest)}</ICMS>${el('vTotTrib', c.vTotTrib)}${tx('infAdFisco', c.infAdFisco)}${ibsCbs}</imp>`;
  const k = c.carga;
  const infCarga =
    `<infCarga>${el('vCarga', k.vCarga)}${tx('proPred', k.proPred)}${tx('xOutCat', k.xOutCat)}` +
    k.infQ.map((q) => `<infQ><cUnid>${q.cUnid}</cUnid>${tx('tpMed', q.tpMed)}<qCarga>${q.qCarga}</qCarga></infQ>`).join('') +
    `${el('vCargaAverb', k.vCargaAverb)}</infCarga>`;
  const infDoc = c.documentos ? `<infDoc>${documentos(c.documentos)}</infDoc>` : '';
  const d = c.docAnt;
  const docAnt = d
    ? `<docAnt><emiDocAnt><CNPJ>${d.CNPJ}</CNPJ>${d.IE ? `<IE>${d.IE.IE}</IE><UF>${d.IE.UF}</UF>` : ''}${tx('xNome', d.xNome)}` +
      `<idDocAnt>${d.chaves.map((ch) => `<idDocAntEle><chCTe>${ch}</chCTe></idDocAntEle>`).join('')}</idDocAnt></emiDocAnt></docAnt>`
    : '';
  const norm = `<infCTeNorm>${infCarga}${infDoc}${docAnt}<infModal versaoModal="4.00"><rodo><RNTRC>${c.RNTRC}</RNTRC></rodo></infModal></infCTeNorm>`;
  const qr = c.qrCode
    ? `<infCTeSupl><qrCodCTe>${esc(qrCodeText({ chave, ambiente: c.tpAmb === 1 ? 'producao' : 'homologacao' })!)}</qrCodCTe></infCTeSupl>`
    : '';
  const xml = `<CTe xmlns="http://www.portalfiscal.inf.br/cte"><infCte versao="4.00" Id="CTe${chave}">${ide}${compl}${emit}${partes}${vPrest}${imp}${norm}</infCte>${qr}</CTe>`;
  return { chave, xml };
}

/** `<cteProc>` around a (signed) `<CTe>`, with an authorization protocol (cStat 100). */
export function comProtocolo(cte: string, chave: string, tpAmb: 1 | 2): string {
  const prot =
    `<protCTe versao="4.00"><infProt><tpAmb>${tpAmb}</tpAmb><verAplic>SVRS-TESTE</verAplic><chCTe>${chave}</chCTe>` +
    `<dhRecbto>2026-11-20T10:00:05-03:00</dhRecbto><nProt>1352600${chave.slice(25, 33)}</nProt><digVal>AAAA</digVal>` +
    '<cStat>100</cStat><xMotivo>Autorizado o uso do CT-e</xMotivo></infProt></protCTe>';
  return `<?xml version="1.0" encoding="UTF-8"?><cteProc xmlns="http://www.portalfiscal.inf.br/cte" versao="4.00">${cte}${prot}</cteProc>`;
}
