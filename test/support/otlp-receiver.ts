import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { flushTracing } from '@frete/platform';

/** A span as an OTLP/HTTP JSON export carries it, with its resource's service name. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
  service: string;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
}
type OtlpAttributes = { key: string; value: OtlpValue }[] | undefined;

const valueOf = (v: OtlpValue): unknown =>
  v.stringValue ??
  (v.intValue !== undefined ? Number(v.intValue) : undefined) ??
  v.boolValue ??
  v.doubleValue ??
  v.arrayValue?.values?.map(valueOf);

const attributesOf = (list: OtlpAttributes): Record<string, unknown> =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  spans: ReceivedSpan[];
  /** Export requests refused for their content type (anything but JSON). */
  refused: string[];
  close(): Promise<void>;
}

/** A local OTLP/HTTP collector: takes `POST /v1/traces` in JSON, keeps every span, answers 200 `{}`. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const refused: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const type = req.headers['content-type'] ?? '';
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !type.startsWith('application/json')) {
        refused.push(`${req.method} ${req.url} ${type}`);
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans?: {
          resource?: { attributes?: OtlpAttributes };
          scopeSpans?: { spans?: (Omit<ReceivedSpan, 'attributes' | 'service'> & { attributes?: OtlpAttributes })[] }[];
        }[];
      };
      for (const rs of body.resourceSpans ?? []) {
        const service = String(attributesOf(rs.resource?.attributes)['service.name']);
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? '',
              name: s.name,
              kind: s.kind,
              attributes: attributesOf(s.attributes),
              status: s.status ?? {},
              service,
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    refused,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The span's ancestors, nearest first, as far as the received spans go. */
export function ancestorsOf(span: ReceivedSpan, spans: ReceivedSpan[]): ReceivedSpan[] {
  const chain: ReceivedSpan[] = [];
  let current: ReceivedSpan | undefined = span;
  while (current && current.parentSpanId) {
    current = spans.find((s) => s.spanId === current!.parentSpanId && s.traceId === span.traceId);
    if (current) chain.push(current);
  }
  return chain;
}

/** Flushes and reads again until `found` gives something: a processor's span ends after its effects are visible. */
export async function waitForSpans<T>(receiver: OtlpReceiver, found: (spans: ReceivedSpan[]) => T | undefined): Promise<T> {
  for (let i = 0; i < 150; i++) {
    await flushTracing();
    const result = found(receiver.spans);
    if (result !== undefined) return result;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`spans never arrived; received: ${receiver.spans.map((s) => s.name).join(', ')}`);
}

/** The spans of one trace once the append of `type` (an outcome) and a server span are among them. */
export const traceWith =
  (traceId: string, type: string) =>
  (all: ReceivedSpan[]): ReceivedSpan[] | undefined => {
    const mine = all.filter((s) => s.traceId === traceId);
    const outcome = mine.some((s) => s.name === 'eventstore.append' && (s.attributes['eventstore.event_types'] as string[]).includes(type));
    return outcome && mine.some((s) => s.kind === 2) ? mine : undefined;
  };

/** The one span of `trace` named `name` (and matching `extra`); fails naming what the trace holds otherwise. */
export function oneSpan(trace: ReceivedSpan[], name: string, extra: (s: ReceivedSpan) => boolean = () => true): ReceivedSpan {
  const found = trace.filter((s) => s.name === name && extra(s));
  expect({ name, count: found.length, spans: found.length === 1 ? [] : trace.map((s) => s.name) }).toEqual({ name, count: 1, spans: [] });
  return found[0]!;
}

export const appends = (type: string) => (s: ReceivedSpan) => (s.attributes['eventstore.event_types'] as string[]).includes(type);
