import { randomUUID } from 'node:crypto';
import { type DomainEvent, EventCatalog, type EventMetadata, type NewEvent, type Position, type RecordedEvent } from '@frete/contracts';
import { type Decider, evoluirTodos, fold } from '@frete/domain';
import { type EventStore, WrongExpectedRevision } from '@frete/platform';
import { type ReadYourWrites } from '@frete/platform';
import { type StateCache } from './state-cache';
import { KeyedLock } from '@frete/platform';
import { recordRequestWrite } from './request-write';
import { Backoff } from '@frete/platform';

/** Who is acting and why: becomes each event's metadata. The clock comes from here, never from the decider. */
export interface CommandContext {
  companyId: string | null;
  correlationId: string;
  causationId: string | null;
  requestId: string | null;
  actor: string;
  now: Date;
}

/** A command of an authenticated carrier: the company is known. */
export type ContextoEmpresa = CommandContext & { companyId: string };

export interface ExecuteOptions<E, S = unknown> {
  /** Deterministic ids make a redelivered command append nothing new (processors derive them from the cause). */
  eventId?: (index: number, event: E) => string;
  /** A process that commands the same streams often keeps their folded states: only newer events are read. */
  cache?: StateCache<S>;
  /**
   * The stream as the caller has just read it (`revision` null: no stream yet): decided on without reading it again,
   * trusted like a cached state (its append expects that revision; a conflict reads the stream as usual).
   */
  lido?: { state: S; revision: bigint | null };
  /**
   * Each event's metadata, when one append records what several causes asked (a group write: each event keeps its own
   * cause and correlation); the context's for all otherwise.
   */
  metadata?: (index: number, event: E, base: EventMetadata) => EventMetadata;
}

export interface Executed<S, E> {
  state: S;
  events: E[];
  position: Position | null;
}

export interface CommandDeps {
  store: EventStore;
  readYourWrites?: ReadYourWrites;
}

/**
 * Under the default backoff (full jitter from 10 ms, capped at 1 s), a command waits at most about 5 s in all before
 * its conflict is given up.
 */
export const MAX_ATTEMPTS = 12;

/** One lock per event store: two stores in one process (tests, tools) never share streams. */
const streamLocks = new WeakMap<EventStore, KeyedLock>();
const streamLockOf = (store: EventStore): KeyedLock => {
  let lock = streamLocks.get(store);
  if (!lock) streamLocks.set(store, (lock = new KeyedLock()));
  return lock;
};

export const toDomainEvent = <E>(e: RecordedEvent): E => ({ type: e.type, data: e.data }) as E;

/**
 * Load the stream, fold, decide, append with the expected revision; on a concurrent write, do it all again after a
 * jittered pause. Commands on one stream in this process take turns, so identical requests arriving together do not
 * spend the retry budget on each other; the retry covers writers in other processes. A conflict that outlives the
 * budget is thrown as `WrongExpectedRevision` (the API answers it 503 `consulta_indisponivel` with `Retry-After`).
 */
export async function execute<C, S, E extends DomainEvent>(
  deps: CommandDeps,
  streamId: string,
  decider: Decider<C, S, E>,
  command: C,
  ctx: CommandContext,
  options: ExecuteOptions<E, S> = {},
): Promise<Executed<S, E>> {
  return streamLockOf(deps.store).run(streamId, () => decideAndAppend(deps, streamId, decider, command, ctx, options));
}

async function decideAndAppend<C, S, E extends DomainEvent>(
  deps: CommandDeps,
  streamId: string,
  decider: Decider<C, S, E>,
  command: C,
  ctx: CommandContext,
  options: ExecuteOptions<E, S>,
): Promise<Executed<S, E>> {
  const retries = new Backoff({ max: MAX_ATTEMPTS });
  // A cached state is decided on without reading first: its append expects the cached revision, so it succeeds only
  // if nothing was written since, when the cached state is the stream's. A conflict, or a decision that appends nothing
  // (which must be checked against the stream), reads the newer events as usual.
  let trust = true;
  for (;;) {
    const cached = options.cache?.get(streamId);
    const confiavel = trust ? (options.lido ?? cached) : undefined;
    if (confiavel) {
      trust = false;
      // A refusal is not trusted either: the stream may have moved to where the command is valid.
      let events: E[] = [];
      try {
        events = decider.decide(command, confiavel.state, { now: ctx.now });
      } catch {
        events = [];
      }
      if (events.length > 0) {
        try {
          return await appendDecided(deps, streamId, decider, ctx, options, events, confiavel.state, confiavel.revision);
        } catch (err) {
          if (!(err instanceof WrongExpectedRevision)) throw err;
        }
      }
    }
    const history = await deps.store.readStream(streamId, cached?.revision);
    const newer = history.map((e) => toDomainEvent<E>(e));
    const state = cached ? evoluirTodos(decider, cached.state, newer) : fold(decider, newer);
    const revision = history.length > 0 ? history[history.length - 1]!.revision : (cached?.revision ?? null);
    if (revision !== null) options.cache?.set(streamId, state, revision);
    const events = decider.decide(command, state, { now: ctx.now });
    if (events.length === 0) {
      // A repeat that changes nothing answers from the read models too: they must show what this command saw,
      // which may be another process's write that has not recorded its watermark yet.
      const seen = history[history.length - 1];
      if (seen && ctx.companyId) await recordRequestWrite(deps.readYourWrites, ctx, ctx.companyId, seen.position);
      return { state, events, position: null };
    }
    try {
      return await appendDecided(deps, streamId, decider, ctx, options, events, state, revision);
    } catch (err) {
      if (!(err instanceof WrongExpectedRevision) || !(await retries.next())) throw err;
    }
  }
}

/** Appends what was decided on `state` (folded up to `revision`), expecting that revision; records the write. */
async function appendDecided<C, S, E extends DomainEvent>(
  deps: CommandDeps,
  streamId: string,
  decider: Decider<C, S, E>,
  ctx: CommandContext,
  options: ExecuteOptions<E, S>,
  events: E[],
  state: S,
  revision: bigint | null,
): Promise<Executed<S, E>> {
  const metadata: EventMetadata = {
    company_id: ctx.companyId,
    correlation_id: ctx.correlationId,
    causation_id: ctx.causationId,
    request_id: ctx.requestId,
    actor: ctx.actor,
  };
  const toAppend: NewEvent[] = events.map((e, i) => ({
    id: options.eventId?.(i, e) ?? randomUUID(),
    type: e.type,
    schemaVersion: EventCatalog[e.type].version,
    data: e.data,
    metadata: options.metadata ? options.metadata(i, e, metadata) : metadata,
  }));
  const { position, nextRevision } = await deps.store.append(streamId, toAppend, revision === null ? 'no_stream' : revision);
  if (ctx.companyId) await recordRequestWrite(deps.readYourWrites, ctx, ctx.companyId, position);
  const after = evoluirTodos(decider, state, events);
  options.cache?.set(streamId, after, nextRevision);
  return { state: after, events, position };
}

/** Current state of an aggregate as `load` gives it, reading only the events newer than the cached state. */
export async function loadCached<C, S, E>(
  store: EventStore,
  streamId: string,
  decider: Decider<C, S, E>,
  cache: StateCache<S>,
): Promise<S> {
  const cached = cache.get(streamId);
  const newer = await store.readStream(streamId, cached?.revision);
  const last = newer[newer.length - 1];
  if (!last) return cached?.state ?? decider.initialState;
  const events = newer.map((e) => toDomainEvent<E>(e));
  const state = cached ? evoluirTodos(decider, cached.state, events) : fold(decider, events);
  cache.set(streamId, state, last.revision);
  return state;
}

/** Current state of an aggregate, for reads that must see the log itself rather than a read model. */
export async function load<C, S, E>(store: EventStore, streamId: string, decider: Decider<C, S, E>): Promise<S> {
  const history = await store.readStream(streamId);
  return fold(
    decider,
    history.map((e) => toDomainEvent<E>(e)),
  );
}
