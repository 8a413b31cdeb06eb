import { type Platform } from '@frete/platform';
import { certificadoOf } from '@frete/projections';
import { type CredencialTls } from '@frete/adapters';

/**
 * The company's current A1 as TLS client certificate (the one that signs its documents), or null when it has none:
 * what every adapter opening a channel to the authorities presents.
 */
export function credencialTlsDe(platform: Pick<Platform, 'pool' | 'certificates'>): (companyId: string) => Promise<CredencialTls | null> {
  const { pool, certificates } = platform;
  return async (companyId) => {
    const certificado = await certificadoOf(pool, companyId);
    const a1 = certificado ? await certificates.signingKey(companyId, certificado.blob_id) : null;
    return a1 ? { certificadoPem: a1.certificatePem, chavePrivadaPem: a1.privateKeyPem, cadeiaPem: a1.chainPem } : null;
  };
}
