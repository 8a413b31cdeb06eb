import { expectError, startTestApp, type TestApp, type TestCarrier } from '../support/app';

const PATH = '/v1/fiscal/regras-tributacao';
const ibsCbs = (aliquota_ibs_uf: number, aliquota_ibs_mun: number, aliquota_cbs: number, extra: Record<string, unknown> = {}) => ({
  cst: '000',
  cclass_trib: '000001',
  aliquota_ibs_uf,
  aliquota_ibs_mun,
  aliquota_cbs,
  ...extra,
});

/**
 * Issue 29, point 3: a rule whose IBS/CBS rates the authority rejects for a CT-e emitted now (NT 2025.001 v1.11a,
 * 316/321/326; the 2026 test year takes IBS UF 0.1%, IBS Mun 0%, CBS 0.9%) is refused before anything is built or sent.
 */
describe('/fiscal/regras-tributacao: rates the authority rejects', () => {
  let app: TestApp;
  let c: TestCarrier;

  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier();
  });
  afterAll(() => app?.close());

  it('422 aliquota_rejeitada_autoridade naming the rule, with the cStat and the NT, for a full-year IBS rate', async () => {
    const res = await c.call('POST', PATH, {
      uf_origem: 'SP',
      uf_destino: 'MG',
      icms: { cst: '00', aliquota: 12 },
      ibs_cbs: ibsCbs(17.7, 0, 0.9),
    });
    const body = expectError(res, 422, 'aliquota_rejeitada_autoridade');
    expect(body.error.message).toContain('SP → MG');
    expect(body.error.details).toMatchObject({ cStat: '316', xMotivo: 'Rejeição: Alíquota do IBS da UF inválida' });
    expect(body.error.details.fonte).toContain('NT 2025.001');
    expect((await c.call('GET', PATH)).body.meta.total).toBe(0);
  });

  it('201 for the test-year rates, then 422 on a PUT to another CBS rate (326), the rule unchanged', async () => {
    const criada = await c.call('POST', PATH, {
      uf_origem: 'SP',
      uf_destino: 'RJ',
      icms: { cst: '00', aliquota: 12 },
      ibs_cbs: ibsCbs(0.1, 0, 0.9),
    });
    expect(criada.status).toBe(201);
    const id = criada.body.data.id;
    const res = await c.call('PUT', `${PATH}/${id}`, {
      uf_origem: 'SP',
      uf_destino: 'RJ',
      icms: { cst: '00', aliquota: 12 },
      ibs_cbs: ibsCbs(0.1, 0, 8.8),
    });
    const body = expectError(res, 422, 'aliquota_rejeitada_autoridade');
    expect(body.error.details).toMatchObject({ regra_id: id, cStat: '326' });
    expect(body.error.message).toContain(`rule ${id}`);
    expect((await c.call('GET', `${PATH}/${id}`)).body.data.ibs_cbs.aliquota_cbs).toBe(0.9);
  });

  it('CBS at 0 within the ZFM/ALC UFs only with the SUFRAMA registration (400 without it), shown back', async () => {
    const sem = await c.call('POST', PATH, {
      uf_origem: 'AM',
      uf_destino: 'AM',
      icms: { cst: '00', aliquota: 12 },
      ibs_cbs: ibsCbs(0.1, 0, 0),
    });
    expect(expectError(sem, 400, 'validacao').error.details.fields.map((f: { field: string }) => f.field)).toEqual([
      'ibs_cbs.inscricao_suframa',
    ]);
    const com = await c.call('POST', PATH, {
      uf_origem: 'AM',
      uf_destino: 'AM',
      icms: { cst: '00', aliquota: 12 },
      ibs_cbs: ibsCbs(0.1, 0, 0, { inscricao_suframa: '200123456' }),
    });
    expect(com.status).toBe(201);
    expect(com.body.data.ibs_cbs).toEqual(ibsCbs(0.1, 0, 0, { inscricao_suframa: '200123456' }));
    const fora = await c.call('POST', PATH, {
      uf_origem: 'SP',
      uf_destino: 'PR',
      icms: { cst: '00', aliquota: 12 },
      ibs_cbs: ibsCbs(0.1, 0, 0),
    });
    expect(expectError(fora, 422, 'aliquota_rejeitada_autoridade').error.details.cStat).toBe('326');
  });
});
