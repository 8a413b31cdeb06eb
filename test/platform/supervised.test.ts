import { type RecordedEvent } from '@frete/contracts';
import { SubscriptionCheckpoints, supervisedSubscription } from '@frete/platform';
import { withEventStore } from '../support/store';
import { eventually, newEvent } from '../conformance/event-store.suite';

describe('supervised subscription', () => {
  const fixture = withEventStore();

  it('starts again from its checkpoint after a handler failure, losing nothing', async () => {
    const { db, store } = fixture;
    const checkpoints = new SubscriptionCheckpoints(db.pool);
    const handled: RecordedEvent[] = [];
    const errors: unknown[] = [];
    let failOnce = true;
    const sub = supervisedSubscription(store, {
      from: () => checkpoints.get('test:supervised'),
      onEvent: async (e) => {
        if (e.type === 'b' && failOnce) {
          failOnce = false;
          throw new Error('database went away');
        }
        handled.push(e);
        await checkpoints.set('test:supervised', e.position);
      },
      onError: (err) => errors.push(err),
      maxBackoffMs: 50,
    });
    try {
      await store.append('s-1', [newEvent('a'), newEvent('b'), newEvent('c')], 'no_stream');
      await eventually(() => handled.length === 3, 'all three events after the restart');
      expect(handled.map((e) => e.type)).toEqual(['a', 'b', 'c']);
      expect(errors).toHaveLength(1);
    } finally {
      await sub.stop();
    }
  });

  it('stopped while it reads its checkpoint, it starts no subscription and its stop returns', async () => {
    const { store } = fixture;
    let release!: (p: Awaited<ReturnType<typeof store.headPosition>>) => void;
    const subscribe = jest.spyOn(store, 'subscribeToAll');
    try {
      const sub = supervisedSubscription(store, {
        from: () => new Promise((resolve) => (release = resolve)),
        onEvent: async () => undefined,
      });
      const stopped = sub.stop();
      release(await store.headPosition());
      await stopped;
      expect(subscribe).not.toHaveBeenCalled();
    } finally {
      subscribe.mockRestore();
    }
  });
});
