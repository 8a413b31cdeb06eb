import { type Decider, emSequencia } from '@frete/domain';

/** Items in one write, at most: a batch block's worth. */
const MAXIMO_POR_ESCRITA = 100;

interface Pendente<T> {
  item: T;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Writes that share a key and arrive while one is in flight go together in the next one (a group commit): the first
 * is written at once, alone; those that came meanwhile follow in one write. Each caller's promise settles when the
 * write holding its item has, so a caller that returns has its item recorded. A group's write that fails is tried
 * again item by item, so one refused item does not refuse the others: `gravar` must be safe to repeat (a decider
 * that records an outcome once, and ids derived from what they record).
 */
export class EscritaAgrupada<T> {
  private readonly filas = new Map<string, Pendente<T>[]>();

  constructor(private readonly gravar: (chave: string, itens: T[]) => Promise<void>) {}

  escrever(chave: string, item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      const fila = this.filas.get(chave);
      if (fila) fila.push({ item, resolve, reject });
      else {
        this.filas.set(chave, []);
        void this.esvaziar(chave, [{ item, resolve, reject }]);
      }
    });
  }

  /** Writes `grupo`, then what queued meanwhile, until nothing is left for the key. */
  private async esvaziar(chave: string, grupo: Pendente<T>[]): Promise<void> {
    for (;;) {
      await this.escreverGrupo(chave, grupo);
      const fila = this.filas.get(chave)!;
      if (fila.length === 0) {
        this.filas.delete(chave);
        return;
      }
      grupo = fila.splice(0, MAXIMO_POR_ESCRITA);
    }
  }

  private async escreverGrupo(chave: string, grupo: Pendente<T>[]): Promise<void> {
    try {
      await this.gravar(
        chave,
        grupo.map((p) => p.item),
      );
      for (const p of grupo) p.resolve();
    } catch (err) {
      if (grupo.length === 1) return grupo[0]!.reject(err);
      for (const p of grupo) {
        try {
          await this.gravar(chave, [p.item]);
          p.resolve();
        } catch (errDoItem) {
          p.reject(errDoItem);
        }
      }
    }
  }
}

/**
 * The decider a group write appends with: its items' commands in sequence (`emSequencia`), and for each event of the
 * decision appended, the item that asked for it and its place among that item's events, so that each event keeps the
 * id and the cause it would have had written alone.
 */
export function decisaoEmGrupo<C, S, E>(decider: Decider<C, S, E>) {
  let origens: readonly number[] = [];
  return {
    decider: emSequencia(decider, (o) => (origens = o)),
    item: (evento: number): number => origens[evento]!,
    indiceNoItem: (evento: number): number => evento - origens.indexOf(origens[evento]!),
  };
}
