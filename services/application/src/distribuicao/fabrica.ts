import { type Platform } from '@frete/platform';
import {
  AmbienteNacionalSimulado,
  type DistribuicaoDFe,
  DistribuicaoDFeIndisponivel,
  DistribuicaoDFeSefaz,
  DistribuicaoDFeSimulada,
} from '@frete/adapters';
import { credencialTlsDe } from '../autoridade/fabrica';

const semRecursos = () => Promise.resolve();

/**
 * The national distribution service the deployment's configuration names, beside its fiscal authority (one choice,
 * `FISCAL_AUTHORITY`): the simulated national environment in process for the sandbox (it distributes what the
 * simulated authority authorized, on the platform's clock), the Ambiente Nacional's services for `sefaz` (the
 * company's current A1 as client certificate, `SEFAZ_ENDPOINTS`/`SEFAZ_BASE_URL` as `AN/<Service>`), none otherwise.
 */
export function distribuicaoDFeDe(platform: Platform): DistribuicaoDFe & { close(): Promise<void> } {
  const { config, pool, clock } = platform;
  const autoridade = config.autoridadeFiscal;
  switch (autoridade.tipo) {
    case 'simulada':
      return Object.assign(new DistribuicaoDFeSimulada(new AmbienteNacionalSimulado({ pool, clock })), { close: semRecursos });
    case 'nenhuma':
      return Object.assign(new DistribuicaoDFeIndisponivel(), { close: semRecursos });
    case 'sefaz':
      return new DistribuicaoDFeSefaz({
        ambiente: config.environment,
        enderecos: { endpoints: autoridade.endpoints ?? undefined, baseUrl: autoridade.baseUrl ?? undefined },
        confiancaPem: autoridade.caPem,
        timeoutMs: autoridade.timeoutMs,
        conexoes: autoridade.conexoes,
        clock,
        credencial: credencialTlsDe(platform),
      });
  }
}
