import { createLogger, type Logger } from '@frete/platform';

export interface LogLine {
  level: string;
  time: string;
  msg?: string;
  request_id?: string;
  event_id?: string;
  event_type?: string;
  correlation_id?: string;
  processor?: string;
  trace_id?: string;
  span_id?: string;
  [field: string]: unknown;
}

/** A logger as the process makes it, writing into memory: `raw` the lines as written, `lines()` them parsed. */
export function capturedLogger(level = 'debug'): { logger: Logger; raw: string[]; lines(): LogLine[] } {
  const raw: string[] = [];
  const logger = createLogger({ level, destination: { write: (chunk: string) => raw.push(chunk) } });
  return { logger, raw, lines: () => raw.map((l) => JSON.parse(l) as LogLine) };
}
