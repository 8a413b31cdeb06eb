import { cteDecider, type CteEvent, montarCteXml, validarRascunho, MAX_AUTORIZADOS_XML } from '../src';
import { montarInput, rascunhoCompleto } from '../../test/support/cte-montar';
import { scenario } from './given-when-then';

// Valid by their check digits: CNPJ (numeric and the Receita's alphanumeric example 12.ABC.345/01DE-35) and CPF.
const CNPJ = '60701190000104';
const CNPJ_ALFA = '12ABC34501DE35';
const CPF = '52998224725';

describe('autorizados_xml (infCte/autXML): validation and normalization', () => {
  it('normalizes masked CNPJ and CPF to their characters, keeping the order', () => {
    const { dados, fields } = validarRascunho({ autorizados_xml: ['60.701.190/0001-04', '529.982.247-25', '12.abc.345/01de-35'] });
    expect(fields).toEqual([]);
    expect(dados.autorizados_xml).toEqual([CNPJ, CPF, CNPJ_ALFA]);
  });

  it('names each entry whose check digits fail, and quotes it', () => {
    const { fields } = validarRascunho({ autorizados_xml: [CNPJ, '60701190000105', '52998224724', '00000000000000'] });
    expect(fields.map((f) => f.field)).toEqual(['autorizados_xml.1', 'autorizados_xml.2', 'autorizados_xml.3']);
    expect(fields[0]!.message).toBe("'60701190000105' is not a valid CNPJ or CPF (check digits)");
  });

  it('refuses the same document twice, masked or not, naming the repeat and the first', () => {
    const { fields } = validarRascunho({ autorizados_xml: [CNPJ, CPF, '60.701.190/0001-04'] });
    expect(fields).toEqual([{ field: 'autorizados_xml.2', message: `repeats autorizados_xml.0 (${CNPJ})` }]);
  });

  it('refuses more than the schema allows (autXML maxOccurs 10) even when the HTTP schema was bypassed', () => {
    const onze = Array.from({ length: MAX_AUTORIZADOS_XML + 1 }, () => CNPJ);
    const { fields } = validarRascunho({ autorizados_xml: onze });
    expect(fields[0]).toEqual({ field: 'autorizados_xml', message: 'at most 10 documents (autXML), not 11' });
  });

  it('an empty list is kept as given and writes no autXML', () => {
    const { dados, fields } = validarRascunho({ autorizados_xml: [] });
    expect(fields).toEqual([]);
    expect(dados.autorizados_xml).toEqual([]);
    expect(montarCteXml(montarInput({ dados: { ...rascunhoCompleto(), autorizados_xml: [] } })).xml).not.toContain('autXML');
  });
});

describe('autorizados_xml: the draft decider', () => {
  const { given } = scenario(cteDecider);
  const criar = {
    type: 'CriarRascunho' as const,
    cte_id: 'd1',
    company_id: 'c1',
    environment: 'homologacao' as const,
    dados: { autorizados_xml: ['60.701.190/0001-04', CPF] },
  };
  const criado: CteEvent = {
    type: 'cte.rascunho_criado',
    data: { cte_id: 'd1', company_id: 'c1', ambiente: 'homologacao', dados: { autorizados_xml: [CNPJ, CPF] } },
  };

  it('creates the draft with the documents unmasked', () => given().when(criar).then(criado));
  it('refuses a bad document or a repeat, on creation and on change', () => {
    given()
      .when({ ...criar, dados: { autorizados_xml: ['11111111111'] } })
      .thenRejects('validacao', ['autorizados_xml.0']);
    given(criado)
      .when({ type: 'AlterarRascunho', cte_id: 'd1', company_id: 'c1', dados: { autorizados_xml: [CPF, '529.982.247-25'] } })
      .thenRejects('validacao', ['autorizados_xml.1']);
  });
  it('a change that masks the same documents is no change; removing them is', () => {
    given(criado)
      .when({ type: 'AlterarRascunho', cte_id: 'd1', company_id: 'c1', dados: { autorizados_xml: [CNPJ, '529.982.247-25'] } })
      .then();
    given(criado)
      .when({ type: 'AlterarRascunho', cte_id: 'd1', company_id: 'c1', dados: {} })
      .then({ type: 'cte.rascunho_alterado', data: { cte_id: 'd1', company_id: 'c1', dados: {} } });
  });
});

describe('autorizados_xml: the built CT-e', () => {
  it('writes one autXML per document, CNPJ or CPF, after infCTeNorm and before infCTeSupl', () => {
    const { xml } = montarCteXml(montarInput({ dados: { ...rascunhoCompleto(), autorizados_xml: [CNPJ, CPF, CNPJ_ALFA] } }));
    const autXML = `<autXML><CNPJ>${CNPJ}</CNPJ></autXML><autXML><CPF>${CPF}</CPF></autXML>` + `<autXML><CNPJ>${CNPJ_ALFA}</CNPJ></autXML>`;
    expect(xml).toContain(`</infCTeNorm>${autXML}</infCte><infCTeSupl>`);
  });
});
