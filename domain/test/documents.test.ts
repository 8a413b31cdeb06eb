import { cnpjCheckDigits, isValidCnpj, isValidCpf, normalizeCnpj, findMunicipio, municipioCount, normalizeName } from '../src';

describe('CNPJ', () => {
  it('accepts valid numeric CNPJs with or without punctuation', () => {
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('11222333000181')).toBe(true);
  });
  it('refuses wrong check digits, wrong length and repeated digits', () => {
    expect(isValidCnpj('11222333000182')).toBe(false);
    expect(isValidCnpj('1122233300018')).toBe(false);
    expect(isValidCnpj('00000000000000')).toBe(false);
  });
  it('computes the alphanumeric check digits of the 2026 rule (manual example 12ABC34501DE → 35)', () => {
    expect(cnpjCheckDigits('12ABC34501DE')).toBe('35');
    expect(isValidCnpj('12.ABC.345/01DE-35')).toBe(true);
    expect(isValidCnpj('12abc34501de35')).toBe(true);
    expect(normalizeCnpj('12.abc.345/01de-35')).toBe('12ABC34501DE35');
  });
});

describe('CPF', () => {
  it('validates check digits', () => {
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCpf('52998224726')).toBe(false);
    expect(isValidCpf('11111111111')).toBe(false);
  });
});

describe('IBGE municipalities', () => {
  it('has the 5,570 municipalities', () => expect(municipioCount()).toBe(5570));
  it('matches names without regard to case or accents', () => {
    expect(findMunicipio('sao paulo', 'SP')?.codigo_ibge).toBe('3550308');
    expect(findMunicipio('SÃO PAULO', 'SP')?.municipio).toBe('São Paulo');
    expect(findMunicipio('Campinas', 'SP', '3509502')?.uf).toBe('SP');
    expect(findMunicipio("alta floresta d'oeste", 'RO')?.codigo_ibge).toBe('1100015');
  });
  it('refuses a pair that does not exist or a code of another pair', () => {
    expect(findMunicipio('Campinas', 'RJ')).toBeUndefined();
    expect(findMunicipio('Campinas', 'SP', '3550308')).toBeUndefined();
    expect(normalizeName('  Mogi-Mirim ')).toBe('mogi mirim');
  });
});
