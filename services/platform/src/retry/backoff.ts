/**
 * Pause before retry `attempt` (1 = the first retry): "full jitter", a uniformly random pause below an exponentially
 * growing ceiling. Writers that collided spread out instead of colliding again in step, which a fixed or no pause
 * makes them do until the retry budget is spent.
 */
export function backoffDelayMs(attempt: number, random: () => number = Math.random, baseMs = 10, capMs = 1000): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
