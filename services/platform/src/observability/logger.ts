import { AsyncLocalStorage } from 'node:async_hooks';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

/** What a line logged while one request or one event is being handled says about it. */
export interface LogFields {
  request_id?: string;
  event_id?: string;
  event_type?: string;
  correlation_id?: string;
  processor?: string;
}

const fields = new AsyncLocalStorage<LogFields>();

/** Runs `fn` with `extra` on every line logged inside it, however deep (added to the fields already in force). */
export function withLogFields<T>(extra: LogFields, fn: () => T): T {
  const outer = fields.getStore();
  return fields.run(outer ? { ...outer, ...extra } : extra, fn);
}

// Set on fastify's per-request child loggers, which carry request_id in their own bindings: the mixin leaves it out
// there, so that a line does not say it twice.
const BOUND_REQUEST_ID = Symbol('bound request_id');

/** A child that carries the request id in its bindings (fastify's `childLoggerFactory`). */
export function requestChildLogger(logger: Logger, bindings: pino.Bindings, options: pino.ChildLoggerOptions): Logger {
  const child = logger.child(bindings, options);
  (child as unknown as Record<symbol, boolean>)[BOUND_REQUEST_ID] = true;
  return child;
}

export interface LoggerOptions {
  /** LOG_LEVEL. */
  level: string;
  /** Tests read the lines from a stream of their own; stdout otherwise. */
  destination?: DestinationStream;
}

/**
 * The process's root logger: one JSON object per line (pino), `level` as its name, `time` in ISO 8601, and the fields
 * of what is being handled (`withLogFields`) plus `trace_id`/`span_id` of the active span when tracing is on.
 */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin(_merge, _level, logger) {
        const store = fields.getStore();
        const span = trace.getActiveSpan()?.spanContext();
        const traced = span && isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : null;
        if (!store && !traced) return {};
        if (store && (logger as unknown as Record<symbol, boolean>)[BOUND_REQUEST_ID]) {
          const { request_id: _bound, ...rest } = store;
          return { ...rest, ...traced };
        }
        return { ...store, ...traced };
      },
    },
    options.destination,
  );
}
