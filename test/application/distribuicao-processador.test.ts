import { type RecordedEvent } from '@frete/contracts';
import { ProcessadorDistribuicao, type RecebedorDeDocumentos, recebedorDistribuicao } from '@frete/application';
import { startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { emissora, pollUntil, rascunhoEmitivel } from '../support/emissora';

/**
 * Issue 30 point 3: the poller survives a crash between receiving an answer and recording it. The processor of the
 * distribution is driven here by hand with the request it would read from the log, over the sandbox's simulated national
 * environment (real PostgreSQL): a first run dies after recording two of the three documents; the redelivery repeats
 * the call from the same NSU, records the third and the outcome, and records none of the first two again; a third
 * delivery, after the outcome, asks nothing of the service.
 */
describe('distribution processor: crash between the answer and its record, and the redelivery', () => {
  let app: TestApp;
  let contratante: TestCarrier;
  let sub: TestCarrier;
  const chaves: string[] = [];

  const ctx = (c: TestCarrier) => ({
    companyId: c.companyId,
    correlationId: 'teste',
    causationId: null,
    requestId: null,
    actor: 'teste',
    now: new Date(),
  });
  const streamDe = (c: TestCarrier) => app.running.platform.store.readStream(`distribuicao-${c.companyId}`);
  const receiptsOf = async (chave: string) =>
    (await app.running.platform.store.readStream(`cte_subcontratacao-${sub.companyId}-${chave}`)).map((e) => e.type);

  beforeAll(async () => {
    // No distribution processor running: this test is the processor.
    app = await startTestApp();
    contratante = await emissora(app, 'CONTRATANTE TRANSPORTES SA');
    sub = await emissora(app, 'SUBCONTRATADA TRANSPORTES LTDA');
    for (let i = 0; i < 3; i++) {
      const d = await contratante.call('POST', '/v1/fiscal/cte', { ...rascunhoEmitivel(`CARGA ${i}`), autorizados_xml: [sub.cnpj] });
      const id = d.body.data.id as string;
      await contratante.call('POST', `/v1/fiscal/cte/${id}/emissao`);
      const r = await pollUntil(contratante, `/v1/fiscal/cte/${id}/consulta`, (x) => x.body?.data?.situacao === 'autorizado');
      chaves.push(r.body.data.access_key as string);
    }
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('records each document once and moves the NSU only after all are recorded', async () => {
    const { application, platform } = app.running;
    const pedido = await application.handlers.distribuicao.consultar(ctx(sub), ['cte']);
    expect(pedido.consultas).toEqual([expect.objectContaining({ servico: 'cte', ult_nsu: '000000000000000' })]);
    const solicitada = (await streamDe(sub)).find((e) => e.type === 'distribuicao.consulta_solicitada') as RecordedEvent;

    const real = recebedorDistribuicao({
      documents: platform.documents,
      handlers: { caixaCte: application.handlers.caixaCte, nfe: application.handlers.nfe },
      clock: platform.clock,
    });
    let registrados = 0;
    const quebra: RecebedorDeDocumentos = {
      registrar: async (...args) => {
        if (registrados === 2) throw new Error('the process died here');
        registrados++;
        return real.registrar(...args);
      },
    };
    const processador = (recebedor: RecebedorDeDocumentos) =>
      new ProcessadorDistribuicao({
        handler: application.handlers.distribuicao,
        porta: application.distribuicao.porta,
        recebedor,
        environment: 'homologacao',
        clock: platform.clock,
      });

    await expect(processador(quebra).aoEvento(solicitada)).rejects.toThrow('the process died here');
    expect((await streamDe(sub)).map((e) => e.type)).toEqual(['distribuicao.consulta_solicitada']);
    expect(await receiptsOf(chaves[0]!)).toEqual(['cte_subcontratacao.recebido']);
    expect(await receiptsOf(chaves[1]!)).toEqual(['cte_subcontratacao.recebido']);
    expect(await receiptsOf(chaves[2]!)).toEqual([]);

    // The redelivery: the same request, the same NSU asked, the same documents answered.
    await processador(real).aoEvento(solicitada);
    const depois = await streamDe(sub);
    expect(depois.map((e) => e.type)).toEqual(['distribuicao.consulta_solicitada', 'distribuicao.consultada']);
    const consultada = depois[1]!.data as { ult_nsu: string; cstat: number; documentos: { nsu: string; chave: string; destino: string }[] };
    expect(consultada).toMatchObject({ cstat: 138, ult_nsu: '000000000000003' });
    expect(consultada.documentos.map((d) => [d.nsu, d.chave, d.destino])).toEqual([
      ['000000000000001', chaves[0], 'caixa_cte'],
      ['000000000000002', chaves[1], 'caixa_cte'],
      ['000000000000003', chaves[2], 'caixa_cte'],
    ]);
    for (const chave of chaves) expect(await receiptsOf(chave)).toEqual(['cte_subcontratacao.recebido']);

    // Once more after the outcome: nothing is asked of the service (it would answer 656 within the hour), nothing recorded.
    await processador({ registrar: () => Promise.reject(new Error('must not be called')) }).aoEvento(solicitada);
    expect((await streamDe(sub)).length).toBe(2);
    await platform.readYourWrites.waitFor(sub.companyId);
    const lida = await sub.call('GET', `/v1/fiscal/cte-subcontratacao/${chaves[0]}`);
    expect(lida.body.data).toMatchObject({ origem: 'distribuicao', received_count: 1 });
  });

  it('the schedule asks a due consultation once, however many copies look', async () => {
    const { application } = app.running;
    const outra = await emissora(app, 'OUTRA TRANSPORTES LTDA');
    await app.running.platform.readYourWrites.waitFor(outra.companyId);
    const [a, b] = [application.distribuicao.agenda(), application.distribuicao.agenda()];
    await Promise.all([a.rodada(), b.rodada()]);
    const pedidos = (await streamDe(outra)).filter((e) => e.type === 'distribuicao.consulta_solicitada');
    expect(pedidos.map((e) => (e.data as { servico: string }).servico).sort()).toEqual(['cte', 'nfe']);
    // The subcontractor's CT-e service waits its hour (its consultation reached maxNSU): only its NF-e service is asked.
    const doSub = (await streamDe(sub)).filter((e) => e.type === 'distribuicao.consulta_solicitada');
    expect(doSub.map((e) => (e.data as { servico: string }).servico).sort()).toEqual(['cte', 'nfe']);
  });
});
