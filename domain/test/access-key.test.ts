import { accessKeyCheckDigit, accessKeyParts, isValidAccessKey } from '../src';

describe('access key', () => {
  it("computes the manual's worked examples", () => {
    expect(accessKeyCheckDigit('5206043300991100250655012000000780026730161')).toBe(5);
    expect(accessKeyCheckDigit('52060412ABC34501DE35550120000007801267301610'.slice(0, 43))).toBe(0);
  });
  it('validates real keys and refuses a wrong digit', () => {
    expect(isValidAccessKey('41181028796029000140570260000000081486169211')).toBe(true);
    expect(isValidAccessKey('41181028796029000140570260000000081486169212')).toBe(false);
    expect(isValidAccessKey('4118102879602900014057026000000008148616921')).toBe(false);
  });
  it('splits a key into its fields', () => {
    expect(accessKeyParts('41181028796029000140570260000000081486169211')).toMatchObject({
      cUF: '41',
      aamm: '1810',
      emitente: '28796029000140',
      modelo: '57',
      serie: 26,
      numero: 8,
      tpEmis: '1',
      dv: '1',
    });
  });
});
