import { randomUUID } from 'node:crypto';
import { describeKafka } from '../support/kafka';
import { randomCnpj, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { MOTORISTA_CPF, PLACA, receberCteDoContratante, relatorioFinal, subcontratadaPronta } from '../support/lote';

/** A counter-CT-e batch as deployed with KAFKA_BROKERS: the processors read the relay's topic, not the event store. */
describeKafka('counter-CT-e batch over Kafka (real broker)', (brokers) => {
  jest.setTimeout(120_000);
  let app: TestApp;
  let sub: TestCarrier;
  beforeAll(async () => {
    app = await startTestApp({
      KAFKA_BROKERS: brokers,
      KAFKA_TOPIC: `test-lote-${randomUUID()}`,
      SERVICES: 'api,projector,relay,emission-processor,payout-processor',
      RATE_LIMIT_FISCAL_PER_MIN: '100000',
      RATE_LIMIT_IP_PER_MIN: '100000',
    });
    sub = await subcontratadaPronta(app);
  });
  afterAll(() => app?.close());

  it('walks the rows, issues each counter-CT-e and reaches done', async () => {
    const contratante = randomCnpj();
    // More rows than one processing block, so that a row's event starts the next block through the topic.
    const chaves = [];
    for (let i = 0; i < 27; i++) chaves.push(await receberCteDoContratante(sub, contratante));
    const r = await sub.call('POST', '/v1/fiscal/cte-subcontratacao/lote', {
      subcontratada: { cnpj: sub.cnpj },
      motorista: { cpf: MOTORISTA_CPF },
      placa: PLACA,
      ctes: chaves.map((chave) => ({ chave })),
      valores: { frete_bruto: 1000 },
    });
    expect(r.status).toBe(202);
    const report = (await relatorioFinal(sub, r.body.data.batch_id, 100_000)).body.data;
    expect(report.status).toBe('done');
    expect(report.rows.map((x: { chave: string }) => x.chave)).toEqual(chaves);
    expect(new Set(report.rows.map((x: { status: string; financeiro: string }) => `${x.status}/${x.financeiro}`))).toEqual(
      new Set(['emitted/ok']),
    );
  });
});
