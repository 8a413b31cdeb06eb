import { randomUUID } from 'node:crypto';
import { FiscalSchemas, signFiscalXml } from '@frete/documents';
import { readPkcs12 } from '@frete/platform';
import { isValidAccessKey, readCte } from '@frete/domain';
import { startTestApp, expectError, type TestApp, type TestCarrier } from '../support/app';
import { makeA1 } from '../support/certificates';
import { buildCteXml, nfeKey } from '../support/cte-xml';
import { rascunhoEmitivel } from '../support/emissora';

/** A complete draft without its own ICMS: the tax rule of SP→RJ applies. */
const draft = () => ({ ...rascunhoEmitivel(), documentos: { nfe: [{ chave: nfeKey() }, { chave: nfeKey() }] } });

const SENHA = 'senha-do-a1';
const campos = (body: { data: { pendencias: { campo: string }[] } }) => body.data.pendencias.map((p) => p.campo);

describe('POST /fiscal/cte/{cte_uuid}/previa', () => {
  let app: TestApp;
  let c: TestCarrier;
  let bare: TestCarrier;
  const schemas = new FiscalSchemas();

  const previa = (who: TestCarrier, id: string) => who.call('POST', `/v1/fiscal/cte/${id}/previa`);
  const create = async (who: TestCarrier, body: unknown) => {
    const res = await who.call('POST', '/v1/fiscal/cte', body);
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };

  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier({ name: 'EMISSORA TRANSPORTES LTDA' });
    bare = await app.carrier();
    const conf = await c.call('PUT', '/v1/fiscal/configuracao', {
      inscricao_estadual: '110042490114',
      regime_tributario: 3,
      rntrc: '12345678',
      serie_cte: 1,
      endereco: { logradouro: 'AVENIDA PAULISTA', numero: '1000', bairro: 'BELA VISTA', municipio: 'São Paulo', uf: 'SP', cep: '01310100' },
    });
    expect(conf.status).toBe(200);
    const a1 = makeA1({ cnpj: c.cnpj, razao: 'EMISSORA TRANSPORTES LTDA', password: SENHA, cnpjIn: 'otherName' });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(a1.pfx)], { type: 'application/x-pkcs12' }), 'empresa.pfx');
    form.append('cert_pass', SENHA);
    expect((await c.call('POST', '/v1/fiscal/certificado', form)).status).toBe(201);
    const regra = await c.call('POST', '/v1/fiscal/regras-tributacao', {
      uf_origem: 'SP',
      uf_destino: 'RJ',
      icms: { cst: '00', aliquota: 12 },
    });
    expect(regra.status).toBe(201);
  });
  afterAll(async () => {
    await schemas.close();
    await app?.close();
  });

  it('an empty draft lists configuration, certificate and draft pendencies, and no XML', async () => {
    const id = await create(bare, {});
    const res = await previa(bare, id);
    expect(res.status).toBe(200);
    expect(res.body.environment).toBe('homologacao');
    expect(res.body.data).toMatchObject({ pronto: false, xml: null, chave_provisoria: null, numero_provisorio: 0 });
    expect(campos(res.body)).toEqual(
      expect.arrayContaining([
        'configuracao.inscricao_estadual',
        'configuracao.regime_tributario',
        'configuracao.serie_cte',
        'configuracao.endereco',
        'configuracao.rntrc',
        'certificado',
        'inicio',
        'fim',
        'remetente',
        'destinatario',
        'tomador',
        'valores.total',
        'carga',
        'documentos',
        'impostos.icms',
      ]),
    );
  });

  it('a complete draft with configuration, certificate and tax rule is ready, with a schema-valid XML', async () => {
    const id = await create(c, draft());
    const res = await previa(c, id);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.pendencias).toEqual([]);
    expect(d.pronto).toBe(true);
    expect(isValidAccessKey(d.chave_provisoria)).toBe(true);
    expect(d.chave_provisoria.slice(6, 34)).toBe(`${c.cnpj}57001000000000`);
    expect(d.xml).not.toContain('<Signature');
    const lido = readCte(d.xml);
    expect(lido).toMatchObject({
      chave: d.chave_provisoria,
      cfop: '6353',
      ambiente: 'homologacao',
      numero: 0,
      emitente: { documento: c.cnpj, nome: 'EMISSORA TRANSPORTES LTDA', ie: '110042490114' },
      remetente: { documento: '11222333000181', nome: 'CTE EMITIDO EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL' },
      icms: { grupo: 'ICMS00', base_centavos: 150050, valor_centavos: 18006 },
      rntrc: '12345678',
    });
    // The same preview again: same provisional key (cCT from the draft id).
    expect((await previa(c, id)).body.data.chave_provisoria).toBe(d.chave_provisoria);
    // Once signed (with the number an issue would reserve), it passes the schema.
    const { privateKeyPem, certificatePem } = readPkcs12(
      makeA1({ cnpj: c.cnpj, razao: 'X', password: SENHA, cnpjIn: 'otherName' }).pfx,
      SENHA,
    );
    const numbered = d.xml.replace('<nCT>0</nCT>', '<nCT>1</nCT>');
    expect(await schemas.validate(signFiscalXml(numbered, { element: 'infCte', privateKeyPem, certificatePem }), 'cte_v4.00.xsd')).toEqual({
      valid: true,
      errors: [],
    });
  });

  it('a route without a tax rule lists sem_regra_tributacao', async () => {
    const id = await create(c, {
      ...draft(),
      fim: { municipio: 'Curitiba', uf: 'PR' },
      destinatario: {
        ...draft().destinatario,
        endereco: { ...draft().destinatario.endereco, municipio: 'Curitiba', uf: 'PR', cep: '80010000' },
      },
    });
    const res = await previa(c, id);
    expect(res.body.data).toMatchObject({ pronto: false, xml: null });
    expect(res.body.data.pendencias).toEqual([
      { campo: 'impostos.icms', mensagem: expect.stringMatching(/^sem_regra_tributacao: .*SP→PR/) },
    ]);
  });

  it("a rule of the authority's that the XML breaks is answered with the cStat and text the authority would give", async () => {
    const id = await create(c, { ...draft(), cfop: '6102' });
    const res = await previa(c, id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ pronto: false, pendencias: [] });
    expect(res.body.data.xml).toContain('<CFOP>6102</CFOP>');
    expect(res.body.data.rejeicoes).toEqual([
      { cstat: 676, motivo: 'Rejeição: CFOP informado inválido', regra: 'G049', fonte: expect.stringContaining('G049') },
    ]);
    const ok = await previa(c, await create(c, draft()));
    expect(ok.body.data.rejeicoes).toEqual([]);
  });

  it('schema errors are named by draft field', async () => {
    // Blank texts pass the draft's schema (lengths) but not the XML's (TString: no leading or trailing blank). Not a
    // party's name: in homologação every party's xNome is the manual's literal (G002–G005).
    const d = draft();
    const id = await create(c, {
      ...d,
      expedidor: { ...d.remetente, endereco: { ...d.remetente.endereco, logradouro: '   ' } },
      carga: { ...d.carga, quantidades: [{ unidade: '01', tipo_medida: '  ', quantidade: 1 }] },
    });
    const res = await previa(c, id);
    expect(res.body.data.pronto).toBe(false);
    expect(campos(res.body).sort()).toEqual(['carga.quantidades.0.tipo_medida', 'expedidor.endereco.logradouro']);
    expect(res.body.data.xml).toContain('<xLgr></xLgr>');
  });

  it("404 for another company's draft or an unknown id; 422 cte_nao_editavel for a CT-e that is not a draft", async () => {
    const id = await create(c, draft());
    expectError(await previa(bare, id), 404, 'nao_encontrado');
    expectError(await previa(c, randomUUID()), 404, 'nao_encontrado');
    const delivered = await c.call('POST', '/v1/fiscal/cte-emitidos', { xml: buildCteXml({ emitenteCnpj: c.cnpj }).xml });
    expect(delivered.status).toBe(201);
    expectError(await previa(c, delivered.body.data.id), 422, 'cte_nao_editavel');
  });

  it("IBS/CBS: the draft's own, else the tax rule's, written as imp/IBSCBS on vTPrest", async () => {
    const ibsCbsRegra = { cst: '000', cclass_trib: '000001', aliquota_ibs_uf: 0.1, aliquota_ibs_mun: 0, aliquota_cbs: 0.9 };
    const regra = await c.call('POST', '/v1/fiscal/regras-tributacao', {
      uf_origem: 'SP',
      uf_destino: 'PR',
      icms: { cst: '00', aliquota: 12 },
      ibs_cbs: ibsCbsRegra,
    });
    expect(regra.status).toBe(201);
    const d = draft();
    const paraPr = {
      ...d,
      fim: { municipio: 'Curitiba', uf: 'PR' },
      destinatario: { ...d.destinatario, endereco: { ...d.destinatario.endereco, municipio: 'Curitiba', uf: 'PR', cep: '80010000' } },
    };
    const { privateKeyPem, certificatePem } = readPkcs12(
      makeA1({ cnpj: c.cnpj, razao: 'X', password: SENHA, cnpjIn: 'otherName' }).pfx,
      SENHA,
    );
    const valido = async (xml: string) =>
      schemas.validate(
        signFiscalXml(xml.replace('<nCT>0</nCT>', '<nCT>1</nCT>'), { element: 'infCte', privateKeyPem, certificatePem }),
        'cte_v4.00.xsd',
      );

    // From the rule: 1500.50 × 0.1% = 1.5005 → 1.50; × 0% = 0; × 0.9% = 13.5045 → 13.50.
    const daRegra = (await previa(c, await create(c, paraPr))).body.data;
    expect(daRegra.pronto).toBe(true);
    expect(daRegra.xml).toContain(
      '<IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib><gIBSCBS><vBC>1500.50</vBC><gIBSUF><pIBSUF>0.10</pIBSUF><vIBSUF>1.50</vIBSUF></gIBSUF>' +
        '<gIBSMun><pIBSMun>0.00</pIBSMun><vIBSMun>0.00</vIBSMun></gIBSMun><vIBS>1.50</vIBS><gCBS><pCBS>0.90</pCBS><vCBS>13.50</vCBS></gCBS></gIBSCBS></IBSCBS>',
    );
    expect(await valido(daRegra.xml)).toEqual({ valid: true, errors: [] });

    // The draft's own wins.
    const proprio = { cst: '200', cclass_trib: '200001', aliquota_ibs_uf: 17.7, aliquota_ibs_mun: 0.0125, aliquota_cbs: 8.8 };
    const doRascunho = (await previa(c, await create(c, { ...paraPr, impostos: { ibs_cbs: proprio } }))).body.data;
    expect(doRascunho.xml).toContain('<IBSCBS><CST>200</CST><cClassTrib>200001</cClassTrib>');
    expect(doRascunho.xml).toContain('<vIBS>265.78</vIBS><gCBS><pCBS>8.80</pCBS><vCBS>132.04</vCBS></gCBS>');
    expect(await valido(doRascunho.xml)).toEqual({ valid: true, errors: [] });

    // Neither: no group (the SP→RJ rule has no IBS/CBS).
    expect((await previa(c, await create(c, draft()))).body.data.xml).not.toContain('IBSCBS');
  });
});
