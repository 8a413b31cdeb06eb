import { type Position, type RecordedEvent } from '@frete/contracts';
import { ConcurrentDispatch } from '@frete/platform';
import { eventoGravado as event } from '../support/evento-gravado';

/** A handler each test releases by hand, event by event. */
function gates() {
  const open = new Map<string, { release: () => void; fail: (err: Error) => void }>();
  const started: string[] = [];
  const handle = (e: RecordedEvent) =>
    new Promise<void>((resolve, reject) => {
      started.push(e.id);
      open.set(e.id, { release: resolve, fail: reject });
    });
  return { started, handle, release: (id: string) => open.get(id)!.release(), fail: (id: string, err: Error) => open.get(id)!.fail(err) };
}

const flush = () => new Promise((r) => setImmediate(r));

function dispatchOf(concurrency: number, handle: (e: RecordedEvent) => Promise<void>, checkpointEveryMs?: number) {
  const saved: bigint[] = [];
  const failures: unknown[] = [];
  const dispatch = new ConcurrentDispatch({
    concurrency,
    keyOf: (e) => e.streamId,
    handle,
    checkpoint: async (p: Position) => {
      saved.push(p.commit);
    },
    onFailure: (err) => failures.push(err),
    ...(checkpointEveryMs ? { checkpointEveryMs } : {}),
  });
  return { dispatch, saved, failures };
}

describe('ConcurrentDispatch', () => {
  it('handles events of different keys side by side and those of one key in order, one at a time', async () => {
    const g = gates();
    const { dispatch } = dispatchOf(8, g.handle);
    await dispatch.submit(event(1, 'a').position, event(1, 'a'));
    await dispatch.submit(event(2, 'b').position, event(2, 'b'));
    await dispatch.submit(event(3, 'a').position, event(3, 'a'));
    await flush();
    expect(g.started).toEqual(['e1', 'e2']);
    g.release('e1');
    await flush();
    expect(g.started).toEqual(['e1', 'e2', 'e3']);
    g.release('e2');
    g.release('e3');
    await dispatch.settle();
  });

  it('admits no more than its concurrency: the next submit waits for a handler to end', async () => {
    const g = gates();
    const { dispatch } = dispatchOf(2, g.handle);
    await dispatch.submit(event(1, 'a').position, event(1, 'a'));
    await dispatch.submit(event(2, 'b').position, event(2, 'b'));
    let admitted = false;
    const third = dispatch.submit(event(3, 'c').position, event(3, 'c')).then(() => (admitted = true));
    await flush();
    expect(admitted).toBe(false);
    expect(g.started).toEqual(['e1', 'e2']);
    g.release('e2');
    await third;
    await flush();
    expect(g.started).toEqual(['e1', 'e2', 'e3']);
    g.release('e1');
    g.release('e3');
    await dispatch.settle();
  });

  it('saves only the end of the prefix of handled events: one handled early waits for the slower one before it', async () => {
    const g = gates();
    const { dispatch, saved } = dispatchOf(8, g.handle);
    await dispatch.submit(event(1, 'a').position, event(1, 'a'));
    await dispatch.submit(event(2, 'b').position, event(2, 'b'));
    await dispatch.submit(event(3, 'c').position, event(3, 'c'));
    g.release('e2');
    g.release('e3');
    await flush();
    expect(saved).toEqual([]);
    g.release('e1');
    await dispatch.settle();
    expect(saved[saved.length - 1]).toBe(3n);
    expect(saved.every((p, i) => i === 0 || p > saved[i - 1]!)).toBe(true);
  });

  it('with checkpointEveryMs, saves at once, then at most once per interval, the latest prefix; settle saves at once', async () => {
    // The clock is the test's: a loaded machine must not move it between two steps.
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const { dispatch, saved } = dispatchOf(4, async () => undefined, 150);
      await dispatch.submit(event(1, 'a').position, event(1, 'a'));
      await flush();
      expect(saved).toEqual([1n]);
      for (let n = 2; n <= 5; n++) await dispatch.submit(event(n, 'a').position, event(n, 'a'));
      await flush();
      // Handled, not yet saved: the interval since the first save has not passed.
      jest.advanceTimersByTime(149);
      await flush();
      expect(saved).toEqual([1n]);
      jest.advanceTimersByTime(1);
      await flush();
      expect(saved).toEqual([1n, 5n]);
      await dispatch.submit(event(6, 'a').position, event(6, 'a'));
      await flush();
      expect(saved).toEqual([1n, 5n]);
      await dispatch.settle();
      expect(saved).toEqual([1n, 5n, 6n]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('moves past ignored events without handling them, saving them only now and then or when settled', async () => {
    const handled: string[] = [];
    const { dispatch, saved } = dispatchOf(4, async (e) => {
      handled.push(e.id);
    });
    for (let n = 1; n <= 10; n++) await dispatch.submit(event(n, `s${n}`, 'test.other').position, null);
    await flush();
    expect(saved).toEqual([]);
    await dispatch.settle();
    expect(handled).toEqual([]);
    expect(saved).toEqual([10n]);
  });

  it('after a failure admits nothing, reports it once, leaves queued events unhandled and saves the prefix before it', async () => {
    const g = gates();
    const { dispatch, saved, failures } = dispatchOf(8, g.handle);
    await dispatch.submit(event(1, 'a').position, event(1, 'a'));
    await dispatch.submit(event(2, 'b').position, event(2, 'b'));
    await dispatch.submit(event(3, 'b').position, event(3, 'b'));
    await dispatch.submit(event(4, 'c').position, event(4, 'c'));
    g.release('e1');
    const crash = new Error('crash');
    g.fail('e2', crash);
    await flush();
    expect(failures).toEqual([crash]);
    expect(dispatch.failed).toBe(true);
    await expect(dispatch.submit(event(5, 'd').position, event(5, 'd'))).rejects.toBe(crash);
    g.release('e4');
    await dispatch.settle();
    // e3 was waiting behind e2 on its key: never started. The save stops before the failed e2.
    expect(g.started).toEqual(['e1', 'e2', 'e4']);
    expect(saved[saved.length - 1]).toBe(1n);
    expect(failures).toHaveLength(1);
  });

  it('wakes a submit waiting for room when a handler fails, with the failure', async () => {
    const g = gates();
    const { dispatch } = dispatchOf(1, g.handle);
    await dispatch.submit(event(1, 'a').position, event(1, 'a'));
    const waiting = dispatch.submit(event(2, 'b').position, event(2, 'b'));
    const crash = new Error('crash');
    g.fail('e1', crash);
    await expect(waiting).rejects.toBe(crash);
    await dispatch.settle();
  });

  it('refuses a concurrency below 1', () => {
    expect(() => dispatchOf(0, async () => undefined)).toThrow('concurrency must be ≥ 1');
  });
});
