import https from 'node:https';
import { createHash } from 'node:crypto';
import { type TLSSocket } from 'node:tls';
import { SOAP12_CONTENT_TYPE } from './soap';

/** The company's A1 as TLS client certificate (the same certificate that signs its documents). */
export interface CredencialTls {
  certificadoPem: string;
  chavePrivadaPem: string;
  /** The issuers, when the file carried them: sent so that the server can build the chain. */
  cadeiaPem?: string[];
}

/**
 * What became of one POST. `nao_enviado`: the request never reached the server (no connection, the server's
 * certificate not trusted, the handshake failed), so it is safe to say the call did not take place. `sem_resposta`:
 * it was sent and no answer came (timeout, connection closed): the authority may have processed it.
 */
export type ResultadoTransporte =
  | { tipo: 'resposta'; status: number; corpo: string }
  | { tipo: 'nao_enviado'; motivo: string; servidorNaoConfiavel: boolean }
  | { tipo: 'sem_resposta'; motivo: string }
  /**
   * The server refused our client certificate (a TLS alert about it, a handshake closed on it twice, or an IIS-style
   * HTTP 403): nothing was processed.
   */
  | { tipo: 'certificado_recusado'; motivo: string };

export interface TransporteOptions {
  /** PEM bundle the servers' certificates must chain to (ICP-Brasil's, or a local server's CA): never skipped. */
  confiancaPem: string;
  timeoutMs: number;
  /** Connections open at once per client certificate: the company's documents in flight to the authority. Default 16. */
  conexoes?: number;
  /** An answer larger than this is not read (an authority's answers are kilobytes). */
  maxResposta?: number;
}

const MAX_RESPOSTA = 5 * 1024 * 1024;
const MAX_AGENTES = 256;
const OCIOSO_MS = 30_000;

// Codes OpenSSL gives when the peer sent an alert about our certificate.
const ALERTA_CERTIFICADO =
  /ALERT_(BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_REQUIRED|CERTIFICATE_UNKNOWN|CERTIFICATE_REVOKED|CERTIFICATE_EXPIRED|UNSUPPORTED_CERTIFICATE|ACCESS_DENIED)/;
// Codes of a server certificate we do not trust (or that does not name the host).
const SERVIDOR_NAO_CONFIAVEL =
  /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|CERT_UNTRUSTED|CERT_REVOKED|ERR_TLS_CERT_ALTNAME_INVALID|CERT_SIGNATURE_FAILURE)$/;

const codigoDe = (error: unknown): string => {
  const e = error as { code?: unknown; message?: unknown };
  return typeof e?.code === 'string' ? e.code : '';
};
const mensagemDe = (error: unknown): string => {
  const e = error as { message?: unknown };
  return typeof e?.message === 'string' ? e.message : String(error);
};

/**
 * POSTs SOAP 1.2 over HTTPS with mutual TLS. One keep-alive agent per client certificate (TLS sessions are reused
 * across a batch's documents); the server's certificate is always verified against the configured trust store.
 */
export class TransporteSefaz {
  private readonly agentes = new Map<string, https.Agent>();

  constructor(private readonly options: TransporteOptions) {}

  private agente(credencial: CredencialTls): https.Agent {
    const chave = createHash('sha256').update(credencial.certificadoPem).digest('hex');
    let agente = this.agentes.get(chave);
    if (!agente) {
      agente = new https.Agent({
        keepAlive: true,
        maxSockets: this.options.conexoes ?? 16,
        // An idle kept-alive socket closes after this (the authorities close theirs too).
        timeout: OCIOSO_MS,
        key: credencial.chavePrivadaPem,
        cert: [credencial.certificadoPem, ...(credencial.cadeiaPem ?? [])].join('\n'),
        ca: this.options.confiancaPem,
        rejectUnauthorized: true,
      });
      this.agentes.set(chave, agente);
      // One per company certificate in use; past the bound the oldest is forgotten (never destroyed: a request of its
      // company may be in flight), and its idle sockets close on their own timeout.
      if (this.agentes.size > MAX_AGENTES) this.agentes.delete(this.agentes.keys().next().value!);
    }
    return agente;
  }

  /**
   * A server that verifies client certificates in its TLS layer (as the local authority does, and many do) closes
   * the handshake on a certificate it does not accept, without an alert: a handshake closed after the connection was
   * made is tried once more on a new connection, and closed again it is the certificate's refusal. Nothing was sent
   * either time.
   */
  async enviar(url: string, envelope: string, credencial: CredencialTls, acao?: string): Promise<ResultadoTransporte> {
    const primeira = await this.tentar(url, envelope, credencial, acao);
    if (primeira.tipo !== 'handshake_fechado') return primeira;
    const segunda = await this.tentar(url, envelope, credencial, acao);
    if (segunda.tipo !== 'handshake_fechado') return segunda;
    return {
      tipo: 'certificado_recusado',
      motivo: `the server closed the TLS handshake after the client certificate, twice (${segunda.motivo})`,
    };
  }

  private tentar(
    url: string,
    envelope: string,
    credencial: CredencialTls,
    acao: string | undefined,
  ): Promise<ResultadoTransporte | { tipo: 'handshake_fechado'; motivo: string }> {
    const max = this.options.maxResposta ?? MAX_RESPOSTA;
    return new Promise((resolve) => {
      let enviado = false;
      let conectado = false;
      let terminado = false;
      const fim = (r: ResultadoTransporte | { tipo: 'handshake_fechado'; motivo: string }) => {
        if (terminado) return;
        terminado = true;
        clearTimeout(relogio);
        resolve(r);
      };
      const corpo = Buffer.from(envelope, 'utf8');
      const req = https.request(url, {
        method: 'POST',
        agent: this.agente(credencial),
        // SOAP 1.2 carries the WSDL's soapAction as the content type's `action` parameter (RFC 3902), where one is given.
        headers: {
          'content-type': acao ? `${SOAP12_CONTENT_TYPE}; action="${acao}"` : SOAP12_CONTENT_TYPE,
          'content-length': corpo.length,
        },
      });
      // One deadline for the whole exchange, connection included: a slow authority never holds a caller longer.
      const relogio = setTimeout(() => {
        req.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);
      req.on('socket', (socket) => {
        const tls = socket as TLSSocket;
        // A reused keep-alive socket is connected already: writing on it is sending.
        if (!tls.connecting && tls.encrypted) enviado = conectado = true;
        else {
          tls.once('connect', () => (conectado = true));
          tls.once('secureConnect', () => (enviado = true));
        }
      });
      req.on('response', (res) => {
        const partes: Buffer[] = [];
        let tamanho = 0;
        res.on('data', (parte: Buffer) => {
          tamanho += parte.length;
          if (tamanho > max) {
            res.destroy(new Error(`answer over ${max} bytes`));
            return;
          }
          partes.push(parte);
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const texto = Buffer.concat(partes).toString('utf8');
          if (status === 403) fim({ tipo: 'certificado_recusado', motivo: `HTTP 403: ${texto.slice(0, 200)}` });
          else fim({ tipo: 'resposta', status, corpo: texto });
        });
        res.on('error', (error) => fim({ tipo: 'sem_resposta', motivo: `answer broken: ${mensagemDe(error)}` }));
      });
      req.on('error', (error) => {
        const codigo = codigoDe(error);
        const motivo = `${codigo || 'error'}: ${mensagemDe(error)}`;
        if (ALERTA_CERTIFICADO.test(codigo) || ALERTA_CERTIFICADO.test(mensagemDe(error).toUpperCase().replace(/ /g, '_')))
          fim({ tipo: 'certificado_recusado', motivo });
        else if (SERVIDOR_NAO_CONFIAVEL.test(codigo)) fim({ tipo: 'nao_enviado', motivo, servidorNaoConfiavel: true });
        else if (!enviado && conectado && codigo === 'ECONNRESET') fim({ tipo: 'handshake_fechado', motivo });
        else if (!enviado) fim({ tipo: 'nao_enviado', motivo, servidorNaoConfiavel: false });
        else fim({ tipo: 'sem_resposta', motivo });
      });
      req.end(corpo);
    });
  }

  close(): void {
    for (const agente of this.agentes.values()) agente.destroy();
    this.agentes.clear();
  }
}
