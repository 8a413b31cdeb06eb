import { randomBytes, randomUUID } from 'node:crypto';
import { describeKafka } from '../support/kafka';
import { startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { cteAutorizadoNoTrace, emissora } from '../support/emissora';
import { capturedLogger } from '../support/log-lines';
import { ancestorsOf, appends, oneSpan, type OtlpReceiver, startOtlpReceiver, traceWith, waitForSpans } from '../support/otlp-receiver';

const PRODUCER = 4;
const CONSUMER = 5;

/** With KAFKA_BROKERS the trace crosses the topic: the relay's publish and the processor's handling join the request's. */
describeKafka('traces across Kafka (real broker)', (brokers) => {
  jest.setTimeout(90_000);
  const captured = capturedLogger('debug');
  let receiver: OtlpReceiver;
  let app: TestApp;
  let c: TestCarrier;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    app = await startTestApp(
      {
        KAFKA_BROKERS: brokers,
        KAFKA_TOPIC: `test-traces-${randomUUID()}`,
        SERVICES: 'api,projector,relay,emission-processor,payout-processor',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        LOG_LEVEL: 'debug',
      },
      { logger: captured.logger },
    );
    c = await emissora(app, 'KAFKA TRACES TRANSPORTES LTDA');
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  it("a CT-e's issue: the append's context rides the event over Kafka; relay.publish and processor.handle are its children", async () => {
    const traceId = randomBytes(16).toString('hex');
    await cteAutorizadoNoTrace(c, `00-${traceId}-${randomBytes(8).toString('hex')}-01`);

    const trace = await waitForSpans(receiver, traceWith(traceId, 'cte.autorizado'));
    const server = oneSpan(trace, 'POST /v1/fiscal/cte/:cte_uuid/emissao');
    const requested = oneSpan(trace, 'eventstore.append', appends('cte.emissao_solicitada'));
    expect(requested.parentSpanId).toBe(server.spanId);

    // The relay may send an event twice (at least once); each send is a child of the append.
    const published = trace.filter((s) => s.name === 'relay.publish' && s.attributes['event.type'] === 'cte.emissao_solicitada');
    expect(published.length).toBeGreaterThanOrEqual(1);
    for (const p of published) expect(p).toMatchObject({ kind: PRODUCER, parentSpanId: requested.spanId });

    const handling = oneSpan(trace, 'processor.handle cte.emissao_solicitada');
    expect(handling).toMatchObject({ kind: CONSUMER, parentSpanId: requested.spanId });
    const autoridade = oneSpan(trace, 'autoridade autorizarCte');
    expect(ancestorsOf(autoridade, trace).map((s) => s.spanId)).toEqual(expect.arrayContaining([handling.spanId, server.spanId]));
    const outcome = oneSpan(trace, 'eventstore.append', appends('cte.autorizado'));
    expect(ancestorsOf(outcome, trace).map((s) => s.spanId)).toContain(handling.spanId);
    // The processor's line for that event, consumed from Kafka, names the event, its correlation and the trace.
    const line = captured
      .lines()
      .find((l) => l.msg === 'event handled' && l.event_type === 'cte.emissao_solicitada' && l.trace_id === traceId);
    expect(line).toMatchObject({ processor: 'emission', span_id: handling.spanId, event_id: handling.attributes['event.id'] });
    expect(line!.correlation_id).toBe(handling.attributes['event.correlation_id']);
    // The outcome went over Kafka too, in the same trace.
    await waitForSpans(receiver, (all) =>
      all.find((s) => s.traceId === traceId && s.name === 'relay.publish' && s.attributes['event.type'] === 'cte.autorizado'),
    );
  });
});
