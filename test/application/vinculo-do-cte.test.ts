import { randomUUID } from 'node:crypto';
import { type ContraCteVinculo, EventCatalog } from '@frete/contracts';
import { vinculoDoCte } from '@frete/application';
import { migrate, platformMigrations } from '@frete/platform';
import { withEventStore } from '../support/store';

const VINCULO: ContraCteVinculo = {
  chave_original: '35260145997418000153570010000000011000000010',
  contratante_cnpj: '45997418000153',
  modo: '1a1',
  tipo_servico: 1,
  inicio_ibge: '3509502',
  fim_ibge: '3550308',
  lote_id: 'L',
  linha: 3,
  perna: null,
  documento_financeiro: null,
  motorista_cpf: '52998224725',
  placa: 'ABC1D23',
  valor_centavos: 10000,
  parcelas: null,
  solicitante_company_id: null,
};

/** The payout's link of a counter-CT-e: as this process knows it when it does, read from the CT-e's history when not. */
describe('vinculoDoCte', () => {
  const es = withEventStore();
  beforeAll(async () => {
    await migrate(es.db.pool, platformMigrations);
  });

  it('a link this process knows is answered without the history; an unknown one is read from it', async () => {
    const cteId = randomUUID();
    const criado = { cte_id: cteId, company_id: 'c1', ambiente: 'homologacao', dados: { tipo_servico: 1 }, vinculo: VINCULO };
    await es.store.append(
      `cte-${cteId}`,
      [
        {
          id: randomUUID(),
          type: 'cte.contra_cte_criado',
          schemaVersion: EventCatalog['cte.contra_cte_criado'].version,
          data: criado,
          metadata: { company_id: 'c1', correlation_id: 'x', causation_id: null, request_id: null, actor: 'test' },
        },
      ],
      'no_stream',
    );
    expect(await vinculoDoCte(es.store, cteId)).toEqual(VINCULO);
    expect(await vinculoDoCte(es.store, cteId, () => undefined)).toEqual(VINCULO);
    // Known: the history is not read (this CT-e has none).
    const outro = randomUUID();
    expect(await vinculoDoCte(es.store, outro, (id) => (id === outro ? { ...VINCULO, linha: 7 } : undefined))).toEqual({
      ...VINCULO,
      linha: 7,
    });
    // Known not to be a counter-CT-e.
    expect(await vinculoDoCte(es.store, cteId, () => null)).toBeNull();
    expect(await vinculoDoCte(es.store, randomUUID())).toBeNull();
  });
});
