import { randomUUID } from 'node:crypto';
import { type DomainEvent, EventCatalog, type EventMetadata, type Position, type RecordedEvent } from '@frete/contracts';
import { type ContextoEmpresa } from '../../../services/application/src/commands/execute';
import { MemoryEventStore, type EventStore } from '@frete/platform';

/** The specifications' instant: every context's `now` and every recorded event's time, so that answers are exact. */
export const AGORA = new Date('2026-11-22T12:00:00.000Z');
export const EMPRESA = '7b0c6a52-8f4e-4b1a-9a53-2f1d3c4e5a60';

/** Events already in one stream before the `when`: the history a specification starts from. */
export interface Historia {
  stream: string;
  events: DomainEvent[];
}

export const naStream = (stream: string, ...events: DomainEvent[]): Historia => ({ stream, events });

/** What a specification expects appended: type and data, and the stream when it matters. */
export type Esperado = DomainEvent | (DomainEvent & { stream: string });

/** What the code under specification reads and writes: a fresh store per run, and the fixed clock. */
export interface Ambiente {
  store: MemoryEventStore;
  clock: () => Date;
}

export const novoAmbiente = (): Ambiente => {
  const clock = () => new Date(AGORA);
  return { store: new MemoryEventStore(clock), clock };
};

/** A command of the company, as an API request makes it: its clock fixed at `AGORA`. */
export const contexto = (over: Partial<ContextoEmpresa> = {}): ContextoEmpresa => ({
  companyId: EMPRESA,
  correlationId: 'correlacao-especificacao',
  causationId: null,
  requestId: 'pedido-especificacao',
  actor: 'credential:especificacao',
  now: new Date(AGORA),
  ...over,
});

const metadata = (companyId: string | null): EventMetadata => ({
  company_id: companyId,
  correlation_id: 'correlacao-historia',
  causation_id: null,
  request_id: null,
  actor: 'test',
});

/** Appends each history to its stream in order (fresh ids), as the events a system already recorded. */
export async function gravar(store: EventStore, historias: readonly Historia[], companyId: string | null = EMPRESA): Promise<void> {
  for (const h of historias) {
    if (h.events.length === 0) continue;
    await store.append(
      h.stream,
      h.events.map((e) => ({
        id: randomUUID(),
        type: e.type,
        schemaVersion: EventCatalog[e.type].version,
        data: e.data,
        metadata: metadata(companyId),
      })),
      'any',
    );
  }
}

/** Everything appended after `depois`, in the log's order. */
export const gravadosDepois = (store: EventStore, depois: Position): Promise<RecordedEvent[]> =>
  store.readAll(depois, Number.MAX_SAFE_INTEGER);

/**
 * Checks what was appended against what was expected, in order: type and data (jest's matchers allowed inside), and
 * the stream for the expected events that name one. Metadata is the execution's business, checked where it matters.
 */
export function conferir(gravados: readonly RecordedEvent[], esperados: readonly Esperado[]): void {
  const vistos = gravados.map((e, i) => {
    const esperado = esperados[i];
    const visto = { type: e.type, data: e.data };
    return esperado && 'stream' in esperado ? { stream: e.streamId, ...visto } : visto;
  });
  expect(vistos).toEqual(esperados);
}
