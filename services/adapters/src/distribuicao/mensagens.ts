import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { type ServicoDistribuicao } from '@frete/contracts';
import { type XmlElement } from '@frete/documents';
import { type ServicoAn } from '../autoridade/sefaz/autorizadores';
import { SOAP12_NS } from '../autoridade/sefaz/soap';
import { filho, filhos, texto } from '../autoridade/sefaz/mensagens';
import { type PedidoDistribuicao } from './port';

/**
 * The messages of the national distribution services, as both sides speak them (the `sefaz` adapter and the local
 * authority server): the request `distDFeInt`, its SOAP 1.2 envelope, and the answer `retDistDFeInt`.
 *
 * Sources, by service:
 * - CT-e `CTeDistribuicaoDFe`, layout 1.00: sped-cte @ 2232aa7 `src/Tools.php` `sefazDistDFe` (body
 *   `cteDistDFeInteresse`/`cteDadosMsg` in `http://www.portalfiscal.inf.br/cte/wsdl/CTeDistribuicaoDFe`, `distDFeInt`
 *   with `tpAmb`, `cUFAutor`, `CNPJ` or `CPF`, `distNSU/ultNSU` of 15 digits, "este webservice não requer
 *   cabeçalho"), `storage/wscte_4.00_mod57.xml` (version 1.00); Java_CTe @ ffcee65 `CTeDistribuicaoDFeStub.java`
 *   (Axis2 stub generated from the service's WSDL: SOAP 1.2, operation `cteDistDFeInteresse`, action
 *   `…/CTeDistribuicaoDFe/cteDistDFeInteresse`, answer `cteDistDFeInteresseResponse/cteDistDFeInteresseResult`) and
 *   `schema_100/retdistdfeint/RetDistDFeInt.java` (the answer's schema: `tpAmb`, `verAplic`, `cStat`, `xMotivo`,
 *   `dhResp`, `ultNSU`, `maxNSU`, `loteDistDFeInt` of at most 50 `docZip`, base64Binary with `NSU` and `schema`).
 *   sped-cte sends the action `…/CTeDistribuicaoDFe/CTeDistribuicaoDFe` (its table's `method`); the WSDL's is kept.
 * - NF-e `NFeDistribuicaoDFe`, layout 1.01: sped-nfe @ 3b44ec9 `src/Tools.php` `sefazDistDFe` (body
 *   `nfeDistDFeInteresse`/`nfeDadosMsg` in `http://www.portalfiscal.inf.br/nfe/wsdl/NFeDistribuicaoDFe`, no header),
 *   `storage/wsnfe_4.00_mod55.xml` (method `nfeDistDFeInteresse`, version 1.01; sped-common `SoapCurl` sends it as
 *   the content type's `action`), `schemes/PL_010_V1.30/distDFeInt_v1.01.xsd` and `retDistDFeInt_v1.01.xsd`.
 */

export interface ServicoDistribuicaoSoap {
  /** The national environment's service (the routing's name: `AN/<servico>`). */
  servico: ServicoAn;
  /** The portal namespace of `distDFeInt` and `retDistDFeInt`. */
  portal: string;
  /** The WSDL namespace of the body's elements. */
  wsdl: string;
  /** `distDFeInt/@versao`. */
  versao: string;
  /** The body's operation element (`<x>DistDFeInteresse`) and its data area (`<x>DadosMsg`). */
  operacao: string;
  dadosMsg: string;
  /** The answer's wrappers, as the WSDL names them. */
  resposta: string;
  resultado: string;
  /** The WSDL's soapAction (`<wsdl>/<operacao>`), sent as the content type's `action`. */
  acao: string;
}

const soapDe = (m: 'cte' | 'nfe', servico: ServicoAn, versao: string): ServicoDistribuicaoSoap => {
  const portal = `http://www.portalfiscal.inf.br/${m}`;
  const wsdl = `${portal}/wsdl/${servico}`;
  const operacao = `${m}DistDFeInteresse`;
  return {
    servico,
    portal,
    wsdl,
    versao,
    operacao,
    dadosMsg: `${m}DadosMsg`,
    resposta: `${operacao}Response`,
    resultado: `${operacao}Result`,
    acao: `${wsdl}/${operacao}`,
  };
};

export const SOAP_DISTRIBUICAO: Readonly<Record<ServicoDistribuicao, ServicoDistribuicaoSoap>> = {
  cte: soapDe('cte', 'CTeDistribuicaoDFe', '1.00'),
  nfe: soapDe('nfe', 'NFeDistribuicaoDFe', '1.01'),
};

/** The service of a national environment's service name, or null. */
export const servicoDistribuicaoDe = (servico: string): ServicoDistribuicao | null =>
  servico === 'CTeDistribuicaoDFe' ? 'cte' : servico === 'NFeDistribuicaoDFe' ? 'nfe' : null;

/** 15 digits (`TNSU`): an NSU of fewer digits is padded, as the libraries do (`str_pad(…, 15, '0')`). */
export function nsu15(nsu: string): string {
  if (!/^[0-9]{1,15}$/.test(nsu)) throw new Error(`NSU ${JSON.stringify(nsu.slice(0, 40))} is not up to 15 digits`);
  return nsu.padStart(15, '0');
}

/** The request `distDFeInt` (`distNSU/ultNSU`: everything after the NSU the party already has). */
export function distDFeIntXml(pedido: PedidoDistribuicao, tpAmb: 1 | 2): string {
  const s = SOAP_DISTRIBUICAO[pedido.servico];
  if (!/^[0-9]{2}$/.test(pedido.cUFAutor)) throw new Error(`cUFAutor ${JSON.stringify(pedido.cUFAutor)} is not an IBGE UF code`);
  const doc = pedido.documento;
  const parte = /^[0-9]{14}$/.test(doc) ? `<CNPJ>${doc}</CNPJ>` : /^[0-9]{11}$/.test(doc) ? `<CPF>${doc}</CPF>` : null;
  if (!parte) throw new Error(`the interested party ${JSON.stringify(doc.slice(0, 20))} is neither a CNPJ nor a CPF`);
  return (
    `<distDFeInt xmlns="${s.portal}" versao="${s.versao}"><tpAmb>${tpAmb}</tpAmb><cUFAutor>${pedido.cUFAutor}</cUFAutor>${parte}` +
    `<distNSU><ultNSU>${nsu15(pedido.ultNSU)}</ultNSU></distNSU></distDFeInt>`
  );
}

const ENVELOPE_ABRE = `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="${SOAP12_NS}">`;

/** A request's SOAP 1.2 envelope: no header (neither service declares one), the body's operation and data area. */
export function envelopeDistribuicao(servico: ServicoDistribuicao, distDFeInt: string): string {
  const s = SOAP_DISTRIBUICAO[servico];
  return (
    `${ENVELOPE_ABRE}<soap12:Body><${s.operacao} xmlns="${s.wsdl}"><${s.dadosMsg}>${distDFeInt}</${s.dadosMsg}></${s.operacao}>` +
    `</soap12:Body></soap12:Envelope>`
  );
}

/** An answer's SOAP 1.2 envelope (`<x>DistDFeInteresseResponse/<x>DistDFeInteresseResult`), for the local server. */
export function envelopeDaRespostaDistribuicao(servico: ServicoDistribuicao, retDistDFeInt: string): string {
  const s = SOAP_DISTRIBUICAO[servico];
  return (
    `${ENVELOPE_ABRE}<soap12:Body><${s.resposta} xmlns="${s.wsdl}"><${s.resultado}>${retDistDFeInt}</${s.resultado}>` +
    `</${s.resposta}></soap12:Body></soap12:Envelope>`
  );
}

/** One `docZip` as the answer carried it. */
export interface DocZip {
  nsu: string;
  schema: string;
  /** The element's text: gzip in Base64. */
  conteudo: string;
}

export interface RetDistDFeIntLido {
  cStat: number;
  xMotivo: string;
  ultNSU: string | null;
  maxNSU: string | null;
  dhResp: string | null;
  docZips: DocZip[];
}

/**
 * Reads `retDistDFeInt` (the caller found it by namespace): its status and, in the order written, its `docZip`s. Null
 * when it carries no readable `cStat` (an answer no manual describes).
 */
export function lerRetDistDFeInt(ret: XmlElement): RetDistDFeIntLido | null {
  const cStat = texto(ret, 'cStat');
  if (cStat === null || !/^[0-9]{3,4}$/.test(cStat)) return null;
  const docZips = filhos(filho(ret, 'loteDistDFeInt'), 'docZip').map((d) => ({
    nsu: (d.getAttribute('NSU') ?? '').trim(),
    schema: (d.getAttribute('schema') ?? '').trim(),
    conteudo: d.textContent ?? '',
  }));
  return {
    cStat: Number(cStat),
    xMotivo: texto(ret, 'xMotivo') ?? '',
    ultNSU: texto(ret, 'ultNSU'),
    maxNSU: texto(ret, 'maxNSU'),
    dhResp: texto(ret, 'dhResp'),
    docZips,
  };
}

/** The largest document a `docZip` may unzip to: a fiscal document is kilobytes, a zip bomb is not read past this. */
export const MAX_DOCUMENTO_DISTRIBUIDO = 10 * 1024 * 1024;

const gunzipAsync = promisify(gunzip);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A `docZip`'s bytes (Base64, then gzip, as the schema's documentation says: "compactado no padrão gZip", type
 * base64Binary), never reserialised; or why they cannot be read. Unzipped off the event loop's thread (zlib's pool),
 * and never past `max` bytes.
 */
export async function abrirDocZip(conteudo: string, max: number = MAX_DOCUMENTO_DISTRIBUIDO): Promise<{ xml: Buffer } | { erro: string }> {
  // base64Binary allows blanks between characters (XML Schema's lexical space); the services write none.
  const limpo = conteudo.replace(/[\s]+/g, '');
  if (limpo === '') return { erro: 'docZip is empty' };
  if (!BASE64.test(limpo)) return { erro: 'docZip is not Base64' };
  const zip = Buffer.from(limpo, 'base64');
  try {
    return { xml: await gunzipAsync(zip, { maxOutputLength: max }) };
  } catch (error) {
    const e = error as { code?: string; message?: string };
    if (e.code === 'ERR_BUFFER_TOO_LARGE') return { erro: `docZip unzips to more than ${max} bytes` };
    return { erro: `docZip is not gzip: ${e.message ?? String(error)}` };
  }
}
