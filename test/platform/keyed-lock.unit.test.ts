import { backoffDelayMs } from '@frete/platform';
import { KeyedLock } from '@frete/platform';

/** A task that records its start and end around a pause the test releases. */
function tarefa(log: string[], nome: string) {
  let soltar!: () => void;
  const solta = new Promise<void>((r) => (soltar = r));
  const run = async () => {
    log.push(`${nome}:inicio`);
    await solta;
    log.push(`${nome}:fim`);
    return nome;
  };
  return { run, soltar };
}

const ciclo = () => new Promise((r) => setImmediate(r));

describe('KeyedLock', () => {
  it('runs the tasks of one key one after another, in arrival order', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const a = tarefa(log, 'a');
    const b = tarefa(log, 'b');
    const pa = lock.run('k', a.run);
    const pb = lock.run('k', b.run);
    await ciclo();
    expect(log).toEqual(['a:inicio']);
    b.soltar();
    await ciclo();
    expect(log).toEqual(['a:inicio']);
    a.soltar();
    expect(await Promise.all([pa, pb])).toEqual(['a', 'b']);
    expect(log).toEqual(['a:inicio', 'a:fim', 'b:inicio', 'b:fim']);
    expect(lock.size).toBe(0);
  });

  it('runs tasks of different keys side by side', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const a = tarefa(log, 'a');
    const b = tarefa(log, 'b');
    const pa = lock.run('k1', a.run);
    const pb = lock.run('k2', b.run);
    await ciclo();
    expect(log).toEqual(['a:inicio', 'b:inicio']);
    expect(lock.size).toBe(2);
    a.soltar();
    b.soltar();
    await Promise.all([pa, pb]);
    expect(lock.size).toBe(0);
  });

  it('a failing task gives its error to its caller and the turn to the next', async () => {
    const lock = new KeyedLock();
    const falha = lock.run('k', async () => {
      throw new Error('falhou');
    });
    const seguinte = lock.run('k', async () => 'ok');
    await expect(falha).rejects.toThrow('falhou');
    await expect(seguinte).resolves.toBe('ok');
    expect(lock.size).toBe(0);
  });
});

describe('backoffDelayMs (full jitter)', () => {
  it('draws below a ceiling that doubles from 10 ms and stops at 1 s', () => {
    const topo = (attempt: number) => backoffDelayMs(attempt, () => 0.999_999);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 12].map(topo)).toEqual([9, 19, 39, 79, 159, 319, 639, 999, 999]);
    expect(backoffDelayMs(5, () => 0)).toBe(0);
    expect(backoffDelayMs(3, () => 0.5)).toBe(20);
  });
});
