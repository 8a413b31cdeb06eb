import { randomUUID } from 'node:crypto';
import { type Pool } from 'pg';
import { type Environment } from '@frete/contracts';
import { CONSULTA_ESQUECIDA_MS, habilitadaPorPadrao, Rejection } from '@frete/domain';
import { distribuicoesDevidas } from '@frete/projections';
import { derivedEventId, PeriodicLoop } from '@frete/platform';
import { type DistribuicaoHandler } from './handler';

export interface AgendaDistribuicaoDeps {
  pool: Pool;
  handler: DistribuicaoHandler;
  environment: Environment;
  clock: () => Date;
  /** `DISTRIBUICAO_INTERVALO_S`: how often the schedule looks for consultations due. */
  intervaloMs: number;
  onError?: (err: unknown) => void;
}

/** At most this many consultations asked per look; the rest wait for the next one. */
const POR_RODADA = 200;

/**
 * The distribution processor's schedule: every `intervaloMs` it asks, for each carrier whose consultation is due, one
 * consultation per service. The request's id derives from the company, the service and the wait the last answer set,
 * so that two copies of the processor (or a look that reads a read model behind the log) ask it once: the decider
 * takes an id it has seen as done. The waits themselves are the decider's; this only knocks.
 */
export class AgendaDistribuicao {
  private readonly laco: PeriodicLoop;

  constructor(private readonly deps: AgendaDistribuicaoDeps) {
    this.laco = new PeriodicLoop(() => this.rodada(), deps.intervaloMs, deps.onError);
  }

  start(): void {
    this.laco.start();
  }

  stop(): Promise<void> {
    return this.laco.stop();
  }

  /** One look: the consultations asked (a test calls it directly). */
  async rodada(): Promise<number> {
    const { pool, handler, environment, clock } = this.deps;
    const agora = clock();
    const devidas = await distribuicoesDevidas(pool, {
      habilitadaPorPadrao: habilitadaPorPadrao(environment),
      agora,
      esquecidaMs: CONSULTA_ESQUECIDA_MS,
      limite: POR_RODADA,
    });
    let pedidas = 0;
    for (const d of devidas) {
      const marca = `${d.company_id}:${d.servico}:${d.proxima_consulta?.toISOString() ?? 'primeira'}:${d.consulta_perdida ?? ''}`;
      const ctx = {
        companyId: d.company_id,
        correlationId: randomUUID(),
        causationId: null,
        requestId: null,
        actor: 'system:distribuicao',
        now: clock(),
      };
      try {
        if (await handler.solicitarAgendada(ctx, d.company_id, d.servico, derivedEventId(marca, 'distribuicao:agenda'))) pedidas++;
      } catch (err) {
        // Not due after all (the read model was behind the log), turned off, no UF: the decider said so; nothing to do.
        if (!(err instanceof Rejection)) throw err;
      }
    }
    return pedidas;
  }
}
