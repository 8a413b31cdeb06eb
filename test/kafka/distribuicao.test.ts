import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { consumerGroupOf } from '@frete/platform';
import { describeKafka } from '../support/kafka';
import { startTestApp, type TestApp } from '../support/app';
import { emissora, pollUntil, rascunhoEmitivel } from '../support/emissora';

/**
 * With KAFKA_BROKERS the distribution processor reads the topic as its own consumer group (`<topic>.processor-distribuicao`),
 * beside the emission processor's: a consultation asked over the API is run from the topic and brings the contractor's
 * CT-e into the subcontractor's inbox, exactly as without Kafka.
 */
describeKafka('national distribution with KAFKA_BROKERS (real broker)', (brokers) => {
  jest.setTimeout(120_000);
  let app: TestApp;
  const topic = `test-distribuicao-${randomUUID()}`;
  beforeAll(async () => {
    app = await startTestApp({
      KAFKA_BROKERS: brokers,
      KAFKA_TOPIC: topic,
      SERVICES: 'api,projector,relay,emission-processor,payout-processor,distribuicao-processor',
      DISTRIBUICAO_INTERVALO_S: '3600',
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("runs a consultation from the topic as its own consumer group and brings the contractor's CT-e into the inbox", async () => {
    const contratante = await emissora(app, 'KAFKA CONTRATANTE SA');
    const sub = await emissora(app, 'KAFKA SUBCONTRATADA LTDA');
    const d = await contratante.call('POST', '/v1/fiscal/cte', { ...rascunhoEmitivel(), autorizados_xml: [sub.cnpj] });
    expect(d.status).toBe(201);
    const id = d.body.data.id as string;
    await contratante.call('POST', `/v1/fiscal/cte/${id}/emissao`);
    const r = await pollUntil(contratante, `/v1/fiscal/cte/${id}/consulta`, (x) => x.body?.data?.situacao === 'autorizado');
    const chave = r.body.data.access_key as string;

    expect((await sub.call('POST', '/v1/fiscal/distribuicao/consultas', { servico: 'cte' })).status).toBe(202);
    let caixa = await sub.call('GET', `/v1/fiscal/cte-subcontratacao/${chave}`);
    for (let i = 0; i < 300 && caixa.status === 404; i++) {
      await new Promise((res) => setTimeout(res, 100));
      caixa = await sub.call('GET', `/v1/fiscal/cte-subcontratacao/${chave}`);
    }
    expect(caixa.status).toBe(200);
    expect(caixa.body.data.origem).toBe('distribuicao');

    const admin = new Kafka({ clientId: 'test-distribuicao', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const { groups } = await admin.listGroups();
      expect(groups.map((g) => g.groupId)).toContain(consumerGroupOf(topic, 'distribuicao'));
    } finally {
      await admin.disconnect();
    }
  });
});
