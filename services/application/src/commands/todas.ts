import { proximaVolta } from '@frete/platform';

/** Waits for every task, then fails with the first failure: no work of a failed run is left running behind it. */
export async function todas<T>(tasks: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(tasks);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/**
 * `todas` over tasks started one per turn of the event loop: each task's synchronous start (a document built and
 * signed) is its own turn, and the I/O that waits meanwhile (a GET of the report) is served between two.
 */
export async function todasEmVoltas<I, T>(itens: readonly I[], tarefa: (item: I, indice: number) => Promise<T>): Promise<T[]> {
  const tasks: Promise<T>[] = [];
  for (const [i, item] of itens.entries()) {
    if (i > 0) await proximaVolta();
    const task = tarefa(item, i);
    // Awaited below with the others: a failure before the last has started is not an unhandled rejection.
    task.catch(() => {});
    tasks.push(task);
  }
  return todas(tasks);
}
