import { startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { emissora } from '../support/emissora';

describe('GET /fiscal/status, /fiscal/catalogos, /fiscal/painel', () => {
  let app: TestApp;
  let c: TestCarrier;
  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier({ scopes: ['fiscal', 'operacao'] });
  });
  afterAll(() => app?.close());

  it('status lists what stands between the carrier and issuing', async () => {
    const res = await c.call('GET', '/v1/fiscal/status');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      disponivel: false,
      ambiente: 'homologacao',
      jornada_fiscal: { cadastro_concluido: true, producao_liberada: false },
      certificado: { presente: false, valido: false },
      configuracao: { completa: false },
    });
    expect(res.body.data.pendencias).toEqual(expect.arrayContaining([expect.stringMatching(/^certificado/), 'configuracao.rntrc']));
    // Without an address the company has no UF, so no authorizer yet.
    expect(res.body.data.autoridade).toEqual({ tipo: 'simulada', uf: null, cte: null, mdfe: null });
  });

  it("status names the company's authorizers and their service status (the sandbox's authority answers 107)", async () => {
    const e = await emissora(app);
    const res = await e.call('GET', '/v1/fiscal/status');
    expect(res.status).toBe(200);
    const situacao = { situacao: 'em_operacao', cstat: 107, motivo: 'Serviço em Operação', verificado_em: expect.any(String) };
    expect(res.body.data.autoridade).toEqual({
      tipo: 'simulada',
      uf: 'SP',
      cte: { modelo: 'cte', autorizador: 'SP', ...situacao },
      mdfe: { modelo: 'mdfe', autorizador: 'SVRS', ...situacao },
    });
  });

  it('catalogos has the 27 UFs with IBGE codes, service types, takers, CFOPs and ICMS situations', async () => {
    const res = await c.call('GET', '/v1/fiscal/catalogos');
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.ufs).toHaveLength(27);
    expect(d.ufs).toContainEqual({ sigla: 'SP', codigo_ibge: '35', nome: 'São Paulo' });
    expect(d.tipos_servico.map((t: { codigo: number }) => t.codigo)).toEqual([0, 1, 2, 3, 4]);
    expect(d.tomadores.map((t: { codigo: number }) => t.codigo)).toEqual([0, 1, 2, 3, 4]);
    expect(d.cfops.map((t: { codigo: string }) => t.codigo)).toEqual(expect.arrayContaining(['5360', '6360', '5932', '6932']));
    expect(d.situacoes_icms.map((t: { codigo: string }) => t.codigo)).toEqual(['00', '20', '40', '41', '51', '60', '90']);
  });

  it('painel counts from the read models, and follows new activity', async () => {
    const before = (await c.call('GET', '/v1/fiscal/painel')).body.data;
    expect(before).toMatchObject({
      certificado: { presente: false, dias_para_expirar: null },
      credenciais_ativas: 1,
      configuracao: { completa: false },
    });
    await c.call('PUT', '/v1/fiscal/configuracao', { rntrc: '87654321' });
    const after = (await c.call('GET', '/v1/fiscal/painel')).body.data;
    expect(after.eventos_registrados).toBe(before.eventos_registrados + 1);
    expect(after.configuracao.pendencias).not.toContain('rntrc');
    expect(after.ultima_atividade).not.toBeNull();
  });
});
