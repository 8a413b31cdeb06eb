import { type Decider } from '@frete/domain';
import { decisaoEmGrupo, EscritaAgrupada } from '../../services/application/src/commands/escrita-agrupada';

/** A write that waits until released, recording what each write held. */
function gravador(recusar: (item: number) => boolean = () => false) {
  const escritas: { chave: string; itens: number[] }[] = [];
  const soltar: (() => void)[] = [];
  const gravar = async (chave: string, itens: number[]) => {
    escritas.push({ chave, itens });
    await new Promise<void>((r) => soltar.push(r));
    const recusado = itens.find(recusar);
    if (recusado !== undefined) throw new Error(`refused ${recusado}`);
  };
  /** Releases every write in flight, then lets the callbacks run. */
  const liberar = async () => {
    for (let i = 0; i < 20; i++) {
      for (const s of soltar.splice(0)) s();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { escritas, gravar, liberar };
}

describe('EscritaAgrupada (group commit of one key)', () => {
  it('writes the first at once, alone, and what arrives while it is in flight in one write after it', async () => {
    const g = gravador();
    const agrupada = new EscritaAgrupada<number>(g.gravar);
    const feitas = [1, 2, 3, 4].map((n) => agrupada.escrever('lote-a', n));
    expect(g.escritas).toEqual([{ chave: 'lote-a', itens: [1] }]);
    await g.liberar();
    await Promise.all(feitas);
    expect(g.escritas).toEqual([
      { chave: 'lote-a', itens: [1] },
      { chave: 'lote-a', itens: [2, 3, 4] },
    ]);
  });

  it('keeps keys apart: each has its own write in flight', async () => {
    const g = gravador();
    const agrupada = new EscritaAgrupada<number>(g.gravar);
    const feitas = [agrupada.escrever('a', 1), agrupada.escrever('b', 2), agrupada.escrever('a', 3)];
    expect(g.escritas.map((e) => e.chave)).toEqual(['a', 'b']);
    await g.liberar();
    await Promise.all(feitas);
    expect(g.escritas).toContainEqual({ chave: 'a', itens: [3] });
  });

  it('settles a caller only once its own item is written', async () => {
    const g = gravador();
    const agrupada = new EscritaAgrupada<number>(g.gravar);
    let segunda = false;
    void agrupada.escrever('a', 1);
    void agrupada.escrever('a', 2).then(() => (segunda = true));
    for (const s of [0, 1, 2]) await new Promise((r) => setImmediate(r, s));
    expect(segunda).toBe(false);
    await g.liberar();
    expect(segunda).toBe(true);
  });

  it('a refused group is written again item by item: only the refused item fails its caller', async () => {
    const g = gravador((n) => n === 3);
    const agrupada = new EscritaAgrupada<number>(g.gravar);
    const feitas = [1, 2, 3, 4].map((n) =>
      agrupada.escrever('a', n).then(
        () => 'ok',
        (e: Error) => e.message,
      ),
    );
    await g.liberar();
    expect(await Promise.all(feitas)).toEqual(['ok', 'ok', 'refused 3', 'ok']);
    expect(g.escritas.map((e) => e.itens)).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it('after the queue empties, the next item is written at once again', async () => {
    const g = gravador();
    const agrupada = new EscritaAgrupada<number>(g.gravar);
    const primeira = agrupada.escrever('a', 1);
    await g.liberar();
    await primeira;
    const segunda = agrupada.escrever('a', 2);
    expect(g.escritas.map((e) => e.itens)).toEqual([[1], [2]]);
    await g.liberar();
    await segunda;
  });
});

describe('decisaoEmGrupo', () => {
  // Each command adds `n` events, numbered on from the state: the second command decides on what the first left.
  const contador: Decider<{ n: number }, number, { type: 'contado'; data: { valor: number } }> = {
    initialState: 0,
    decide: (c, s) => Array.from({ length: c.n }, (_, i) => ({ type: 'contado' as const, data: { valor: s + i + 1 } })),
    evolve: (s, e) => e.data.valor,
  };

  it("decides the commands in sequence and says each event's item and place among that item's events", () => {
    const grupo = decisaoEmGrupo(contador);
    const eventos = grupo.decider.decide([{ n: 2 }, { n: 0 }, { n: 3 }], 10, { now: new Date(0) });
    expect(eventos.map((e) => e.data.valor)).toEqual([11, 12, 13, 14, 15]);
    expect(eventos.map((_, i) => [grupo.item(i), grupo.indiceNoItem(i)])).toEqual([
      [0, 0],
      [0, 1],
      [2, 0],
      [2, 1],
      [2, 2],
    ]);
  });
});
