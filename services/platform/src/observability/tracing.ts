import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

export interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; spans go to its `/v1/traces` (OTLP/HTTP, JSON). */
  endpoint: string | null;
  /** OTEL_SERVICE_NAME: the `service.name` of this process's spans. */
  serviceName: string;
  /** Instead of the OTLP exporter (tests). */
  exporter?: SpanExporter;
}

export interface Tracing {
  readonly enabled: boolean;
  /** Sends the spans ended so far. */
  flush(): Promise<void>;
  /** Flushes and, once every user has shut down, stops the SDK: the API is the no-op again. */
  shutdown(): Promise<void>;
}

const OFF: Tracing = { enabled: false, flush: () => Promise.resolve(), shutdown: () => Promise.resolve() };

// The SDK is process-wide (OpenTelemetry's globals): several service sets in one process (tests) share one provider.
let running: { provider: TracerProvider; users: number } | null = null;

/**
 * Starts the OpenTelemetry SDK when an endpoint is configured: W3C trace context, spans batched to OTLP/HTTP, the
 * active span followed through async calls. Without one nothing is started and every span the code opens is the
 * API's no-op (no allocation beyond the call, no export).
 */
export function startTracing(options: TracingOptions): Tracing {
  if (!options.endpoint && !options.exporter) return OFF;
  if (!running) {
    // Loaded only when traces are exported: half a second of every start (and of every `pnpm ops` call) otherwise.
    const otlp = (): typeof OtlpHttp =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp;
    const exporter = options.exporter ?? new (otlp().OTLPTraceExporter)({ url: `${options.endpoint!.replace(/\/+$/, '')}/v1/traces` });
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
      spanProcessors: [new BatchSpanProcessor({ exporter })],
    });
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(provider);
    running = { provider, users: 0 };
  }
  running.users++;
  const mine = running;
  let stopped = false;
  return {
    enabled: true,
    flush: () => mine.provider.forceFlush(),
    shutdown: async () => {
      if (stopped) return;
      stopped = true;
      if (--mine.users > 0) return mine.provider.forceFlush();
      if (running === mine) running = null;
      trace.disable();
      propagation.disable();
      context.disable();
      // After the globals: spans that end meanwhile are no-ops rather than lost in a provider shutting down.
      await mine.provider.shutdown();
    },
  };
}

/** Sends the spans ended so far, when tracing is on (tests wait for the export rather than for the batch's delay). */
export function flushTracing(): Promise<void> {
  return running ? running.provider.forceFlush() : Promise.resolve();
}
