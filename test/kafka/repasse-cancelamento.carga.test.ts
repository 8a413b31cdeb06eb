import { randomUUID } from 'node:crypto';
import { startServices, type RunningServices } from '@frete/server';
import { describeKafka } from '../support/kafka';
import { startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { subcontratadaPronta } from '../support/lote';
import { contraCtesDeUmLote, correr, railGravado } from '../support/corrida-cancelamento';

/**
 * Issue 26, point 1, as deployed with KAFKA_BROKERS: the emission and payout processors run apart from the API and read
 * the relay's topic. The payout processor hands an order to the bank rail only through the group's stream, so a
 * cancellation the API decided first withdraws it, however late the topic delivers the order.
 */
describeKafka('a payment racing its counter-CT-e cancellation, processors over Kafka', (brokers) => {
  jest.setTimeout(600_000);
  let app: TestApp;
  let processadores: RunningServices;
  let sub: TestCarrier;
  const rail = railGravado();

  beforeAll(async () => {
    app = await startTestApp({
      KAFKA_BROKERS: brokers,
      KAFKA_TOPIC: `test-repasse-${randomUUID()}`,
      SERVICES: 'api,projector,relay',
      RATE_LIMIT_FISCAL_PER_MIN: '1000000',
      RATE_LIMIT_IP_PER_MIN: '1000000',
    });
    // The processors as another deployment on the same database and topic: their own memory and stream caches.
    processadores = await startServices({ ...app.config, services: ['emission-processor', 'payout-processor'] }, { adaptadores: { rail } });
    sub = await subcontratadaPronta(app, 'SUBCONTRATADA TRANSPORTES LTDA', ['fiscal', 'operacao']);
  });
  afterAll(async () => {
    await processadores?.stop();
    await app?.close();
  });

  it('60 races: no money moves after the cancellation and what moved is in its answer', async () => {
    const ctes = await contraCtesDeUmLote(sub, 60);
    const { placar, falhas } = await correr(
      'processadores no Kafka',
      { cancela: sub, paga: sub, rail, store: app.running.platform.store, companyId: sub.companyId },
      ctes,
    );
    expect(falhas).toEqual([]);
    expect(placar.violacoes).toBe(0);
    expect(placar.corridas).toBe(60);
  });
});
