import { randomUUID } from 'node:crypto';
import { type DomainEvent, EventCatalog, type RecordedEvent } from '@frete/contracts';
import { type EventHandler, type EventStore, HandlerProcessor, type SelectiveHandler } from '@frete/platform';
import { type Ambiente, conferir, EMPRESA, type Esperado, gravadosDepois, gravar, type Historia, novoAmbiente } from './historia';

/**
 * The event a processor is given: a new one, recorded on its stream first as the log would have it, then delivered;
 * or one the history already holds (`gravado`: the first of that type in the stream), when later events of the stream
 * must follow it (an order withdrawn after it was asked for).
 */
export type Entrega = { stream: string; event: DomainEvent; id?: string } | { stream: string; gravado: DomainEvent['type'] };

export interface QuandoProcessador {
  /** The delivery appended exactly these events, in order (none: nothing). */
  then(...esperados: Esperado[]): Promise<void>;
  /** The delivery appended nothing (not the processor's business, or already done). */
  thenNothing(): Promise<void>;
  /**
   * The delivery failed with an error matching this (the transport delivers it again later), having appended these
   * events before it failed (none: nothing).
   */
  thenFails(erro: RegExp | (new (...args: never[]) => Error), ...esperados: Esperado[]): Promise<void>;
  /** The same recorded event delivered again after the first delivery: what follows checks the second alone. */
  again(): QuandoProcessador;
}

export interface DadoProcessador {
  when(entrega: Entrega): QuandoProcessador;
}

export const entrega = (stream: string, event: DomainEvent, id?: string): Entrega => ({ stream, event, ...(id ? { id } : {}) });
export const entregaGravada = (stream: string, gravado: DomainEvent['type']): Entrega => ({ stream, gravado });

/** The recorded event to deliver: appended now, or found in the history. */
async function gravadoDa(store: EventStore, e: Entrega): Promise<RecordedEvent> {
  if ('gravado' in e) {
    const achado = (await store.readStream(e.stream)).find((r) => r.type === e.gravado);
    if (!achado) throw new Error(`the history holds no ${e.gravado} in ${e.stream}`);
    return achado;
  }
  const companyId = (e.event.data as { company_id?: string }).company_id ?? EMPRESA;
  const id = e.id ?? randomUUID();
  await store.append(
    e.stream,
    [
      {
        id,
        type: e.event.type,
        schemaVersion: EventCatalog[e.event.type].version,
        data: e.event.data,
        metadata: { company_id: companyId, correlation_id: 'correlacao-entrega', causation_id: null, request_id: null, actor: 'test' },
      },
    ],
    'any',
  );
  return (await store.readStream(e.stream)).find((r) => r.id === id)!;
}

/**
 * given(events) → when(an event recorded and delivered to a processor's handler map) → then(the events its handlers
 * appended), on a fresh in-memory event store per run. The map is wrapped in the platform's `HandlerProcessor`, so an
 * event of a type it does not handle, or one it does not need, is passed over as the transports pass it. What the
 * handlers ask of outside parties is recorded by the ports `montar` gives them (a rail that keeps its orders).
 */
export function especificacaoDeProcessador(montar: (ambiente: Ambiente) => ReadonlyMap<string, EventHandler | SelectiveHandler>) {
  return {
    given: (...historias: Historia[]): DadoProcessador => ({
      when: (e: Entrega) => quando(montar, historias, e, 1),
    }),
  };
}

function quando(
  montar: (a: Ambiente) => ReadonlyMap<string, EventHandler | SelectiveHandler>,
  historias: Historia[],
  e: Entrega,
  vezes: number,
): QuandoProcessador {
  const rodar = async () => {
    const ambiente = novoAmbiente();
    const processor = new HandlerProcessor('especificacao', montar(ambiente));
    await gravar(ambiente.store, historias);
    const gravado = await gravadoDa(ambiente.store, e);
    const entregar = async () => {
      if (processor.handles(gravado.type) && processor.needs(gravado)) await processor.handle(gravado);
    };
    // Earlier deliveries may fail: the transport delivers the event again, which is what is checked.
    for (let i = 1; i < vezes; i++) await entregar().catch(() => undefined);
    const inicio = await ambiente.store.headPosition();
    const erro = await entregar().then(
      () => undefined,
      (err: unknown) => err ?? new Error('rejected without a reason'),
    );
    return { erro, gravados: await gravadosDepois(ambiente.store, inicio) };
  };
  const then = async (...esperados: Esperado[]) => {
    const { erro, gravados } = await rodar();
    if (erro) throw erro;
    conferir(gravados, esperados);
  };
  return {
    then,
    thenNothing: () => then(),
    thenFails: async (esperado, ...esperados) => {
      const { erro, gravados } = await rodar();
      if (esperado instanceof RegExp) expect(String((erro as Error | undefined)?.message)).toMatch(esperado);
      else expect(erro).toBeInstanceOf(esperado);
      conferir(gravados, esperados);
    },
    again: () => quando(montar, historias, e, vezes + 1),
  };
}
