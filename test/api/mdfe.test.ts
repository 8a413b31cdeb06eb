import { FiscalSchemas, pdfPagesText } from '@frete/documents';
import { isValidAccessKey } from '@frete/domain';
import { AUTORIDADES, startTestApp, expectError, type ApiResponse, type TestApp, type TestCarrier } from '../support/app';
import { cteAutorizado as autorizadoDe, emissora, pollUntil, rascunhoEmitivel } from '../support/emissora';
import { expectEventIndependentlyValid, expectIndependentlyValid } from '../support/xmlsec';
import { makeA1 } from '../support/certificates';
import { GRUPOS_LOTACAO } from '../support/mdfe-lotacao';
import { MOTORISTA, prontaParaMdfe } from '../support/mdfe-frota';

const TEST_CA = makeA1({ cnpj: '11222333000181', razao: 'CA', password: 'x', cnpjIn: 'otherName' }).caCertificatePem;

const CPF_1 = MOTORISTA.cpf;
const CPF_2 = '11144477735';
const CPF_3 = '12345678909';

describe.each(AUTORIDADES)('MDF-e: /v1/fiscal/mdfe (authority: %s)', (autoridade) => {
  let app: TestApp;
  let c: TestCarrier;
  const schemas = new FiscalSchemas();

  const poll = (path: string, done?: (r: ApiResponse) => boolean) => pollUntil(c, path, done);
  const cteAutorizado = () => autorizadoDe(c);
  const body = (ctes: string[], extra: Record<string, unknown> = {}) => ({
    ctes,
    veiculo: { placa: 'ABC-1D23' },
    motoristas: [{ cpf: '529.982.247-25' }],
    ...GRUPOS_LOTACAO,
    ...extra,
  });
  const authorized = async (observacoes?: string) => {
    const cte = await cteAutorizado();
    const created = await c.call('POST', '/v1/fiscal/mdfe', body([cte.id], observacoes ? { observacoes } : {}));
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const issued = await c.call('POST', `/v1/fiscal/mdfe/${id}/emissao`);
    expect(issued.status).toBe(202);
    const done = await poll(`/v1/fiscal/mdfe/${id}/consulta`);
    return { id, cte, done };
  };

  /** Every registered event's procEventoMDFe, checked by xmllint (event and detail schemas) and xmlsec1. */
  const expectRegisteredIndependentlyValid = async (id: string, count: number) => {
    const procs = (await app.running.platform.store.readStream(`mdfe-${id}`)).filter((e) => e.type === 'mdfe.evento_registrado');
    expect(procs).toHaveLength(count);
    for (const e of procs) {
      const proc = (await app.running.platform.documents.get((e.data as { sha256: string }).sha256))!.content.toString('utf8');
      expectEventIndependentlyValid(proc, { family: 'mdfe', trustedPem: TEST_CA });
    }
  };

  beforeAll(async () => {
    app = await startTestApp({}, { autoridade });
    c = await emissora(app);
    await prontaParaMdfe(c, 7);
    expect(
      (
        await c.call('POST', '/v1/fiscal/veiculos', {
          placa: 'REB1A23',
          tipo: 'reboque',
          tara_kg: 5000,
          capacidade_kg: 30000,
          tipo_carroceria: '02',
          uf: 'SP',
        })
      ).status,
    ).toBe(201);
    expect((await c.call('POST', '/v1/fiscal/veiculos', { placa: 'INC0M01' })).status).toBe(201);
    expect((await c.call('POST', '/v1/fiscal/motoristas', { cpf: CPF_2, nome: 'MARIA CONDUTORA' })).status).toBe(201);
  });
  afterAll(async () => {
    await schemas.close();
    await app?.close();
  });

  it('creates from an authorized CT-e, issues, authorizes; the mdfeProc validates; DAMDFE; close; list', async () => {
    const cte = await cteAutorizado();
    const created = await c.call('POST', '/v1/fiscal/mdfe', body([cte.id], { veiculo: { placa: 'ABC1D23', reboques: ['REB-1A23'] } }));
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(created.body.data).toMatchObject({
      situacao: 'rascunho',
      access_key: null,
      uf_inicio: 'SP',
      uf_fim: 'RJ',
      carregamento: [{ codigo_ibge: '3509502', uf: 'SP' }],
      ctes: [{ id: cte.id, access_key: cte.chave, descarga: { codigo_ibge: '3304557' } }],
      veiculo: { placa: 'ABC1D23', tara_kg: 8000 },
      reboques: [{ placa: 'REB1A23' }],
      motoristas: [{ cpf: CPF_1, nome: 'JOAO MOTORISTA' }],
      totais: { qtd_cte: 1, valor_carga: 25000, peso_kg: 1000 },
    });
    expectError(await c.call('GET', `/v1/fiscal/mdfe/${id}/damdfe`), 422, 'mdfe_nao_autorizado');
    expectError(await c.call('POST', `/v1/fiscal/mdfe/${id}/consulta`), 422, 'mdfe_nao_editavel');
    expectError(
      await c.call('POST', `/v1/fiscal/mdfe/${id}/eventos/encerramento`, { municipio: 'Rio de Janeiro', uf: 'RJ' }),
      422,
      'mdfe_nao_autorizado',
    );

    const issued = await c.call('POST', `/v1/fiscal/mdfe/${id}/emissao`);
    expect(issued.status).toBe(202);
    expect(issued.body.data).toMatchObject({ id, consulta: `/v1/fiscal/mdfe/${id}/consulta` });
    // The processor may already have finished when the 202 is written: it shows the state at that moment.
    expect(['em_processamento', 'autorizado']).toContain(issued.body.data.situacao);
    const done = await poll(`/v1/fiscal/mdfe/${id}/consulta`);
    expect(done.body.data).toMatchObject({ situacao: 'autorizado', conclusivo: true, serie: 7, numero: 1, retorno: { cstat: 100 } });
    const chave = done.body.data.access_key as string;
    expect(isValidAccessKey(chave)).toBe(true);
    expect(chave.slice(20, 22)).toBe('58');
    expectError(await c.call('POST', `/v1/fiscal/mdfe/${id}/emissao`), 422, 'mdfe_nao_editavel');

    const xml = await fetch(`${app.url}/v1/fiscal/mdfe/${id}/xml`, { headers: { authorization: `Bearer ${c.apiKey}` } });
    expect(xml.status).toBe(200);
    const proc = Buffer.from(await xml.arrayBuffer()).toString('utf8');
    expect((await schemas.validate(proc, 'procMDFe_v3.00.xsd')).errors).toEqual([]);
    expectIndependentlyValid(proc, { schema: 'mdfe-3.00/procMDFe_v3.00.xsd', element: 'infMDFe', trustedPem: TEST_CA });
    expect(proc).toContain(`<chCTe>${cte.chave}</chCTe>`);
    expect(proc).toContain('<tpEmit>1</tpEmit>');
    expect(proc).toContain('<RNTRC>12345678</RNTRC>');
    expect(proc).toContain(`<qrCodMDFe>https://dfe-portal.svrs.rs.gov.br/mdfe/qrCode?chMDFe=${chave}&amp;tpAmb=2</qrCodMDFe>`);

    const pdf = await fetch(`${app.url}/v1/fiscal/mdfe/${id}/damdfe`, { headers: { authorization: `Bearer ${c.apiKey}` } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = (await pdfPagesText(Buffer.from(await pdf.arrayBuffer()))).join(' ').replace(/\s+/g, ' ');
    // The DAMDFE prints access keys in groups of 4 digits.
    const grouped = (key: string) => key.replace(/(.{4})(?=.)/g, '$1 ');
    expect(text).toContain(grouped(chave));
    expect(text).toContain('SEM VALOR FISCAL');
    expect(text).toContain('ABC1D23');
    expect(text).toContain(grouped(cte.chave));

    // The CT-e cannot go into a second MDF-e while this one is in force.
    expectError(await c.call('POST', '/v1/fiscal/mdfe', body([cte.id])), 422, 'regra_de_negocio');

    const enc = await c.call('POST', `/v1/fiscal/mdfe/${id}/eventos/encerramento`, {
      municipio: 'rio de janeiro',
      uf: 'RJ',
      data: '2026-01-10',
    });
    expect(enc.status).toBe(200);
    expect(enc.body.data).toMatchObject({
      mdfe: { id, situacao: 'encerrado' },
      evento: { tipo: 'encerramento', tp_evento: '110112', situacao: 'registrado', protocolo: { cstat: 135 } },
    });
    expectError(await c.call('POST', `/v1/fiscal/mdfe/${id}/eventos/condutor`, { cpf: CPF_2 }), 422, 'mdfe_nao_autorizado');
    await expectRegisteredIndependentlyValid(id, 1);

    const list = await c.call('GET', '/v1/fiscal/mdfe?status=encerrado&per_page=5');
    expect(list.status).toBe(200);
    expect(list.body.meta).toMatchObject({ page: 1, per_page: 5 });
    expect(list.body.data.map((m: { id: string }) => m.id)).toContain(id);
    expectError(await c.call('GET', '/v1/fiscal/mdfe?status=outro'), 400, 'validacao');
    expectError(await c.call('GET', '/v1/fiscal/mdfe?per_page=101'), 400, 'validacao');
  });

  it('adds a driver (registered or by name), then cancels', async () => {
    const { id, done, cte } = await authorized();
    expect(done.body.data.situacao).toBe('autorizado');
    // A CT-e on an authorized MDF-e cannot be cancelled (MOC 528), refused before anything is sent.
    const blocked = expectError(
      await c.call('POST', `/v1/fiscal/cte/${cte.id}/eventos/cancelamento`, { justificativa: 'CANCELAMENTO DO FRETE' }),
      422,
      'regra_de_negocio',
    );
    expect(blocked.error.details).toMatchObject({ cstat: 528, mdfe: [id] });
    const add = await c.call('POST', `/v1/fiscal/mdfe/${id}/eventos/condutor`, { cpf: CPF_2 });
    expect(add.status).toBe(200);
    expect(add.body.data.evento).toMatchObject({ tipo: 'condutor', tp_evento: '110114', n_seq: 1, situacao: 'registrado' });
    const add2 = await c.call('POST', `/v1/fiscal/mdfe/${id}/eventos/condutor`, { cpf: CPF_3, nome: 'TERCEIRO CONDUTOR' });
    expect(add2.status).toBe(200);
    expect(add2.body.data.evento.n_seq).toBe(2);
    expectError(await c.call('POST', `/v1/fiscal/mdfe/${id}/eventos/condutor`, { cpf: CPF_2 }), 422, 'regra_de_negocio');
    expectError(await c.call('POST', `/v1/fiscal/mdfe/${id}/eventos/condutor`, { cpf: '98765432100' }), 422, 'motorista_nao_encontrado');
    expectError(await c.call('POST', `/v1/fiscal/mdfe/${id}/eventos/condutor`, { cpf: '11111111112', nome: 'X Y' }), 400, 'validacao');
    const one = await c.call('GET', `/v1/fiscal/mdfe/${id}`);
    expect(one.body.data.motoristas.map((m: { cpf: string }) => m.cpf)).toEqual([CPF_1, CPF_2, CPF_3]);

    expectError(await c.call('POST', `/v1/fiscal/mdfe/${id}/eventos/cancelamento`, { justificativa: 'curta' }), 400, 'validacao');
    const refused = expectError(
      await c.call('POST', `/v1/fiscal/mdfe/${id}/eventos/cancelamento`, { justificativa: 'SIMULAR:REJEICAO:222 ERRO NA EMISSAO' }),
      422,
      'regra_de_negocio',
    );
    expect(refused.error.details).toMatchObject({ cstat: 222 });
    const canc = await c.call('POST', `/v1/fiscal/mdfe/${id}/eventos/cancelamento`, { justificativa: 'MDF-E EMITIDO POR ENGANO' });
    expect(canc.status).toBe(200);
    expect(canc.body.data).toMatchObject({
      mdfe: { situacao: 'cancelado' },
      evento: { tipo: 'cancelamento', tp_evento: '110111', situacao: 'registrado' },
    });
    expect((await c.call('GET', `/v1/fiscal/mdfe/${id}`)).body.data.situacao).toBe('cancelado');
    await expectRegisteredIndependentlyValid(id, 3);
    // With its manifest cancelled, the CT-e can be cancelled.
    const cteCanc = await c.call('POST', `/v1/fiscal/cte/${cte.id}/eventos/cancelamento`, { justificativa: 'CANCELAMENTO DO FRETE' });
    expect(cteCanc.status).toBe(200);
    expect(cteCanc.body.data.cte.situacao).toBe('cancelado');
  });

  it('pending event: 202 until the authority registers it; pending issue: 202 then authorized', async () => {
    const { id, done } = await authorized('SIMULAR:PENDENTE:1');
    expect(done.body.data.situacao).toBe('autorizado');
    const first = await c.call('POST', `/v1/fiscal/mdfe/${id}/eventos/cancelamento`, { justificativa: 'SIMULAR:EVENTO-PENDENTE:1 ENGANO' });
    expect(first.status).toBe(202);
    expect(first.body.data.evento).toMatchObject({ situacao: 'pendente' });
    let r = first;
    for (let i = 0; i < 5 && r.status === 202; i++)
      r = await c.call('POST', `/v1/fiscal/mdfe/${id}/eventos/cancelamento`, { justificativa: 'QUALQUER OUTRO TEXTO' });
    expect(r.status).toBe(200);
    expect(r.body.data.mdfe.situacao).toBe('cancelado');
  });

  it('an authority rejection of the issue: rejeitado with cStat', async () => {
    const { done } = await authorized('SIMULAR:REJEICAO:611');
    expect(done.body.data).toMatchObject({ situacao: 'rejeitado', conclusivo: true, retorno: { cstat: 611 } });
  });

  it('4xx: validation, unknown CT-e, vehicle, driver; incomplete vehicle; another company is 404', async () => {
    const cte = await cteAutorizado();
    expectError(await c.call('POST', '/v1/fiscal/mdfe', { ...body([cte.id]), motoristas: [] }), 400, 'validacao');
    expectError(await c.call('POST', '/v1/fiscal/mdfe', { ...body([]) }), 400, 'validacao');
    const v = expectError(await c.call('POST', '/v1/fiscal/mdfe', body([cte.id], { percurso: ['SP'] })), 400, 'validacao');
    expect(v.error.details.fields[0].field).toBe('percurso.0');
    expectError(
      await c.call('POST', '/v1/fiscal/mdfe', body([cte.id], { carregamento: [{ municipio: 'Curitiba', uf: 'PR' }] })),
      400,
      'validacao',
    );
    expectError(await c.call('POST', '/v1/fiscal/mdfe', body([cte.id], { motoristas: [{ cpf: '11111111112' }] })), 400, 'validacao');
    const draft = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel());
    const nao = expectError(await c.call('POST', '/v1/fiscal/mdfe', body([draft.body.data.id])), 422, 'cte_nao_autorizado');
    expect(nao.error.details.fields[0].field).toBe('ctes.0');
    expectError(await c.call('POST', '/v1/fiscal/mdfe', body(['00000000-0000-4000-8000-000000000000'])), 422, 'cte_nao_autorizado');
    expectError(await c.call('POST', '/v1/fiscal/mdfe', body([cte.id], { veiculo: { placa: 'XYZ9Z99' } })), 422, 'veiculo_nao_encontrado');
    expectError(await c.call('POST', '/v1/fiscal/mdfe', body([cte.id], { veiculo: { placa: 'INC0M01' } })), 422, 'veiculo_incompleto');
    expectError(await c.call('POST', '/v1/fiscal/mdfe', body([cte.id], { veiculo: { placa: 'REB1A23' } })), 422, 'veiculo_incompleto');
    expectError(await c.call('POST', '/v1/fiscal/mdfe', body([cte.id], { motoristas: [{ cpf: CPF_3 }] })), 422, 'motorista_nao_encontrado');

    const created = await c.call('POST', '/v1/fiscal/mdfe', body([cte.id]));
    const id = created.body.data.id as string;
    const other = await app.carrier();
    expectError(await other.call('GET', `/v1/fiscal/mdfe/${id}`), 404, 'nao_encontrado');
    expectError(await other.call('POST', `/v1/fiscal/mdfe/${id}/emissao`), 404, 'nao_encontrado');
    expectError(await other.call('POST', `/v1/fiscal/mdfe/${id}/consulta`), 404, 'nao_encontrado');
    expectError(await other.call('GET', `/v1/fiscal/mdfe/${id}/xml`), 404, 'nao_encontrado');
    expectError(await other.call('GET', `/v1/fiscal/mdfe/${id}/damdfe`), 404, 'nao_encontrado');
    expectError(
      await other.call('POST', `/v1/fiscal/mdfe/${id}/eventos/cancelamento`, { justificativa: 'MDF-E EMITIDO POR ENGANO' }),
      404,
      'nao_encontrado',
    );
    expectError(await other.call('POST', '/v1/fiscal/mdfe', body([cte.id])), 422, 'cte_nao_autorizado');
    expectError(await c.call('GET', `/v1/fiscal/mdfe/${id}/xml`), 404, 'nao_encontrado');
    expectError(await c.call('GET', '/v1/fiscal/mdfe/nao-e-uuid'), 404, 'nao_encontrado');
  });
});
