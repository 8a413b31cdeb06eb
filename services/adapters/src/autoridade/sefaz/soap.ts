import { childElements, parseFiscalXml, type XmlElement } from '@frete/documents';
import { type ServicoSefaz, SERVICOS_CTE } from './autorizadores';

/**
 * The SOAP 1.2 both sides of the authorities' web services speak (facts file, "Transport"): the request's body is one
 * `cteDadosMsg` (MDF-e `mdfeDadosMsg`) in the service's WSDL namespace; MDF-e requests also carry an `mdfeCabecMsg`
 * header (`cUF`, `versaoDados`), CT-e 4.00 ones none (`CABECALHO_SOAP`). The answer's body holds the service's result
 * element (`RESULTADOS`, the WSDLs' names); readers still look for the first element in the portal namespace instead
 * of a fixed path, as a differently named wrapper must not break them. One codec for the adapter and the local server.
 */

export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const SOAP12_CONTENT_TYPE = 'application/soap+xml; charset=utf-8';
export const PORTAL_NS = { cte: 'http://www.portalfiscal.inf.br/cte', mdfe: 'http://www.portalfiscal.inf.br/mdfe' } as const;

export type ModeloDoServico = keyof typeof PORTAL_NS;

export const modeloDoServico = (servico: ServicoSefaz): ModeloDoServico =>
  (SERVICOS_CTE as readonly string[]).includes(servico) ? 'cte' : 'mdfe';

export const namespaceWsdl = (servico: ServicoSefaz): string => `${PORTAL_NS[modeloDoServico(servico)]}/wsdl/${servico}`;

/** The synchronous receptions carry the signed document gzipped and in Base64, as text; the others plain XML. */
export const ehRecepcaoSincrona = (servico: ServicoSefaz): boolean => servico === 'CTeRecepcaoSincV4' || servico === 'MDFeRecepcaoSinc';

/**
 * Each service's operation result, as the WSDLs name them (`<operation>Result`); the local server answers with these.
 * CT-e 4.00: the SVRS WSDLs kept by Java_CTe @ c4de5d6 (`wsdl/CTeRecepcaoSincV4.wsdl`: operation `cteRecepcao`,
 * element `cteRecepcaoResult`; `CTeConsultaV4.wsdl`: `cteConsultaCTResult`; `CTeStatusServicoV4.wsdl`:
 * `cteStatusServicoCTResult`; `CTeRecepcaoEventoV4.wsdl`: `cteRecepcaoEventoResult`), matching sped-cte's
 * `wscte_4.00_mod57.xml` `method` attributes (cteRecepcao, cteConsultaCT, cteStatusServicoCT, cteRecepcaoEvento).
 * MDF-e 3.00: sped-mdfe `wsmdfe_3.00.xml` `method` attributes (mdfeRecepcao, mdfeConsultaMDF, mdfeStatusServicoMDF,
 * mdfeRecepcaoEvento, mdfeConsNaoEnc) + `Result`; `mdfeRecepcaoResult`, `mdfeStatusServicoMDFResult` and
 * `mdfeRecepcaoEventoResult` also appear in public libraries' recorded SVRS answers (erpbrasil.edoc, nfelib tests,
 * ACBr `ACBrMDFeWebServices`). No "cteResultMsg"/"mdfeResultMsg" element exists in these WSDLs.
 */
const RESULTADOS: Record<ServicoSefaz, string> = {
  CTeRecepcaoSincV4: 'cteRecepcaoResult',
  CTeConsultaV4: 'cteConsultaCTResult',
  CTeStatusServicoV4: 'cteStatusServicoCTResult',
  CTeRecepcaoEventoV4: 'cteRecepcaoEventoResult',
  MDFeRecepcaoSinc: 'mdfeRecepcaoResult',
  MDFeConsulta: 'mdfeConsultaMDFResult',
  MDFeStatusServico: 'mdfeStatusServicoMDFResult',
  MDFeRecepcaoEvento: 'mdfeRecepcaoEventoResult',
  MDFeConsNaoEnc: 'mdfeConsNaoEncResult',
};

/** The result element's name in answers (as the WSDLs name them; readers never rely on it). */
export const elementoResultado = (servico: ServicoSefaz): string => RESULTADOS[servico];

/**
 * Whether a model's requests carry the SOAP header (`<m>CabecMsg` with `cUF` and `versaoDados`), and why.
 * CT-e 4.00: no. MOC CT-e Visão Geral, "Histórico de Alterações", version 4.00a: "Eliminação do SOAP Header dos
 * Webservices" (homologação 04/2023, produção 06/2023); its §3.4.1 shows a request with the body only; the SVRS 4.00
 * WSDLs (Java_CTe `wsdl/CTeRecepcaoSincV4.wsdl` …) declare no `cteCabecMsg`. Public libraries still send one
 * (sped-cte `src/Common/Tools.php` `servico()` builds a `cteCabecMsg` SOAPHeader for every 4.00 service) and are in
 * use, so the services ignore a header they no longer declare: the local server does the same.
 * MDF-e 3.00: yes. MOC MDF-e 3.00 (its web service section: "O cabeçalho contém a versão do Schema XML da mensagem
 * contida na área de dados", as quoted by public copies of Manual_MDFe_v3.00), sped-mdfe `src/Factories/Header.php`,
 * erpbrasil.edoc `_header = 'mdfeCabecMsg'`: the local server requires it.
 */
export const CABECALHO_SOAP: Readonly<Record<ModeloDoServico, boolean>> = { cte: false, mdfe: true };

const ENVELOPE_ABRE = `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="${SOAP12_NS}">`;

/**
 * A request: `dados` is the body's content as it goes (an XML element, or the Base64 text of a reception). The header
 * goes only where the model's manual asks for it (`CABECALHO_SOAP`).
 */
export function envelopeDoPedido(o: { servico: ServicoSefaz; cUF: string; versaoDados: string; dados: string }): string {
  const m = modeloDoServico(o.servico);
  const ns = namespaceWsdl(o.servico);
  const cabecalho = CABECALHO_SOAP[m]
    ? `<soap12:Header><${m}CabecMsg xmlns="${ns}"><cUF>${o.cUF}</cUF><versaoDados>${o.versaoDados}</versaoDados></${m}CabecMsg></soap12:Header>`
    : '';
  return `${ENVELOPE_ABRE}${cabecalho}<soap12:Body><${m}DadosMsg xmlns="${ns}">${o.dados}</${m}DadosMsg></soap12:Body></soap12:Envelope>`;
}

/** An answer: the portal element (`retCTe`, `retConsSitCTe`, …) inside the service's result element. */
export const envelopeDaResposta = (servico: ServicoSefaz, retorno: string): string =>
  `${ENVELOPE_ABRE}<soap12:Body><${elementoResultado(servico)} xmlns="${namespaceWsdl(servico)}">${retorno}` +
  `</${elementoResultado(servico)}></soap12:Body></soap12:Envelope>`;

const escapar = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A SOAP 1.2 fault (`Sender` for a request the server cannot read, `Receiver` for its own failure). */
export const envelopeDeFalha = (codigo: 'Sender' | 'Receiver', motivo: string): string =>
  `${ENVELOPE_ABRE}<soap12:Body><soap12:Fault><soap12:Code><soap12:Value>soap12:${codigo}</soap12:Value></soap12:Code>` +
  `<soap12:Reason><soap12:Text xml:lang="pt-BR">${escapar(motivo)}</soap12:Text></soap12:Reason></soap12:Fault></soap12:Body></soap12:Envelope>`;

export type EnvelopeLido =
  /** `conteudo` is the body's first element (the result element of an answer, `cteDadosMsg` of a request). */
  | { tipo: 'corpo'; conteudo: XmlElement; cabecalho: XmlElement | null }
  | { tipo: 'falha'; codigo: string; motivo: string }
  | { tipo: 'ilegivel'; motivo: string };

const filhoSoap = (el: XmlElement, nome: string) => childElements(el).find((c) => c.localName === nome && c.namespaceURI === SOAP12_NS);

/** Reads a SOAP 1.2 envelope (hostile XML refused before parsing, as every XML this product reads). */
export function lerEnvelope(xml: string): EnvelopeLido {
  const parsed = parseFiscalXml(xml);
  if ('refused' in parsed) return { tipo: 'ilegivel', motivo: `${parsed.refused}: ${parsed.message}` };
  const raiz = parsed.doc.documentElement!;
  if (raiz.localName !== 'Envelope' || raiz.namespaceURI !== SOAP12_NS) return { tipo: 'ilegivel', motivo: 'not a SOAP 1.2 envelope' };
  const corpo = filhoSoap(raiz, 'Body');
  const conteudo = corpo ? childElements(corpo)[0] : undefined;
  if (!conteudo) return { tipo: 'ilegivel', motivo: 'SOAP body is empty' };
  if (conteudo.localName === 'Fault' && conteudo.namespaceURI === SOAP12_NS) {
    const texto = (...caminho: string[]) =>
      caminho.reduce<XmlElement | undefined>((el, n) => (el ? filhoSoap(el, n) : undefined), conteudo);
    return {
      tipo: 'falha',
      codigo: (texto('Code', 'Value')?.textContent ?? '').trim(),
      motivo: (texto('Reason', 'Text')?.textContent ?? '').trim(),
    };
  }
  const header = filhoSoap(raiz, 'Header');
  return { tipo: 'corpo', conteudo, cabecalho: header ? (childElements(header)[0] ?? null) : null };
}

/** The first element in `namespace` at or under `el`, depth first (an answer's `retCTe` inside its result element). */
export function primeiroNoNamespace(el: XmlElement, namespace: string): XmlElement | null {
  if (el.namespaceURI === namespace) return el;
  for (const c of childElements(el)) {
    const achado = primeiroNoNamespace(c, namespace);
    if (achado) return achado;
  }
  return null;
}

/**
 * Every `<nome …>…</nome>` element of `texto` (unprefixed, not nested in itself) as written, in order: the authority's
 * `protCTe`, `retEventoCTe` or the event of a `procEventoCTe` are archived byte for byte, not re-serialised. An element
 * that inherits its default namespace gets it declared on its start tag (the same canonical form, as the signature
 * of an authority's protocol needs), since it is taken out of its parent. Prefixed elements are not matched.
 */
export function elementosBrutos(texto: string, nome: string, namespace: string): string[] {
  const achados: string[] = [];
  const abre = new RegExp(`<${nome}(?=[\\s/>])`, 'g');
  const fecha = `</${nome}>`;
  let m: RegExpExecArray | null;
  while ((m = abre.exec(texto)) !== null) {
    const inicio = m.index;
    const fimTag = texto.indexOf('>', inicio);
    if (fimTag < 0) break;
    const tag = texto.slice(inicio, fimTag + 1);
    let bruto: string;
    if (tag.endsWith('/>')) bruto = tag;
    else {
      const fim = texto.indexOf(fecha, fimTag);
      if (fim < 0) break;
      bruto = texto.slice(inicio, fim + fecha.length);
    }
    abre.lastIndex = inicio + bruto.length;
    achados.push(/\sxmlns\s*=/.test(tag) ? bruto : `<${nome} xmlns="${namespace}"${bruto.slice(nome.length + 1)}`);
  }
  return achados;
}
