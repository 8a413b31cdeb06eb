import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  type SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

export { SpanKind } from '@opentelemetry/api';

// Looked up at each span: a tracer kept from before a (test's) restart of the SDK would follow the old provider.
const tracer = () => trace.getTracer('frete-fiscal');

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent; the active context when absent. */
  parent?: Context;
}

function failed(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}

/** Runs `fn` in a span of its own (the active one inside it); a throw marks the span as failed and is rethrown. */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  const { parent, ...spanOptions } = options;
  return tracer().startActiveSpan(name, spanOptions, parent ?? context.active(), async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      failed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** The active span's context as a W3C `traceparent`; undefined when tracing is off (or no span is active). */
export function activeTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** The context a recorded `traceparent` names (the root one when there is none): the parent of the work it causes. */
export function contextOfTraceparent(traceparent: string | undefined): Context {
  return traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
}

/** A span that outlives one call: an HTTP request's, opened in one hook and ended in another. */
export interface OpenSpan {
  /** Runs `fn` with this span active. */
  run<T>(fn: () => T): T;
  setAttributes(attributes: Attributes): void;
  fail(err: unknown): void;
  end(): void;
}

/** Opens a span ended later by the caller (`inSpan` when one call holds it all). */
export function openSpan(name: string, options: SpanOptions): OpenSpan {
  const { parent = context.active(), ...spanOptions } = options;
  const span = tracer().startSpan(name, spanOptions, parent);
  const active = trace.setSpan(parent, span);
  return {
    run: (fn) => context.with(active, fn),
    setAttributes: (a) => span.setAttributes(a),
    fail: (err) => failed(span, err),
    end: () => span.end(),
  };
}

/** The trace context a caller sent in its HTTP headers (`traceparent`); the root one when it sent none. */
export function contextOfHeaders(headers: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(ROOT_CONTEXT, headers);
}
