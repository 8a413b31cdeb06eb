import { PeriodicLoop } from '@frete/platform';

// Jest's fake clock: a loaded machine (CI's two cores under a full run) delays real timers past any bound.
const esperar = (ms: number) => jest.advanceTimersByTimeAsync(ms);

/** A run that stays in flight until `soltar` is called, recording how many runs were in flight at once. */
function corridaControlada() {
  let emVoo = 0;
  let maximo = 0;
  let inicios = 0;
  const pendentes: Array<() => void> = [];
  const run = () => {
    inicios++;
    emVoo++;
    maximo = Math.max(maximo, emVoo);
    return new Promise<void>((resolve) =>
      pendentes.push(() => {
        emVoo--;
        resolve();
      }),
    );
  };
  return {
    run,
    soltar: () => pendentes.splice(0).forEach((fim) => fim()),
    get inicios() {
      return inicios;
    },
    get maximo() {
      return maximo;
    },
  };
}

describe('PeriodicLoop', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('does not run before start, runs on start and again an interval after each run ends', async () => {
    let runs = 0;
    const loop = new PeriodicLoop(async () => void runs++, 5);
    await esperar(20);
    expect(runs).toBe(0);
    loop.start();
    await esperar(0);
    expect(runs).toBe(1);
    await esperar(4);
    expect(runs).toBe(1);
    await esperar(1);
    expect(runs).toBe(2);
    await esperar(10);
    expect(runs).toBe(4);
    await loop.stop();
    await esperar(50);
    expect(runs).toBe(4);
  });

  it('never overlaps: a run longer than the interval holds the next one back', async () => {
    const corrida = corridaControlada();
    const loop = new PeriodicLoop(corrida.run, 1);
    loop.start();
    await esperar(30);
    expect(corrida.inicios).toBe(1);
    corrida.soltar();
    await esperar(30);
    expect(corrida.inicios).toBe(2);
    corrida.soltar();
    await loop.stop();
    expect(corrida.maximo).toBe(1);
  });

  it('stop waits for the run in flight and no run starts after it', async () => {
    const corrida = corridaControlada();
    const loop = new PeriodicLoop(corrida.run, 1);
    loop.start();
    await esperar(10);
    let parou = false;
    const parada = loop.stop().then(() => (parou = true));
    await esperar(10);
    expect(parou).toBe(false);
    corrida.soltar();
    await parada;
    await esperar(20);
    expect(corrida.inicios).toBe(1);
  });

  it('a stop before the first run cancels it', async () => {
    let runs = 0;
    const loop = new PeriodicLoop(async () => void runs++, 1);
    loop.start();
    await loop.stop();
    await esperar(20);
    expect(runs).toBe(0);
  });

  it('a failed run goes to onError and the loop goes on', async () => {
    const erros: unknown[] = [];
    let runs = 0;
    const loop = new PeriodicLoop(
      async () => {
        runs++;
        if (runs === 1) throw new Error('database away');
      },
      1,
      (err) => erros.push(err),
    );
    loop.start();
    await esperar(40);
    await loop.stop();
    expect(erros).toHaveLength(1);
    expect((erros[0] as Error).message).toBe('database away');
    expect(runs).toBe(41);
  });
});
