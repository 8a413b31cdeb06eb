import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { type components } from '../generated/api';

/**
 * What every webhook carries: the event type, when it happened, and the resource to GET for its current state. The
 * document's `webhooks` section describes each type's delivery with this schema.
 */
export type WebhookPayload = components['schemas']['WebhookPayload'];

const isPayload = (v: unknown): v is WebhookPayload => {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  const d = p.data as Record<string, unknown> | null | undefined;
  return (
    typeof p.type === 'string' &&
    typeof p.timestamp === 'string' &&
    typeof d === 'object' &&
    d !== null &&
    typeof d.id === 'string' &&
    typeof d.environment === 'string' &&
    typeof d.url === 'string'
  );
};

export interface Receptor {
  /** Where to register the endpoint (`POST /v1/webhooks`, `url`). */
  url: string;
  close(): Promise<void>;
}

export interface OpcoesDoReceptor {
  /**
   * The endpoint's secret (`whsec_…`), shown once when the endpoint was created; a function when the receiver must be
   * listening (its URL known) before the endpoint is created.
   */
  secret: string | (() => string);
  porta?: number;
  host?: string;
  /** Called once per `webhook-id`: deliveries are at least once, so a redelivery is answered without calling it again. */
  aoReceber: (payload: WebhookPayload, webhookId: string) => void | Promise<void>;
}

const LIMITE_CORPO = 1024 * 1024;

/**
 * A receiver of Standard Webhooks: verifies `webhook-signature` over the raw body with the endpoint's secret (and
 * `webhook-timestamp` within five minutes) before trusting anything, answers 204 quickly, 401 to a bad signature.
 */
export async function iniciarReceptor(o: OpcoesDoReceptor): Promise<Receptor> {
  const verificador = () => new Webhook(typeof o.secret === 'function' ? o.secret() : o.secret);
  const recebidos = new Set<string>();
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const partes: Buffer[] = [];
    let tamanho = 0;
    req.on('data', (parte: Buffer) => {
      tamanho += parte.length;
      if (tamanho > LIMITE_CORPO) {
        res.writeHead(413).end();
        req.destroy();
        return;
      }
      partes.push(parte);
    });
    req.on('end', () => {
      void (async () => {
        const headers = {
          'webhook-id': String(req.headers['webhook-id'] ?? ''),
          'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
          'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
        };
        let payload: unknown;
        try {
          payload = verificador().verify(Buffer.concat(partes).toString('utf8'), headers);
        } catch (err) {
          res.writeHead(err instanceof WebhookVerificationError ? 401 : 400).end();
          return;
        }
        if (!isPayload(payload)) {
          res.writeHead(400).end();
          return;
        }
        const id = headers['webhook-id'];
        if (!recebidos.has(id)) {
          recebidos.add(id);
          try {
            await o.aoReceber(payload, id);
          } catch {
            // A non-2xx answer makes the sender deliver it again later.
            recebidos.delete(id);
            res.writeHead(500).end();
            return;
          }
        }
        res.writeHead(204).end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(o.porta ?? 0, o.host ?? '127.0.0.1', resolve));
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/webhooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Senders keep connections alive: closing waits for none of them.
        server.closeAllConnections();
      }),
  };
}
