import fc from 'fast-check';
import {
  brlDeCentavos,
  centavosDeDecimal,
  centavosDeReais,
  centavosExatos,
  centesimosDePercentual,
  centesimosExatos,
  decimalDeCentavos,
  ehCentavos,
  gramasDasQuantidades,
  gramasDeKg,
  kgDeGramas,
  milharBrasileiro,
  parteEmCentesimos,
  percentualDeCentesimos,
  reaisDeCentavos,
  somaCentavos,
  textoKgDeGramas,
  totaisMdfe,
  valorSugeridoContraCte,
} from '../src';

/** Cents up to 10 trillion reais either way: beyond any amount a CT-e, a toll pass or a payout carries, still exact. */
const centavosComSinal = fc.integer({ min: -1_000_000_000_000_000, max: 1_000_000_000_000_000 });

describe('money: cents from decimal text (XML and JSON strings)', () => {
  it.each([
    ['0.1', 10],
    ['0.10', 10],
    ['1234.56', 123456],
    ['4840.42', 484042],
    ['7', 700],
    ['0', 0],
    ['-0.10', -10],
    [' 12.3 ', 1230],
    ['0012.30', 1230],
    ['9999999999999.99', 999999999999999],
  ])('%j → %d', (texto, esperado) => {
    expect(centavosDeDecimal(texto)).toBe(esperado);
  });

  it.each(['1.234', '1e3', '', '.5', '1.', 'abc', '12,50', '1 000.00', '+1.00', '0x10', 'NaN', 'Infinity', '99999999999999999'])(
    '%j is not money (null)',
    (texto) => {
      expect(centavosDeDecimal(texto)).toBeNull();
    },
  );

  it('refuses more integer digits than the layout allows, and what a JS number would not hold exactly', () => {
    expect(centavosDeDecimal('123.45', 3)).toBe(12345);
    expect(centavosDeDecimal('1234.56', 3)).toBeNull();
    expect(centavosDeDecimal('90071992547409.91')).toBe(Number.MAX_SAFE_INTEGER);
    expect(centavosDeDecimal('90071992547409.92')).toBeNull();
  });

  it('reads back exactly what decimalDeCentavos writes, for any cents (no floating point on the way)', () => {
    fc.assert(fc.property(centavosComSinal, (c) => centavosDeDecimal(decimalDeCentavos(c)) === c));
  });
});

describe('money: cents from reais numbers (request bodies)', () => {
  it('rounds away the binary noise of a two-decimal value', () => {
    expect(19.99 * 100).not.toBe(1999);
    expect(centavosDeReais(19.99)).toBe(1999);
    expect(centavosDeReais(0.07)).toBe(7);
    expect(centavosDeReais(1_000_000)).toBe(100_000_000);
  });

  it('centavosExatos takes a value as written and refuses what it would have to round', () => {
    expect(centavosExatos(19.99)).toBe(1999);
    expect(centavosExatos(0.1)).toBe(10);
    expect(centavosExatos(5)).toBe(500);
    expect(centavosExatos(0)).toBe(0);
    expect(centavosExatos(1.005)).toBeNull();
    expect(centavosExatos(-1)).toBeNull();
    expect(centavosExatos(Number.NaN)).toBeNull();
    expect(centavosExatos(Number.POSITIVE_INFINITY)).toBeNull();
    expect(centavosExatos(1e21)).toBeNull();
  });

  it('both give back the cents of any reais value an answer carries (round trip)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999_999 }), (c) => {
        const reais = reaisDeCentavos(c);
        return centavosDeReais(reais) === c && centavosExatos(reais) === c;
      }),
    );
  });
});

describe('money: formatting', () => {
  it.each([
    [0, '0.00', '0,00', '0,00'],
    [5, '0.05', '0,05', '0,05'],
    [100, '1.00', '1,00', '1,00'],
    [123450, '1234.50', '1234,50', '1.234,50'],
    [150000000, '1500000.00', '1500000,00', '1.500.000,00'],
    [-5, '-0.05', '-0,05', '-0,05'],
    [-123456, '-1234.56', '-1234,56', '-1.234,56'],
  ])('%d cents → %j, %j, %j', (c, decimal, virgula, brl) => {
    expect(decimalDeCentavos(c)).toBe(decimal);
    expect(decimalDeCentavos(c, ',')).toBe(virgula);
    expect(brlDeCentavos(c)).toBe(brl);
  });

  it('decimalDeCentavos writes what toFixed(2) of the reais wrote, for any cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000_000_000, max: 10_000_000_000_000 }), (c) => decimalDeCentavos(c) === (c / 100).toFixed(2)),
    );
  });

  it('brlDeCentavos prints what the pt-BR locale prints, for any cents', () => {
    const ptBr = (c: number) => (c / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect(ptBr(123456789)).toBe('1.234.567,89');
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000_000_000 }), (c) => brlDeCentavos(c) === ptBr(c)));
  });

  it('milharBrasileiro groups integer digits only', () => {
    expect(milharBrasileiro('1')).toBe('1');
    expect(milharBrasileiro('123')).toBe('123');
    expect(milharBrasileiro('1234')).toBe('1.234');
    expect(milharBrasileiro('13000')).toBe('13.000');
    expect(milharBrasileiro('1234567')).toBe('1.234.567');
  });
});

describe('money: validation, sums and shares', () => {
  it.each([
    [0, true],
    [1, true],
    [Number.MAX_SAFE_INTEGER, true],
    [-1, false],
    [1.5, false],
    [2 ** 53, false],
    [Number.NaN, false],
    ['100', false],
    [null, false],
  ])('ehCentavos(%j) is %j', (v, esperado) => {
    expect(ehCentavos(v)).toBe(esperado);
  });

  it('sums cents (0 for none) and takes any iterable', () => {
    expect(somaCentavos([])).toBe(0);
    expect(somaCentavos([1999, 1, 100])).toBe(2100);
    expect(somaCentavos(new Set([5, 7]))).toBe(12);
  });

  it('a percentage in hundredths', () => {
    expect(centesimosDePercentual(1.5)).toBe(150);
    expect(centesimosDePercentual(33.33)).toBe(3333);
    expect(centesimosDePercentual(100)).toBe(10_000);
    expect(percentualDeCentesimos(1250)).toBe(12.5);
    expect(percentualDeCentesimos(150)).toBe(1.5);
    expect(centesimosExatos(33.33)).toBe(3333);
    expect(centesimosExatos(0.1)).toBe(10);
    expect(centesimosExatos(12.345)).toBeNull();
    expect(centesimosExatos(Number.NaN)).toBeNull();
    expect(centesimosExatos(Number.POSITIVE_INFINITY)).toBeNull();
  });

  it('a share at a percentage rounds half up to the cent', () => {
    expect(parteEmCentesimos(10_000, 1200)).toBe(1200); // 12% of 100.00
    expect(parteEmCentesimos(33_333, 150)).toBe(500); // 1.5% of 333.33 = 4.999995 → 5.00
    expect(parteEmCentesimos(100, 50)).toBe(1); // 0.5% of 1.00 = 0.005 → 0.01 (half up)
    expect(parteEmCentesimos(99, 50)).toBe(0); // 0.495 cents → 0
    expect(parteEmCentesimos(0, 10_000)).toBe(0);
    expect(parteEmCentesimos(12_345, 10_000)).toBe(12_345); // 100%
  });

  it('parteEmCentesimos is round(cents × hundredths / 10 000) in exact integers, for any amount and percentage', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000_000 }), fc.integer({ min: 0, max: 10_000 }), (c, h) => {
        const exato = (BigInt(c) * BigInt(h) * 2n + 10_000n) / 20_000n; // floor(x / 10 000 + 1/2)
        return parteEmCentesimos(c, h) === Number(exato) && parteEmCentesimos(c, h) === Math.round((c * h) / 10_000);
      }),
    );
  });

  it("the counter-CT-e's suggested freight is the configured share of vTPrest, half up", () => {
    expect(valorSugeridoContraCte(100_000, 80)).toBe(80_000);
    expect(valorSugeridoContraCte(10_000, 33.33)).toBe(3333);
    expect(valorSugeridoContraCte(1, 50)).toBe(1);
    expect(valorSugeridoContraCte(123_457, 75.5)).toBe(93_210); // 932 100.35 hundredths-of-cent → 93 210
  });
});

describe('peso: grams and kg', () => {
  it('converts request kg to grams and grams to answer kg', () => {
    expect(gramasDeKg(12.5)).toBe(12_500);
    expect(gramasDeKg(0.001)).toBe(1);
    expect(gramasDeKg(1.005)).toBe(1005);
    expect(kgDeGramas(12_500)).toBe(12.5);
    expect(kgDeGramas(1)).toBe(0.001);
  });

  it.each([
    [0, '0.0000'],
    [1, '0.0010'],
    [12_345, '12.3450'],
    [1_000_000, '1000.0000'],
    [999_999_999, '999999.9990'],
  ])('%d g → qCarga %j', (g, texto) => {
    expect(textoKgDeGramas(g)).toBe(texto);
  });

  it('textoKgDeGramas writes what toFixed(4) of the kg wrote, for any grams', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000_000_000 }), (g) => textoKgDeGramas(g) === (g / 1000).toFixed(4)));
  });

  it("a CT-e's gross weight sums its infQ in KG and TON, to the gram; other units and non-numbers count nothing", () => {
    expect(gramasDasQuantidades([])).toBe(0);
    expect(gramasDasQuantidades([{ unidade: '01', quantidade: '13000.0000' }])).toBe(13_000_000);
    expect(gramasDasQuantidades([{ unidade: '01', quantidade: '12.3456' }])).toBe(12_346);
    expect(gramasDasQuantidades([{ unidade: '02', quantidade: '1.5' }])).toBe(1_500_000);
    expect(
      gramasDasQuantidades([
        { unidade: '01', quantidade: '100' },
        { unidade: '02', quantidade: '0.25' },
        { unidade: '03', quantidade: '40' },
        { unidade: '00', quantidade: '2' },
      ]),
    ).toBe(350_000);
    expect(
      gramasDasQuantidades([
        { unidade: '01', quantidade: 'abc' },
        { unidade: '01', quantidade: null },
        { unidade: null, quantidade: '5' },
      ]),
    ).toBe(0);
  });
});

describe('MDF-e totals', () => {
  it('count, cargo value and gross weight of the CT-e, none for an empty list', () => {
    expect(totaisMdfe([])).toEqual({ qtd_cte: 0, valor_carga_centavos: 0, peso_gramas: 0 });
    expect(
      totaisMdfe([
        { valor_carga_centavos: 1_500_000, peso_gramas: 13_000_000 },
        { valor_carga_centavos: 1999, peso_gramas: 12_346 },
      ]),
    ).toEqual({ qtd_cte: 2, valor_carga_centavos: 1_501_999, peso_gramas: 13_012_346 });
  });
});
