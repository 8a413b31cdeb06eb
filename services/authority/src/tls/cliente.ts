import { type TLSSocket } from 'node:tls';
import { type Remetente } from '@frete/adapters';

export type Cliente = { autorizado: true; remetente: Remetente } | { autorizado: false; motivo: string };

/**
 * Who is on the other end of the mutual TLS. The server asks for a certificate but lets the handshake finish without
 * one (`rejectUnauthorized: false`) so that it can answer as the authorities' IIS does, an HTTP 403.16 with a
 * reason, instead of a bare handshake failure; OpenSSL has verified the chain against the configured CAs all the
 * same (`authorized`), and nothing is processed for a client it did not accept.
 */
export function clienteDe(socket: TLSSocket): Cliente {
  const certificado = socket.getPeerCertificate();
  if (!certificado || Object.keys(certificado).length === 0) return { autorizado: false, motivo: 'no client certificate was presented' };
  if (!socket.authorized) {
    return { autorizado: false, motivo: `the client certificate is untrusted or invalid (${String(socket.authorizationError)})` };
  }
  const cn = certificado.subject?.CN;
  // The port names the caller by company; here the certificate is all there is.
  return {
    autorizado: true,
    remetente: { companyId: `certificado:${Array.isArray(cn) ? cn.join(',') : (cn ?? certificado.serialNumber)}` },
  };
}
