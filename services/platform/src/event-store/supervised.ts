import { type Position } from '@frete/contracts';
import { Backoff } from '../retry/backoff';
import { type EventStore, type Subscription, type SubscribeOptions } from './port';

export interface SupervisedOptions {
  /** Where to start (again): read from the checkpoint at each (re)start. */
  from: () => Promise<Position>;
  onEvent: SubscribeOptions['onEvent'];
  onBatch?: SubscribeOptions['onBatch'];
  onError?: (err: unknown) => void;
  maxBackoffMs?: number;
}

/**
 * A catch-up subscription that, when it fails (database restart, a handler error), starts again from its
 * checkpoint after a backoff instead of dying quietly. Handlers are idempotent, so replaying from the checkpoint
 * is safe.
 */
export interface SupervisedSubscription extends Subscription {
  /** Ends the current subscription as if it had failed: it starts again from its checkpoint after the backoff. */
  restart(): void;
}

export function supervisedSubscription(store: EventStore, options: SupervisedOptions): SupervisedSubscription {
  const stopping = new AbortController();
  const stopped = stopping.signal;
  let current: Subscription | null = null;
  const loop = async () => {
    const restarts = new Backoff({ signal: stopped, baseMs: 100, capMs: options.maxBackoffMs ?? 10_000, jitter: 'none' });
    do {
      try {
        const from = await options.from();
        // Stopped while the checkpoint was read: a subscription started now would be one that stop() never ends.
        if (stopped.aborted) return;
        current = store.subscribeToAll({ from, onEvent: options.onEvent, ...(options.onBatch ? { onBatch: options.onBatch } : {}) });
        await current.done;
        if (stopped.aborted) return;
      } catch (err) {
        if (stopped.aborted) return;
        options.onError?.(err);
      }
    } while (await restarts.next());
  };
  const done = loop();
  return {
    done,
    restart: () => {
      void current?.stop();
    },
    stop: async () => {
      stopping.abort();
      await current?.stop();
      await done;
    },
  };
}
