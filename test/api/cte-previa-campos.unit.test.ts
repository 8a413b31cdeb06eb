import { campoDoErro } from '../../services/api/src/routes/fiscal/cte-previa';

describe("the preview's schema-error paths → the draft's fields (infDoc)", () => {
  it('infOutros elements name documentos.outros.<i>.<field>; infNFe its key; anything else documentos', () => {
    const doc = '/CTe/infCte/infCTeNorm/infDoc';
    expect(campoDoErro(`${doc}/infOutros[2]/descOutros`)).toBe('documentos.outros.1.descricao');
    expect(campoDoErro(`${doc}/infOutros/tpDoc`)).toBe('documentos.outros.0.tipo_documento');
    expect(campoDoErro(`${doc}/infOutros[3]/nDoc`)).toBe('documentos.outros.2.numero');
    expect(campoDoErro(`${doc}/infOutros/dEmi`)).toBe('documentos.outros.0.data_emissao');
    expect(campoDoErro(`${doc}/infOutros/vDocFisc`)).toBe('documentos.outros.0.valor');
    expect(campoDoErro(`${doc}/infOutros/dPrev`)).toBe('documentos.outros.0.data_prevista_entrega');
    expect(campoDoErro(`${doc}/infOutros[4]`)).toBe('documentos.outros.3');
    expect(campoDoErro(`${doc}/infNFe[2]/chave`)).toBe('documentos.nfe.1.chave');
    expect(campoDoErro(doc)).toBe('documentos');
  });

  it('autXML elements name autorizados_xml.<i>', () => {
    expect(campoDoErro('/CTe/infCte/autXML/CNPJ')).toBe('autorizados_xml.0');
    expect(campoDoErro('/CTe/infCte/autXML[3]/CPF')).toBe('autorizados_xml.2');
    expect(campoDoErro('/CTe/infCte/autXML[10]')).toBe('autorizados_xml.9');
  });
});
