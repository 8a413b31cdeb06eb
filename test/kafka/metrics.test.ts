import { randomUUID } from 'node:crypto';
import { describeKafka } from '../support/kafka';
import { eventuallyAsync } from '../conformance/event-store.suite';
import { startTestApp, type TestApp } from '../support/app';
import { scrape } from '../support/prometheus';

/** With KAFKA_BROKERS the relay reports its lag, and the processors fed by Kafka are measured like the direct ones. */
describeKafka('metrics of the relay and the Kafka-fed processors (real broker)', (brokers) => {
  jest.setTimeout(60_000);
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      KAFKA_BROKERS: brokers,
      KAFKA_TOPIC: `test-metrics-${randomUUID()}`,
      SERVICES: 'api,projector,relay,emission-processor,payout-processor',
    });
  });
  afterAll(() => app?.close());

  it('reports the relay lag by its checkpoint, down to 0 once the events of a command were produced', async () => {
    const c = await app.carrier();
    expect((await c.call('PUT', '/v1/fiscal/configuracao', { rntrc: '55667788' })).status).toBe(200);
    await eventuallyAsync(
      async () => (await scrape(`${app.url}/metrics`)).value('frete_relay_lag_events', { relay: 'relay:kafka' }) === 0,
      'the relay caught up',
      30_000,
    );
    const m = await scrape(`${app.url}/metrics`);
    expect(m.value('frete_relay_lag_seconds', { relay: 'relay:kafka' })).toBe(0);
    expect(m.value('frete_processor_queue_depth', { processor: 'emission' })).toBeGreaterThanOrEqual(0);
    expect(m.value('frete_processor_queue_depth', { processor: 'payout' })).toBeGreaterThanOrEqual(0);
  });
});
