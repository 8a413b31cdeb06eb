import { type Position } from '@frete/contracts';
import { type EventStore, type Subscription, type SubscribeOptions } from './port';

export interface SupervisedOptions {
  /** Where to start (again): read from the checkpoint at each (re)start. */
  from: () => Promise<Position>;
  onEvent: SubscribeOptions['onEvent'];
  onError?: (err: unknown) => void;
  maxBackoffMs?: number;
}

/**
 * A catch-up subscription that, when it fails (database restart, a handler error), starts again from its
 * checkpoint after a backoff instead of dying quietly. Handlers are idempotent, so replaying from the checkpoint
 * is safe.
 */
export function supervisedSubscription(store: EventStore, options: SupervisedOptions): Subscription {
  let stopped = false;
  let current: Subscription | null = null;
  let wake: (() => void) | null = null;
  const loop = async () => {
    for (let backoff = 100; !stopped; backoff = Math.min(backoff * 2, options.maxBackoffMs ?? 10_000)) {
      try {
        const from = await options.from();
        // Stopped while the checkpoint was read: a subscription started now would be one that stop() never ends.
        if (stopped) return;
        current = store.subscribeToAll({ from, onEvent: options.onEvent });
        await current.done;
        if (stopped) return;
      } catch (err) {
        if (stopped) return;
        options.onError?.(err);
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, backoff);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  };
  const done = loop();
  return {
    done,
    stop: async () => {
      stopped = true;
      wake?.();
      await current?.stop();
      await done;
    },
  };
}
