import { recusaDocumentosAnteriores } from '@frete/domain';
import { buildCteXml } from '../support/cte-xml';

const CONTRATANTE = '11222333000181';
const chave = buildCteXml({ emitenteCnpj: CONTRATANTE }).chave;
const base = { tpCTe: '0', tpServ: '1', tomador: CONTRATANTE, temDocAnt: true, emissores: [{ documento: CONTRATANTE, chaves: [chave] }] };

describe('simulated authority: previous documents (MOC 4.00 G059–G065)', () => {
  it('a counter-CT-e as the service builds it passes', () => {
    expect(recusaDocumentosAnteriores(base)).toBeNull();
    expect(recusaDocumentosAnteriores({ ...base, tomador: '11222333000262' })).toBeNull(); // another branch, same CNPJ base
  });
  it.each([
    ['G059: subcontracting without docAnt', { temDocAnt: false, emissores: [] }, 521],
    ['G060: docAnt on a normal service', { tpServ: '0' }, 747],
    ['G061: the same key twice', { emissores: [{ documento: CONTRATANTE, chaves: [chave, chave] }] }, 543],
    [
      'G065: a key with a wrong check digit',
      { emissores: [{ documento: CONTRATANTE, chaves: [`${chave.slice(0, 43)}${(Number(chave[43]) + 1) % 10}`] }] },
      844,
    ],
    ['G062: the key is of another issuer than emiDocAnt', { emissores: [{ documento: '45723174000110', chaves: [chave] }] }, 733],
    ['G063: the taker is not the issuer of the previous CT-e', { tomador: '45723174000110' }, 745],
  ])('%s → %s', (_name, over, cstat) => {
    expect(recusaDocumentosAnteriores({ ...base, ...over })).toBe(cstat);
  });
  it('a complementary CT-e (tpCTe 1) is not judged by these rules', () => {
    expect(recusaDocumentosAnteriores({ ...base, tpCTe: '1', temDocAnt: false, emissores: [] })).toBeNull();
  });
});
