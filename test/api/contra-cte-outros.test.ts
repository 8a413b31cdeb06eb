import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, expectError, type TestApp, type TestCarrier } from '../support/app';
import { emissora, pollUntil, rascunhoEmitivel } from '../support/emissora';
import { nfeKey } from '../support/cte-xml';
import { expectIndependentlyValid } from '../support/xmlsec';
import { makeA1 } from '../support/certificates';

const TEST_CA = makeA1({ cnpj: '11222333000181', razao: 'CA', password: 'x', cnpjIn: 'otherName' }).caCertificatePem;
/** The README's contractor CT-e (MT → MT): its transported document is an infOutros (tpDoc 99, NOTA FISCAL MANUAL). */
const CHAVE_MT = '51160624686092000173570010000000031000000020';
const XML_MT = readFileSync(join(__dirname, '../fixtures/cte', `${CHAVE_MT}-cte.XML`), 'utf8');
const CPF = '52998224725';
const PLACA = 'ABC1D23';

const fields = (body: { error: { details: { fields: { field: string }[] } } }) => body.error.details.fields.map((f) => f.field);

describe('Transported documents other than NF-e (infDoc/infOutros): drafts and counter-CT-e', () => {
  let app: TestApp;
  let sub: TestCarrier;

  beforeAll(async () => {
    app = await startTestApp();
    sub = await emissora(app, 'SUBCONTRATADA TRANSPORTES LTDA', ['fiscal', 'operacao']);
    expect(
      (await sub.call('POST', '/v1/fiscal/regras-tributacao', { uf_origem: 'MT', uf_destino: 'MT', icms: { cst: '00', aliquota: 12 } }))
        .status,
    ).toBe(201);
    expect((await sub.call('POST', '/v1/fiscal/motoristas', { cpf: CPF, nome: 'JOAO MOTORISTA' })).status).toBe(201);
    expect((await sub.call('POST', '/v1/fiscal/veiculos', { placa: PLACA })).status).toBe(201);
  });
  afterAll(() => app?.close());

  it("the counter-CT-e of the MT contractor's CT-e passes its infOutros on: authorized, schema-valid, GET shows documentos.outros", async () => {
    expect((await sub.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: XML_MT })).status).toBe(201);
    const res = await sub.call('POST', '/v1/fiscal/cte/contra', {
      chave_cte_original: CHAVE_MT,
      motorista: { cpf: CPF },
      placa: PLACA,
      valor_frete: 3200,
    });
    expect(res.status).toBe(202);
    const id = res.body.data.id as string;
    const consulta = await pollUntil(sub, `/v1/fiscal/cte/${id}/consulta`);
    expect(consulta.body.data.situacao).toBe('autorizado');

    const xml = await (await fetch(`${app.url}/v1/fiscal/cte/${id}/xml`, { headers: { authorization: `Bearer ${sub.apiKey}` } })).text();
    expect(xml).toContain(
      '<infDoc><infOutros><tpDoc>99</tpDoc><descOutros>NOTA FISCAL MANUAL</descOutros><nDoc>123456</nDoc>' +
        '<dEmi>2016-06-05</dEmi><vDocFisc>79400.00</vDocFisc></infOutros></infDoc>',
    );
    expect(xml).toContain(`<chCTe>${CHAVE_MT}</chCTe>`);
    expectIndependentlyValid(xml, { schema: 'cte-4.00/procCTe_v4.00.xsd', element: 'infCte', trustedPem: TEST_CA });

    const one = await sub.call('GET', `/v1/fiscal/cte/${id}`);
    expect(one.body.data.rascunho.documentos).toEqual({
      outros: [{ tipo_documento: '99', descricao: 'NOTA FISCAL MANUAL', numero: '123456', data_emissao: '2016-06-05', valor: 79400 }],
    });
  });

  it('a draft of other documents is kept as sent, and its preview writes infOutros with nothing pending for documentos', async () => {
    const outros = [{ tipo_documento: '00', descricao: 'DECLARACAO DO REMETENTE', numero: 'D-7', data_emissao: '2026-11-05', valor: 10.5 }];
    const created = await sub.call('POST', '/v1/fiscal/cte', { ...rascunhoEmitivel(), documentos: { outros } });
    expect(created.status).toBe(201);
    expect(created.body.data.rascunho.documentos).toEqual({ outros });
    const previa = await sub.call('POST', `/v1/fiscal/cte/${created.body.data.id}/previa`);
    expect(previa.status).toBe(200);
    expect(JSON.stringify(previa.body.data)).toContain('<infOutros><tpDoc>00</tpDoc><descOutros>DECLARACAO DO REMETENTE</descOutros>');
    expect(previa.body.data.pendencias).toEqual([]);
    // Without any transported document, G036 (693) is pending again.
    const semDocumentos = await sub.call('PUT', `/v1/fiscal/cte/${created.body.data.id}`, {
      ...rascunhoEmitivel(),
      documentos: { outros: [] },
    });
    expect(semDocumentos.status).toBe(200);
    const pendente = await sub.call('POST', `/v1/fiscal/cte/${created.body.data.id}/previa`);
    expect(pendente.body.data.pendencias.map((p: { campo: string }) => p.campo)).toEqual(['documentos']);
  });

  it('400 validacao: an unknown tpDoc, tpDoc 99 without its description, NF-e keys mixed with other documents, a bad date', async () => {
    const post = (documentos: unknown) => sub.call('POST', '/v1/fiscal/cte', { documentos });
    const tipo = expectError(await post({ outros: [{ tipo_documento: '01' }] }), 400, 'validacao');
    expect(fields(tipo)).toEqual(expect.arrayContaining([expect.stringMatching(/^documentos\.outros\.0\.tipo_documento/)]));
    const semDescricao = expectError(await post({ outros: [{ tipo_documento: '99', numero: '1' }] }), 400, 'validacao');
    expect(fields(semDescricao)).toEqual(['documentos.outros.0.descricao']);
    expect(semDescricao.error.message).toMatch(/descOutros/);
    const misturados = expectError(await post({ nfe: [{ chave: nfeKey() }], outros: [{ tipo_documento: '00' }] }), 400, 'validacao');
    expect(fields(misturados)).toEqual(['documentos']);
    expect(misturados.error.message).toMatch(/cannot be mixed/);
    const data = expectError(await post({ outros: [{ tipo_documento: '00', data_emissao: '05/11/2026' }] }), 400, 'validacao');
    expect(fields(data)).toEqual(expect.arrayContaining([expect.stringMatching(/^documentos\.outros\.0\.data_emissao/)]));
    expectError(await post({ outros: [{ tipo_documento: '00', descricao: 'X'.repeat(101) }] }), 400, 'validacao');
  });
});
