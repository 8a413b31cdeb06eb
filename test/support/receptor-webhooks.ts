import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request as the receiver saw it. */
/** An app that delivers webhooks to this machine's receiver, looking for due deliveries every 25 ms. */
export const AMBIENTE_COM_WEBHOOKS = {
  SERVICES: 'api,projector,emission-processor,payout-processor,webhooks-processor',
  WEBHOOKS_ALLOWED_HOSTS: '127.0.0.1',
  WEBHOOKS_POLL_MS: '25',
};

export interface Recebido {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** How a path answers: a status (the same every time, or one per request, the last repeating), or never. */
export type Comportamento = number[] | 'nunca';

/**
 * A webhook receiver on 127.0.0.1: a real node HTTP server. Each path answers as told (`responder`); every request is
 * kept, and `verificar` checks it as an integrator would, with the `standardwebhooks` package.
 */
export interface Receptor {
  url: string;
  recebidos: Recebido[];
  responder(path: string, comportamento: Comportamento, corpo?: string): void;
  dePath(path: string): Recebido[];
  /** Requests held open right now (paths answering `nunca`). */
  pendurados(): number;
  esperar(path: string, n: number, timeoutMs?: number): Promise<Recebido[]>;
  /** The first request to `path` that `pred` accepts, once it arrives. */
  esperarUm(path: string, pred: (r: Recebido) => boolean, timeoutMs?: number): Promise<Recebido>;
  close(): Promise<void>;
}

export function verificar(secret: string, r: Recebido): unknown {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': r.headers['webhook-id']!,
    'webhook-timestamp': r.headers['webhook-timestamp']!,
    'webhook-signature': r.headers['webhook-signature']!,
  });
}

export async function iniciarReceptor(): Promise<Receptor> {
  const recebidos: Recebido[] = [];
  const comportamentos = new Map<string, Comportamento>();
  const corpos = new Map<string, string>();
  const pendurados = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const partes: Buffer[] = [];
    req.on('data', (c: Buffer) => partes.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]));
      const anteriores = recebidos.filter((r) => r.path === path).length;
      recebidos.push({ path, headers, body: Buffer.concat(partes).toString('utf8') });
      const c = comportamentos.get(path) ?? [200];
      if (c === 'nunca') {
        pendurados.add(res);
        res.on('close', () => pendurados.delete(res));
        return;
      }
      const status = c[Math.min(anteriores, c.length - 1)]!;
      const corpo = corpos.get(path) ?? `answer ${status} to request ${anteriores + 1}`;
      res.writeHead(status, { 'content-type': 'text/plain', location: `${path}/elsewhere` }).end(corpo);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const dePath = (path: string) => recebidos.filter((r) => r.path === path);
  return {
    url: `http://127.0.0.1:${port}`,
    recebidos,
    responder: (path, c, corpo) => {
      comportamentos.set(path, c);
      if (corpo !== undefined) corpos.set(path, corpo);
    },
    dePath,
    pendurados: () => pendurados.size,
    async esperar(path, n, timeoutMs = 20_000) {
      const fim = Date.now() + timeoutMs;
      while (dePath(path).length < n) {
        if (Date.now() > fim) throw new Error(`${path}: ${dePath(path).length} of ${n} requests arrived`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return dePath(path);
    },
    async esperarUm(path, pred, timeoutMs = 20_000) {
      const fim = Date.now() + timeoutMs;
      for (;;) {
        const achado = dePath(path).find(pred);
        if (achado) return achado;
        if (Date.now() > fim) throw new Error(`${path}: no such request among ${dePath(path).length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      for (const res of pendurados) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
