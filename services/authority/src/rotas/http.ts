import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type TLSSocket } from 'node:tls';
import {
  CABECALHO_SOAP,
  dhRespDe,
  lerEnvelope,
  modeloDoServico,
  namespaceWsdl,
  type Remetente,
  type ServicoAn,
  servicoDistribuicaoDe,
  xMotivoDe,
} from '@frete/adapters';
import { describeCertificate } from '@frete/platform';
import { childElements, type XmlElement } from '@frete/documents';
import { dhSaoPaulo } from '@frete/domain';
import { CAMINHO_AMBIENTE_NACIONAL_NFE, registrarNfeAdmin } from '../distribuicao/admin';
import {
  atenderDistribuicao,
  type BalcaoDistribuicao,
  envelopeDistribuicao,
  lerPedidoDistribuicao,
  retDistDFeIntXml,
  servicoAnDoCaminho,
} from '../distribuicao/servico';
import { administrarFalhas, CAMINHO_FALHAS } from '../falhas/admin';
import { type Falhas } from '../falhas/falhas';
import { atender, type Balcao, type Pedido, retornoSemDados } from '../servicos';
import { remetenteDe } from '../tls/cliente';
import { type Rota, rotaDe } from './caminhos';
import { descartarCorpo, LIMITE_CORPO, lerCorpo } from './corpo';
import { responder, responderFalha, responderJson, responderRetorno } from './respostas';

/** What the HTTP door needs of the server around it. */
export interface Porta {
  balcao(rota: Rota): Balcao;
  falhas: Falhas;
  /** Waits `ms` (an injected latency); cut short when the server closes. */
  esperar(ms: number): Promise<void>;
  log(mensagem: string): void;
  /** Counts a request that reached a service (`<authorizer>/<Service>`), for whoever checks what was sent. */
  contar(rota: { autorizador: string; servico: string }): void;
  /** The national environment behind `/AN/<Service>`, and the environment (`tpAmb`) the server plays. */
  distribuicao: BalcaoDistribuicao & { tpAmb: 1 | 2 };
}

const LIMITE_ADMIN = 64 * 1024;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The request handler of the local authority's HTTPS server. */
export function tratadorHttp(porta: Porta): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    tratar(porta, req, res).catch((error: unknown) => {
      porta.log(`request ${req.method} ${req.url} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) responderFalha(res, 500, 'internal error of the local authority server', { fechar: true });
      else res.destroy();
    });
  };
}

/** A refusal before the body is read: the body is read and dropped first, so that the client gets the answer. */
async function recusar(req: IncomingMessage, res: ServerResponse, status: number, motivo: string, cabecalhos?: Record<string, string>) {
  const lido = await descartarCorpo(req);
  responderFalha(res, status, motivo, { fechar: !lido, ...(cabecalhos ? { cabecalhos } : {}) });
}

/** SOAP 1.2 only (`application/soap+xml`), in UTF-8 when a charset is named. */
function ehSoap12(contentType: string | undefined): boolean {
  const [tipo, ...parametros] = (contentType ?? '').split(';').map((p) => p.trim().toLowerCase());
  if (tipo !== 'application/soap+xml') return false;
  const charset = parametros
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

/**
 * The SOAP door every service shares: POST (405), SOAP 1.2 (415), a body within the limit (413). The body's bytes, or
 * null once the refusal is answered.
 */
async function corpoSoap(req: IncomingMessage, res: ServerResponse): Promise<Buffer | null> {
  if (req.method !== 'POST') {
    await recusar(req, res, 405, `method ${req.method} is not allowed: SOAP requests are POST`, { Allow: 'POST' });
    return null;
  }
  if (!ehSoap12(req.headers['content-type'])) {
    await recusar(
      req,
      res,
      415,
      `content type ${JSON.stringify(req.headers['content-type'] ?? '')} is not SOAP 1.2 (application/soap+xml; charset=utf-8)`,
    );
    return null;
  }
  const corpo = await lerCorpo(req, LIMITE_CORPO);
  if (corpo.tipo === 'grande_demais') {
    responderFalha(res, 413, `the request body is over ${LIMITE_CORPO} bytes`, { fechar: !corpo.descartado });
    return null;
  }
  return corpo.bytes;
}

async function tratar(porta: Porta, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { pathname } = new URL(req.url ?? '/', 'https://autoridade.invalid');
  if (pathname === CAMINHO_FALHAS) return administrar(porta, req, res);
  if (pathname === CAMINHO_AMBIENTE_NACIONAL_NFE) return registrarNfe(porta, req, res);
  const servicoAn = servicoAnDoCaminho(pathname);
  if (servicoAn) return tratarDistribuicao(porta, req, res, servicoAn);
  const rota = rotaDe(pathname);
  if (!rota) {
    return recusar(
      req,
      res,
      404,
      `no service at ${pathname}: use /<authorizer>/<Service> or a real table's path (/ws/<Service>/<Service>.asmx)`,
    );
  }
  const corpo = await corpoSoap(req, res);
  if (!corpo) return;

  porta.contar(rota);
  const balcao = porta.balcao(rota);
  const falha = porta.falhas.tomar(rota.servico);
  if (falha?.tipo === 'erro_servidor')
    return responderFalha(res, 500, 'the authority server failed (injected fault): nothing was processed');
  if (falha?.tipo === 'status') {
    const xMotivo = xMotivoDe(modeloDoServico(rota.servico), falha.cStat);
    return responderRetorno(
      res,
      rota.servico,
      retornoSemDados(rota.servico, balcao.cabecalho, falha.cStat, xMotivo, dhSaoPaulo(balcao.agora())),
    );
  }

  const pedido = lerPedido(rota, corpo, remetenteDe(req.socket as TLSSocket));
  if ('motivo' in pedido) return responderFalha(res, 400, pedido.motivo);
  const resposta = await atender(pedido, balcao);
  if (falha?.tipo === 'latencia') await porta.esperar(falha.ms);
  // Processed and not answered: the connection drops, as when a real answer is lost on the way.
  if (resposta.tipo === 'sem_resposta' || falha?.tipo === 'sem_resposta') {
    req.socket.destroy();
    return;
  }
  responderRetorno(res, rota.servico, resposta.xml);
}

/** The SOAP envelope and its data area (`cteDadosMsg`/`mdfeDadosMsg` in the service's WSDL namespace), or why not. */
function lerPedido(rota: Rota, bytes: Buffer, remetente: Remetente): Pedido | { motivo: string } {
  let texto: string;
  try {
    texto = UTF8.decode(bytes);
  } catch {
    return { motivo: 'the request body is not UTF-8' };
  }
  const envelope = lerEnvelope(texto);
  if (envelope.tipo === 'ilegivel') return { motivo: `the SOAP 1.2 envelope cannot be read (${envelope.motivo})` };
  if (envelope.tipo === 'falha') return { motivo: 'a SOAP fault is not a request' };
  const modelo = modeloDoServico(rota.servico);
  const area = `${modelo}DadosMsg`;
  const ns = namespaceWsdl(rota.servico);
  const dados = envelope.conteudo;
  if (dados.localName !== area || dados.namespaceURI !== ns) {
    return {
      motivo: `the SOAP body must hold ${area} in ${ns}, not ${dados.localName ?? dados.nodeName} in ${dados.namespaceURI ?? 'no namespace'}`,
    };
  }
  const semCabecalho = CABECALHO_SOAP[modelo] ? problemaDoCabecalho(envelope.cabecalho, `${modelo}CabecMsg`, ns) : null;
  if (semCabecalho) return { motivo: semCabecalho };
  return { servico: rota.servico, modelo, dados, cabecalho: envelope.cabecalho, texto, remetente };
}

/**
 * The SOAP header, checked as the model's manual asks (`CABECALHO_SOAP`): MDF-e requests carry `mdfeCabecMsg` in
 * the service's namespace with a two-digit `cUF` and `versaoDados` 3.00; a CT-e 4.00 header is not read at all (the
 * MOC 4.00a eliminated it and the real services ignore one still sent).
 */
function problemaDoCabecalho(cabecalho: XmlElement | null, nome: string, ns: string): string | null {
  if (!cabecalho || cabecalho.localName !== nome || cabecalho.namespaceURI !== ns) {
    return `the SOAP header must hold ${nome} in ${ns} (cUF, versaoDados), as the MDF-e manual asks`;
  }
  const texto = (filho: string) =>
    (childElements(cabecalho).find((c) => c.localName === filho && c.namespaceURI === ns)?.textContent ?? '').trim();
  if (!/^[0-9]{2}$/.test(texto('cUF'))) return `${nome}/cUF must be a UF's two-digit code, not ${JSON.stringify(texto('cUF'))}`;
  if (texto('versaoDados') !== '3.00') return `${nome}/versaoDados must be 3.00, not ${JSON.stringify(texto('versaoDados'))}`;
  return null;
}

async function administrar(porta: Porta, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const corpo = await lerCorpo(req, LIMITE_ADMIN);
  if (corpo.tipo === 'grande_demais') {
    res.setHeader('Connection', 'close');
    return responderJson(res, 413, { erro: `the rules are over ${LIMITE_ADMIN} bytes` });
  }
  const r = administrarFalhas(porta.falhas, req.method ?? '', corpo.bytes.toString('utf8'));
  responderJson(res, r.status, r.corpo);
}

const LIMITE_NFE = 2 * 1024 * 1024;

async function registrarNfe(porta: Porta, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const corpo = await lerCorpo(req, LIMITE_NFE);
  if (corpo.tipo === 'grande_demais') {
    res.setHeader('Connection', 'close');
    return responderJson(res, 413, { erro: `the NF-e is over ${LIMITE_NFE} bytes` });
  }
  let xml: string;
  try {
    xml = UTF8.decode(corpo.bytes);
  } catch {
    return responderJson(res, 400, { erro: 'the NF-e is not UTF-8' });
  }
  const r = await registrarNfeAdmin(porta.distribuicao.ambiente, req.method ?? '', xml);
  responderJson(res, r.status, r.corpo);
}

/** The client certificate's CNPJ (ICP-Brasil otherName, or the CN's), as the national environment authenticates. */
function documentoDoCertificado(socket: TLSSocket): string {
  const der = socket.getPeerCertificate().raw;
  if (!der) return '';
  const pem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;
  try {
    return describeCertificate(pem).cnpj ?? '';
  } catch {
    return '';
  }
}

/**
 * `/AN/CTeDistribuicaoDFe` and `/AN/NFeDistribuicaoDFe`: the same SOAP 1.2 door and faults as the authorizers'
 * services (latency, dropped answer after processing, server error, 108/109), plus a broken `docZip`.
 */
async function tratarDistribuicao(porta: Porta, req: IncomingMessage, res: ServerResponse, servicoAn: ServicoAn): Promise<void> {
  const corpo = await corpoSoap(req, res);
  if (!corpo) return;
  porta.contar({ autorizador: 'AN', servico: servicoAn });
  const servico = servicoDistribuicaoDe(servicoAn)!;
  const d = porta.distribuicao;
  const falha = porta.falhas.tomar(servicoAn);
  if (falha?.tipo === 'erro_servidor')
    return responderFalha(res, 500, 'the authority server failed (injected fault): nothing was processed');
  if (falha?.tipo === 'status') {
    // The channel's own status, nothing processed (sped-cte `storage/cstat.json` texts for 108 and 109).
    const xMotivo = falha.cStat === 108 ? 'Serviço Paralisado Momentaneamente (curto prazo)' : 'Serviço Paralisado sem Previsão';
    const zero = '000000000000000';
    const ret = {
      tipo: 'rejeitado' as const,
      cStat: falha.cStat,
      xMotivo,
      ultNSU: zero,
      maxNSU: zero,
      dhResp: dhRespDe(servico, d.agora()),
    };
    return responder(res, 200, envelopeDistribuicao(servico, retDistDFeIntXml(servico, d.tpAmb, ret)));
  }
  let texto: string;
  try {
    texto = UTF8.decode(corpo);
  } catch {
    return responderFalha(res, 400, 'the request body is not UTF-8');
  }
  const pedido = lerPedidoDistribuicao(servicoAn, texto);
  if (pedido.tipo === 'invalido') return responderFalha(res, 400, pedido.motivo);
  const retorno = await atenderDistribuicao(servicoAn, pedido, documentoDoCertificado(req.socket as TLSSocket), d);
  if (falha?.tipo === 'latencia') await porta.esperar(falha.ms);
  // Processed and not answered: the connection drops, as when a real answer is lost on the way.
  if (falha?.tipo === 'sem_resposta') {
    req.socket.destroy();
    return;
  }
  const nsus = retorno.tipo === 'consultado' ? retorno.documentos.map((doc) => doc.nsu) : [];
  const corrompidos = porta.falhas.docZipsCorrompidos(servicoAn, nsus);
  responder(res, 200, envelopeDistribuicao(servico, retDistDFeIntXml(servico, d.tpAmb, retorno, corrompidos)));
}
