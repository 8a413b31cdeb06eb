import { startTestApp, expectError, type TestApp, type TestCarrier } from '../support/app';
import { emissora, pollUntil, rascunhoEmitivel } from '../support/emissora';
import { expectIndependentlyValid } from '../support/xmlsec';
import { makeA1 } from '../support/certificates';

const TEST_CA = makeA1({ cnpj: '11222333000181', razao: 'CA', password: 'x', cnpjIn: 'otherName' }).caCertificatePem;
const CPF = '52998224725';
const mascara = (cnpj: string) => `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;

const fields = (body: { error: { details: { fields: { field: string }[] } } }) => body.error.details.fields.map((f) => f.field);

describe('autorizados_xml on CT-e drafts (infCte/autXML)', () => {
  let app: TestApp;
  let contratante: TestCarrier;
  let sub: TestCarrier;

  beforeAll(async () => {
    app = await startTestApp();
    contratante = await emissora(app, 'CONTRATANTE TRANSPORTES LTDA');
    sub = await app.carrier({ name: 'SUBCONTRATADA TRANSPORTES LTDA', scopes: ['fiscal'] });
  });
  afterAll(() => app?.close());

  it('a draft authorizing the subcontractor (masked) and a CPF: stored unmasked, previewed, issued, and the authorized XML carries autXML', async () => {
    const created = await contratante.call('POST', '/v1/fiscal/cte', {
      ...rascunhoEmitivel(),
      autorizados_xml: [mascara(sub.cnpj), '529.982.247-25'],
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(created.body.data.rascunho.autorizados_xml).toEqual([sub.cnpj, CPF]);

    const autXML = `<autXML><CNPJ>${sub.cnpj}</CNPJ></autXML><autXML><CPF>${CPF}</CPF></autXML>`;
    const previa = await contratante.call('POST', `/v1/fiscal/cte/${id}/previa`);
    expect(previa.status).toBe(200);
    expect(previa.body.data.pendencias).toEqual([]);
    expect(previa.body.data.pronto).toBe(true);
    expect(previa.body.data.xml).toContain(`</infCTeNorm>${autXML}</infCte>`);

    // A change replaces the list: the CPF leaves, the subcontractor stays.
    const alterado = await contratante.call('PUT', `/v1/fiscal/cte/${id}`, { ...rascunhoEmitivel(), autorizados_xml: [sub.cnpj] });
    expect(alterado.status).toBe(200);
    expect(alterado.body.data.rascunho.autorizados_xml).toEqual([sub.cnpj]);

    expect((await contratante.call('POST', `/v1/fiscal/cte/${id}/emissao`)).status).toBe(202);
    const consulta = await pollUntil(contratante, `/v1/fiscal/cte/${id}/consulta`);
    expect(consulta.body.data.situacao).toBe('autorizado');

    const res = await fetch(`${app.url}/v1/fiscal/cte/${id}/xml`, { headers: { authorization: `Bearer ${contratante.apiKey}` } });
    const xml = await res.text();
    expect(xml).toContain(`</infCTeNorm><autXML><CNPJ>${sub.cnpj}</CNPJ></autXML></infCte>`);
    expect(xml.match(/<autXML>/g)).toHaveLength(1);
    expectIndependentlyValid(xml, { schema: 'cte-4.00/procCTe_v4.00.xsd', element: 'infCte', trustedPem: TEST_CA });

    const one = await contratante.call('GET', `/v1/fiscal/cte/${id}`);
    expect(one.body.data.rascunho.autorizados_xml).toEqual([sub.cnpj]);
  });

  it('400 validacao names the field: a bad check digit, a repeat, more than 10, on creation and on change', async () => {
    const post = (autorizados_xml: unknown) => contratante.call('POST', '/v1/fiscal/cte', { autorizados_xml });

    const digito = expectError(await post([sub.cnpj, '11.222.333/0001-82']), 400, 'validacao');
    expect(fields(digito)).toEqual(['autorizados_xml.1']);
    expect(digito.error.message).toMatch(/check digits/);
    expect(fields(expectError(await post(['111.111.111-11']), 400, 'validacao'))).toEqual(['autorizados_xml.0']);

    const repetido = expectError(await post([CPF, sub.cnpj, '529.982.247-25']), 400, 'validacao');
    expect(fields(repetido)).toEqual(['autorizados_xml.2']);
    expect(repetido.error.message).toMatch(/repeats autorizados_xml\.0/);

    const onze = expectError(await post(Array.from({ length: 11 }, () => sub.cnpj)), 400, 'validacao');
    expect(fields(onze)).toEqual(['autorizados_xml']);

    const d = await contratante.call('POST', '/v1/fiscal/cte', { autorizados_xml: [CPF] });
    expect(d.status).toBe(201);
    const put = (autorizados_xml: unknown) => contratante.call('PUT', `/v1/fiscal/cte/${d.body.data.id}`, { autorizados_xml });
    expect(fields(expectError(await put([CPF, CPF]), 400, 'validacao'))).toEqual(['autorizados_xml.1']);
    expect(fields(expectError(await put(['52998224700']), 400, 'validacao'))).toEqual(['autorizados_xml.0']);
    // Nothing refused was stored.
    expect((await contratante.call('GET', `/v1/fiscal/cte/${d.body.data.id}`)).body.data.rascunho.autorizados_xml).toEqual([CPF]);
  });

  it('hostile values are refused by the schema before they reach the XML, and the answer does not echo a long one', async () => {
    const post = (autorizados_xml: unknown) => contratante.call('POST', '/v1/fiscal/cte', { autorizados_xml });
    for (const hostil of ['</CNPJ><CPF>52998224725', "11222333000181' OR '1'='1", '11222333\u0000000181', '1'.repeat(19)]) {
      expect(fields(expectError(await post([hostil]), 400, 'validacao'))).toEqual(['autorizados_xml.0']);
    }
    expect(fields(expectError(await post({ 0: '11222333000181' }), 400, 'validacao'))).toEqual(['autorizados_xml']);
    expect(fields(expectError(await post([{ cnpj: '11222333000181' }]), 400, 'validacao'))).toEqual(['autorizados_xml.0']);
    const longo = expectError(await post(['9'.repeat(100_000)]), 400, 'validacao');
    expect(JSON.stringify(longo).length).toBeLessThan(2_000);
  });
});
