import { aliquotasEsperadas, rejeicaoAliquotasAutoridade } from '../src/regra-tributacao/aliquotas-autoridade';

const teste = { ibs_uf_centesimos: 10, ibs_mun_centesimos: 0, cbs_centesimos: 90 };

describe('rates the authorities accept (NT 2025.001 v1.11a, 316/321/326)', () => {
  test('the 2026 test year: IBS UF 0.10%, IBS Mun 0%, CBS 0.90% are accepted', () => {
    expect(rejeicaoAliquotasAutoridade(teste, '2026-03-10T10:00:00-03:00')).toBeNull();
  });

  test('another IBS UF rate in 2026 is 316, naming the field and the expected rate', () => {
    const r = rejeicaoAliquotasAutoridade({ ...teste, ibs_uf_centesimos: 17 }, '2026-03-10T10:00:00-03:00');
    expect(r).toMatchObject({ cStat: '316', xMotivo: 'Rejeição: Alíquota do IBS da UF inválida' });
    expect(r?.regra).toContain('pIBSUF must be 0.10%');
    expect(r?.fonte).toContain('NT 2025.001');
  });

  test('a municipal rate in 2026 is 321; another CBS rate is 326', () => {
    expect(rejeicaoAliquotasAutoridade({ ...teste, ibs_mun_centesimos: 5 }, '2026-06-01T00:00:00-03:00')?.cStat).toBe('321');
    expect(rejeicaoAliquotasAutoridade({ ...teste, cbs_centesimos: 880 }, '2026-06-01T00:00:00-03:00')?.cStat).toBe('326');
  });

  test('CBS at zero is accepted only within ZFM or one ALC', () => {
    const zero = { ...teste, cbs_centesimos: 0 };
    expect(rejeicaoAliquotasAutoridade(zero, '2026-06-01T00:00:00-03:00')?.cStat).toBe('326');
    expect(rejeicaoAliquotasAutoridade(zero, '2026-06-01T00:00:00-03:00', { areaIncentivada: true })).toBeNull();
  });

  test('tributação regular takes every rate at zero', () => {
    const zeros = { ibs_uf_centesimos: 0, ibs_mun_centesimos: 0, cbs_centesimos: 0 };
    expect(rejeicaoAliquotasAutoridade(zeros, '2026-06-01T00:00:00-03:00', { tributacaoRegular: true })).toBeNull();
    expect(rejeicaoAliquotasAutoridade(teste, '2026-06-01T00:00:00-03:00', { tributacaoRegular: true })?.cStat).toBe('316');
  });

  test('in force from 05/01/2026 in production and 03/11/2025 in homologação', () => {
    const outra = { ...teste, ibs_uf_centesimos: 17 };
    expect(rejeicaoAliquotasAutoridade(outra, '2026-01-04T23:59:00-03:00')).toBeNull();
    expect(rejeicaoAliquotasAutoridade(outra, '2026-01-05T00:00:00-03:00')?.cStat).toBe('316');
    expect(rejeicaoAliquotasAutoridade(outra, '2025-11-03T08:00:00-03:00', { ambiente: 'homologacao' })?.cStat).toBe('316');
    expect(rejeicaoAliquotasAutoridade(outra, '2025-11-02T08:00:00-03:00', { ambiente: 'homologacao' })).toBeNull();
  });

  test('a Date is read at Brasília time: 02:00 UTC on 5 January is still 4 January there', () => {
    const outra = { ...teste, ibs_uf_centesimos: 17 };
    expect(rejeicaoAliquotasAutoridade(outra, new Date('2026-01-05T02:00:00Z'))).toBeNull();
    expect(rejeicaoAliquotasAutoridade(outra, new Date('2026-01-05T03:00:00Z'))?.cStat).toBe('316');
  });

  test('2027–2028: IBS 0.05% + 0.05%, CBS not yet published (not judged); later years not judged', () => {
    expect(aliquotasEsperadas(2027)).toEqual({ ibs_uf: 5, ibs_mun: 5, cbs: null });
    const r2027 = { ibs_uf_centesimos: 5, ibs_mun_centesimos: 5, cbs_centesimos: 870 };
    expect(rejeicaoAliquotasAutoridade(r2027, '2027-02-01T00:00:00-03:00')).toBeNull();
    expect(rejeicaoAliquotasAutoridade(teste, '2027-02-01T00:00:00-03:00')?.cStat).toBe('316');
    expect(rejeicaoAliquotasAutoridade(teste, '2029-02-01T00:00:00-03:00')).toBeNull();
  });
});
