import { type CommandContext, execute } from '@frete/application';
import { loteDecider, loteStream, resolverLote } from '@frete/domain';
import { startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { type ApiResponse } from '../support/http';
import { auditorDe } from '../support/auditoria';
import { MOTORISTA_CPF, PLACA, receberCteDoContratante, subcontratadaPronta, criarLoteSolicitado } from '../support/lote';
import { builtEntry, runNode } from '../support/processes';

// The operator tool runs as its own Node process (about 2 s each on two cores), beside a running service.
jest.setTimeout(120_000);

interface Evento {
  id: string;
  type: string;
  stream: string;
  actor: string;
  causation_id: string | null;
  recorded_at: string;
  data: Record<string, unknown>;
  hash: string;
}

describe('pnpm ops lote transcrever: batches requested under a grant before issue 26', () => {
  let app: TestApp;
  let con: TestCarrier;
  let sub: TestCarrier;
  let ops: (...args: string[]) => ReturnType<typeof runNode>;
  let auditorSub: (path: string) => Promise<ApiResponse>;
  const terminado = '3f1d2c4b-7a6e-4b5d-8c9f-0a1b2c3d4e5f';
  const emCurso = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

  beforeAll(async () => {
    // No emission processor: the histories are written here as the code before issue 26 left them, and nothing
    // reacts to them (today's processor would record the requester's side of a batch's end itself).
    app = await startTestApp({ SERVICES: 'api,projector' });
    const entry = builtEntry('services/ops/dist/main.js');
    const env = { DATABASE_URL: app.db.url, SECRETS_KEY: app.config.secretsKey, APP_ENVIRONMENT: 'homologacao' };
    ops = (...args) => runNode(entry, args, env);
    con = await app.carrier({ name: 'CONTRATANTE ANTIGA SA', scopes: ['fiscal', 'auditoria'] });
    sub = await subcontratadaPronta(app, 'SUBCONTRATADA ANTIGA LTDA');
    auditorSub = await auditorDe(app, sub.cnpj);
    expect((await sub.call('POST', '/v1/fiscal/cte-subcontratacao/autorizacoes', { contratante: { cnpj: con.cnpj } })).status).toBe(201);

    const { store, readYourWrites, clock } = app.running.platform;
    const deps = { store, readYourWrites };
    const ctx = (companyId: string, actor: string, correlationId: string, requestId: string | null): CommandContext => ({
      companyId,
      correlationId,
      causationId: null,
      requestId,
      actor,
      now: clock(),
    });
    const chaves = new Map<string, string>();
    for (const batchId of [terminado, emCurso]) {
      const k = await receberCteDoContratante(sub, con.cnpj);
      chaves.set(batchId, k);
      const plano = resolverLote(
        { subcontratada: { cnpj: sub.cnpj }, motorista: { cpf: MOTORISTA_CPF }, placa: PLACA, ctes: [{ chave: k, valor: 80 }] },
        { motoristas: new Set([MOTORISTA_CPF]), placas: new Set([PLACA]) },
      );
      // The creation as the contractor's request wrote it then: with the contractor's metadata, in its chain.
      await execute(
        deps,
        loteStream(batchId),
        loteDecider,
        criarLoteSolicitado(batchId, sub, con, plano),
        ctx(con.companyId, `credential:${con.credentialId}`, `req-${batchId}`, `req-${batchId}`),
      );
    }
    // The rest of a batch was the processor's, on the subcontractor's account: one failed row ends it.
    await execute(
      deps,
      loteStream(terminado),
      loteDecider,
      {
        type: 'RegistrarLinha',
        batch_id: terminado,
        company_id: sub.companyId,
        linha: 0,
        chave: chaves.get(terminado)!,
        perna: null,
        tipo_servico: 1,
        status: 'failed',
        counter_cte_id: null,
        documento_financeiro: null,
        error: { code: 'sem_regra_tributacao', message: 'no tax rule for SP to RJ' },
      },
      ctx(sub.companyId, 'processor:emission', terminado, null),
    );
  });
  afterAll(() => app?.close());

  const logDaSubcontratada = async () => (await auditorSub('/v1/auditoria/eventos?limite=1000')).body.data as Evento[];
  const logDoContratante = async () => (await con.call('GET', '/v1/auditoria/eventos?limite=1000')).body.data as Evento[];

  it("transcribes each creation into its owner's chain and records the requester's side; a repeat appends nothing; every chain stays intact", async () => {
    const antes = await logDaSubcontratada();
    expect(antes.filter((e) => e.type === 'lote.criado')).toEqual([]);
    expect(antes.filter((e) => e.type === 'lote.concluido').map((e) => e.data.batch_id)).toEqual([terminado]);
    const originais = (await logDoContratante()).filter((e) => e.type === 'lote.criado');
    expect(originais.map((e) => e.data.batch_id)).toEqual([terminado, emCurso]);

    const primeira = await ops('lote', 'transcrever');
    expect(primeira.code).toBe(0);
    // Each: its transcription and the request's record; the ended one, its outcome too.
    expect(JSON.parse(primeira.stdout)).toEqual({ transcribed: true, criacoes: 2, eventos_gravados: 5 });

    const depois = await logDaSubcontratada();
    const transcritas = depois.filter((e) => e.type === 'lote.criacao_transcrita');
    expect(transcritas).toEqual(
      originais.map((o) =>
        expect.objectContaining({
          stream: `lote-${o.data.batch_id as string}`,
          actor: 'operator',
          causation_id: o.id,
          data: {
            batch_id: o.data.batch_id,
            company_id: sub.companyId,
            evento: { id: o.id, recorded_at: o.recorded_at, hash: o.hash },
            criado: o.data,
          },
        }),
      ),
    );
    const historico = (await auditorSub(`/v1/auditoria/historico/lote/${terminado}`)).body.data.eventos as Evento[];
    expect(historico.map((e) => e.type)).toEqual(['lote.criado', 'lote.linha_processada', 'lote.concluido', 'lote.criacao_transcrita']);

    const doCon = await logDoContratante();
    const registros = doCon.filter((e) => e.type.startsWith('solicitacao_lote.'));
    expect(registros.map((e) => [e.type, e.data.batch_id, e.actor])).toEqual([
      ['solicitacao_lote.aceita', terminado, 'operator'],
      ['solicitacao_lote.concluida', terminado, 'operator'],
      ['solicitacao_lote.aceita', emCurso, 'operator'],
    ]);
    expect(registros[0]!.data).toEqual({
      batch_id: terminado,
      company_id: con.companyId,
      subcontratada: { cnpj: sub.cnpj, nome: 'SUBCONTRATADA ANTIGA LTDA' },
      modo: '1a1',
      total_linhas: 1,
    });
    expect(registros[1]!.data).toMatchObject({ status: 'failed', total_linhas: 1, emitidas: 0, duplicadas: 0, falhas: 1 });
    // The subcontractor's id stays where it was recorded (the chain keeps events as they were): the new records hold none.
    expect(doCon.filter((e) => JSON.stringify(e).includes(sub.companyId)).map((e) => e.id)).toEqual(originais.map((e) => e.id));
    const historicoCon = await con.call('GET', `/v1/auditoria/historico/lote/${terminado}`);
    expect(historicoCon.body.data.eventos.map((e: Evento) => e.type)).toEqual(['solicitacao_lote.aceita', 'solicitacao_lote.concluida']);

    const total = async () => (await app.db.pool.query('SELECT count(*)::int AS n FROM es_events')).rows[0].n as number;
    const eventos = await total();
    const repetida = await ops('lote', 'transcrever');
    expect(JSON.parse(repetida.stdout)).toEqual({ transcribed: true, criacoes: 2, eventos_gravados: 0 });
    expect(await total()).toBe(eventos);

    for (const args of [[], ['--company', sub.cnpj], ['--company', con.cnpj]]) {
      const v = await ops('audit', 'verify', ...args);
      expect({ args, code: v.code }).toEqual({ args, code: 0 });
      expect(JSON.parse(v.stdout)).toMatchObject({ integra: true, primeiro_evento_divergente: null });
    }
    expect((await auditorSub('/v1/auditoria/verificacao')).body.data).toMatchObject({ integra: true, eventos_verificados: depois.length });
    expect((await con.call('GET', '/v1/auditoria/verificacao')).body.data).toMatchObject({
      integra: true,
      eventos_verificados: doCon.length,
    });
  });
});
