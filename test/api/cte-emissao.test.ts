import { createHash } from 'node:crypto';
import { isValidAccessKey, readCte } from '@frete/domain';
import { AUTORIDADES, startTestApp, expectError, type ApiResponse, type TestApp, type TestCarrier } from '../support/app';
import { emissora, pollUntil, rascunhoEmitivel } from '../support/emissora';
import { makeA1 } from '../support/certificates';
import { expectIndependentlyValid, requireTool, XMLSEC1, xmlsecVerify } from '../support/xmlsec';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe.each(AUTORIDADES)('CT-e issue: POST .../emissao and .../consulta (authority: %s)', (autoridade) => {
  let app: TestApp;
  let c: TestCarrier;
  /** The service's own validator: its schemas are the ones it checks with. */
  const schemas = () => app.running.application.schemas;

  beforeAll(async () => {
    app = await startTestApp({}, { autoridade });
    c = await emissora(app);
  });
  afterAll(() => app?.close());

  const draft = async (observacoes?: string) => {
    const res = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel(observacoes));
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  const until = (id: string, done?: (r: ApiResponse) => boolean) => pollUntil(c, `/v1/fiscal/cte/${id}/consulta`, done);

  it('202 CteIssueEnvelope, then 200 autorizado: the archived cteProc is schema-valid and read back, the flow opens', async () => {
    const id = await draft();
    const res = await c.call('POST', `/v1/fiscal/cte/${id}/emissao`);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ id, consulta: `/v1/fiscal/cte/${id}/consulta` });
    // The processor may already have finished when the 202 is written: it shows the state at that moment.
    expect(['em_processamento', 'autorizado']).toContain(res.body.data.situacao);
    const done = await until(id);
    expect(done.body.data).toMatchObject({ id, situacao: 'autorizado', conclusivo: true, serie: 1, numero: 1, retorno: { cstat: 100 } });
    expect(isValidAccessKey(done.body.data.access_key)).toBe(true);
    // Through the adapter, the document went to the emitter's authorizer (SP) over SOAP, not to the rules in process.
    if (autoridade === 'sefaz') expect(app.autoridadeLocal!.atendidos()).toMatchObject({ 'SP/CTeRecepcaoSincV4': expect.any(Number) });

    const xml = await fetch(`${app.url}/v1/fiscal/cte/${id}/xml`, { headers: { authorization: `Bearer ${c.apiKey}` } });
    expect(xml.status).toBe(200);
    const proc = Buffer.from(await xml.arrayBuffer()).toString('utf8');
    expect((await schemas().validate(proc, 'procCTe_v4.00.xsd')).errors).toEqual([]);
    // Independent checkers: libxml2's xmllint for the schema, xmlsec1 (not xml-crypto, which signed) for the signature.
    const ca = makeA1({ cnpj: c.cnpj, razao: 'CA', password: 'x', cnpjIn: 'otherName' }).caCertificatePem;
    expectIndependentlyValid(proc, { schema: 'cte-4.00/procCTe_v4.00.xsd', element: 'infCte', trustedPem: ca });
    if (requireTool(XMLSEC1, 'xmlsec1', 'xmlsec1')) {
      expect(xmlsecVerify(proc.replace('PECAS', 'PECAZ'), { element: 'infCte', trustedPem: ca }).ok).toBe(false);
    }
    const lido = readCte(proc);
    expect(lido).toMatchObject({
      chave: done.body.data.access_key,
      numero: 1,
      serie: 1,
      ambiente: 'homologacao',
      valor_prestacao_centavos: 150050,
      protocolo: { status: 100 },
    });
    const one = await c.call('GET', `/v1/fiscal/cte/${id}`);
    expect(one.body.data).toMatchObject({
      situacao: 'autorizado',
      access_key: lido.chave,
      documento: { service_value: 1500.5, xml: { sha256: sha(proc) } },
    });
    const flow = await app.db.pool.query('SELECT valor_centavos FROM rm.recebiveis WHERE cte_id = $1', [id]);
    expect(flow.rows).toEqual([{ valor_centavos: '150050' }]);
    expect((await fetch(`${app.url}/v1/fiscal/cte/${id}/dacte`, { headers: { authorization: `Bearer ${c.apiKey}` } })).status).toBe(200);
    // Asking to issue again issues nothing more.
    expectError(await c.call('POST', `/v1/fiscal/cte/${id}/emissao`), 422, 'cte_nao_editavel');
    expectError(await c.call('PUT', `/v1/fiscal/cte/${id}`, rascunhoEmitivel()), 422, 'cte_nao_editavel');
  });

  it('numbers a series with no gap and no duplicate under concurrent issues', async () => {
    const ids = await Promise.all([1, 2, 3, 4].map(() => draft()));
    await Promise.all(ids.map((id) => c.call('POST', `/v1/fiscal/cte/${id}/emissao`)));
    const results = await Promise.all(ids.map((id) => until(id)));
    const numbers = results.map((r) => r.body.data.numero).sort((a: number, b: number) => a - b);
    expect(numbers).toEqual([2, 3, 4, 5]);
    expect(new Set(results.map((r) => r.body.data.access_key)).size).toBe(4);
  });

  it('a timeout never issues twice: consulta recovers the authorization that happened during it', async () => {
    const id = await draft('SIMULAR:TIMEOUT');
    await c.call('POST', `/v1/fiscal/cte/${id}/emissao`);
    const done = await until(id);
    expect(done.body.data).toMatchObject({ situacao: 'autorizado', retorno: { cstat: 100 } });
    const events = (await app.running.platform.store.readStream(`cte-${id}`)).map((e) => e.type);
    expect(events.filter((t) => t === 'cte.xml_assinado')).toHaveLength(1);
    expect(events).toContain('cte.resultado_pendente');
  });

  it('pending answers are 202 until the authority decides', async () => {
    const id = await draft('SIMULAR:PENDENTE:2');
    await c.call('POST', `/v1/fiscal/cte/${id}/emissao`);
    const pending = await until(id, (r) => r.status === 202 && r.body.data.access_key !== null);
    expect(pending.body.data).toMatchObject({ situacao: 'em_processamento', conclusivo: false });
    expect((await until(id)).body.data.situacao).toBe('autorizado');
  });

  it('a rejection keeps the number: the corrected draft is issued again with it', async () => {
    const id = await draft('SIMULAR:REJEICAO:531');
    await c.call('POST', `/v1/fiscal/cte/${id}/emissao`);
    const rejected = await until(id);
    expect(rejected.body.data).toMatchObject({ situacao: 'rejeitado', conclusivo: true, access_key: null, retorno: { cstat: 531 } });
    const fixed = await c.call('PUT', `/v1/fiscal/cte/${id}`, rascunhoEmitivel('CORRIGIDO'));
    expect(fixed.body.data.situacao).toBe('rascunho');
    await c.call('POST', `/v1/fiscal/cte/${id}/emissao`);
    const done = await until(id);
    const numeracao = await app.running.platform.store.readStream(`numeracao_cte-${c.companyId}-1`);
    const mine = numeracao.filter((e) => (e.data as { cte_id: string }).cte_id === id);
    expect(mine).toHaveLength(1);
    expect(done.body.data).toMatchObject({ situacao: 'autorizado', numero: (mine[0]!.data as { numero: number }).numero });
  });

  it('refuses a route with no applicable tax rule (422 cte_com_pendencias naming sem_regra_tributacao)', async () => {
    const base = rascunhoEmitivel();
    const res = await c.call('POST', '/v1/fiscal/cte', {
      ...base,
      fim: { municipio: 'Curitiba', uf: 'PR' },
      destinatario: { ...base.destinatario, endereco: { ...base.destinatario.endereco, municipio: 'Curitiba', uf: 'PR', cep: '80010000' } },
    });
    const body = expectError(await c.call('POST', `/v1/fiscal/cte/${res.body.data.id}/emissao`), 422, 'cte_com_pendencias');
    expect(body.error.details.pendencias).toEqual([{ campo: 'impostos.icms', mensagem: expect.stringMatching(/^sem_regra_tributacao/) }]);
  });

  it('422 cte_com_pendencias lists what is missing; 404 for another company; 422 consulta of a draft', async () => {
    const empty = await c.call('POST', '/v1/fiscal/cte', {});
    const body = expectError(await c.call('POST', `/v1/fiscal/cte/${empty.body.data.id}/emissao`), 422, 'cte_com_pendencias');
    expect(body.error.details.pendencias.map((p: { campo: string }) => p.campo)).toEqual(expect.arrayContaining(['inicio', 'fim']));
    expectError(await c.call('POST', `/v1/fiscal/cte/${empty.body.data.id}/consulta`), 422, 'cte_nao_editavel');
    const other = await app.carrier();
    expectError(await other.call('POST', `/v1/fiscal/cte/${empty.body.data.id}/emissao`), 404, 'nao_encontrado');
    expectError(await other.call('POST', `/v1/fiscal/cte/${empty.body.data.id}/consulta`), 404, 'nao_encontrado');
  });
});
