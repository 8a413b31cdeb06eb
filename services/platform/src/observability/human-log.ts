import { type DestinationStream } from 'pino';

/** Fields every JSON line has, which a person reading a terminal needs once (the time stays, shortened). */
const PLAIN = new Set(['level', 'time', 'pid', 'hostname', 'msg']);
const COLOURS: Record<string, string> = { trace: '90', debug: '90', info: '36', warn: '33', error: '31', fatal: '35' };

const value = (v: unknown): string => {
  if (typeof v === 'string') return /\s/.test(v) ? JSON.stringify(v) : v;
  return JSON.stringify(v) ?? String(v);
};

/** A request's own fields said the way a person reads them: `GET /v1/… 200 12 ms`. */
function request(fields: Record<string, unknown>): string[] {
  const said: string[] = [];
  const req = fields.req as { method?: string; url?: string } | undefined;
  const res = fields.res as { statusCode?: number } | undefined;
  if (req?.method) said.push(`${req.method} ${req.url ?? ''}`);
  if (res?.statusCode !== undefined) said.push(String(res.statusCode));
  if (typeof fields.responseTime === 'number') said.push(`${Math.round(fields.responseTime)} ms`);
  return said;
}

/**
 * One pino JSON line as one line for a person: `13:45:01 info  message  key=value …`, an error's stack below it.
 * `colour` wraps the level in ANSI colours (a terminal).
 */
export function humanLogLine(json: string, colour = false): string {
  let line: Record<string, unknown>;
  try {
    line = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const level = typeof line.level === 'string' ? line.level : String(line.level);
  const time = typeof line.time === 'string' ? line.time.slice(11, 19) : '';
  const tag = level.padEnd(5);
  const parts = [time, colour && COLOURS[level] ? `\u001b[${COLOURS[level]}m${tag}\u001b[0m` : tag, String(line.msg ?? '')];
  const said = request(line);
  if (said.length > 0) parts.push(said.join(' '));
  let stack = '';
  for (const [key, v] of Object.entries(line)) {
    if (PLAIN.has(key) || key === 'req' || key === 'res' || key === 'responseTime' || v === undefined) continue;
    if (key === 'err' && v && typeof v === 'object' && 'stack' in v) {
      stack = `\n    ${String((v as { stack: unknown }).stack).replace(/\n/g, '\n    ')}`;
      continue;
    }
    parts.push(`${key}=${value(v)}`);
  }
  return `${parts.filter(Boolean).join('  ')}${stack}\n`;
}

/** A pino destination that writes each line for a person (a terminal) rather than as JSON. */
export function humanLogDestination(out: NodeJS.WritableStream & { isTTY?: boolean }): DestinationStream {
  const colour = out.isTTY === true && !process.env.NO_COLOR;
  return { write: (json: string) => void out.write(humanLogLine(json, colour)) };
}
