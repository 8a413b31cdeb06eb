import { parseFiscalXml } from '@frete/documents';
import { cStatDe } from '../../services/adapters/src/autoridade/sefaz/mensagens';

const raiz = (xml: string) => {
  const parsed = parseFiscalXml(xml);
  if ('refused' in parsed) throw new Error(parsed.message);
  return parsed.doc.documentElement!;
};

/** NT 2025.001 (CT-e v1.09+, MDF-e v1.03): cStat has up to 4 digits (TStat [0-9]{3,4} in the newest schema packages). */
describe("reading an authority's cStat", () => {
  it('accepts 3 and 4 digits', () => {
    expect(cStatDe(raiz('<retCTe xmlns="http://www.portalfiscal.inf.br/cte"><cStat>100</cStat></retCTe>'))).toBe(100);
    expect(cStatDe(raiz('<retCTe xmlns="http://www.portalfiscal.inf.br/cte"><cStat>1037</cStat></retCTe>'))).toBe(1037);
  });

  it('refuses anything else as unreadable', () => {
    for (const v of ['10', '10370', 'A01', '']) {
      expect(() => cStatDe(raiz(`<retCTe xmlns="http://www.portalfiscal.inf.br/cte"><cStat>${v}</cStat></retCTe>`))).toThrow(/no cStat/);
    }
  });
});
