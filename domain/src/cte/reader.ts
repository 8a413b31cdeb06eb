import { type CteLido, type PapelTomador, type ParteLida } from '@frete/contracts';
import { isValidAccessKey } from '../fiscal/access-key';
import { centavosDeDecimal } from '../money/money';
import { endereco } from '../xml/endereco';
import { excerpt } from '../xml/excerpt';
import { type FiscalXmlDocument, type FiscalXmlLayout, fiscalXmlParser } from '../xml/fiscal-xml';
import { node, required, text, type XmlNode } from '../xml/nodes';

/**
 * One reader for CT-e as carriers receive them: `cteProc` (with protocol) or bare `CTe`, layouts 4.00 and 3.00.
 * Hostile input is refused before any parsing work: DOCTYPE and entity declarations (no entity expansion can
 * happen), absurd nesting, and malformed XML.
 */

export type CteReadErrorCode = 'xml_hostil' | 'xml_malformado' | 'documento_nao_e_cte' | 'layout_nao_suportado' | 'chave_invalida';

export class CteReadError extends Error {
  constructor(
    readonly code: CteReadErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CteReadError';
  }
}

export type { CteLido, PapelTomador } from '@frete/contracts';

const notCte = (message: string) => new CteReadError('documento_nao_e_cte', message);

/** The CT-e as the reader takes its tree: `cteProc` or bare `CTe`, and the tags read as lists. */
export const CTE_XML: FiscalXmlLayout = {
  proc: 'cteProc',
  root: 'CTe',
  arrays: ['Comp', 'infNFe', 'infNF', 'infOutros', 'emiDocAnt', 'idDocAntEle', 'infQ', 'ObsCont', 'ObsFisco'],
};

const parse = fiscalXmlParser(CTE_XML, (refusal, message) =>
  refusal === 'not_this_document' ? notCte(message) : new CteReadError(refusal, message),
);

const req = (v: unknown, what: string): string => required(text(v), what, notCte);

/** "1234.5" → 123450, exactly (no floating point). */
export function toCents(value: string): number {
  const cents = centavosDeDecimal(value);
  if (cents === null) throw notCte(`not a money value: '${excerpt(value)}'`);
  return cents;
}
const cents = (v: unknown): number | null => (text(v) === null ? null : toCents(text(v)!));

function parte(n: XmlNode | null, enderecoTag: string): ParteLida | null {
  if (!n) return null;
  const cnpj = text(n.CNPJ);
  const cpf = text(n.CPF);
  const estrangeiro = text(n.idEstrangeiro);
  return {
    documento: cnpj ?? cpf ?? estrangeiro,
    tipo_documento: cnpj ? 'CNPJ' : cpf ? 'CPF' : estrangeiro !== null ? 'estrangeiro' : null,
    ie: text(n.IE),
    nome: text(n.xNome),
    fantasia: text(n.xFant),
    telefone: text(n.fone),
    email: text(n.email),
    endereco: endereco(node(n[enderecoTag]), text),
  };
}

const PAPEIS: PapelTomador[] = ['remetente', 'expedidor', 'recebedor', 'destinatario', 'outros'];

function icms(imp: XmlNode | null): CteLido['icms'] {
  const group = node(imp?.ICMS);
  if (!group) return null;
  const [name, value] = Object.entries(group)[0] ?? [];
  const g = node(value);
  if (!name || !g) return null;
  return {
    grupo: name,
    cst: text(g.CST),
    base_centavos: cents(g.vBC ?? g.vBCOutraUF),
    aliquota: text(g.pICMS ?? g.pICMSOutraUF),
    valor_centavos: cents(g.vICMS ?? g.vICMSOutraUF),
    reducao_base: text(g.pRedBC ?? g.pRedBCOutraUF),
  };
}

// The groups below were read after CT-e had already been accepted without them: they never refuse a document.
const optionalCents = (v: unknown): number | null => {
  const t = text(v);
  return t === null ? null : centavosDeDecimal(t);
};
const optionalInteger = (v: unknown): number | null => {
  const t = text(v);
  return t !== null && /^\d{1,9}$/.test(t) ? Number(t) : null;
};
function ibsCbs(imp: XmlNode | null): CteLido['ibs_cbs'] {
  const g = node(imp?.IBSCBS);
  if (!g) return undefined;
  const t = node(g.gIBSCBS);
  const uf = node(t?.gIBSUF);
  const mun = node(t?.gIBSMun);
  const cbs = node(t?.gCBS);
  return {
    cst: text(g.CST),
    cclass_trib: text(g.cClassTrib),
    base_centavos: optionalCents(t?.vBC),
    aliquota_ibs_uf: text(uf?.pIBSUF),
    valor_ibs_uf_centavos: optionalCents(uf?.vIBSUF),
    aliquota_ibs_mun: text(mun?.pIBSMun),
    valor_ibs_mun_centavos: optionalCents(mun?.vIBSMun),
    valor_ibs_centavos: optionalCents(t?.vIBS),
    aliquota_cbs: text(cbs?.pCBS),
    valor_cbs_centavos: optionalCents(cbs?.vCBS),
  };
}

const list = (v: unknown): XmlNode[] => ((v as unknown[] | undefined) ?? []).map(node).filter((n): n is XmlNode => n !== null);

function contingencia(ide: XmlNode): CteLido['contingencia'] {
  const dh = text(ide.dhCont);
  const just = text(ide.xJust);
  return dh === null && just === null ? null : { dh_cont: dh, justificativa: just };
}

function carga(n: XmlNode | null): NonNullable<CteLido['carga']> | null {
  if (!n) return null;
  return {
    valor_centavos: optionalCents(n.vCarga),
    produto_predominante: text(n.proPred),
    outras_caracteristicas: text(n.xOutCat),
    quantidades: list(n.infQ).map((q) => ({ unidade: text(q.cUnid), tipo_medida: text(q.tpMed), quantidade: text(q.qCarga) })),
  };
}

function camposObservacao(compl: XmlNode | null): NonNullable<CteLido['campos_observacao']> {
  const campos = (tag: 'ObsCont' | 'ObsFisco', destino: 'contribuinte' | 'fisco') =>
    list(compl?.[tag]).map((o) => ({ destino, campo: text(o['@_xCampo']), texto: text(o.xTexto) }));
  return [...campos('ObsCont', 'contribuinte'), ...campos('ObsFisco', 'fisco')];
}

function outrosDocumentos(infDoc: XmlNode | null): NonNullable<CteLido['outros_documentos']> {
  const nf = list(infDoc?.infNF).map((d) => ({
    tipo: 'nf' as const,
    modelo: text(d.mod),
    descricao: null,
    serie: text(d.serie),
    numero: text(d.nDoc),
    emissao: text(d.dEmi),
    valor_centavos: optionalCents(d.vNF),
  }));
  const outros = list(infDoc?.infOutros).map((d) => ({
    tipo: 'outros' as const,
    modelo: text(d.tpDoc),
    descricao: text(d.descOutros),
    serie: null,
    numero: text(d.nDoc),
    emissao: text(d.dEmi),
    valor_centavos: optionalCents(d.vDocFisc),
  }));
  return [...nf, ...outros];
}

export function readCte(xml: string): CteLido {
  return lerCteDo(parse(xml));
}

/**
 * The CT-e of a tree already read in the shape of `CTE_XML` (a document this service signed, read by a cheaper parser
 * than a stranger's text needs): the same reading as `readCte`.
 */
export function lerCteDo({ proc, root: cte }: FiscalXmlDocument): CteLido {
  const inf = node(cte.infCte);
  if (!inf) throw new CteReadError('documento_nao_e_cte', 'missing infCte');
  const versao = req(inf['@_versao'], 'infCte@versao');
  if (!['3.00', '4.00'].includes(versao)) {
    throw new CteReadError('layout_nao_suportado', `CT-e layout ${excerpt(versao)} is not accepted (3.00 and 4.00 are)`);
  }
  const id = req(inf['@_Id'], 'infCte@Id');
  const chave = id.replace(/^CTe/, '');
  if (!isValidAccessKey(chave)) throw new CteReadError('chave_invalida', `access key ${excerpt(chave)} has a wrong check digit or shape`);

  const ide = node(inf.ide);
  if (!ide) throw new CteReadError('documento_nao_e_cte', 'missing ide');
  const toma3 = node(ide.toma3) ?? node(ide.toma03);
  const toma4 = node(ide.toma4);
  const codigo = Number(toma3 ? req(toma3.toma, 'toma3/toma') : toma4 ? '4' : NaN);
  if (!(codigo >= 0 && codigo <= 4)) throw new CteReadError('documento_nao_e_cte', 'missing the taker (toma3 or toma4)');
  const partes = {
    remetente: parte(node(inf.rem), 'enderReme'),
    expedidor: parte(node(inf.exped), 'enderExped'),
    recebedor: parte(node(inf.receb), 'enderReceb'),
    destinatario: parte(node(inf.dest), 'enderDest'),
  };
  const papel = PAPEIS[codigo]!;
  const tomadorParte = papel === 'outros' ? parte(toma4, 'enderToma') : partes[papel];

  const vPrest = node(inf.vPrest);
  const norm = node(inf.infCTeNorm);
  const infDoc = node(norm?.infDoc);
  const nfe = (infDoc?.infNFe as unknown[] | undefined) ?? [];
  const docAnt = node(norm?.docAnt);
  const anteriores: string[] = [];
  for (const emi of (docAnt?.emiDocAnt as unknown[] | undefined) ?? []) {
    for (const idDoc of [node(emi)?.idDocAnt].flat()) {
      for (const ele of (node(idDoc)?.idDocAntEle as unknown[] | undefined) ?? []) {
        const ch = text(node(ele)?.chCTe) ?? text(node(ele)?.chave);
        if (ch) anteriores.push(ch);
      }
    }
  }
  const prot = node(node(proc?.protCTe)?.infProt);

  return {
    chave,
    versao,
    modelo: req(ide.mod, 'ide/mod'),
    serie: Number(req(ide.serie, 'ide/serie')),
    numero: Number(req(ide.nCT, 'ide/nCT')),
    codigo_numerico: req(ide.cCT, 'ide/cCT'),
    cfop: req(ide.CFOP, 'ide/CFOP'),
    natureza_operacao: req(ide.natOp, 'ide/natOp'),
    data_emissao: req(ide.dhEmi, 'ide/dhEmi'),
    ambiente: req(ide.tpAmb, 'ide/tpAmb') === '1' ? 'producao' : 'homologacao',
    tipo_cte: Number(req(ide.tpCTe, 'ide/tpCTe')),
    tipo_servico: Number(req(ide.tpServ, 'ide/tpServ')),
    modal: req(ide.modal, 'ide/modal'),
    emitente:
      parte(node(inf.emit), 'enderEmit') ??
      (() => {
        throw new CteReadError('documento_nao_e_cte', 'missing emit');
      })(),
    ...partes,
    tomador: { codigo: codigo as 0 | 1 | 2 | 3 | 4, papel, parte: tomadorParte },
    inicio: { codigo_ibge: req(ide.cMunIni, 'ide/cMunIni'), municipio: req(ide.xMunIni, 'ide/xMunIni'), uf: req(ide.UFIni, 'ide/UFIni') },
    fim: { codigo_ibge: req(ide.cMunFim, 'ide/cMunFim'), municipio: req(ide.xMunFim, 'ide/xMunFim'), uf: req(ide.UFFim, 'ide/UFFim') },
    valor_prestacao_centavos: toCents(req(vPrest?.vTPrest, 'vPrest/vTPrest')),
    valor_receber_centavos: toCents(req(vPrest?.vRec, 'vPrest/vRec')),
    componentes: ((vPrest?.Comp as unknown[] | undefined) ?? []).map((c) => ({
      nome: text(node(c)?.xNome) ?? '',
      valor_centavos: toCents(req(node(c)?.vComp, 'Comp/vComp')),
    })),
    icms: icms(node(inf.imp)),
    nfe_chaves: nfe.map((n) => text(node(n)?.chave)).filter((k): k is string => k !== null),
    cte_anteriores: anteriores,
    tipo_emissao: optionalInteger(ide.tpEmis),
    contingencia: contingencia(ide),
    qr_code: text(node(cte.infCTeSupl)?.qrCodCTe)?.trim() || null, // CDATA keeps its blanks
    observacoes: text(node(inf.compl)?.xObs),
    campos_observacao: camposObservacao(node(inf.compl)),
    carga: carga(node(norm?.infCarga)),
    outros_documentos: outrosDocumentos(infDoc),
    rntrc: text(node(node(norm?.infModal)?.rodo)?.RNTRC),
    ...(node(node(inf.imp)?.IBSCBS) ? { ibs_cbs: ibsCbs(node(inf.imp)) } : {}),
    protocolo: prot
      ? {
          numero: req(prot.nProt, 'infProt/nProt'),
          recebido_em: req(prot.dhRecbto, 'infProt/dhRecbto'),
          status: Number(req(prot.cStat, 'infProt/cStat')),
          motivo: req(prot.xMotivo, 'infProt/xMotivo'),
          chave: req(prot.chCTe, 'infProt/chCTe'),
        }
      : null,
  };
}
