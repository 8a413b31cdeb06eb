/**
 * Resolves on a later turn of the event loop, after the I/O already waiting (a GET, a database answer). A run of CPU
 * work made of promises that resolve at once (a block's documents built and signed one after another) is otherwise
 * one turn long: awaiting this between its pieces keeps each turn to one piece.
 */
export const proximaVolta = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
