/**
 * Runs tasks one after another per key, tasks of different keys side by side. Commands on one stream in one process
 * take turns through it instead of racing to the same expected revision and retrying; it says nothing across
 * processes, where the event store's expected revision still decides.
 */
export class KeyedLock {
  /** Per key, the settled-either-way end of the last task queued: the next one starts after it. */
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      // The last task of a key leaves nothing behind, so keys seen once do not accumulate.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with a task running or waiting. */
  get size(): number {
    return this.tails.size;
  }
}
