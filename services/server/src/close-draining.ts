import { type FastifyInstance } from 'fastify';

/**
 * Closes a fastify server once the requests in flight are answered. close() then waits for their keep-alive
 * connections, which turn idle only afterwards and would hold it for the keep-alive timeout (72 s): they are closed
 * as they turn idle.
 */
export async function closeDraining(app: FastifyInstance): Promise<void> {
  const reaper = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    await app.close();
  } finally {
    clearInterval(reaper);
  }
}
