import { FiscalSchemas, signFiscalXml } from '@frete/documents';
import { readPkcs12 } from '@frete/platform';
import { cnpjCheckDigits, montarCteXml, type MontarCteInput } from '@frete/domain';
import { makeA1 } from '../support/certificates';
import { EMITENTE_CNPJ, montarInput } from '../support/cte-montar';

const SENHA = 'senha-do-a1';
const a1 = makeA1({ cnpj: EMITENTE_CNPJ, razao: 'TRANSPORTADORA EXEMPLO LTDA', password: SENHA, cnpjIn: 'otherName' });
const { privateKeyPem, certificatePem } = readPkcs12(a1.pfx, SENHA);
const schemas = new FiscalSchemas();
afterAll(() => schemas.close());

const validar = async (input: MontarCteInput) => {
  const { chave, xml } = montarCteXml(input);
  const signed = signFiscalXml(xml, { element: 'infCte', privateKeyPem, certificatePem });
  return { chave, xml, result: await schemas.validate(signed, 'cte_v4.00.xsd') };
};

/** Issue 29, point 3: what NT 2025.001 v1.11a and NT 2026.002 ask of a road carrier's CT-e, against the newest package. */
describe('CT-e of the tax reform against cte_v4.00.xsd (sped-cte PL_CTe_400_RTC, NT 2026.002)', () => {
  const testeAno = { cst: '000', cclass_trib: '000001', aliquota_ibs_uf: 0.1, aliquota_ibs_mun: 0, aliquota_cbs: 0.9 };

  it('the 2026 test-year rates validate, with no ISUFEmit when no SUFRAMA registration is given', async () => {
    const { xml, result } = await validar(montarInput({ ibsCbs: testeAno }));
    expect(result).toEqual({ valid: true, errors: [] });
    expect(xml).toContain('<pIBSUF>0.10</pIBSUF>');
    expect(xml).not.toContain('ISUFEmit');
  });

  it('CBS at 0 in the ZFM writes emit/ISUFEmit after CRT and validates', async () => {
    const { xml, result } = await validar(montarInput({ ibsCbs: { ...testeAno, aliquota_cbs: 0, inscricao_suframa: '200123456' } }));
    expect(result).toEqual({ valid: true, errors: [] });
    expect(xml).toMatch(/<CRT>\d<\/CRT><ISUFEmit>200123456<\/ISUFEmit><\/emit>/);
    expect(xml).not.toContain('<gRed>');
  });

  it('an alphanumeric CNPJ (2026 rule) as the emitter builds an alphanumeric key that validates', async () => {
    const base = '12ABC34501DE';
    const cnpj = base + cnpjCheckDigits(base);
    const input = montarInput({ ibsCbs: testeAno });
    const { chave, xml, result } = await validar({ ...input, emitente: { ...input.emitente, cnpj } });
    expect(result).toEqual({ valid: true, errors: [] });
    expect(chave.slice(6, 20)).toBe(cnpj);
    expect(xml).toContain(`<CNPJ>${cnpj}</CNPJ>`);
  });

  it('procEmi stays 0 (the taxpayer’s own application; 4 is the PAA’s, NT 2026.002)', async () => {
    const { xml } = await validar(montarInput({ ibsCbs: testeAno }));
    expect(xml).toContain('<procEmi>0</procEmi>');
  });
});
