import { type Platform } from '@frete/platform';
import { certificadoOf } from '@frete/projections';
import { type AutoridadeFiscal, AutoridadeFiscalIndisponivel, AutoridadeFiscalSefaz, AutoridadeFiscalSimulada } from '@frete/adapters';
import { type FiscalSchemas } from '@frete/documents';

/**
 * The fiscal authority the deployment's configuration names: the simulated one in process (the sandbox's default),
 * the state authorities' web services (`FISCAL_AUTHORITY=sefaz`, the company's current A1 as client certificate), or
 * none (production without `FISCAL_AUTHORITY`: every call refuses with `provedor_indisponivel`).
 */
export function autoridadeFiscalDe(platform: Platform, schemas: FiscalSchemas): AutoridadeFiscal & { close(): Promise<void> } {
  const { config, pool, certificates, clock } = platform;
  const autoridade = config.autoridadeFiscal;
  switch (autoridade.tipo) {
    case 'simulada':
      return new AutoridadeFiscalSimulada({ pool, clock, schemas });
    case 'nenhuma':
      return Object.assign(new AutoridadeFiscalIndisponivel(), { close: () => Promise.resolve() });
    case 'sefaz':
      return new AutoridadeFiscalSefaz({
        ambiente: config.environment,
        enderecos: { endpoints: autoridade.endpoints ?? undefined, baseUrl: autoridade.baseUrl ?? undefined },
        confiancaPem: autoridade.caPem,
        timeoutMs: autoridade.timeoutMs,
        pausaBaseMs: autoridade.pausaBaseMs,
        conexoes: autoridade.conexoes,
        clock,
        credencial: async (companyId) => {
          const certificado = await certificadoOf(pool, companyId);
          const a1 = certificado ? await certificates.signingKey(companyId, certificado.blob_id) : null;
          return a1 ? { certificadoPem: a1.certificatePem, chavePrivadaPem: a1.privateKeyPem, cadeiaPem: a1.chainPem } : null;
        },
      });
  }
}
