import { type ParcelaRepasse } from '@frete/contracts';
import {
  dividirPorPercentuais,
  distribuirDocumentos,
  grupoDoVinculo,
  posicaoDoDocumento,
  regraDeRepasse,
  repasseStream,
  vencimentoDe,
} from '../src';

const regra = (...items: [number, number, number][]): ParcelaRepasse[] =>
  items.map(([posicao, percentual, dias]) => ({ posicao, percentual, dias }));
const R602020 = regra([1, 60, 0], [2, 20, 10], [3, 20, 30]);
const label = (r: ParcelaRepasse[]) => r.map((p) => p.percentual).join('/');
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

describe('regraDeRepasse (ruling 14)', () => {
  const driver = regra([1, 50, 0], [2, 50, 15]);
  it('the batch rule wins, ordered by position', () =>
    expect(regraDeRepasse(regra([2, 40, 5], [1, 60, 0]), driver)).toEqual({ origem: 'lote', parcelas: regra([1, 60, 0], [2, 40, 5]) }));
  it('the driver rule when the batch has none (null or empty)', () => {
    expect(regraDeRepasse(null, driver)).toEqual({ origem: 'motorista', parcelas: driver });
    expect(regraDeRepasse([], driver)).toEqual({ origem: 'motorista', parcelas: driver });
  });
  it('the default 100% at position 1, dias 0, when neither has one', () => {
    expect(regraDeRepasse(null, [])).toEqual({ origem: 'padrao', parcelas: regra([1, 100, 0]) });
    expect(regraDeRepasse(undefined, null)).toEqual({ origem: 'padrao', parcelas: regra([1, 100, 0]) });
  });
});

describe('dividirPorPercentuais: exact to the cent', () => {
  it.each(
    [
      [10000, regra([1, 33.33, 0], [2, 33.33, 0], [3, 33.34, 0]), [3333, 3333, 3334]],
      [100, regra([1, 33.33, 0], [2, 33.33, 0], [3, 33.34, 0]), [33, 33, 34]],
      [10000, R602020, [6000, 2000, 2000]],
      [10001, R602020, [6001, 2000, 2000]],
      [10003, R602020, [6002, 2000, 2001]],
      [1, R602020, [1, 0, 0]],
      [2, R602020, [1, 0, 1]],
      [100, regra([1, 50, 0], [2, 50, 0]), [50, 50]],
      [101, regra([1, 50, 0], [2, 50, 0]), [50, 51]],
      [123457, regra([1, 100, 0]), [123457]],
      [150050, regra([1, 60, 0], [2, 20, 0], [3, 20, 0]), [90030, 30010, 30010]],
    ].map(
      ([c, r, e]) =>
        [`${String(c)} cents at ${label(r as ParcelaRepasse[])} → ${(e as number[]).join('/')}`, c, r, e] as [
          string,
          number,
          ParcelaRepasse[],
          number[],
        ],
    ),
  )('%s', (_t, cents, parcelas, expected) => {
    const got = dividirPorPercentuais(cents, parcelas);
    expect(got).toEqual(expected);
    expect(sum(got)).toBe(cents);
  });

  it("follows position order whatever the rule's order", () =>
    expect(dividirPorPercentuais(10001, regra([3, 20, 0], [1, 60, 0], [2, 20, 0]))).toEqual([6001, 2000, 2000]));

  it('is exact for large values (integer arithmetic, no float drift)', () => {
    const got = dividirPorPercentuais(999_999_999_999_99, regra([1, 33.33, 0], [2, 33.33, 0], [3, 33.34, 0]));
    expect(sum(got)).toBe(999_999_999_999_99);
  });

  it('refuses fractional cents', () => expect(() => dividirPorPercentuais(10.5, R602020)).toThrow());
});

describe('distribuirDocumentos: whole documents per installment', () => {
  it.each(
    [
      [15, R602020, [9, 3, 3]],
      [3, R602020, [1, 1, 1]],
      [4, R602020, [2, 1, 1]],
      [5, R602020, [3, 1, 1]],
      [7, R602020, [4, 1, 2]],
      [8, R602020, [5, 1, 2]],
      [100, R602020, [60, 20, 20]],
      [10, regra([1, 50, 0], [2, 50, 0]), [5, 5]],
      [3, regra([1, 98, 0], [2, 1, 0], [3, 1, 0]), [1, 1, 1]],
      [4, regra([1, 98, 0], [2, 1, 0], [3, 1, 0]), [2, 1, 1]],
      [1, regra([1, 100, 0]), [1]],
    ].map(
      ([n, r, e]) =>
        [`${String(n)} documents at ${label(r as ParcelaRepasse[])} → ${(e as number[]).join('/')}`, n, r, e] as [
          string,
          number,
          ParcelaRepasse[],
          number[],
        ],
    ),
  )('%s', (_t, n, parcelas, expected) => {
    const got = distribuirDocumentos(n, parcelas);
    expect(got).toEqual(expected);
    expect(sum(got)).toBe(n);
    expect(Math.min(...got)).toBeGreaterThanOrEqual(1);
  });

  it('always at least one per installment and sum N for every N from k to 60', () => {
    for (const r of [R602020, regra([1, 33.33, 0], [2, 33.33, 0], [3, 33.34, 0]), regra([1, 90, 0], [2, 10, 0])]) {
      for (let n = r.length; n <= 60; n++) {
        const got = distribuirDocumentos(n, r);
        expect(sum(got)).toBe(n);
        expect(Math.min(...got)).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it('refuses fewer documents than installments (they are split instead)', () => expect(() => distribuirDocumentos(2, R602020)).toThrow());

  it('buckets by order: the first 9 of 15 at position 1, the next 3 at 2, the last 3 at 3', () =>
    expect(Array.from({ length: 15 }, (_, i) => posicaoDoDocumento(i, 15, R602020))).toEqual([
      1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3,
    ]));
});

describe('groups and due dates', () => {
  it("a batch groups one driver's documents; a single counter-CT-e is its own group", () => {
    expect(grupoDoVinculo('cte-9', { lote_id: 'L1', motorista_cpf: '52998224725' })).toBe('lote:L1:52998224725');
    expect(grupoDoVinculo('cte-9', { lote_id: null, motorista_cpf: '52998224725' })).toBe('cte:cte-9');
    expect(repasseStream('co-1', 'cte:cte-9')).toBe('repasse-co-1-cte:cte-9');
  });
  it('due date is the release day in Brasília plus dias', () => {
    expect(vencimentoDe(new Date('2026-11-22T12:00:00Z'), 0)).toBe('2026-11-22');
    expect(vencimentoDe(new Date('2026-11-22T12:00:00Z'), 30)).toBe('2026-12-22');
    // 01:00 UTC is still the previous evening in Brasília.
    expect(vencimentoDe(new Date('2026-11-23T01:00:00Z'), 10)).toBe('2026-12-02');
  });
});
