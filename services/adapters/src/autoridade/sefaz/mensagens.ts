import { childElements, parseFiscalXml, type XmlElement } from '@frete/documents';
import { type ModeloFiscal, type ProtocoloDocumento, type ProtocoloEvento } from '../port';
import { semDeclaracao } from '../proc';
import { elementosBrutos, PORTAL_NS } from './soap';

/**
 * The messages of the authorities' services (CT-e 4.00, MDF-e 3.00) as the official schemas write them, and the
 * reading of their answers into the port's types. Protocols are taken from the answer's text byte for byte.
 */

export interface Layout {
  modelo: ModeloFiscal;
  ns: string;
  versao: string;
  chaveTag: 'chCTe' | 'chMDFe';
  prot: 'protCTe' | 'protMDFe';
  procEvento: 'procEventoCTe' | 'procEventoMDFe';
  retEvento: 'retEventoCTe' | 'retEventoMDFe';
}

export const LAYOUTS: Record<ModeloFiscal, Layout> = {
  cte: {
    modelo: 'cte',
    ns: PORTAL_NS.cte,
    versao: '4.00',
    chaveTag: 'chCTe',
    prot: 'protCTe',
    procEvento: 'procEventoCTe',
    retEvento: 'retEventoCTe',
  },
  mdfe: {
    modelo: 'mdfe',
    ns: PORTAL_NS.mdfe,
    versao: '3.00',
    chaveTag: 'chMDFe',
    prot: 'protMDFe',
    procEvento: 'procEventoMDFe',
    retEvento: 'retEventoMDFe',
  },
};

export const consultaSituacao = (l: Layout, tpAmb: 1 | 2, chave: string): string =>
  l.modelo === 'cte'
    ? `<consSitCTe xmlns="${l.ns}" versao="${l.versao}"><tpAmb>${tpAmb}</tpAmb><xServ>CONSULTAR</xServ><chCTe>${chave}</chCTe></consSitCTe>`
    : `<consSitMDFe xmlns="${l.ns}" versao="${l.versao}"><tpAmb>${tpAmb}</tpAmb><xServ>CONSULTAR</xServ><chMDFe>${chave}</chMDFe></consSitMDFe>`;

/** CT-e's status request names the UF; MDF-e's does not (its authorizer is SVRS for all). */
export const consultaStatus = (l: Layout, tpAmb: 1 | 2, cUF: string): string =>
  l.modelo === 'cte'
    ? `<consStatServCTe xmlns="${l.ns}" versao="${l.versao}"><tpAmb>${tpAmb}</tpAmb><cUF>${cUF}</cUF><xServ>STATUS</xServ></consStatServCTe>`
    : `<consStatServMDFe xmlns="${l.ns}" versao="${l.versao}"><tpAmb>${tpAmb}</tpAmb><xServ>STATUS</xServ></consStatServMDFe>`;

export const consultaNaoEncerrados = (tpAmb: 1 | 2, documento: string): string => {
  const doc = /^[0-9]{11}$/.test(documento) ? `<CPF>${documento}</CPF>` : `<CNPJ>${documento}</CNPJ>`;
  return `<consMDFeNaoEnc xmlns="${PORTAL_NS.mdfe}" versao="3.00"><tpAmb>${tpAmb}</tpAmb><xServ>CONSULTAR NÃO ENCERRADOS</xServ>${doc}</consMDFeNaoEnc>`;
};

// ---------------------------------------------------------------------------------------------------------------
// Reading

export const filho = (el: XmlElement | null | undefined, nome: string): XmlElement | undefined =>
  el ? childElements(el).find((c) => c.localName === nome) : undefined;
export const filhos = (el: XmlElement | null | undefined, nome: string): XmlElement[] =>
  el ? childElements(el).filter((c) => c.localName === nome) : [];
export const texto = (el: XmlElement | null | undefined, ...caminho: string[]): string | null => {
  const n = caminho.reduce<XmlElement | undefined>((e, c) => filho(e, c), el ?? undefined);
  return n ? (n.textContent ?? '').trim() : null;
};

/** An answer the adapter cannot read: the authority answered something no manual describes. */
export class RespostaIlegivel extends Error {
  constructor(motivo: string) {
    super(`the authority's answer cannot be read: ${motivo}`);
    this.name = 'RespostaIlegivel';
  }
}

const raizDe = (xml: string): XmlElement => {
  const parsed = parseFiscalXml(xml);
  if ('refused' in parsed) throw new RespostaIlegivel(parsed.message);
  return parsed.doc.documentElement!;
};

export const cStatDe = (el: XmlElement): number => {
  const t = texto(el, 'cStat');
  // TStat is [0-9]{3,4} since NT 2025.001 (CT-e v1.09+, MDF-e v1.03: "cStat com até 4 dígitos").
  if (t === null || !/^[0-9]{3,4}$/.test(t)) throw new RespostaIlegivel(`no cStat in ${el.localName ?? ''}`);
  return Number(t);
};

const tpAmbDe = (t: string | null): 1 | 2 => (t === '1' ? 1 : 2);

/** The protocol of a document from its `protCTe`/`protMDFe` as written (the `xml` kept byte for byte). */
export function protocoloDoDocumento(l: Layout, bruto: string): ProtocoloDocumento {
  const inf = filho(raizDe(bruto), 'infProt');
  if (!inf) throw new RespostaIlegivel(`${l.prot} without infProt`);
  return {
    modelo: l.modelo,
    chave: texto(inf, l.chaveTag) ?? '',
    tpAmb: tpAmbDe(texto(inf, 'tpAmb')),
    verAplic: texto(inf, 'verAplic') ?? '',
    cStat: cStatDe(inf),
    xMotivo: texto(inf, 'xMotivo') ?? '',
    nProt: texto(inf, 'nProt') ?? '',
    dhRecbto: texto(inf, 'dhRecbto') ?? '',
    digVal: texto(inf, 'digVal') ?? '',
    xml: bruto,
  };
}

/** The protocol of an event from its `retEventoCTe`/`retEventoMDFe` as written. */
export function protocoloDoEvento(l: Layout, bruto: string, idEvento?: string): ProtocoloEvento {
  const inf = filho(raizDe(bruto), 'infEvento');
  if (!inf) throw new RespostaIlegivel(`${l.retEvento} without infEvento`);
  const chave = texto(inf, l.chaveTag) ?? '';
  const tpEvento = texto(inf, 'tpEvento') ?? '';
  const nSeqEvento = Number(texto(inf, 'nSeqEvento') ?? '0');
  return {
    modelo: l.modelo,
    // As the product names events: "ID" + tpEvento + key + nSeqEvento in three digits.
    idEvento: idEvento ?? `ID${tpEvento}${chave}${String(nSeqEvento).padStart(3, '0')}`,
    chave,
    tpEvento,
    nSeqEvento,
    cOrgao: texto(inf, 'cOrgao') ?? '',
    tpAmb: tpAmbDe(texto(inf, 'tpAmb')),
    verAplic: texto(inf, 'verAplic') ?? '',
    cStat: cStatDe(inf),
    xMotivo: texto(inf, 'xMotivo') ?? '',
    xEvento: texto(inf, 'xEvento') ?? '',
    nProt: texto(inf, 'nProt') ?? '',
    dhRegEvento: texto(inf, 'dhRegEvento') ?? '',
    xml: bruto,
  };
}

/** The one `<nome>` of an answer as written, or null when the answer has none. */
export function brutoUnico(respostaTexto: string, nome: string, ns: string): string | null {
  return elementosBrutos(respostaTexto, nome, ns)[0] ?? null;
}

/** The registered events of a consultation's answer: each `procEvento…`'s `retEvento…`, byte for byte. */
export function eventosDaConsulta(l: Layout, respostaTexto: string): ProtocoloEvento[] {
  return elementosBrutos(respostaTexto, l.procEvento, l.ns).flatMap((proc) => {
    const ret = elementosBrutos(proc, l.retEvento, l.ns)[0];
    return ret ? [protocoloDoEvento(l, ret)] : [];
  });
}

/** The access key of a signed document (`Id="CTe…"`/`Id="MDFe…"` of its inf element). */
export function chaveDoDocumento(l: Layout, xml: string): string | null {
  const prefixo = l.modelo === 'cte' ? 'CTe' : 'MDFe';
  return new RegExp(`\\sId="${prefixo}([0-9A-Z]{44})"`).exec(xml)?.[1] ?? null;
}

/** The signature's DigestValue of a signed document (what the authority's protocol repeats as `digVal`). */
export const digestDoDocumento = (xml: string): string | null => /<DigestValue>([^<]+)<\/DigestValue>/.exec(xml)?.[1]?.trim() ?? null;

/** The key, type and sequence of a signed event. */
export function dadosDoEvento(l: Layout, xml: string): { chave: string; tpEvento: string; nSeqEvento: number } | null {
  const inf = filho(raizDe(semDeclaracao(xml)), 'infEvento');
  const chave = texto(inf, l.chaveTag);
  const tpEvento = texto(inf, 'tpEvento');
  const seq = texto(inf, 'nSeqEvento');
  return chave && tpEvento && seq ? { chave, tpEvento, nSeqEvento: Number(seq) } : null;
}
