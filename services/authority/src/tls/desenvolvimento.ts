import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { emitirCertificadoServidor, gerarAc, type ParPem } from './certificados';

export interface TlsDeDesenvolvimento {
  /** The development CA's certificate: what a client trusts (`SEFAZ_CA_FILE`). */
  caFile: string;
  certFile: string;
  keyFile: string;
  /** Whether this start made them (otherwise they were there from an earlier one). */
  gerados: boolean;
}

const NOMES = ['localhost', '127.0.0.1', '::1'];
const MES = 30 * 86_400_000;

/**
 * The server's TLS when none is configured: a development CA and a server certificate for localhost/127.0.0.1
 * under `dir`, made once and reused, so that a client configured to trust the CA keeps trusting the server across
 * restarts. A server certificate near its end (or issued by another CA) is issued again.
 */
export function garantirTlsDeDesenvolvimento(dir: string): TlsDeDesenvolvimento {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const caFile = path.join(dir, 'ca.pem');
  const caKeyFile = path.join(dir, 'ca-key.pem');
  const certFile = path.join(dir, 'servidor.pem');
  const keyFile = path.join(dir, 'servidor-key.pem');
  let gerados = false;

  let ac: ParPem;
  if (fs.existsSync(caFile) && fs.existsSync(caKeyFile)) {
    ac = { cert: fs.readFileSync(caFile, 'utf8'), key: fs.readFileSync(caKeyFile, 'utf8') };
  } else {
    ac = gerarAc('frete-fiscal autoridade local - AC de desenvolvimento');
    fs.writeFileSync(caKeyFile, ac.key, { mode: 0o600 });
    fs.writeFileSync(caFile, ac.cert);
    fs.rmSync(certFile, { force: true });
    gerados = true;
  }
  if (!servidorValido(certFile, keyFile, ac.cert)) {
    const servidor = emitirCertificadoServidor(ac, NOMES);
    fs.writeFileSync(keyFile, servidor.key, { mode: 0o600 });
    fs.writeFileSync(certFile, servidor.cert);
    gerados = true;
  }
  return { caFile, certFile, keyFile, gerados };
}

function servidorValido(certFile: string, keyFile: string, caPem: string): boolean {
  if (!fs.existsSync(certFile) || !fs.existsSync(keyFile)) return false;
  try {
    const cert = new X509Certificate(fs.readFileSync(certFile));
    return cert.verify(new X509Certificate(caPem).publicKey) && new Date(cert.validTo).getTime() - Date.now() > MES;
  } catch {
    return false;
  }
}
