import { type Worker } from 'node:worker_threads';

/** How a worker started for one job turns what happens to it into the job's outcome. */
export interface OneAnswer<R, T> {
  /** Wall-clock budget, from now: past it the worker is terminated and `timedOut` is the failure. */
  timeoutMs: number;
  timedOut: () => Error;
  /** The worker's reply as the result; throws for a refusal the reply carries. */
  reply: (reply: R) => T;
  error: (err: Error & { code?: string }) => Error;
  exited: (code: number) => Error;
}

/**
 * The outcome of a worker thread started for one job: the first of its reply, its failure, its exit or the time
 * budget settles it, and the worker is ended then, so a stuck or hostile job never outlives its budget.
 */
export function oneAnswer<R, T>(worker: Worker, on: OneAnswer<R, T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => T) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      try {
        resolve(outcome());
      } catch (err) {
        reject(err);
      }
    };
    const fail = (error: Error) => () => {
      throw error;
    };
    const timer = setTimeout(() => settle(fail(on.timedOut())), on.timeoutMs);
    worker.on('message', (reply: R) => settle(() => on.reply(reply)));
    worker.on('error', (err: Error & { code?: string }) => settle(fail(on.error(err))));
    worker.on('exit', (code: number) => settle(fail(on.exited(code))));
  });
}
