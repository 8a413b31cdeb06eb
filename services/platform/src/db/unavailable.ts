/**
 * SQLSTATE classes and codes that say the database cannot serve now but may in a moment: connection exceptions
 * (08), insufficient resources (53: too many clients, out of memory or disk), an administrator or crash shutting
 * the server down (57P01–57P03), and a transaction the server chose to abort (40001 serialization, 40P01 deadlock).
 */
const TRANSIENT_SQLSTATE = /^(08|53|57P0[1-3]$|40001$|40P01$)/;
/** The socket errors of a server that is down, restarting or out of reach. */
const TRANSIENT_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** True for a database failure that says nothing about the request: the same request may succeed when retried. */
export function isDatabaseUnavailable(err: unknown): boolean {
  // Read by shape, not `instanceof Error`: errors made by Node's core may come from another realm (workers, VMs).
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (TRANSIENT_SQLSTATE.test(code) || TRANSIENT_SOCKET.has(code))) return true;
  // node-postgres ends a query whose connection dropped with these, without a code.
  return (
    typeof message === 'string' &&
    /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/.test(message)
  );
}
