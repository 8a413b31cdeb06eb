import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** How far a follower of the log (a projection runner, the relay) is behind its head. */
export interface LogLag {
  events: number;
  seconds: number;
}

/** Sub-millisecond to seconds: an append or a read of the PostgreSQL store is usually a few ms. */
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** A handler may call the authority (seconds) or only append (ms). */
const HANDLING_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** The authorities' web services answer in tenths of a second to tens of seconds (their timeout). */
const AUTORIDADE_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60];

/**
 * Runs an observation and swallows what it throws: a metric must never fail the request, the append or the handler it
 * measures (a label set prom-client refuses would otherwise surface as a business error).
 */
export function quietly(observe: () => void): void {
  try {
    observe();
  } catch {
    // A lost sample is preferable to a failed business operation.
  }
}

/**
 * This process's Prometheus metrics (`GET /metrics` on the API's port, the ops server elsewhere). Each Metrics owns a
 * registry of its own rather than prom-client's global one, so that several services started in one process (the
 * tests) each count their own. Labels are bounded on purpose: route templates, event types, status codes; never ids,
 * keys or companies.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'frete_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpErrors = new Counter({
    name: 'frete_http_errors_total',
    help: 'HTTP answers with an error envelope (status >= 400), by method, route template and error.code',
    labelNames: ['method', 'route', 'code'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'frete_http_request_duration_seconds',
    help: 'Time from the request arriving to the answer sent, by method and route template',
    labelNames: ['method', 'route'] as const,
    registers: [this.registry],
  });

  readonly storeAppendDuration = new Histogram({
    name: 'frete_event_store_append_duration_seconds',
    help: 'Event-store appends, by outcome (ok, conflict: wrong expected revision, error)',
    labelNames: ['outcome'] as const,
    buckets: STORE_BUCKETS,
    registers: [this.registry],
  });
  readonly storeAppendedEvents = new Counter({
    name: 'frete_event_store_appended_events_total',
    help: 'Events handed to successful appends (an idempotent repeat counts again)',
    registers: [this.registry],
  });
  readonly storeReadDuration = new Histogram({
    name: 'frete_event_store_read_duration_seconds',
    help: 'Event-store reads, by operation (read_stream, read_all) and outcome (ok, error)',
    labelNames: ['operation', 'outcome'] as const,
    buckets: STORE_BUCKETS,
    registers: [this.registry],
  });

  readonly processorQueueDepth = new Gauge({
    name: 'frete_processor_queue_depth',
    help: 'Events a processor of this process received and has not finished handling (waiting behind their key included)',
    labelNames: ['processor'] as const,
    registers: [this.registry],
    collect: () => {
      for (const [processor, depth] of this.queues) quietly(() => this.processorQueueDepth.set({ processor }, depth()));
    },
  });
  readonly processorHandlingDuration = new Histogram({
    name: 'frete_processor_handling_duration_seconds',
    help: 'Time a processor took to handle one event, by processor, event type and outcome (ok, error)',
    labelNames: ['processor', 'event_type', 'outcome'] as const,
    buckets: HANDLING_BUCKETS,
    registers: [this.registry],
  });

  readonly autoridadeDuration = new Histogram({
    name: 'frete_autoridade_request_duration_seconds',
    help: 'Calls to the fiscal authority, by adapter (simulada, sefaz), operation and outcome (the answer kind, or indisponivel/erro)',
    labelNames: ['adapter', 'operation', 'outcome'] as const,
    buckets: AUTORIDADE_BUCKETS,
    registers: [this.registry],
  });
  readonly autoridadeCstat = new Counter({
    name: 'frete_autoridade_cstat_total',
    help: "The authority's status codes (cStat) answered, by adapter, operation and cStat",
    labelNames: ['adapter', 'operation', 'cstat'] as const,
    registers: [this.registry],
  });

  readonly collectErrors = new Counter({
    name: 'frete_metrics_collect_errors_total',
    help: 'Scrape-time readings that failed (the database unreachable...): their gauge is left out of that scrape',
    labelNames: ['metric'] as const,
    registers: [this.registry],
    // The registry collects every metric side by side: this one waits for the readings of the same scrape (all started
    // by the time a microtask has passed), so that a failure is counted in the scrape that missed the gauge.
    collect: async () => {
      await Promise.resolve();
      await Promise.allSettled([...this.readings]);
    },
  });

  private readonly queues = new Map<string, () => number>();
  /** Scrape-time readings under way. */
  private readonly readings = new Set<Promise<unknown>>();
  private readonly projectionSources = new Map<string, () => Promise<LogLag>>();
  private readonly relaySources = new Map<string, () => Promise<LogLag>>();
  private loteLinhasSource: (() => Promise<{ status: string; linhas: number }[]>) | null = null;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const collectErrors = this.collectErrors;
    const lagGauges = (what: 'projection' | 'relay', label: 'projector' | 'relay', sources: Map<string, () => Promise<LogLag>>) => {
      // The registry collects its metrics side by side: both gauges share one reading per scrape.
      const reading = this.sharedPerScrape(() =>
        Promise.all(
          [...sources].map(async ([name, read]) => {
            try {
              return { name, lag: await read() };
            } catch {
              quietly(() => collectErrors.inc({ metric: `frete_${what}_lag` }));
              return { name, lag: null };
            }
          }),
        ),
      );
      const gauge = (unit: 'events' | 'seconds', help: string) => {
        const g: Gauge<string> = new Gauge({
          name: `frete_${what}_lag_${unit}`,
          help,
          labelNames: [label],
          registers: [this.registry],
          collect: async () => {
            for (const { name, lag } of await reading()) {
              if (lag) g.set({ [label]: name }, lag[unit]);
              else g.remove({ [label]: name });
            }
          },
        });
      };
      const follower = what === 'projection' ? 'applied to the read models' : 'produced to Kafka by the relay';
      gauge('events', `Events in the log not yet ${follower} (capped at 100000), per ${label}`);
      gauge('seconds', `Age in seconds of the oldest event not yet ${follower} (0 when caught up), per ${label}`);
    };
    lagGauges('projection', 'projector', this.projectionSources);
    lagGauges('relay', 'relay', this.relaySources);
    const linhas = new Gauge({
      name: 'frete_lote_linhas',
      help: 'Rows of counter-CT-e batches in the read model, by status (pending, emitted, duplicated, failed)',
      labelNames: ['status'] as const,
      registers: [this.registry],
      collect: async () => {
        const read = this.loteLinhasSource;
        if (!read) return;
        try {
          const counts = await this.tracked(read());
          linhas.reset();
          for (const { status, linhas: n } of counts) linhas.set({ status }, n);
        } catch {
          linhas.reset();
          quietly(() => collectErrors.inc({ metric: 'frete_lote_linhas' }));
        }
      },
    });
  }

  /** One reading for every gauge that asks while it runs: the gauges fed by one query ask for it together at each scrape. */
  private sharedPerScrape<T>(read: () => Promise<T>): () => Promise<T> {
    let running: Promise<T> | null = null;
    return () =>
      (running ??= this.tracked(read()).finally(() => {
        running = null;
      }));
  }

  private tracked<T>(reading: Promise<T>): Promise<T> {
    this.readings.add(reading);
    const done = () => void this.readings.delete(reading);
    reading.then(done, done);
    return reading;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The text exposition of every metric, reading the scrape-time gauges (lags, batch rows) now. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  /** Projection lag, read at each scrape (ProjectionRunner.lag) under `projector="<name>"`. */
  watchProjections(runner: { readonly name: string; lag(): Promise<LogLag> }): void {
    this.projectionSources.set(runner.name, () => runner.lag());
  }

  /** Relay lag, read at each scrape, under `relay="<checkpoint name>"`. */
  watchRelay(name: string, lag: () => Promise<LogLag>): void {
    this.relaySources.set(name, lag);
  }

  /** Batch rows per status, counted at each scrape. */
  watchLoteLinhas(count: () => Promise<{ status: string; linhas: number }[]>): void {
    this.loteLinhasSource = count;
  }

  /** A processor's queue depth, read at each scrape. */
  watchProcessorQueue(processor: string, depth: () => number): void {
    this.queues.set(processor, depth);
  }
}
