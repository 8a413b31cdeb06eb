import { randomUUID } from 'node:crypto';
import { type NewEvent } from '@frete/contracts';
import { Metrics, relayLag, SubscriptionCheckpoints } from '@frete/platform';
import { withEventStore } from '../support/store';
import { parseExposition } from '../support/prometheus';

const newEvent = (): NewEvent => ({
  id: randomUUID(),
  type: 'test.pinged',
  schemaVersion: 1,
  data: {},
  metadata: { company_id: null, correlation_id: 'c', causation_id: null, request_id: null, actor: 'test' },
});

/** The relay's lag is read from its checkpoint row, as the relay moves it after the broker acknowledged a send. */
describe('relay lag (frete_relay_lag_events, frete_relay_lag_seconds)', () => {
  const fixture = withEventStore();

  it('counts the events after the checkpoint and the age of the oldest of them, 0 and 0 once it reached the head', async () => {
    const { store, db } = fixture;
    const name = `relay:test-${randomUUID()}`;
    const stream = `s-${randomUUID()}`;
    await store.append(stream, [newEvent(), newEvent(), newEvent()], 'no_stream');
    const events = await store.readStream(stream);
    const checkpoints = new SubscriptionCheckpoints(db.pool);
    const lag = relayLag(store, db.pool, name);
    const metrics = new Metrics();
    metrics.watchRelay(name, lag);

    // No checkpoint yet: the whole log is behind (other tests' events of this database included).
    const all = await lag();
    expect(all.events).toBeGreaterThanOrEqual(3);
    expect(all.seconds).toBeGreaterThanOrEqual(0);

    await checkpoints.set(name, events[0]!.position);
    const behind = await lag();
    expect(behind.events).toBe(2);
    expect(behind.seconds).toBeCloseTo((Date.now() - events[1]!.recordedAt.getTime()) / 1000, 0);
    const m = parseExposition(await metrics.render());
    expect(m.value('frete_relay_lag_events', { relay: name })).toBe(2);
    expect(m.value('frete_relay_lag_seconds', { relay: name })).toBeGreaterThanOrEqual(behind.seconds);

    await checkpoints.set(name, events[2]!.position);
    expect(await lag()).toEqual({ events: 0, seconds: 0 });
  });
});
