import { type CteEnderecoParte, type CteParteRascunho, type CteRascunho, type Endereco } from '@frete/contracts';
import { ufBySigla } from '../../fiscal/ufs';
import { centavosDeReais, centesimosDePercentual, decimalDeCentavos, parteEmCentesimos } from '../../money/money';
import { qrCodeText } from '../qr-code';
import { chaveDeAcesso } from './chave';

/**
 * The CT-e 4.00 XML of a draft (layout: cte_v4.00.xsd / cteTiposBasico_v4.00.xsd, road modal
 * cteModalRodoviario_v4.00.xsd; structure of test/fixtures/cte/minimo-v4.00.xml). Pure: every value the document
 * needs (emitter, series, number, cCT, issue time, environment, ICMS, IBS/CBS, CFOP) is passed in. The result is compact
 * (no whitespace between tags) and unsigned: the caller signs `infCte`.
 *
 * Texts are XML-escaped, blanks collapsed and trimmed (the schema's TString allows no leading or trailing blank),
 * characters outside Latin-1 reduced to their base letter or dropped, and cut to the schema's length. Money has two
 * decimals, quantities four; ICMS and IBS/CBS values are rounded half up to the cent.
 */

export type Ambiente = 'homologacao' | 'producao';
export type IcmsCst = '00' | '20' | '40' | '41' | '51' | '60' | '90' | 'SN';

/** The ICMS to write: the draft's own, or the applicable tax rule's (rates in percent). */
export interface IcmsDaPrestacao {
  cst: IcmsCst | string;
  aliquota?: number | null;
  reducao_base?: number | null;
}

/** The IBS/CBS to write (imp/IBSCBS): the draft's own, or the applicable tax rule's (rates in percent, up to 4 decimals). */
export interface IbsCbsDaPrestacao {
  cst: string;
  cclass_trib: string;
  aliquota_ibs_uf: number;
  aliquota_ibs_mun: number;
  aliquota_cbs: number;
  /**
   * `emit/ISUFEmit` (NT 2026.002): the emitter's SUFRAMA registration, "obrigatório nas operações que se beneficiam de
   * incentivos fiscais ... com alíquota zero da CBS" (cteTiposBasico_v4.00.xsd); written only when given.
   */
  inscricao_suframa?: string | null;
}

export interface EmitenteCte {
  cnpj: string;
  razao_social: string;
  inscricao_estadual: string;
  /** CRT 1–4. */
  crt: number;
  endereco: Endereco;
  rntrc: string | null;
}

/**
 * A CT-e issued through the contingency authorizer (MOC 4.00: SVC-RS `tpEmis` 7, SVC-SP 8): `ide` carries when the
 * contingency began (`dhCont`, `AAAA-MM-DDThh:mm:ss-03:00`) and why (`xJust`, 15–255 characters).
 */
export interface ContingenciaDoCte {
  tpEmis: 7 | 8;
  dhCont: string;
  xJust: string;
}

export interface MontarCteInput {
  dados: CteRascunho;
  emitente: EmitenteCte;
  serie: number;
  numero: number;
  cCT: string;
  /** `AAAA-MM-DDThh:mm:ss-03:00` (ruling 11). */
  dhEmi: string;
  ambiente: Ambiente;
  /** Absent or null: normal issue (`tpEmis` 1). */
  contingencia?: ContingenciaDoCte | null;
  icms: IcmsDaPrestacao;
  /** IBS/CBS of the tax reform; imp/IBSCBS is written only when given. */
  ibsCbs?: IbsCbsDaPrestacao | null;
  /** The CFOP to write; when absent, `cfopDaPrestacao` decides from the draft and the route. */
  cfop?: string;
  verProc?: string;
}

export interface CteXml {
  chave: string;
  xml: string;
}

/**
 * The name (`xNome`) every party the rules name must carry in homologação (tpAmb 2): MOC CT-e 4.00 Anexo I, rules
 * G002 (rem, 646), G003 (exped, 647), G004 (receb, 648) and G005 (dest, 649), "deve ser informado com a literal:
 * “CTE EMITIDO EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL”", and the rejections' own texts, write CTE without a
 * hyphen. That literal is what the product sends: the rule compares with it, so it is the one value no authority
 * applying the rule can refuse. The hyphenated "CT-E …" of public samples (an authorized 3.00 homologação CT-e of PR,
 * 2018, in test/fixtures/cte) shows only that one authority once accepted it, not that the rule allows it.
 */
export const NOME_HOMOLOGACAO = 'CTE EMITIDO EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL';
export const NATUREZA_PADRAO = 'PRESTACAO DE SERVICO DE TRANSPORTE';
export const VER_PROC = 'frete-fiscal 0.1.0';

// ---- formatting ---------------------------------------------------------------------------------------------

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** Schema TString: Latin-1 printable, single blanks, trimmed, at most `max` characters. */
export function textoFiscal(value: string, max: number): string {
  const latin1 = [...value.normalize('NFC')]
    .map((ch) => (ch.charCodeAt(0) <= 0xff ? ch : ch.normalize('NFD').replace(/[^\x20-\xff]/g, '')))
    .join('')
    .replace(/\p{Cc}/gu, ' ');
  return latin1.replace(/\s+/g, ' ').trim().slice(0, max).trim();
}

const quantidade = (v: number): string => {
  const q = Math.round(v * 10_000);
  return `${Math.floor(q / 10_000)}.${String(q % 10_000).padStart(4, '0')}`;
};
const percentual = (v: number): string => decimalDeCentavos(centesimosDePercentual(v));

/** The share of `cents` at `pct` percent (two decimals), half up to the cent. */
const aplicarPercentual = (cents: number, pct: number): number => parteEmCentesimos(cents, centesimosDePercentual(pct));

// ---- IBS/CBS (RTC) -------------------------------------------------------------------------------------------

/** Ten-thousandths of a percent (the layout's rates have up to 4 decimals). */
const decimilesimos = (pct: number): number => Math.round(pct * 10_000);
/** `round(cents × ten-thousandths-of-percent / 1 000 000)`, half up, in (big) integers. */
const aplicarPercentualRtc = (cents: number, p4: number): number => Number((BigInt(cents) * BigInt(p4) + 500_000n) / 1_000_000n);
/** TDec_0302_04RTC: two to four decimals. */
const percentualRtc = (p4: number): string =>
  `${Math.floor(p4 / 10_000)}.${String(p4 % 10_000)
    .padStart(4, '0')
    .replace(/0+$/, '')
    .padEnd(2, '0')}`;

export interface IbsCbsCalculado {
  cst: string;
  cclass_trib: string;
  base_centavos: number;
  /** Rates in ten-thousandths of a percent. */
  aliquota_ibs_uf: number;
  aliquota_ibs_mun: number;
  aliquota_cbs: number;
  valor_ibs_uf_centavos: number;
  valor_ibs_mun_centavos: number;
  /** vIBS = vIBSUF + vIBSMun. */
  valor_ibs_centavos: number;
  valor_cbs_centavos: number;
}

/** IBSCBS/gIBSCBS: base = vTPrest; each value = base × rate rounded half up to the cent; vIBS = vIBSUF + vIBSMun. */
export function calcularIbsCbs(i: IbsCbsDaPrestacao, totalCentavos: number): IbsCbsCalculado {
  const uf = decimilesimos(i.aliquota_ibs_uf);
  const mun = decimilesimos(i.aliquota_ibs_mun);
  const cbs = decimilesimos(i.aliquota_cbs);
  const vUf = aplicarPercentualRtc(totalCentavos, uf);
  const vMun = aplicarPercentualRtc(totalCentavos, mun);
  return {
    cst: i.cst,
    cclass_trib: i.cclass_trib,
    base_centavos: totalCentavos,
    aliquota_ibs_uf: uf,
    aliquota_ibs_mun: mun,
    aliquota_cbs: cbs,
    valor_ibs_uf_centavos: vUf,
    valor_ibs_mun_centavos: vMun,
    valor_ibs_centavos: vUf + vMun,
    valor_cbs_centavos: aplicarPercentualRtc(totalCentavos, cbs),
  };
}

/**
 * `IBSCBS{CST, cClassTrib, gIBSCBS{vBC, gIBSUF{pIBSUF, vIBSUF}, gIBSMun{pIBSMun, vIBSMun}, vIBS, gCBS{pCBS, vCBS}}}`
 * (TTribCTe / TCIBS).
 */
function ibsCbsXml(c: IbsCbsCalculado): string {
  return (
    '<IBSCBS>' +
    `<CST>${c.cst}</CST><cClassTrib>${c.cclass_trib}</cClassTrib>` +
    `<gIBSCBS><vBC>${decimalDeCentavos(c.base_centavos)}</vBC>` +
    `<gIBSUF><pIBSUF>${percentualRtc(c.aliquota_ibs_uf)}</pIBSUF><vIBSUF>${decimalDeCentavos(c.valor_ibs_uf_centavos)}</vIBSUF></gIBSUF>` +
    `<gIBSMun><pIBSMun>${percentualRtc(c.aliquota_ibs_mun)}</pIBSMun><vIBSMun>${decimalDeCentavos(c.valor_ibs_mun_centavos)}</vIBSMun></gIBSMun>` +
    `<vIBS>${decimalDeCentavos(c.valor_ibs_centavos)}</vIBS>` +
    `<gCBS><pCBS>${percentualRtc(c.aliquota_cbs)}</pCBS><vCBS>${decimalDeCentavos(c.valor_cbs_centavos)}</vCBS></gCBS>` +
    '</gIBSCBS></IBSCBS>'
  );
}

// ---- ICMS and CFOP ------------------------------------------------------------------------------------------

export interface IcmsCalculado {
  grupo: 'ICMS00' | 'ICMS20' | 'ICMS45' | 'ICMS60' | 'ICMS90' | 'ICMSSN';
  cst: string;
  base_centavos: number | null;
  valor_centavos: number | null;
  aliquota: number | null;
  reducao_base: number | null;
}

/** The ICMS group by CST: base = vTPrest (reduced by pRedBC for 20), value = base × rate rounded to the cent. */
export function calcularIcms(icms: IcmsDaPrestacao, totalCentavos: number): IcmsCalculado {
  const aliquota = icms.aliquota ?? 0;
  switch (icms.cst) {
    case '00':
      return {
        grupo: 'ICMS00',
        cst: '00',
        base_centavos: totalCentavos,
        aliquota,
        valor_centavos: aplicarPercentual(totalCentavos, aliquota),
        reducao_base: null,
      };
    case '20': {
      const red = icms.reducao_base ?? 0;
      const base = totalCentavos - aplicarPercentual(totalCentavos, red);
      return {
        grupo: 'ICMS20',
        cst: '20',
        base_centavos: base,
        aliquota,
        valor_centavos: aplicarPercentual(base, aliquota),
        reducao_base: red,
      };
    }
    case '40':
    case '41':
    case '51':
      return { grupo: 'ICMS45', cst: icms.cst, base_centavos: null, aliquota: null, valor_centavos: null, reducao_base: null };
    case '60':
      return {
        grupo: 'ICMS60',
        cst: '60',
        base_centavos: totalCentavos,
        aliquota,
        valor_centavos: aplicarPercentual(totalCentavos, aliquota),
        reducao_base: null,
      };
    case '90': {
      const red = icms.reducao_base ?? null;
      const base = red ? totalCentavos - aplicarPercentual(totalCentavos, red) : totalCentavos;
      return {
        grupo: 'ICMS90',
        cst: '90',
        base_centavos: base,
        aliquota,
        valor_centavos: aplicarPercentual(base, aliquota),
        reducao_base: red,
      };
    }
    case 'SN':
      return { grupo: 'ICMSSN', cst: '90', base_centavos: null, aliquota: null, valor_centavos: null, reducao_base: null };
    default:
      throw new Error(`unknown ICMS CST '${icms.cst}'`);
  }
}

function icmsXml(c: IcmsCalculado): string {
  const v = (n: number | null) => decimalDeCentavos(n ?? 0);
  switch (c.grupo) {
    case 'ICMS00':
      return `<ICMS00><CST>00</CST><vBC>${v(c.base_centavos)}</vBC><pICMS>${percentual(c.aliquota!)}</pICMS><vICMS>${v(c.valor_centavos)}</vICMS></ICMS00>`;
    case 'ICMS20':
      return `<ICMS20><CST>20</CST><pRedBC>${percentual(c.reducao_base!)}</pRedBC><vBC>${v(c.base_centavos)}</vBC><pICMS>${percentual(c.aliquota!)}</pICMS><vICMS>${v(c.valor_centavos)}</vICMS></ICMS20>`;
    case 'ICMS45':
      return `<ICMS45><CST>${c.cst}</CST></ICMS45>`;
    case 'ICMS60':
      return `<ICMS60><CST>60</CST><vBCSTRet>${v(c.base_centavos)}</vBCSTRet><vICMSSTRet>${v(c.valor_centavos)}</vICMSSTRet><pICMSSTRet>${percentual(c.aliquota!)}</pICMSSTRet></ICMS60>`;
    case 'ICMS90':
      return `<ICMS90><CST>90</CST>${c.reducao_base ? `<pRedBC>${percentual(c.reducao_base)}</pRedBC>` : ''}<vBC>${v(c.base_centavos)}</vBC><pICMS>${percentual(c.aliquota!)}</pICMS><vICMS>${v(c.valor_centavos)}</vICMS></ICMS90>`;
    case 'ICMSSN':
      return '<ICMSSN><CST>90</CST><indSN>1</indSN></ICMSSN>';
  }
}

/**
 * The CFOP (fiscal-domain.md §4, MOC G050–G052): the draft's when it has one; else, for a service starting in a UF
 * other than the emitter's, 5932 (same start and end UF) or 6932 (G051: mandatory then); else the tax rule's;
 * else 5353 or 6353 by whether start and end UF are equal. An export is 7xxx.
 */
export function cfopDaPrestacao(i: {
  cfopRascunho?: string | null;
  cfopRegra?: string | null;
  ufEmitente: string;
  ufInicio: string;
  ufFim: string;
}): string {
  if (i.cfopRascunho) return i.cfopRascunho;
  // An export (UF fim EX): 7358, the one transport service of the 7 group, unless the rule names its 7xxx (G050).
  if (i.ufFim === 'EX') return i.cfopRegra?.startsWith('7') ? i.cfopRegra : '7358';
  const mesmaUf = i.ufInicio === i.ufFim;
  if (i.ufInicio !== i.ufEmitente) return mesmaUf ? '5932' : '6932';
  if (i.cfopRegra) return i.cfopRegra;
  return mesmaUf ? '5353' : '6353';
}

/** What is wrong with a CFOP for a route (G050–G052), or null. */
export function problemaCfop(cfop: string, ufEmitente: string, ufInicio: string, ufFim: string): string | null {
  // G050: an export (UF fim EX) starts with 7; G051/G052 apply only when neither end is EX.
  const primeiro = ufFim === 'EX' ? '7' : ufInicio === ufFim ? '5' : '6';
  if (cfop[0] !== primeiro) return `CFOP ${cfop} must start with ${primeiro} for ${ufInicio}→${ufFim} (G050, rejection 519)`;
  if (ufFim === 'EX' || ufInicio === 'EX') return null;
  const de932 = cfop.slice(1) === '932';
  if (ufInicio !== ufEmitente && !de932)
    return `the service starts in ${ufInicio}, outside the emitter's UF ${ufEmitente}: CFOP must be 5932 or 6932 (G051, rejection 524)`;
  if (ufInicio === ufEmitente && de932)
    return `the service starts in the emitter's UF ${ufEmitente}: CFOP must not be 5932 or 6932 (G052, rejection 908)`;
  return null;
}

// ---- the document ---------------------------------------------------------------------------------------------

type Tag = string | null | undefined | false;
const el = (name: string, ...content: Tag[]): string =>
  `<${name}>${content.filter((c): c is string => typeof c === 'string').join('')}</${name}>`;
/** A required element: written even when blank, so that the schema check names it. */
const t = (name: string, value: string | number | null | undefined, max = 60): string | null => {
  if (value === null || value === undefined) return null;
  const s = typeof value === 'number' ? String(value) : textoFiscal(value, max);
  return `<${name}>${escapeXml(s)}</${name}>`;
};
/** An optional element: left out when absent or blank. */
const o = (name: string, value: string | null | undefined, max = 60): string | null =>
  value && textoFiscal(value, max) !== '' ? t(name, value, max) : null;

const PAPEL_TOMA3 = { remetente: '0', expedidor: '1', recebedor: '2', destinatario: '3' } as const;

const documento = (doc: string) => (doc.length === 11 ? t('CPF', doc) : t('CNPJ', doc));
const cep = (c: string | undefined) => (c && /^[0-9]{8}$/.test(c) ? c : null);

function enderecoParte(tag: string, e: CteEnderecoParte): string {
  return el(
    tag,
    t('xLgr', e.logradouro, 255),
    t('nro', e.numero),
    o('xCpl', e.complemento),
    t('xBairro', e.bairro),
    `<cMun>${e.codigo_ibge ?? ''}</cMun>`,
    t('xMun', e.municipio),
    o('CEP', cep(e.cep)),
    `<UF>${e.uf}</UF>`,
    '<cPais>1058</cPais><xPais>BRASIL</xPais>',
  );
}

type TagParte = 'rem' | 'exped' | 'receb' | 'dest' | 'toma4';
const ENDERECO_TAG: Record<TagParte, string> = {
  rem: 'enderReme',
  exped: 'enderExped',
  receb: 'enderReceb',
  dest: 'enderDest',
  toma4: 'enderToma',
};

function parteXml(tag: TagParte, p: CteParteRascunho, nome: string): string {
  const comFantasia = tag === 'rem' || tag === 'toma4';
  const inner = [
    tag === 'toma4' ? '<toma>4</toma>' : null,
    documento(p.documento),
    o('IE', p.ie),
    t('xNome', nome),
    comFantasia ? o('xFant', p.fantasia) : null,
    o('fone', p.telefone),
    enderecoParte(ENDERECO_TAG[tag], p.endereco),
    o('email', p.email),
  ];
  return el(tag, ...inner);
}

/** indIEToma: 1 contributor (numeric IE), 2 exempt from registration (ISENTO), 9 non-contributor (no IE). */
export const indIEToma = (ie: string | null | undefined): '1' | '2' | '9' => (!ie ? '9' : ie === 'ISENTO' ? '2' : '1');

export class MontarCteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MontarCteError';
  }
}

/**
 * Builds `<CTe xmlns="http://www.portalfiscal.inf.br/cte"><infCte versao="4.00" Id="CTe…">…</infCte><infCTeSupl>…`.
 * Needs the route (`inicio`, `fim`), the taker and the values; any other group the draft lacks is simply left out
 * (the schema check then names it). In homologação the names of `rem`, `exped`, `receb` and `dest` read
 * NOME_HOMOLOGACAO, as rules G002–G005 require of documents of that environment.
 */
export function montarCteXml(input: MontarCteInput): CteXml {
  const { dados, emitente } = input;
  const { inicio, fim, tomador, valores } = dados;
  if (!inicio || !fim) throw new MontarCteError('the draft has no route (inicio, fim)');
  if (!tomador) throw new MontarCteError('the draft has no taker (tomador)');
  if (!valores) throw new MontarCteError('the draft has no values (valores.total)');
  const uf = ufBySigla(emitente.endereco.uf);
  if (!uf) throw new MontarCteError(`the emitter's UF '${emitente.endereco.uf}' is unknown`);
  const contingencia = input.contingencia ?? null;
  // The key carries the form of issue too (its 35th digit): the authority routes a 7 or 8 to the SVC.
  const tpEmis = contingencia?.tpEmis ?? 1;
  const aamm = input.dhEmi.slice(2, 4) + input.dhEmi.slice(5, 7);
  const chave = chaveDeAcesso({
    cUF: uf.codigo_ibge,
    aamm,
    cnpj: emitente.cnpj,
    modelo: '57',
    serie: input.serie,
    numero: input.numero,
    tpEmis,
    cCT: input.cCT,
  });
  const homologacao = input.ambiente === 'homologacao';
  const cfop = input.cfop ?? cfopDaPrestacao({ cfopRascunho: dados.cfop, ufEmitente: uf.sigla, ufInicio: inicio.uf, ufFim: fim.uf });

  const tomaParte = tomador.papel === 'outros' ? tomador.parte : dados[tomador.papel];
  const toma =
    tomador.papel === 'outros'
      ? parteXml('toma4', tomador.parte, tomador.parte.nome)
      : `<toma3><toma>${PAPEL_TOMA3[tomador.papel]}</toma></toma3>`;

  const ide = el(
    'ide',
    `<cUF>${uf.codigo_ibge}</cUF>`,
    `<cCT>${input.cCT}</cCT>`,
    `<CFOP>${cfop}</CFOP>`,
    t('natOp', dados.natureza_operacao ?? NATUREZA_PADRAO),
    '<mod>57</mod>',
    `<serie>${input.serie}</serie>`,
    `<nCT>${input.numero}</nCT>`,
    `<dhEmi>${input.dhEmi}</dhEmi>`,
    '<tpImp>1</tpImp>',
    `<tpEmis>${tpEmis}</tpEmis>`,
    `<cDV>${chave[43]}</cDV>`,
    `<tpAmb>${homologacao ? 2 : 1}</tpAmb>`,
    '<tpCTe>0</tpCTe>',
    '<procEmi>0</procEmi>',
    t('verProc', input.verProc ?? VER_PROC, 20),
    `<cMunEnv>${emitente.endereco.codigo_ibge ?? ''}</cMunEnv>`,
    t('xMunEnv', emitente.endereco.municipio),
    `<UFEnv>${uf.sigla}</UFEnv>`,
    '<modal>01</modal>',
    `<tpServ>${dados.tipo_servico ?? 0}</tpServ>`,
    `<cMunIni>${inicio.codigo_ibge ?? ''}</cMunIni>`,
    t('xMunIni', inicio.municipio),
    `<UFIni>${inicio.uf}</UFIni>`,
    `<cMunFim>${fim.codigo_ibge ?? ''}</cMunFim>`,
    t('xMunFim', fim.municipio),
    `<UFFim>${fim.uf}</UFFim>`,
    '<retira>1</retira>',
    `<indIEToma>${indIEToma(tomaParte?.ie)}</indIEToma>`,
    toma,
    // cteTiposBasico_v4.00.xsd: after the taker, "informar apenas para tpEmis diferente de 1".
    contingencia && `<dhCont>${contingencia.dhCont}</dhCont>`,
    contingencia && t('xJust', contingencia.xJust, 255),
  );

  const compl = o('xObs', dados.observacoes, 2000) ? el('compl', o('xObs', dados.observacoes, 2000)) : null;

  const end = emitente.endereco;
  const emit = el(
    'emit',
    t('CNPJ', emitente.cnpj),
    t('IE', emitente.inscricao_estadual),
    t('xNome', emitente.razao_social),
    el(
      'enderEmit',
      t('xLgr', end.logradouro, 60),
      t('nro', end.numero),
      o('xCpl', end.complemento),
      t('xBairro', end.bairro),
      `<cMun>${end.codigo_ibge ?? ''}</cMun>`,
      t('xMun', end.municipio),
      o('CEP', cep(end.cep)),
      `<UF>${end.uf}</UF>`,
    ),
    `<CRT>${emitente.crt}</CRT>`,
    o('ISUFEmit', input.ibsCbs?.inscricao_suframa),
  );

  // Rules G002–G005: every one of these four parties, never the emitter or the taker (toma4), which no rule names.
  const nome = (p: CteParteRascunho) => (homologacao ? NOME_HOMOLOGACAO : p.nome);
  const partes = [
    dados.remetente ? parteXml('rem', dados.remetente, nome(dados.remetente)) : null,
    dados.expedidor ? parteXml('exped', dados.expedidor, nome(dados.expedidor)) : null,
    dados.recebedor ? parteXml('receb', dados.recebedor, nome(dados.recebedor)) : null,
    dados.destinatario ? parteXml('dest', dados.destinatario, nome(dados.destinatario)) : null,
  ];

  const total = centavosDeReais(valores.total);
  const vPrest = el(
    'vPrest',
    `<vTPrest>${decimalDeCentavos(total)}</vTPrest>`,
    `<vRec>${decimalDeCentavos(centavosDeReais(valores.a_receber ?? valores.total))}</vRec>`,
    ...(valores.componentes ?? []).map((c) =>
      el('Comp', t('xNome', c.nome, 15), `<vComp>${decimalDeCentavos(centavosDeReais(c.valor))}</vComp>`),
    ),
  );

  const impostos = dados.impostos;
  const imp = el(
    'imp',
    el('ICMS', icmsXml(calcularIcms(input.icms, total))),
    impostos?.valor_total_tributos !== undefined
      ? `<vTotTrib>${decimalDeCentavos(centavosDeReais(impostos.valor_total_tributos))}</vTotTrib>`
      : null,
    o('infAdFisco', impostos?.informacoes_fisco, 2000),
    input.ibsCbs ? ibsCbsXml(calcularIbsCbs(input.ibsCbs, total)) : null,
  );

  const carga = dados.carga;
  const infCarga = carga
    ? el(
        'infCarga',
        carga.valor !== undefined ? `<vCarga>${decimalDeCentavos(centavosDeReais(carga.valor))}</vCarga>` : null,
        t('proPred', carga.produto_predominante),
        o('xOutCat', carga.outras_caracteristicas, 30),
        ...carga.quantidades.map((q) =>
          el('infQ', `<cUnid>${q.unidade}</cUnid>`, t('tpMed', q.tipo_medida, 20), `<qCarga>${quantidade(q.quantidade)}</qCarga>`),
        ),
      )
    : '<infCarga></infCarga>';
  const nfe = dados.documentos?.nfe ?? [];
  const outros = dados.documentos?.outros ?? [];
  // MOC 4.00 G037 (694): no infDoc on an intermediate redispatch (3) or a service linked to multimodal (4). The schema's
  // infDoc is a choice of infNF, infNFe, infOutros: the draft's validation refuses NF-e keys mixed with other documents.
  const semInfDoc = dados.tipo_servico === 3 || dados.tipo_servico === 4;
  const infDoc =
    semInfDoc || (!nfe.length && !outros.length)
      ? null
      : el(
          'infDoc',
          ...nfe.map((n) => `<infNFe><chave>${n.chave}</chave></infNFe>`),
          ...outros.map((d) =>
            el(
              'infOutros',
              `<tpDoc>${d.tipo_documento}</tpDoc>`,
              o('descOutros', d.descricao, 100),
              o('nDoc', d.numero, 20),
              d.data_emissao ? `<dEmi>${d.data_emissao}</dEmi>` : null,
              d.valor !== undefined ? `<vDocFisc>${decimalDeCentavos(centavosDeReais(d.valor))}</vDocFisc>` : null,
              d.data_prevista_entrega ? `<dPrev>${d.data_prevista_entrega}</dPrev>` : null,
            ),
          ),
        );
  const anteriores = dados.documentos_anteriores ?? [];
  const docAnt = anteriores.length
    ? el(
        'docAnt',
        ...anteriores.map((d) =>
          el(
            'emiDocAnt',
            documento(d.emitente.cnpj),
            t('IE', d.emitente.ie === 'ISENTO' ? null : d.emitente.ie),
            d.emitente.ie === 'ISENTO' ? null : `<UF>${d.emitente.uf}</UF>`,
            t('xNome', d.emitente.nome),
            el('idDocAnt', ...d.chaves_cte.map((k) => `<idDocAntEle><chCTe>${k}</chCTe></idDocAntEle>`)),
          ),
        ),
      )
    : null;
  const rntrc = dados.rodoviario?.rntrc ?? emitente.rntrc;
  const infModal = `<infModal versaoModal="4.00">${el('rodo', t('RNTRC', rntrc))}</infModal>`;
  const infCTeNorm = el('infCTeNorm', infCarga, infDoc, docAnt, infModal);

  // cteTiposBasico_v4.00.xsd (TCTe/infCte): autXML, 0..10, each a choice of CNPJ or CPF, follows the infCTeNorm/infCteComp
  // choice and precedes infRespTec. The national distribution service hands the document to each one listed.
  const autXML = (dados.autorizados_xml ?? []).map((d) => el('autXML', documento(d)));
  const infCte = `<infCte versao="4.00" Id="CTe${chave}">${[ide, compl, emit, ...partes, vPrest, imp, infCTeNorm, ...autXML]
    .filter(Boolean)
    .join('')}</infCte>`;
  const qr = qrCodeText({ chave, ambiente: input.ambiente });
  const supl = qr ? `<infCTeSupl><qrCodCTe>${escapeXml(qr)}</qrCodCTe></infCTeSupl>` : '';
  return { chave, xml: `<CTe xmlns="http://www.portalfiscal.inf.br/cte">${infCte}${supl}</CTe>` };
}
