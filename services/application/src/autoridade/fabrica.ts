import { type Platform } from '@frete/platform';
import { certificadoOf } from '@frete/projections';
import {
  type AutoridadeFiscal,
  AutoridadeFiscalIndisponivel,
  AutoridadeFiscalMedida,
  AutoridadeFiscalSefaz,
  AutoridadeFiscalSimulada,
  type CredencialTls,
} from '@frete/adapters';
import { type FiscalSchemas } from '@frete/documents';
import { tracedAutoridade } from './traced-autoridade';

/**
 * The fiscal authority the deployment's configuration names: the simulated one in process (the sandbox's default),
 * the state authorities' web services (`FISCAL_AUTHORITY=sefaz`, the company's current A1 as client certificate), or
 * none (production without `FISCAL_AUTHORITY`: every call refuses with `provedor_indisponivel`).
 */
export function autoridadeFiscalDe(platform: Platform, schemas: FiscalSchemas): AutoridadeFiscal & { close(): Promise<void> } {
  // Traced and measured whichever adapter it is (the `autoridade <operacao>` spans, the `frete_autoridade_*` metrics).
  return tracedAutoridade(
    new AutoridadeFiscalMedida(autoridadeDaConfiguracao(platform, schemas), platform.metrics, platform.config.autoridadeFiscal.tipo),
  );
}

function autoridadeDaConfiguracao(platform: Platform, schemas: FiscalSchemas): AutoridadeFiscal & { close(): Promise<void> } {
  const { config, pool, clock } = platform;
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
        credencial: credencialTlsDe(platform),
      });
  }
}

/**
 * The company's current A1 as TLS client certificate (the one that signs its documents), or null when it has none:
 * what every adapter opening a channel to the authorities presents.
 */
export function credencialTlsDe(platform: Platform): (companyId: string) => Promise<CredencialTls | null> {
  const { pool, certificates } = platform;
  return async (companyId) => {
    const certificado = await certificadoOf(pool, companyId);
    const a1 = certificado ? await certificates.signingKey(companyId, certificado.blob_id) : null;
    return a1 ? { certificadoPem: a1.certificatePem, chavePrivadaPem: a1.privateKeyPem, cadeiaPem: a1.chainPem } : null;
  };
}
