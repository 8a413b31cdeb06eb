import { randomUUID } from 'node:crypto';
import { describeKafka } from '../support/kafka';
import { startTestApp, type TestApp } from '../support/app';
import { cteAutorizado, emissora } from '../support/emissora';
import { iniciarReceptor, type Receptor, verificar } from '../support/receptor-webhooks';

/**
 * With KAFKA_BROKERS the webhooks processor reads the topic as its own consumer group (`<topic>.processor-webhooks`), beside the
 * emission processor's: a CT-e authorized through the relay reaches the receiver, signed, exactly as without Kafka.
 */
describeKafka('webhooks with KAFKA_BROKERS (real broker)', (brokers) => {
  jest.setTimeout(90_000);
  let app: TestApp;
  let receptor: Receptor;
  beforeAll(async () => {
    receptor = await iniciarReceptor();
    app = await startTestApp({
      KAFKA_BROKERS: brokers,
      KAFKA_TOPIC: `test-webhooks-${randomUUID()}`,
      SERVICES: 'api,projector,relay,emission-processor,payout-processor,webhooks-processor',
      WEBHOOKS_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOKS_POLL_MS: '25',
    });
  });
  afterAll(async () => {
    await app?.close();
    await receptor?.close();
  });

  it('delivers cte.autorizado of a CT-e issued over the API, signed with the endpoint secret', async () => {
    const c = await emissora(app, 'KAFKA WEBHOOKS TRANSPORTES LTDA', ['fiscal', 'webhooks']);
    const criado = await c.call('POST', '/v1/webhooks', { url: `${receptor.url}/kafka`, eventos: ['cte.autorizado'] });
    expect(criado.status).toBe(201);
    const cte = await cteAutorizado(c);
    const recebido = await receptor.esperarUm('/kafka', (r) => r.body.includes(cte.id), 60_000);
    expect(verificar(criado.body.data.secret as string, recebido)).toMatchObject({
      type: 'cte.autorizado',
      data: { id: cte.id, environment: 'homologacao', url: `/v1/fiscal/cte/${cte.id}` },
    });
    // The dispatcher records the outcome once the receiver's answer is back: a moment after the receiver has the body.
    let entregas = await c.call('GET', `/v1/webhooks/${criado.body.data.id}/entregas`);
    for (let i = 0; i < 200 && entregas.body.data?.[0]?.status === 'pendente'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      entregas = await c.call('GET', `/v1/webhooks/${criado.body.data.id}/entregas`);
    }
    expect(entregas.body.data).toEqual([expect.objectContaining({ status: 'entregue', tentativas: 1 })]);
  });
});
