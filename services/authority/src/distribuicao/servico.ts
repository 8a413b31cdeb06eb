import { gzipSync } from 'node:zlib';
import {
  type AmbienteNacionalSimulado,
  dhRespDe,
  elementosBrutos,
  envelopeDaRespostaDistribuicao,
  lerEnvelope,
  type RetornoAmbienteNacional,
  SOAP_DISTRIBUICAO,
  type ServicoAn,
  servicoDistribuicaoDe,
  VER_APLIC_AMBIENTE_NACIONAL,
  XMOTIVO_DISTRIBUICAO,
} from '@frete/adapters';
import { type ServicoDistribuicao } from '@frete/contracts';
import { childElements, type FiscalRootSchema, type FiscalSchemas, type XmlElement } from '@frete/documents';

/**
 * The national environment's door: `CTeDistribuicaoDFe` and `NFeDistribuicaoDFe` as SOAP 1.2, in front of the same
 * `AmbienteNacionalSimulado` the sandbox consults in process. The request is `<x>DistDFeInteresse/<x>DadosMsg/
 * distDFeInt` in the service's WSDL namespace (sped-cte/sped-nfe `Tools::sefazDistDFe`; the ASMX help page's SOAP 1.2
 * sample), checked against the official schema (215); the answer `retDistDFeInt` inside
 * `<x>DistDFeInteresseResponse/<x>DistDFeInteresseResult`, each document a `docZip` of gzip in Base64 (retDistDFeInt's
 * documentation: "compactado no padrão gZip", base64Binary). Facts D1–D12 in docs/fatos-autoridades.md.
 */

/** Where the door answers: `/AN/<Service>` (`SEFAZ_BASE_URL`) and the real table's path (`/<S>/<S>.asmx`). */
export function servicoAnDoCaminho(caminho: string): ServicoAn | null {
  const partes = caminho.split('/').filter((p) => p !== '');
  for (const servico of ['CTeDistribuicaoDFe', 'NFeDistribuicaoDFe'] as const) {
    if (partes.length === 2 && partes[0] === 'AN' && partes[1] === servico) return servico;
    // IIS compares paths without case, as the other services' real paths here.
    if (partes.length === 2 && `/${partes.join('/')}`.toLowerCase() === `/${servico}/${servico}.asmx`.toLowerCase()) return servico;
  }
  return null;
}

const SCHEMA_PEDIDO: Record<ServicoDistribuicao, FiscalRootSchema> = { cte: 'distDFeInt_v1.00.xsd', nfe: 'distDFeInt_v1.01.xsd' };
export const SCHEMA_RETORNO: Record<ServicoDistribuicao, FiscalRootSchema> = {
  cte: 'retDistDFeInt_v1.00.xsd',
  nfe: 'retDistDFeInt_v1.01.xsd',
};

export interface BalcaoDistribuicao {
  ambiente: AmbienteNacionalSimulado;
  schemas: FiscalSchemas;
  agora: () => Date;
}

export type PedidoDistribuicaoLido =
  /** `distDFeInt` as sent (null when the data area holds something else, refused with 215 and `detalhe`). */
  | { tipo: 'pedido'; distDFeInt: string | null; el: XmlElement; detalhe?: string }
  /** The envelope is not this service's request: a SOAP fault (400). */
  | { tipo: 'invalido'; motivo: string };

const filho = (el: XmlElement | undefined, nome: string, ns: string): XmlElement | undefined =>
  el ? childElements(el).find((c) => c.localName === nome && c.namespaceURI === ns) : undefined;
const texto = (el: XmlElement | undefined, nome: string): string | null => {
  const f = el ? childElements(el).find((c) => c.localName === nome) : undefined;
  return f ? (f.textContent ?? '').trim() : null;
};

/** The body's `<x>DistDFeInteresse/<x>DadosMsg` and its `distDFeInt` as sent, or why not. */
export function lerPedidoDistribuicao(servicoAn: ServicoAn, textoCorpo: string): PedidoDistribuicaoLido {
  const servico = servicoDistribuicaoDe(servicoAn)!;
  const s = SOAP_DISTRIBUICAO[servico];
  const envelope = lerEnvelope(textoCorpo);
  if (envelope.tipo === 'ilegivel') return { tipo: 'invalido', motivo: `the SOAP 1.2 envelope cannot be read (${envelope.motivo})` };
  if (envelope.tipo === 'falha') return { tipo: 'invalido', motivo: 'a SOAP fault is not a request' };
  const operacao = envelope.conteudo;
  const dados = operacao.localName === s.operacao && operacao.namespaceURI === s.wsdl ? filho(operacao, s.dadosMsg, s.wsdl) : undefined;
  if (!dados) {
    return {
      tipo: 'invalido',
      motivo: `the SOAP body must hold ${s.operacao}/${s.dadosMsg} in ${s.wsdl}, not ${operacao.localName ?? operacao.nodeName} in ${operacao.namespaceURI ?? 'no namespace'}`,
    };
  }
  const elementos = childElements(dados);
  const el = elementos[0];
  const bruto = elementosBrutos(textoCorpo, 'distDFeInt', s.portal)[0];
  if (elementos.length !== 1 || !el || el.localName !== 'distDFeInt' || el.namespaceURI !== s.portal || !bruto) {
    const veio = el ? `${el.localName ?? el.nodeName} em ${el.namespaceURI ?? 'nenhum namespace'}` : 'nada';
    return {
      tipo: 'pedido',
      distDFeInt: null,
      el: dados,
      detalhe: `[a área de dados deve conter um distDFeInt sem prefixo em ${s.portal}; veio ${veio}]`,
    };
  }
  return { tipo: 'pedido', distDFeInt: bruto, el };
}

/**
 * Answers one request: 215 when `distDFeInt` fails its schema (or asks `consNSU`/`consChNFe`, which the simulated
 * environment does not serve), else the environment's rules with the client certificate's CNPJ (593).
 */
export async function atenderDistribuicao(
  servicoAn: ServicoAn,
  pedido: Extract<PedidoDistribuicaoLido, { tipo: 'pedido' }>,
  documentoCertificado: string,
  balcao: BalcaoDistribuicao,
): Promise<RetornoAmbienteNacional> {
  const servico = servicoDistribuicaoDe(servicoAn)!;
  const recusa215 = (detalhe: string): RetornoAmbienteNacional => ({
    tipo: 'rejeitado',
    cStat: 215,
    xMotivo: `${XMOTIVO_DISTRIBUICAO[215]} ${detalhe}`.slice(0, 255).trim(),
    ultNSU: '000000000000000',
    maxNSU: '000000000000000',
    dhResp: dhRespDe(servico, balcao.agora()),
  });
  if (pedido.distDFeInt === null) return recusa215(pedido.detalhe ?? '');
  const valido = await balcao.schemas.validate(pedido.distDFeInt, SCHEMA_PEDIDO[servico]);
  if (!valido.valid) {
    const e = valido.errors[0]!;
    return recusa215(`[${e.path ?? `linha ${e.line}`}: ${e.message}]`);
  }
  const el = pedido.el;
  const ultNSU = texto(filho(el, 'distNSU', SOAP_DISTRIBUICAO[servico].portal), 'ultNSU');
  if (ultNSU === null) return recusa215('[consNSU e consChNFe não são atendidos pelo ambiente nacional simulado: use distNSU]');
  return balcao.ambiente.consultar(
    { servico, cUFAutor: texto(el, 'cUFAutor') ?? '', documento: texto(el, 'CNPJ') ?? texto(el, 'CPF') ?? '', ultNSU },
    { documentoCertificado, tpAmb: texto(el, 'tpAmb') === '1' ? 1 : 2 },
  );
}

const escapar = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** `TMotivo`: 1–255 characters from space to ÿ, no blank at either end (a schema error's detail may hold others). */
const motivo = (s: string) =>
  s
    .replace(/[^\x20-\xFF]/g, '?')
    .slice(0, 255)
    .trim() || '?';

/**
 * `retDistDFeInt` as the service writes it (the schema's order), each document gzipped in Base64; the NSUs in
 * `corrompidos` get content that is not Base64 (an injected fault). `tpAmb` is the environment the door plays.
 */
export function retDistDFeIntXml(
  servico: ServicoDistribuicao,
  tpAmb: 1 | 2,
  r: RetornoAmbienteNacional,
  corrompidos = new Set<string>(),
): string {
  const s = SOAP_DISTRIBUICAO[servico];
  const docs = r.tipo === 'consultado' ? r.documentos : [];
  const lote =
    docs.length === 0
      ? ''
      : `<loteDistDFeInt>${docs
          .map((d) => {
            const base64 = 'xml' in d ? gzipSync(d.xml).toString('base64') : d.conteudo;
            // '!' is outside Base64's alphabet: the element no longer decodes, whatever the client's decoder.
            const conteudo = corrompidos.has(d.nsu) ? `!${base64.slice(1)}` : base64;
            return `<docZip NSU="${d.nsu}" schema="${escapar(d.schema)}">${conteudo}</docZip>`;
          })
          .join('')}</loteDistDFeInt>`;
  return (
    `<retDistDFeInt xmlns="${s.portal}" versao="${s.versao}"><tpAmb>${tpAmb}</tpAmb><verAplic>${VER_APLIC_AMBIENTE_NACIONAL}</verAplic>` +
    `<cStat>${r.cStat}</cStat><xMotivo>${escapar(motivo(r.xMotivo))}</xMotivo><dhResp>${r.dhResp}</dhResp>` +
    `<ultNSU>${r.ultNSU}</ultNSU><maxNSU>${r.maxNSU}</maxNSU>${lote}</retDistDFeInt>`
  );
}

/** The SOAP 1.2 answer around `retDistDFeInt`. */
export const envelopeDistribuicao = (servico: ServicoDistribuicao, retDistDFeInt: string): string =>
  envelopeDaRespostaDistribuicao(servico, retDistDFeInt);
