import { type Pool } from 'pg';
import { type EventStore } from '../event-store/port';
import { SubscriptionCheckpoints } from '../processors/direct';
import { LAG_COUNT_CAP } from '../projections/runner';
import { type LogLag } from './metrics';

/**
 * How far the Kafka relay is behind the log: the events after its checkpoint (the row it moves once the broker has
 * acknowledged a send) and the age of the oldest of them, measured as the projection runner measures its own lag.
 * Read from the database, so any process can report it (the relay's own reports it).
 */
export function relayLag(store: EventStore, pool: Pool, checkpointName: string): () => Promise<LogLag> {
  const checkpoints = new SubscriptionCheckpoints(pool);
  return async () => {
    const from = await checkpoints.get(checkpointName);
    const [next] = await store.readAll(from, 1);
    if (!next) return { events: 0, seconds: 0 };
    const events = store.countAfter ? await store.countAfter(from, LAG_COUNT_CAP) : (await store.readAll(from, LAG_COUNT_CAP)).length;
    return { events, seconds: Math.max(0, (Date.now() - next.recordedAt.getTime()) / 1000) };
  };
}
