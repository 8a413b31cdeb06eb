import { CSTAT_CONSUMO_INDEVIDO, type ServicoSefaz, SERVICOS_CTE, SERVICOS_MDFE } from '@frete/adapters';

/**
 * Faults injected on purpose, so that every failure path of a client (the `sefaz` adapter, an integrator's own) can
 * be rehearsed: the ones a real authority's channel shows, never a verdict on a document.
 */
export type Falha =
  /** Answers `ms` late, after processing: a client's timeout fires while the authority has the request. */
  | { tipo: 'latencia'; ms: number }
  /** Processes, then drops the connection without answering: the outcome is unknown to the client. */
  | { tipo: 'sem_resposta' }
  /** HTTP 500 with a SOAP 1.2 `Receiver` fault (as SOAP 1.2 answers a server failure); nothing processed. */
  | { tipo: 'erro_servidor' }
  /**
   * The channel's own status in the service's answer element, nothing processed: 108 paralysed briefly, 109
   * paralysed without forecast, 678 consumo indevido (the code the CT-e and MDF-e authorizers answer,
   * `CSTAT_CONSUMO_INDEVIDO`; 656 is the national distribution's, which this server does not play). For the status
   * service 108/109 are its natural answer.
   */
  | { tipo: 'status'; cStat: 108 | 109 | 678 };

export type RegraFalha = Falha & {
  /** The service it hits; every service when absent. */
  servico?: ServicoSefaz;
  /** How many requests it hits; every request until cleared when absent. */
  vezes?: number;
};

/** The longest latency a rule may ask for: a rehearsal, not a hang. */
export const LATENCIA_MAXIMA_MS = 300_000;
const SERVICOS: readonly string[] = [...SERVICOS_CTE, ...SERVICOS_MDFE];
const TIPOS = ['latencia', 'sem_resposta', 'erro_servidor', 'status'];
/** The channel statuses a rule may inject: paralysis, and consumo indevido as both models' authorizers answer it. */
const STATUS_DO_CANAL: readonly number[] = [108, 109, CSTAT_CONSUMO_INDEVIDO.cte, CSTAT_CONSUMO_INDEVIDO.mdfe];

/** Why `valor` is not a fault rule (a sentence naming the offending field), or null when it is one. */
export function problemaDaRegra(valor: unknown): string | null {
  if (typeof valor !== 'object' || valor === null || Array.isArray(valor)) return 'a rule must be an object';
  const r = valor as Record<string, unknown>;
  const conhecidos = ['tipo', 'servico', 'vezes', 'ms', 'cStat'];
  const estranho = Object.keys(r).find((k) => !conhecidos.includes(k));
  if (estranho !== undefined) return `unknown field ${JSON.stringify(estranho)}; a rule has ${conhecidos.join(', ')}`;
  if (typeof r.tipo !== 'string' || !TIPOS.includes(r.tipo)) return `tipo must be one of ${TIPOS.join(', ')}`;
  if (r.servico !== undefined && (typeof r.servico !== 'string' || !SERVICOS.includes(r.servico))) {
    return `servico ${JSON.stringify(r.servico)} is not one of ${SERVICOS.join(', ')}`;
  }
  if (r.vezes !== undefined && !(Number.isInteger(r.vezes) && (r.vezes as number) >= 1)) return 'vezes must be a positive integer';
  if (r.tipo === 'latencia' && !(Number.isInteger(r.ms) && (r.ms as number) >= 0 && (r.ms as number) <= LATENCIA_MAXIMA_MS)) {
    return `ms must be an integer from 0 to ${LATENCIA_MAXIMA_MS}`;
  }
  if (r.tipo !== 'latencia' && r.ms !== undefined) return 'ms belongs to latencia only';
  if (r.tipo === 'status' && r.cStat === 656) {
    return "cStat 656 is the national distribution's consumo indevido; the CT-e and MDF-e authorizers answer 678";
  }
  if (r.tipo === 'status' && !STATUS_DO_CANAL.includes(r.cStat as number)) return 'cStat must be 108, 109 or 678';
  if (r.tipo !== 'status' && r.cStat !== undefined) return 'cStat belongs to status only';
  return null;
}

export class RegraFalhaInvalida extends Error {
  constructor(motivo: string) {
    super(`invalid fault rule: ${motivo}`);
    this.name = 'RegraFalhaInvalida';
  }
}

interface Vigente {
  regra: RegraFalha;
  /** Requests it still hits; null until cleared. */
  restantes: number | null;
}

/** The fault rules in force; the server asks it once per SOAP request. */
export class Falhas {
  private vigentes: Vigente[] = [];

  /** Adds rules after those in force (the first rule that matches a request applies). */
  programar(regras: RegraFalha | readonly RegraFalha[]): void {
    const lista = Array.isArray(regras) ? regras : [regras as RegraFalha];
    for (const regra of lista) {
      const problema = problemaDaRegra(regra);
      if (problema) throw new RegraFalhaInvalida(problema);
    }
    for (const regra of lista) this.vigentes.push({ regra: { ...regra }, restantes: regra.vezes ?? null });
  }

  limpar(): void {
    this.vigentes = [];
  }

  /** The rules in force, `vezes` being the requests each still hits. */
  listar(): RegraFalha[] {
    return this.vigentes.map(({ regra, restantes }) => {
      const { vezes: _vezes, ...resto } = regra;
      return restantes === null ? resto : { ...resto, vezes: restantes };
    });
  }

  /** The fault that hits this request, if any: the first rule for its service (or all), one of its times spent. */
  tomar(servico: ServicoSefaz): Falha | null {
    const i = this.vigentes.findIndex((v) => v.regra.servico === undefined || v.regra.servico === servico);
    if (i < 0) return null;
    const vigente = this.vigentes[i]!;
    if (vigente.restantes !== null && --vigente.restantes === 0) this.vigentes.splice(i, 1);
    const { servico: _servico, vezes: _vezes, ...falha } = vigente.regra;
    return falha as Falha;
  }
}
