import { CSTAT_CONSUMO_INDEVIDO, type ServicoAn, SERVICOS_AN, type ServicoSefaz, SERVICOS_CTE, SERVICOS_MDFE } from '@frete/adapters';

/** Every service a rule may name: the authorizers' and the national environment's (`AN/<Service>`). */
export type ServicoComFalha = ServicoSefaz | ServicoAn;

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
   * `CSTAT_CONSUMO_INDEVIDO`; 656 is the national distribution's, which its own rules answer, never injected). For the status
   * service 108/109 are its natural answer.
   */
  | { tipo: 'status'; cStat: 108 | 109 | 678 }
  /**
   * The national distribution's answer with the `docZip` of NSU `nsu` (15 digits) broken: its Base64 is no longer
   * Base64, so the client cannot read that one document. Hits only the distribution services, and only an answer
   * that carries that NSU (a request whose answer does not spends nothing of the rule).
   */
  | { tipo: 'doczip_corrompido'; nsu: string };

export type RegraFalha = Falha & {
  /** The service it hits; every service when absent. */
  servico?: ServicoComFalha;
  /** How many requests it hits; every request until cleared when absent. */
  vezes?: number;
};

/** The longest latency a rule may ask for: a rehearsal, not a hang. */
export const LATENCIA_MAXIMA_MS = 300_000;
const SERVICOS: readonly string[] = [...SERVICOS_CTE, ...SERVICOS_MDFE, ...SERVICOS_AN];
const TIPOS = ['latencia', 'sem_resposta', 'erro_servidor', 'status', 'doczip_corrompido'];
const ehServicoAn = (servico: string): boolean => (SERVICOS_AN as readonly string[]).includes(servico);
/** The channel statuses a rule may inject: paralysis, and consumo indevido as both models' authorizers answer it. */
const STATUS_DO_CANAL: readonly number[] = [108, 109, CSTAT_CONSUMO_INDEVIDO.cte, CSTAT_CONSUMO_INDEVIDO.mdfe];

/** Why `valor` is not a fault rule (a sentence naming the offending field), or null when it is one. */
export function problemaDaRegra(valor: unknown): string | null {
  if (typeof valor !== 'object' || valor === null || Array.isArray(valor)) return 'a rule must be an object';
  const r = valor as Record<string, unknown>;
  const conhecidos = ['tipo', 'servico', 'vezes', 'ms', 'cStat', 'nsu'];
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
  // The national environment has no 678: its consumo indevido (656) comes from its own rules, never injected.
  if (r.tipo === 'status' && r.cStat === CSTAT_CONSUMO_INDEVIDO.cte && typeof r.servico === 'string' && ehServicoAn(r.servico)) {
    return "cStat 678 is the authorizers' consumo indevido; the national distribution answers 656 by its own rules";
  }
  if (r.tipo === 'doczip_corrompido') {
    if (typeof r.nsu !== 'string' || !/^[0-9]{15}$/.test(r.nsu)) return 'nsu must be 15 digits';
    if (r.servico !== undefined && !ehServicoAn(r.servico as string)) return `doczip_corrompido hits ${SERVICOS_AN.join(' or ')} only`;
  } else if (r.nsu !== undefined) return 'nsu belongs to doczip_corrompido only';
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

  /**
   * The fault that hits this request, if any: the first rule for its service (or all), one of its times spent. A
   * `doczip_corrompido` rule is not taken here (see `corromperDocZip`).
   */
  tomar(servico: ServicoComFalha): Falha | null {
    const i = this.vigentes.findIndex(
      (v) =>
        v.regra.tipo !== 'doczip_corrompido' &&
        (v.regra.servico === undefined || v.regra.servico === servico) &&
        // A 678 for every service is the authorizers' consumo indevido: the national environment never answers it.
        !(v.regra.tipo === 'status' && v.regra.cStat === CSTAT_CONSUMO_INDEVIDO.cte && ehServicoAn(servico)),
    );
    if (i < 0) return null;
    const vigente = this.vigentes[i]!;
    if (vigente.restantes !== null && --vigente.restantes === 0) this.vigentes.splice(i, 1);
    const { servico: _servico, vezes: _vezes, ...falha } = vigente.regra;
    return falha as Falha;
  }

  /**
   * The NSUs of a distribution answer whose `docZip` is to be broken: each rule for this service (or all) naming one
   * of `nsus` hits, one of its times spent.
   */
  docZipsCorrompidos(servico: ServicoAn, nsus: readonly string[]): Set<string> {
    const corrompidos = new Set<string>();
    for (const vigente of [...this.vigentes]) {
      const r = vigente.regra;
      if (r.tipo !== 'doczip_corrompido' || (r.servico !== undefined && r.servico !== servico) || !nsus.includes(r.nsu)) continue;
      corrompidos.add(r.nsu);
      if (vigente.restantes !== null && --vigente.restantes === 0) this.vigentes.splice(this.vigentes.indexOf(vigente), 1);
    }
    return corrompidos;
  }
}
