import { EventCatalog, upcast, upcastersEmFalta } from '@frete/contracts';

const v1 = (changes: Record<string, unknown>) => ({
  type: 'configuracao.atualizada',
  schemaVersion: 1,
  data: { company_id: 'c1', changes },
});

describe('upcasting', () => {
  it('every older version of every event type has its upcaster', () => {
    expect(upcastersEmFalta()).toEqual([]);
    expect(EventCatalog['configuracao.atualizada'].version).toBe(2);
  });

  it('configuracao.atualizada v1 → v2: the percentage as a double becomes integer hundredths; other fields untouched', () => {
    expect(upcast(v1({ percentual_frete_contra_cte: 12.5, rntrc: '12345678' }))).toEqual({
      type: 'configuracao.atualizada',
      schemaVersion: 2,
      data: { company_id: 'c1', changes: { percentual_frete_contra_cte_centesimos: 1250, rntrc: '12345678' } },
    });
    // 33.33 * 100 is 3332.9999999999995 as a double: the upcaster rounds it to what was meant.
    expect(upcast(v1({ percentual_frete_contra_cte: 33.33 })).data).toEqual({
      company_id: 'c1',
      changes: { percentual_frete_contra_cte_centesimos: 3333 },
    });
    expect(upcast(v1({ percentual_frete_contra_cte: null })).data).toEqual({
      company_id: 'c1',
      changes: { percentual_frete_contra_cte_centesimos: null },
    });
    expect(upcast(v1({ serie_cte: 1 })).data).toEqual({ company_id: 'c1', changes: { serie_cte: 1 } });
  });

  it('an event already current, a newer one and an unknown type come back as they are (the same object)', () => {
    const atual = { type: 'configuracao.atualizada', schemaVersion: 2, data: { company_id: 'c1', changes: {} } };
    expect(upcast(atual)).toBe(atual);
    const futuro = { ...atual, schemaVersion: 3 };
    expect(upcast(futuro)).toBe(futuro);
    const desconhecido = { type: 'algo.novo', schemaVersion: 1, data: {} };
    expect(upcast(desconhecido)).toBe(desconhecido);
  });
});
