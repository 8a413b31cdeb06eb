/**
 * Folded states of streams a long-running process commands again and again (a payout group, a number series),
 * with the revision they were folded to: the next command reads only the events after it instead of the whole
 * stream. Other writers' events are read like any others, so a cached state is never trusted beyond its revision.
 */
export class StateCache<S> {
  private readonly entries = new Map<string, { state: S; revision: bigint }>();

  constructor(private readonly max = 1000) {}

  get(streamId: string): { state: S; revision: bigint } | undefined {
    const e = this.entries.get(streamId);
    if (e) {
      // Most recently used last, so the first key is the one to drop.
      this.entries.delete(streamId);
      this.entries.set(streamId, e);
    }
    return e;
  }

  set(streamId: string, state: S, revision: bigint): void {
    this.entries.delete(streamId);
    this.entries.set(streamId, { state, revision });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}
