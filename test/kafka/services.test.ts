import { randomUUID } from 'node:crypto';
import { type RecordedEvent } from '@frete/contracts';
import { createKafka, decodeEvent } from '@frete/platform';
import { describeKafka } from '../support/kafka';
import { eventually } from '../conformance/event-store.suite';
import { startTestApp, type TestApp } from '../support/app';

/** The service as deployed with KAFKA_BROKERS: an API write reaches the topic through the relay, keyed by stream. */
describeKafka('services with KAFKA_BROKERS (real broker)', (brokers) => {
  jest.setTimeout(60_000);
  const topic = `test-services-${randomUUID()}`;
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      KAFKA_BROKERS: brokers,
      KAFKA_TOPIC: topic,
      SERVICES: 'api,projector,relay,emission-processor,payout-processor',
    });
  });
  afterAll(() => app?.close());

  it('fans the events of an API command out to Kafka, keyed by their stream', async () => {
    const c = await app.carrier();
    expect((await c.call('PUT', '/v1/fiscal/configuracao', { rntrc: '55667788' })).status).toBe(200);
    const seen: { key: string; event: RecordedEvent }[] = [];
    const consumer = createKafka({ brokers, clientId: 'services-test', logLevel: 'nothing' }).consumer({
      groupId: `check-${randomUUID()}`,
    });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => void seen.push({ key: message.key!.toString(), event: decodeEvent(message.value!) }),
    });
    try {
      // Each stream has its own partition: wait for all three, whatever order the partitions are read in.
      const wanted = ['company.registered', 'credential.issued', 'configuracao.atualizada'];
      await eventually(() => wanted.every((t) => seen.some((m) => m.event.type === t)), 'the three events on the topic', 30_000);
      const m = seen.find((x) => x.event.type === 'configuracao.atualizada')!;
      expect(m.key).toBe(`configuracao-${c.companyId}`);
      expect(m.event.data).toEqual({ company_id: c.companyId, changes: { rntrc: '55667788' } });
      expect(seen.find((x) => x.event.type === 'company.registered')!.key).toBe(`company-${c.companyId}`);
    } finally {
      await consumer.disconnect();
    }
  });
});
