import https from 'node:https';
import { gzipSync } from 'node:zlib';
import {
  elementosBrutos,
  envelopeDoPedido,
  lerEnvelope,
  modeloDoServico,
  PORTAL_NS,
  primeiroNoNamespace,
  SOAP12_CONTENT_TYPE,
  type ServicoSefaz,
} from '@frete/adapters';
import { childElements, type XmlElement } from '@frete/documents';

/**
 * A bare HTTPS client for the local authority's tests, with Node's https module: what goes on the wire is exactly
 * what a test writes (the shared SOAP codec builds the envelopes), and what comes back is given raw.
 */

export interface ChaveCliente {
  key: string;
  cert: string;
}

export interface RespostaHttp {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  corpo: string;
}

export interface OpcoesPedido {
  /** The CA that issued the server's certificate. */
  ca: string;
  /** The client certificate (an A1); none when null. */
  cliente: ChaveCliente | null;
  method?: string;
  contentType?: string | null;
  headers?: Record<string, string>;
}

/** One request on a connection of its own (no agent: each test chooses its certificate). */
export function pedirHttps(url: string, caminho: string, corpo: string | Buffer, o: OpcoesPedido): Promise<RespostaHttp> {
  const alvo = new URL(caminho, url);
  const bytes = typeof corpo === 'string' ? Buffer.from(corpo, 'utf8') : corpo;
  const headers: Record<string, string> = { 'Content-Length': String(bytes.length), ...(o.headers ?? {}) };
  if (o.contentType !== null) headers['Content-Type'] = o.contentType ?? SOAP12_CONTENT_TYPE;
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        hostname: alvo.hostname,
        port: alvo.port,
        path: alvo.pathname + alvo.search,
        method: o.method ?? 'POST',
        agent: false,
        ca: o.ca,
        ...(o.cliente ? { key: o.cliente.key, cert: o.cliente.cert } : {}),
        headers,
      },
      (res) => {
        const partes: Buffer[] = [];
        res.on('data', (p: Buffer) => partes.push(p));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, corpo: Buffer.concat(partes).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(bytes);
  });
}

/** The data area of a synchronous reception: the signed document gzipped, in Base64. */
export const areaDeRecepcao = (xmlAssinado: string): string => gzipSync(Buffer.from(xmlAssinado, 'utf8')).toString('base64');

/** A service's SOAP request (the codec's envelope, as the adapter sends it). */
export const envelope = (servico: ServicoSefaz, dados: string, cUF = '43'): string =>
  envelopeDoPedido({ servico, cUF, versaoDados: modeloDoServico(servico) === 'cte' ? '4.00' : '3.00', dados });

export interface Retorno {
  /** The answer element (`retCTe`, `retConsSitCTe`…). */
  el: XmlElement;
  /** The same element as written in the answer. */
  bruto: string;
  texto(nome: string): string | null;
}

/** The portal answer element of a SOAP answer (HTTP 200), read and as written. */
export function retornoDe(servico: ServicoSefaz, r: RespostaHttp, nome: string): Retorno {
  if (r.status !== 200) throw new Error(`expected HTTP 200, got ${r.status}: ${r.corpo.slice(0, 500)}`);
  const lido = lerEnvelope(r.corpo);
  if (lido.tipo !== 'corpo') throw new Error(`expected a SOAP answer, got ${JSON.stringify(lido)}`);
  const ns = PORTAL_NS[modeloDoServico(servico)];
  const el = primeiroNoNamespace(lido.conteudo, ns);
  if (!el || el.localName !== nome) throw new Error(`expected ${nome}, got ${el?.localName ?? 'nothing'}: ${r.corpo.slice(0, 500)}`);
  const bruto = elementosBrutos(r.corpo, nome, ns)[0]!;
  const texto = (n: string) => {
    const filho = childElements(el).find((c) => c.localName === n);
    return filho ? (filho.textContent ?? '') : null;
  };
  return { el, bruto, texto };
}

/** The SOAP 1.2 fault of an answer: its code and reason. */
export function falhaSoapDe(r: RespostaHttp): { codigo: string; motivo: string } {
  const lido = lerEnvelope(r.corpo);
  if (lido.tipo !== 'falha') throw new Error(`expected a SOAP fault, got ${r.status}: ${r.corpo.slice(0, 500)}`);
  return { codigo: lido.codigo, motivo: lido.motivo };
}
