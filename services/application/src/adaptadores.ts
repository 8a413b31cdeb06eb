import { type Pool } from 'pg';
import { type Environment } from '@frete/contracts';
import { type AppConfig } from '@frete/platform';
import { type FiscalSchemas } from '@frete/documents';
import {
  AmbienteNacionalSimulado,
  type AutoridadeFiscal,
  AutoridadeFiscalIndisponivel,
  AutoridadeFiscalSefaz,
  AutoridadeFiscalSimulada,
  type CredencialTls,
  type DepositosContaOperacional,
  DepositosIndisponiveis,
  DepositosSimulados,
  type DiretorioPix,
  DiretorioPixIndisponivel,
  DiretorioPixSimulado,
  type DistribuicaoDFe,
  DistribuicaoDFeIndisponivel,
  DistribuicaoDFeSefaz,
  DistribuicaoDFeSimulada,
  type ProvedorCiot,
  ProvedorCiotIndisponivel,
  ProvedorCiotSimulado,
  type ProvedorValePedagio,
  ProvedorValePedagioIndisponivel,
  ProvedorValePedagioSimulado,
  type RailDePagamento,
  railInterno,
  type ReguladorTransporte,
  ReguladorTransporteIndisponivel,
  ReguladorTransporteSimulado,
} from '@frete/adapters';

type Fechavel<T> = T & { close(): Promise<void> };

/** Every outside party of a process, each behind its port. */
export interface Adaptadores {
  /** Authorizes CT-e and MDF-e and registers their events (SEFAZ). */
  autoridade: Fechavel<AutoridadeFiscal>;
  /** The national distribution of the documents where the company is a party (Ambiente Nacional). */
  distribuicao: Fechavel<DistribuicaoDFe>;
  /** Declares CIOT (an IPEF). */
  ciot: ProvedorCiot;
  /** Regulator (ANTT) queries: RNTRC, vehicles. */
  regulador: ReguladorTransporte;
  /** PIX directory (DICT) lookups. */
  diretorioPix: DiretorioPix;
  /** Toll-pass (VPO) supplier. */
  valePedagio: ProvedorValePedagio;
  /** Deposits into the operational account. */
  depositos: DepositosContaOperacional;
  /** The bank rail the payout processor settles orders through. */
  rail: RailDePagamento;
}

/** What the adapters are made from: the process's configuration and the few resources they hold. */
export interface RecursosDosAdaptadores {
  config: Pick<AppConfig, 'environment' | 'autoridadeFiscal'>;
  pool: Pool;
  clock: () => Date;
  /** The official XSDs the simulated authority validates against (the application's one validator). */
  schemas: FiscalSchemas;
  /** The company's current A1 as TLS client certificate, which the real fiscal services are reached with. */
  credencial: (companyId: string) => Promise<CredencialTls | null>;
}

/**
 * How one party is chosen. A party is either the product's own (the same in every environment) or reached through
 * an outside provider, with a real adapter when the configuration names one.
 */
type Parte<T> =
  | { propria: () => T }
  | {
      /** The real adapter, when the configuration names it; null while none is contracted or configured. */
      real: (() => T) | null;
      simulado: () => T;
      indisponivel: () => T;
    };

/**
 * The one rule, the same for every party: the real adapter when the configuration names one; otherwise the
 * simulated one in `homologacao` (the sandbox simulates its outside parties: ruling 12) and the unavailable one in
 * `producao` (no provider contracted: every call refuses with `provedor_indisponivel`, never inventing data: ruling 7).
 * Only the chosen adapter is made.
 */
function escolher<T>(environment: Environment, parte: Parte<T>): T {
  if ('propria' in parte) return parte.propria();
  if (parte.real) return parte.real();
  return environment === 'homologacao' ? parte.simulado() : parte.indisponivel();
}

const semRecursos = () => Promise.resolve();

/**
 * Every outside party of the process, chosen here and nowhere else, by the deployment's environment and
 * configuration (see `escolher`). `proprios` are the parties a caller brings its own of (a deployment's rail, a
 * test's recording rail); the others follow the rule.
 */
export function adaptadoresDe(recursos: RecursosDosAdaptadores, proprios: Partial<Adaptadores> = {}): Adaptadores {
  const { config, pool, clock, schemas, credencial } = recursos;
  const { environment } = config;
  // `FISCAL_AUTHORITY=sefaz` names the state authorities' web services and, beside them, the Ambiente Nacional's
  // distribution: one choice for both, as the same certificate and addresses reach them.
  const sefaz = config.autoridadeFiscal.tipo === 'sefaz' ? config.autoridadeFiscal : null;
  const canal = sefaz && {
    ambiente: environment,
    enderecos: { endpoints: sefaz.endpoints ?? undefined, baseUrl: sefaz.baseUrl ?? undefined },
    confiancaPem: sefaz.caPem,
    timeoutMs: sefaz.timeoutMs,
    conexoes: sefaz.conexoes,
    clock,
    credencial,
  };
  const partes: { [K in keyof Adaptadores]: Parte<Adaptadores[K]> } = {
    autoridade: {
      real: canal && sefaz ? () => new AutoridadeFiscalSefaz({ ...canal, pausaBaseMs: sefaz.pausaBaseMs }) : null,
      simulado: () => new AutoridadeFiscalSimulada({ pool, clock, schemas }),
      indisponivel: () => Object.assign(new AutoridadeFiscalIndisponivel(), { close: semRecursos }),
    },
    distribuicao: {
      real: canal ? () => new DistribuicaoDFeSefaz(canal) : null,
      // The simulated national environment distributes what the simulated authority authorized, on the same clock.
      simulado: () => Object.assign(new DistribuicaoDFeSimulada(new AmbienteNacionalSimulado({ pool, clock })), { close: semRecursos }),
      indisponivel: () => Object.assign(new DistribuicaoDFeIndisponivel(), { close: semRecursos }),
    },
    ciot: { real: null, simulado: () => new ProvedorCiotSimulado({ clock }), indisponivel: () => new ProvedorCiotIndisponivel() },
    regulador: { real: null, simulado: () => new ReguladorTransporteSimulado(), indisponivel: () => new ReguladorTransporteIndisponivel() },
    diretorioPix: { real: null, simulado: () => new DiretorioPixSimulado(), indisponivel: () => new DiretorioPixIndisponivel() },
    valePedagio: {
      real: null,
      simulado: () => new ProvedorValePedagioSimulado(),
      indisponivel: () => new ProvedorValePedagioIndisponivel(),
    },
    depositos: { real: null, simulado: () => new DepositosSimulados(), indisponivel: () => new DepositosIndisponiveis() },
    // Payouts settle inside the product (an order is paid as soon as it is taken): no outside provider to stand in for.
    rail: { propria: () => railInterno },
  };
  const um = <K extends keyof Adaptadores>(parte: K): Adaptadores[K] => proprios[parte] ?? escolher(environment, partes[parte]);
  return {
    autoridade: um('autoridade'),
    distribuicao: um('distribuicao'),
    ciot: um('ciot'),
    regulador: um('regulador'),
    diretorioPix: um('diretorioPix'),
    valePedagio: um('valePedagio'),
    depositos: um('depositos'),
    rail: um('rail'),
  };
}
