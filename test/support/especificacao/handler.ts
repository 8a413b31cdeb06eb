import { type RecordedEvent } from '@frete/contracts';
import { type ContextoEmpresa } from '../../../services/application/src/commands/execute';
import { Rejection } from '@frete/domain';
import { type Ambiente, contexto, conferir, type Esperado, gravadosDepois, gravar, type Historia, novoAmbiente } from './historia';

/** A call of a handler under specification, with the context of the command (its clock fixed). */
export type Chamada<H, R> = (handler: H, ctx: ContextoEmpresa) => Promise<R>;

export interface QuandoHandler<R> {
  /** The call appended exactly these events, in order (none: nothing); resolves to the handler's answer. */
  then(...esperados: Esperado[]): Promise<R>;
  /** The call appended nothing (an idempotent repeat, a change to the same value). */
  thenNothing(): Promise<R>;
  /** The call was refused with this `Rejection` code (and these fields, when given), and appended nothing. */
  thenRejects(code: string, fields?: string[]): Promise<void>;
  /** The same call made twice: what follows checks the second alone. */
  again(): QuandoHandler<R>;
  /** The answer and what the call appended, for a check that the answer decides (a drawn secret and its recorded hash). */
  run(): Promise<{ resultado: R; gravados: RecordedEvent[] }>;
}

export interface DadoHandler<H> {
  /** A call made before the `when` (its events are history, not checked). */
  andCalled(chamada: Chamada<H, unknown>): DadoHandler<H>;
  when<R>(chamada: Chamada<H, R>): QuandoHandler<R>;
}

/**
 * given(events on named streams) → when(a call of an application handler) → then(the events that call appended), on
 * a fresh in-memory event store per run: the handler's own load-decide-append, its ids and idempotency, without
 * PostgreSQL. `montar` builds the handler over the store (a handler that needs the read models cannot run here).
 */
export function especificacaoDeHandler<H>(montar: (ambiente: Ambiente) => H, ctx: Partial<ContextoEmpresa> = {}) {
  return {
    given: (...historias: Historia[]): DadoHandler<H> => dado(montar, contexto(ctx), historias, []),
  };
}

function dado<H>(montar: (a: Ambiente) => H, ctx: ContextoEmpresa, historias: Historia[], antes: Chamada<H, unknown>[]): DadoHandler<H> {
  return {
    andCalled: (chamada) => dado(montar, ctx, historias, [...antes, chamada]),
    when: <R>(chamada: Chamada<H, R>) => quando(montar, ctx, historias, antes, chamada, 1),
  };
}

function quando<H, R>(
  montar: (a: Ambiente) => H,
  ctx: ContextoEmpresa,
  historias: Historia[],
  antes: Chamada<H, unknown>[],
  chamada: Chamada<H, R>,
  vezes: number,
): QuandoHandler<R> {
  /** Runs the history and the earlier calls, then the call: its answer (or error) and what its last run appended. */
  const rodar = async () => {
    const ambiente = novoAmbiente();
    const handler = montar(ambiente);
    await gravar(ambiente.store, historias, ctx.companyId);
    for (const c of antes) await c(handler, ctx);
    for (let i = 1; i < vezes; i++) await chamada(handler, ctx);
    const inicio = await ambiente.store.headPosition();
    const desfecho = await chamada(handler, ctx).then(
      (resultado) => ({ resultado }),
      (erro: unknown) => ({ erro }),
    );
    return { desfecho, gravados: await gravadosDepois(ambiente.store, inicio) };
  };
  const then = async (...esperados: Esperado[]): Promise<R> => {
    const { desfecho, gravados } = await rodar();
    if ('erro' in desfecho) throw desfecho.erro;
    conferir(gravados, esperados);
    return desfecho.resultado;
  };
  return {
    then,
    thenNothing: () => then(),
    thenRejects: async (code, fields) => {
      const { desfecho, gravados } = await rodar();
      const erro = 'erro' in desfecho ? desfecho.erro : undefined;
      expect(erro).toBeInstanceOf(Rejection);
      expect((erro as Rejection).code).toBe(code);
      if (fields) expect((erro as Rejection).details?.fields?.map((f) => f.field)).toEqual(fields);
      expect(gravados).toEqual([]);
    },
    again: () => quando(montar, ctx, historias, antes, chamada, vezes + 1),
    run: async () => {
      const { desfecho, gravados } = await rodar();
      if ('erro' in desfecho) throw desfecho.erro;
      return { resultado: desfecho.resultado, gravados };
    },
  };
}
