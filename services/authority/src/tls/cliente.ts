import { type TLSSocket } from 'node:tls';
import { type Remetente } from '@frete/adapters';

/**
 * Who is on the other end of the mutual TLS: the handshake only lets through a client certificate the configured
 * CAs issued. The port names the caller by company; here the certificate is all there is.
 */
export function remetenteDe(socket: TLSSocket): Remetente {
  const certificado = socket.getPeerCertificate();
  const cn = certificado.subject?.CN;
  return { companyId: `certificado:${Array.isArray(cn) ? cn.join(',') : (cn ?? certificado.serialNumber)}` };
}
