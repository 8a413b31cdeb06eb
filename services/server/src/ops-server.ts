import Fastify from 'fastify';
import { envelope, requestId } from '@frete/api';
import { closeDraining } from './close-draining';
import { proxyTrust, type Readiness, type TrustProxy } from '@frete/platform';

export interface OpsServerOptions {
  host: string;
  port: number;
  ready: () => Promise<Readiness>;
  /** The process's `TRUST_PROXY`, so that request.ip means the same here as on the API's port. */
  trustProxy: TrustProxy;
  /** Prometheus exposition (the process's metrics registry); without it /metrics is not served. */
  metrics?: { contentType: string; render(): Promise<string> };
}

export interface OpsServer {
  /** e.g. http://127.0.0.1:9464 */
  url: string;
  close(): Promise<void>;
}

/**
 * The ops endpoints of a process without the API (projector, relay, processors) on METRICS_PORT: what an orchestrator
 * probes and Prometheus scrapes. The API serves the same paths on its own port.
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  // No logger: probes every few seconds would fill the log with lines nobody reads.
  // The API's request ids: an operator's X-Request-Id is kept, and every answer names its own.
  const app = Fastify({ logger: false, genReqId: requestId, requestIdHeader: false, trustProxy: proxyTrust(options.trustProxy) });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  app.get('/health/live', async () => ({ status: 'live' }));
  app.get('/health/ready', async (_req, reply) => {
    const readiness = await options.ready();
    return reply.status(readiness.status === 'ready' ? 200 : 503).send(readiness);
  });
  const metrics = options.metrics;
  if (metrics) {
    app.get('/metrics', async (_req, reply) => reply.type(metrics.contentType).send(await metrics.render()));
  }
  app.setNotFoundHandler((req, reply) =>
    reply.status(404).send(envelope('nao_encontrado', `no route ${req.method} ${req.url.split('?')[0]}`, req.id)),
  );
  const url = await app.listen({ host: options.host, port: options.port });
  return {
    url,
    // A scrape in flight is answered before the server closes.
    close: () => closeDraining(app),
  };
}
