import { startTestApp, expectError, type TestApp, type TestCarrier } from '../support/app';
import { cteAutorizado, emissora, pollUntil } from '../support/emissora';
import { GRUPOS_LOTACAO } from '../support/mdfe-lotacao';
import { prontaParaMdfe } from '../support/mdfe-frota';

/**
 * Issue 29, point 3: MDF-e NT 2025.001 v1.03, rules F55a/F55b/F113a/F113b (301–304). `POST /fiscal/mdfe` refuses
 * what the authority would reject, naming the rule; with the groups the MDF-e is authorized and its XML carries them.
 */
describe('MDF-e: the ANTT rules of NT 2025.001 v1.03 (301–304)', () => {
  let app: TestApp;
  let c: TestCarrier;
  const base = (ctes: string[], extra: Record<string, unknown> = {}) => ({
    ctes,
    veiculo: { placa: 'ABC1D23' },
    motoristas: [{ cpf: '52998224725' }],
    ...extra,
  });

  beforeAll(async () => {
    app = await startTestApp();
    c = await emissora(app);
    await prontaParaMdfe(c, 7);
  });
  afterAll(() => app?.close());

  it('one CT-e without NCM nor payment: 422 mdfe_regra_antt naming 301 (F55a), both rules in the details', async () => {
    const cte = await cteAutorizado(c);
    const body = expectError(await c.call('POST', '/v1/fiscal/mdfe', base([cte.id])), 422, 'mdfe_regra_antt');
    expect(body.error.message).toContain('301 (F55a)');
    expect(body.error.details).toMatchObject({
      cStat: '301',
      xMotivo: 'Rejeição: O NCM do produto predominante da carga lotação deve ser informado',
      fields: [{ field: 'produto_predominante.ncm' }, { field: 'pagamentos' }],
    });
    expect(body.error.details.rejeicoes.map((r: { cStat: string }) => r.cStat)).toEqual(['301', '302']);
    expect(body.error.details.fonte).toContain('NT 2025.001');
  });

  it('one CT-e with the NCM but no payment: 302 (F55b)', async () => {
    const cte = await cteAutorizado(c);
    const res = await c.call('POST', '/v1/fiscal/mdfe', base([cte.id], { produto_predominante: GRUPOS_LOTACAO.produto_predominante }));
    expect(expectError(res, 422, 'mdfe_regra_antt').error.details.cStat).toBe('302');
  });

  it('a TAC or equiparado without payment is 303, without CIOT 304', async () => {
    const [a, b] = [await cteAutorizado(c), await cteAutorizado(c)];
    const semPagamento = await c.call('POST', '/v1/fiscal/mdfe', base([a.id, b.id], { rntrc_tac: true }));
    const d = expectError(semPagamento, 422, 'mdfe_regra_antt').error.details;
    expect(d.rejeicoes.map((r: { cStat: string }) => r.cStat)).toEqual(['303', '304']);
    const semCiot = await c.call('POST', '/v1/fiscal/mdfe', base([a.id, b.id], { rntrc_tac: true, pagamentos: GRUPOS_LOTACAO.pagamentos }));
    expect(expectError(semCiot, 422, 'mdfe_regra_antt').error.details).toMatchObject({
      cStat: '304',
      xMotivo: 'Rejeição: CIOT deve ser informado para TAC e equiparado a TAC',
    });
  });

  it('invalid group data is 400 validacao naming each field', async () => {
    const cte = await cteAutorizado(c);
    const res = await c.call(
      'POST',
      '/v1/fiscal/mdfe',
      base([cte.id], {
        ...GRUPOS_LOTACAO,
        pagamentos: [{ ...GRUPOS_LOTACAO.pagamentos[0], responsavel: { documento: '11111111111' }, valor_contrato: 10.001 }],
      }),
    );
    expect(expectError(res, 400, 'validacao').error.details.fields.map((f: { field: string }) => f.field)).toEqual([
      'pagamentos.0.responsavel.documento',
      'pagamentos.0.valor_contrato',
    ]);
    const ncm = await c.call(
      'POST',
      '/v1/fiscal/mdfe',
      base([cte.id], { ...GRUPOS_LOTACAO, produto_predominante: { tipo_carga: '05', descricao: 'X', ncm: '8708' } }),
    );
    expectError(ncm, 400, 'validacao');
  });

  it('a TAC with every group is created and authorized; the XML carries prodPred, infCIOT and infPag with infBanc', async () => {
    const cte = await cteAutorizado(c);
    const created = await c.call(
      'POST',
      '/v1/fiscal/mdfe',
      base([cte.id], { ...GRUPOS_LOTACAO, rntrc_tac: true, ciot: [{ codigo: '123456789012', responsavel: '529.982.247-25' }] }),
    );
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      produto_predominante: { tipo_carga: '05', descricao: 'PECAS AUTOMOTIVAS', ncm: '87089990' },
      pagamentos: [
        {
          responsavel: { nome: 'EMBARCADORA EXEMPLO SA', documento: '45997418000153' },
          componentes: [{ tipo: '04', valor: 1500.5, descricao: null }],
          valor_contrato: 1500.5,
          a_prazo: false,
          valor_adiantamento: null,
          parcelas: [],
          banco: { codigo_banco: '001', codigo_agencia: '1234' },
        },
      ],
      ciot: [{ codigo: '123456789012', responsavel: '52998224725' }],
      rntrc_tac: true,
    });
    const id = created.body.data.id as string;
    expect((await c.call('POST', `/v1/fiscal/mdfe/${id}/emissao`)).status).toBe(202);
    const done = await pollUntil(c, `/v1/fiscal/mdfe/${id}/consulta`);
    expect(done.body.data.situacao).toBe('autorizado');
    const res = await fetch(`${app.url}/v1/fiscal/mdfe/${id}/xml`, { headers: { authorization: `Bearer ${c.apiKey}` } });
    expect(res.status).toBe(200);
    const xml = { text: await res.text() };
    expect(xml.text).toMatch(/<infCIOT><CIOT>123456789012<\/CIOT><CPF>52998224725<\/CPF><\/infCIOT><infPag>/);
    expect(xml.text).toContain('<infBanc><codBanco>001</codBanco><codAgencia>1234</codAgencia></infBanc>');
    expect(xml.text).toContain('<prodPred><tpCarga>05</tpCarga><xProd>PECAS AUTOMOTIVAS</xProd><NCM>87089990</NCM></prodPred>');
  });
});
