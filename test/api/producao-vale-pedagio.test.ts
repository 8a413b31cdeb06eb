import { randomUUID } from 'node:crypto';
import { execute } from '@frete/application';
import { pdfPagesText } from '@frete/documents';
import { roteiroSimulado } from '@frete/adapters';
import { contaOperacionalDecider, contaOperacionalStream, valePedagioDecider, valePedagioStream, valoresValePedagio } from '@frete/domain';
import { expectError, startTestApp, type TestApp, type TestCarrier } from '../support/app';

const ROTA = { origem: { municipio: 'Campinas', uf: 'SP' }, destino: { municipio: 'Rio de Janeiro', uf: 'RJ' }, categoria: '07' };
const COMPRA = { ...ROTA, placa: 'ABC1D23', tipo: 'TAG' };

/** Ruling 7: in production, while no FVPO and no bank integration are contracted, nothing is simulated; reads still work. */
describe('toll pass and operational account in production without providers', () => {
  let app: TestApp;
  let c: TestCarrier;
  const valeId = randomUUID();

  const streams = async () => {
    const store = app.running.platform.store;
    return [
      ...(await store.readStream(contaOperacionalStream(c.companyId))),
      ...(await store.readStream(valePedagioStream(c.companyId, valeId))),
    ].map((e) => e.type);
  };

  beforeAll(async () => {
    app = await startTestApp({ APP_ENVIRONMENT: 'producao' });
    c = await app.carrier({ scopes: ['operacao'] });
  }, 120_000);
  afterAll(() => app?.close());

  it('routing, calculation, purchase and deposit answer 503 provedor_indisponivel and record nothing', async () => {
    expectError(await c.call('POST', '/v1/vale-pedagio/roteirizacao', ROTA), 503, 'provedor_indisponivel');
    expectError(await c.call('POST', '/v1/vale-pedagio/calculo', ROTA), 503, 'provedor_indisponivel');
    expectError(await c.call('POST', '/v1/vale-pedagio', COMPRA), 503, 'provedor_indisponivel');
    expectError(await c.call('POST', '/v1/vale-pedagio', { ...COMPRA, referencia_externa: 'V-1' }), 503, 'provedor_indisponivel');
    expectError(await c.call('POST', '/v1/conta-operacional/creditos', { valor: 100, referencia: 'DEP-1' }), 503, 'provedor_indisponivel');
    expect(await streams()).toEqual([]);
    // Validation and the gates still come first.
    expectError(await c.call('POST', '/v1/vale-pedagio', { ...COMPRA, placa: 'X' }), 400, 'validacao');
    const sem = await app.carrier({ scopes: ['fiscal'] });
    expectError(await sem.call('POST', '/v1/vale-pedagio/roteirizacao', ROTA), 403, 'escopo_nao_habilitado');
  });

  it("a purchase's cte/mdfe references are checked before the supplier is asked: 404 for none of the company's, 503 for its own", async () => {
    const fiscal = await app.carrier({ scopes: ['fiscal', 'operacao'], fiscalProduction: true });
    const outra = await app.carrier({ scopes: ['fiscal', 'operacao'], fiscalProduction: true });
    const rascunho = async (who: TestCarrier) => {
      const res = await who.call('POST', '/v1/fiscal/cte', { observacoes: 'VIAGEM EM PRODUCAO' });
      expect(res.status).toBe(201);
      return res.body.data.id as string;
    };
    const proprio = await rascunho(fiscal);
    const alheio = await rascunho(outra);
    for (const refs of [{ cte: alheio }, { cte: randomUUID() }, { mdfe: randomUUID() }]) {
      const res = expectError(await fiscal.call('POST', '/v1/vale-pedagio', { ...COMPRA, ...refs }), 404, 'nao_encontrado');
      expect(res.error.details.fields.map((f: { field: string }) => f.field)).toEqual(Object.keys(refs));
    }
    expectError(await fiscal.call('POST', '/v1/vale-pedagio', { ...COMPRA, cte: proprio }), 503, 'provedor_indisponivel');
    const store = app.running.platform.store;
    expect(await store.readStream(contaOperacionalStream(fiscal.companyId))).toEqual([]);
    expect((await fiscal.call('GET', '/v1/vale-pedagio')).body.meta.total).toBe(0);
  });

  it('reads work: an empty account and no toll pass', async () => {
    const conta = await c.call('GET', '/v1/conta-operacional');
    expect(conta.status).toBe(200);
    expect(conta.body).toMatchObject({ environment: 'producao', data: { saldo: 0, quantidade_movimentos: 0 } });
    const extrato = await c.call('GET', '/v1/conta-operacional/extrato');
    expect(extrato.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0, next_cursor: null }, environment: 'producao' });
    expect((await c.call('GET', '/v1/vale-pedagio')).body).toEqual({
      data: [],
      meta: { page: 1, per_page: 20, total: 0, next_cursor: null },
      environment: 'producao',
    });
    expectError(await c.call('GET', `/v1/vale-pedagio/${valeId}`), 404, 'nao_encontrado');
  });

  it('existing data (e.g. recorded before the provider left) is read; passages and cancellation answer 503 and change nothing', async () => {
    // Seed the ledger and a toll pass through the deciders, as a contracted provider's flow would have recorded them.
    const p = app.running.platform;
    const ctx = { companyId: c.companyId, correlationId: 'seed', causationId: null, requestId: null, actor: 'system', now: p.clock() };
    const deps = { store: p.store, readYourWrites: p.readYourWrites };
    const origem = { codigo_ibge: '3509502', municipio: 'Campinas', uf: 'SP' };
    const destino = { codigo_ibge: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ' };
    const roteiro = roteiroSimulado(origem, destino, '07');
    const valores = valoresValePedagio(roteiro.pracas.map((x) => x.tarifa_centavos));
    await execute(
      deps,
      contaOperacionalStream(c.companyId),
      contaOperacionalDecider,
      { type: 'Creditar', company_id: c.companyId, referencia: 'TED-1', valor_centavos: 100_000, origem: 'deposito' },
      ctx,
    );
    await execute(
      deps,
      contaOperacionalStream(c.companyId),
      contaOperacionalDecider,
      {
        type: 'Debitar',
        company_id: c.companyId,
        vale_pedagio_id: valeId,
        valor_pedagio_centavos: valores.valor_pedagio_centavos,
        taxa_centavos: valores.taxa_centavos,
      },
      ctx,
    );
    const emitido = await execute(
      deps,
      valePedagioStream(c.companyId, valeId),
      valePedagioDecider,
      {
        type: 'Emitir',
        dados: {
          company_id: c.companyId,
          vale_pedagio_id: valeId,
          numero: '12345678901234567890',
          referencia_externa: null,
          origem,
          destino,
          categoria: '07',
          eixos: 5,
          placa: 'ABC1D23',
          tipo: 'TAG',
          motorista: null,
          cte: null,
          mdfe: null,
          fornecedor: { cnpj: '11222333000181', nome: 'FVPO CONTRATADA', simulado: false },
          pagador_cnpj: c.cnpj,
          distancia_km: roteiro.distancia_km,
          pracas: roteiro.pracas,
          ...valores,
        },
        documentos: { cte: null, mdfe: null },
      },
      ctx,
    );
    // Recorded by no request, it is owed to no reader: the read models are brought up to it, as a provider's flow
    // would have left them long before this GET.
    await p.projections.catchUpTo(emitido.position!);
    const before = await streams();

    const vale = await c.call('GET', `/v1/vale-pedagio/${valeId}`);
    expect(vale.status).toBe(200);
    expect(vale.body).toMatchObject({
      environment: 'producao',
      data: { id: valeId, situacao: 'emitido', fornecedor: { simulado: false } },
    });
    expect((await c.call('GET', '/v1/vale-pedagio')).body.meta.total).toBe(1);
    const conta = (await c.call('GET', '/v1/conta-operacional')).body.data;
    expect(Math.round(conta.saldo * 100)).toBe(100_000 - valores.valor_total_centavos);
    const extrato = (await c.call('GET', '/v1/conta-operacional/extrato')).body.data;
    expect(extrato.map((m: { tipo: string }) => m.tipo)).toEqual(['credito', 'debito']);
    expect(extrato[0].descricao).not.toMatch(/simulado/);
    const pdf = await fetch(`${app.url}/v1/vale-pedagio/${valeId}/recibo`, { headers: { authorization: `Bearer ${c.apiKey}` } });
    expect(pdf.status).toBe(200);
    const text = (await pdfPagesText(Buffer.from(await pdf.arrayBuffer()))).join(' ');
    expect(text).toContain('12345678901234567890');
    expect(text).not.toContain('SEM VALOR');

    expectError(await c.call('POST', `/v1/vale-pedagio/${valeId}/passagens`), 503, 'provedor_indisponivel');
    expectError(await c.call('POST', `/v1/vale-pedagio/${valeId}/cancelar`), 503, 'provedor_indisponivel');
    expect(await streams()).toEqual(before);
    expect((await c.call('GET', `/v1/vale-pedagio/${valeId}`)).body.data.situacao).toBe('emitido');
  });
});
