import { Backoff, type BackoffOptions, pause } from '@frete/platform';
import { MAX_ATTEMPTS } from '@frete/application';

/** Runs a loop under the backoff until it says no more (or `body` says done), recording the pauses instead of waiting. */
async function run(options: BackoffOptions, body: (attempt: number) => 'again' | 'done' = () => 'again') {
  const made: number[] = [];
  const paused: number[] = [];
  const backoff = new Backoff({ ...options, sleep: async (ms) => void paused.push(ms) });
  do {
    made.push(backoff.attempt);
    if (body(backoff.attempt) === 'done') break;
  } while (await backoff.next());
  return { made, paused };
}

describe('Backoff (the one retry/backoff helper)', () => {
  it('makes `max` attempts with a full-jitter pause before each retry, drawn below a doubling ceiling', async () => {
    const { made, paused } = await run({ max: 5, random: () => 0.5 });
    expect(made).toEqual([1, 2, 3, 4, 5]);
    expect(paused).toEqual([5, 10, 20, 40]);
  });

  it("execute's budget: 12 attempts wait about 5 s at the most", async () => {
    const { made, paused } = await run({ max: MAX_ATTEMPTS, random: () => 0.999_999 });
    expect(made).toHaveLength(12);
    expect(paused).toEqual([9, 19, 39, 79, 159, 319, 639, 999, 999, 999, 999]);
    expect(paused.reduce((a, b) => a + b)).toBeGreaterThan(5000);
    expect(paused.reduce((a, b) => a + b)).toBeLessThan(5300);
  });

  it('draws from Math.random unless told otherwise', async () => {
    const random = jest.spyOn(Math, 'random').mockReturnValue(0);
    try {
      const { paused } = await run({ max: 4 });
      expect(paused).toEqual([0, 0, 0]);
      expect(random).toHaveBeenCalledTimes(3);
    } finally {
      random.mockRestore();
    }
  });

  it('without jitter, pauses are the ceiling itself, capped', async () => {
    const { paused } = await run({ max: 6, baseMs: 100, capMs: 500, jitter: 'none' });
    expect(paused).toEqual([100, 200, 400, 500, 500]);
  });

  it('a constant pause when the base is the cap', async () => {
    const { paused } = await run({ max: 4, baseMs: 1000, capMs: 1000, jitter: 'none' });
    expect(paused).toEqual([1000, 1000, 1000]);
  });

  it('leaving the loop makes no further pause nor attempt', async () => {
    const { made, paused } = await run({ max: 10, random: () => 0 }, (n) => (n === 3 ? 'done' : 'again'));
    expect(made).toEqual([1, 2, 3]);
    expect(paused).toEqual([0, 0]);
  });

  it('without `max`, goes on until the signal aborts; after the abort nothing is paused nor attempted', async () => {
    const stop = new AbortController();
    const { made, paused } = await run({ signal: stop.signal, jitter: 'none' }, (n) => {
      if (n === 4) stop.abort();
      return 'again';
    });
    expect(made).toEqual([1, 2, 3, 4]);
    expect(paused).toEqual([10, 20, 40]);
  });

  it('an abort during a pause: no attempt follows', async () => {
    const stop = new AbortController();
    const backoff = new Backoff({ signal: stop.signal, sleep: async () => stop.abort() });
    expect(await backoff.next()).toBe(false);
    expect(backoff.attempt).toBe(1);
  });

  it('wakes from a real pause as soon as it is stopped', async () => {
    const stop = new AbortController();
    const backoff = new Backoff({ signal: stop.signal, baseMs: 60_000, capMs: 60_000, jitter: 'none' });
    const started = Date.now();
    const next = backoff.next();
    setTimeout(() => stop.abort(), 10);
    expect(await next).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('pause', () => {
  it('waits the time it is given', async () => {
    const started = Date.now();
    await pause(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('already aborted: returns at once', async () => {
    const stop = new AbortController();
    stop.abort();
    const started = Date.now();
    await pause(60_000, stop.signal);
    expect(Date.now() - started).toBeLessThan(100);
  });
});
