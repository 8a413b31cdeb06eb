import { randomUUID } from 'node:crypto';
import { type DomainEvent, type EventData, type ModoLiberacao, type ParcelaRepasse, START } from '@frete/contracts';
import { fold, repasseDecider, type RepasseEvent, repasseStream, vencimentoDe } from '@frete/domain';
import { derivedEventId, type EventStore } from '@frete/platform';
import { type RepasseDocumentoRow } from '@frete/projections';
import { linhaDoDocumento } from '../../services/application/src/repasse/documento';
import { repasseHandler } from '../../services/application/src/repasse/handler';
import { type LeiturasRepasse, type MdfeParaRepasse } from '../../services/application/src/repasse/leituras';
import { AGORA, EMPRESA, especificacaoDeHandler, type Historia, naStream } from '../support/especificacao';
import { SemEspera } from '../support/especificacao/leitura-apos-escrita';

/**
 * The operator's acts on a driver's payout (`repasseHandler`): the document named by counter-CT-e id, key or leg
 * document, found through the read port, then decided on its driver group; and the same act on every CT-e of a
 * manifest. The facts of test/api/parcelas-repasse at the handler level.
 */
const OUTRA = '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0';
const LOTE = 'e1d2c3b4-a596-4877-8695-a4b3c2d1e0f9';
const CPF_A = '52998224725';
const CPF_B = '11144477735';
const agora = AGORA.toISOString();
const R602020: ParcelaRepasse[] = [
  { posicao: 1, percentual: 60, dias: 0 },
  { posicao: 2, percentual: 20, dias: 10 },
  { posicao: 3, percentual: 20, dias: 30 },
];
const R7030: ParcelaRepasse[] = [
  { posicao: 1, percentual: 70, dias: 0 },
  { posicao: 2, percentual: 30, dias: 5 },
];

interface Documento {
  company_id: string;
  grupo: string;
  cte_id: string;
  chave: string;
  documento_financeiro: string | null;
  posicao: number;
  cpf: string;
  valor_centavos: number;
  modo: ModoLiberacao;
  parcelas: ParcelaRepasse[];
}

let chaves = 0;
/** A counter-CT-e of the company with its payout's data; a batch's document unless `grupo` says otherwise. */
const documento = (over: Partial<Documento> = {}): Documento => {
  const cpf = over.cpf ?? CPF_A;
  return {
    company_id: EMPRESA,
    grupo: `lote:${LOTE}:${cpf}`,
    cte_id: randomUUID(),
    chave: String(++chaves).padStart(44, '3'),
    documento_financeiro: null,
    posicao: 0,
    cpf,
    valor_centavos: 10_001,
    modo: 'automatico',
    parcelas: R602020,
    ...over,
  };
};
const alvo = (d: Documento) => ({ company_id: d.company_id, grupo: d.grupo, cte_id: d.cte_id });
const streamDe = (d: Documento) => repasseStream(d.company_id, d.grupo);

const dadosDo = (d: Documento) => ({
  ...alvo(d),
  chave: d.chave,
  chave_original: 'K'.repeat(44),
  documento_financeiro: d.documento_financeiro,
  lote_id: d.grupo.startsWith('lote:') ? LOTE : null,
  posicao: d.posicao,
  motorista_cpf: d.cpf,
  valor_centavos: d.valor_centavos,
});
const registrado = (d: Documento): DomainEvent => ({
  type: 'repasse.documento_registrado',
  data: { ...dadosDo(d), regra: { origem: 'lote', parcelas: d.parcelas }, modo: d.modo, registrado_em: agora },
});
const falhou = (d: Documento, code: string): DomainEvent => ({
  type: 'repasse.registro_falhou',
  data: { ...dadosDo(d), code, message: 'the driver left the registry', falhou_em: agora },
});
/** The scan's installments as the decider splits them (N < k: by the percentages, exact to the cent). */
const geradas = (d: Documento, parcelas: { posicao: number; percentual: number; valor_centavos: number; dias: number }[]): DomainEvent => ({
  type: 'repasse.parcelas_geradas',
  data: { ...alvo(d), bipado_em: agora, documentos_no_grupo: 1, ordem_no_grupo: 1, parcelas },
});
const liberada = (d: Documento, posicao: number, gatilho: 'bipagem' | 'conclusao' | 'prestacao_contas' | 'manual', dias: number) => ({
  type: 'repasse.parcela_liberada' as const,
  data: { ...alvo(d), posicao, gatilho, liberada_em: agora, vencimento: vencimentoDe(AGORA, dias) },
});
const solicitado = (d: Documento, posicao: number, ordem_id: string, valor_centavos: number): DomainEvent => ({
  type: 'repasse.pagamento_solicitado',
  data: { ...alvo(d), posicao, ordem_id, motorista_cpf: d.cpf, valor_centavos, solicitado_em: agora },
});
const cancelado = (d: Documento, parcelas_canceladas: number[]): DomainEvent => ({
  type: 'repasse.documento_cancelado',
  data: { ...alvo(d), cancelado_em: agora, parcelas_canceladas, parcelas_pagas: [] },
});
const SPLIT_60_20_20 = [
  { posicao: 1, percentual: 60, valor_centavos: 6_001, dias: 0 },
  { posicao: 2, percentual: 20, valor_centavos: 2_000, dias: 10 },
  { posicao: 3, percentual: 20, valor_centavos: 2_000, dias: 30 },
];
const SPLIT_70_30 = [
  { posicao: 1, percentual: 70, valor_centavos: 7_001, dias: 0 },
  { posicao: 2, percentual: 30, valor_centavos: 3_000, dias: 5 },
];

/** A manifest of the read model, as the spec gives it: its company, the CT-e it carries in order, its drivers. */
type Manifesto = MdfeParaRepasse & { company_id: string; mdfe_id: string };

const failedRow = (d: EventData<'repasse.registro_falhou'>): RepasseDocumentoRow => ({
  company_id: d.company_id,
  cte_id: d.cte_id,
  chave: d.chave,
  chave_original: d.chave_original,
  documento_financeiro: d.documento_financeiro,
  lote_id: d.lote_id,
  grupo: d.grupo,
  posicao_no_grupo: d.posicao,
  motorista_cpf: d.motorista_cpf,
  valor_centavos: d.valor_centavos,
  regra: null,
  modo: null,
  financeiro: 'failed',
  erro_financeiro: { code: d.code, message: d.message },
  bipado_em: null,
  concluido_em: null,
  prestado_contas_em: null,
  cancelado: false,
  cancelado_em: null,
  parcelas: [],
});

/**
 * The payout read model as the log makes it, caught up (a projection with no lag): each driver group's documents as
 * its decider folds them, in the row shape, and the documents whose financial step failed; the manifests are the
 * spec's data. Only the asking company's rows answer, as the queries' `company_id = $1`.
 */
function leiturasDoLog(store: EventStore, manifestos: readonly Manifesto[]): LeiturasRepasse {
  const linhas = async (companyId: string): Promise<RepasseDocumentoRow[]> => {
    const grupos = new Map<string, RepasseEvent[]>();
    for (const e of await store.readAll(START, Number.MAX_SAFE_INTEGER)) {
      if (!e.type.startsWith('repasse.')) continue;
      grupos.set(e.streamId, [...(grupos.get(e.streamId) ?? []), { type: e.type, data: e.data } as RepasseEvent]);
    }
    const rows: RepasseDocumentoRow[] = [];
    for (const events of grupos.values()) {
      const { company_id, grupo } = events[0]!.data;
      if (company_id !== companyId) continue;
      const state = fold(repasseDecider, events);
      rows.push(...Object.values(state.documentos).map((doc) => linhaDoDocumento(company_id, grupo, doc)));
      for (const e of events) if (e.type === 'repasse.registro_falhou' && !state.documentos[e.data.cte_id]) rows.push(failedRow(e.data));
    }
    return rows;
  };
  return {
    documento: async (companyId, ref) => {
      const achadas = (await linhas(companyId)).filter((r) =>
        'cte_id' in ref
          ? r.cte_id === ref.cte_id
          : 'chave' in ref
            ? r.chave === ref.chave
            : r.documento_financeiro === ref.documento_financeiro,
      );
      // A leg re-issued after a cancellation keeps its leg document: the live one answers, as the query orders them.
      return achadas.sort((a, b) => Number(a.cancelado) - Number(b.cancelado))[0] ?? null;
    },
    mdfe: async (companyId, mdfeId) => {
      const m = manifestos.find((x) => x.company_id === companyId && x.mdfe_id === mdfeId);
      return m ? { ctes: m.ctes, motoristas: m.motoristas } : null;
    },
    documentosDosCtes: async (companyId, cteIds) =>
      new Map((await linhas(companyId)).filter((r) => cteIds.includes(r.cte_id)).map((r) => [r.cte_id, r])),
  };
}

const especificacao = (manifestos: Manifesto[] = []) =>
  especificacaoDeHandler(({ store }) =>
    repasseHandler({ store, readYourWrites: new SemEspera(), leituras: leiturasDoLog(store, manifestos) }),
  );
const spec = especificacao();
const dado = (...docs: { doc: Documento; depois?: DomainEvent[] }[]): Historia[] =>
  docs.map(({ doc, depois = [] }) => naStream(streamDe(doc), registrado(doc), ...depois));

describe("the operator's acts on one document (repasseHandler.agir)", () => {
  it('the scan splits the document by the rule (exact to the cent) and, in automatic mode, releases position 1; again: nothing', async () => {
    const d = documento();
    const bipar = spec.given(...dado({ doc: d })).when((h, ctx) => h.agir(ctx, d.cte_id, { type: 'Bipar' }));
    const ato = await bipar.then({ stream: streamDe(d), ...geradas(d, SPLIT_60_20_20) }, liberada(d, 1, 'bipagem', 0));
    expect(ato).toMatchObject({ cte_id: d.cte_id, ordem_id: null, documento: { grupo: d.grupo, bipado_em: AGORA } });
    expect(ato.documento.parcelas.map((p) => [p.posicao, p.valor_centavos, p.situacao])).toEqual([
      [1, 6_001, 'liberada'],
      [2, 2_000, 'pendente'],
      [3, 2_000, 'pendente'],
    ]);
    await bipar.again().thenNothing();
  });

  it('completion and accountability release positions 2 and 3; a repeated act appends nothing and answers the same', async () => {
    const d = documento();
    const bipado = dado({ doc: d, depois: [geradas(d, SPLIT_60_20_20), liberada(d, 1, 'bipagem', 0)] });
    const concluir = spec.given(...bipado).when((h, ctx) => h.agir(ctx, d.cte_id, { type: 'Concluir' }));
    await concluir.then(
      { type: 'repasse.conclusao_registrada', data: { ...alvo(d), concluido_em: agora } },
      liberada(d, 2, 'conclusao', 10),
    );
    expect((await concluir.again().thenNothing()).documento.concluido_em).toEqual(AGORA);
    const prestar = spec.given(...bipado).when((h, ctx) => h.agir(ctx, d.cte_id, { type: 'PrestarContas' }));
    await prestar.then(
      { type: 'repasse.prestacao_contas_registrada', data: { ...alvo(d), prestado_contas_em: agora } },
      liberada(d, 3, 'prestacao_contas', 30),
    );
    await prestar.again().thenNothing();
  });

  it('finds the document by counter-CT-e id (any case), access key (any case) or ROUTE: leg document', async () => {
    const route = `ROUTE:${'3'.repeat(44)}:3509502:3304557`;
    const d = documento({ documento_financeiro: route });
    for (const nome of [d.cte_id, d.cte_id.toUpperCase(), d.chave, d.chave.toLowerCase(), ` ${route} `]) {
      await spec
        .given(...dado({ doc: d }))
        .when((h, ctx) => h.agir(ctx, nome, { type: 'Bipar' }))
        .then(geradas(d, SPLIT_60_20_20), liberada(d, 1, 'bipagem', 0));
    }
  });

  it('manual mode: the acts release nothing, only liberar does (once: again is 422 parcela_ja_liberada)', async () => {
    const d = documento({ grupo: 'cte:x', modo: 'manual', parcelas: R7030 });
    await spec
      .given(...dado({ doc: d }))
      .when((h, ctx) => h.agir(ctx, d.chave, { type: 'Bipar' }))
      .then(geradas(d, SPLIT_70_30));
    const liberar = spec
      .given(...dado({ doc: d, depois: [geradas(d, SPLIT_70_30)] }))
      .when((h, ctx) => h.agir(ctx, d.cte_id, { type: 'Liberar', posicao: 2 }));
    const ato = await liberar.then(liberada(d, 2, 'manual', 5));
    expect(ato.documento.parcelas[1]).toMatchObject({ situacao: 'liberada', liberada_por: 'manual', vencimento: vencimentoDe(AGORA, 5) });
    await liberar.again().thenRejects('parcela_ja_liberada');
  });

  describe('paying a released installment', () => {
    const d = documento();
    const bipado = dado({ doc: d, depois: [geradas(d, SPLIT_60_20_20), liberada(d, 1, 'bipagem', 0)] });

    it("orders it with the id derived from the request's Idempotency-Key: a retry lands on the same order, nothing appended", async () => {
      const ordem = derivedEventId(EMPRESA, `pagar:chave-1:${d.cte_id}:1`);
      const pagar = spec.given(...bipado).when((h, ctx) => h.agir(ctx, d.cte_id, { type: 'Pagar', posicao: 1, chave: 'chave-1' }));
      const ato = await pagar.then(solicitado(d, 1, ordem, 6_001));
      expect(ato).toMatchObject({ cte_id: d.cte_id, ordem_id: ordem });
      expect(ato.documento.parcelas[0]).toMatchObject({ situacao: 'pagamento_solicitado', ordem_pagamento_id: ordem });
      expect(await pagar.again().thenNothing()).toEqual(ato);
    });

    it('without a key each request is a new order: the second is 422 parcela_ja_paga', async () => {
      const pagar = spec.given(...bipado).when((h, ctx) => h.agir(ctx, d.cte_id, { type: 'Pagar', posicao: 1 }));
      const { resultado, gravados } = await pagar.run();
      expect(resultado.ordem_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(gravados.map((e) => e.data)).toEqual([solicitado(d, 1, resultado.ordem_id!, 6_001).data]);
      await pagar.again().thenRejects('parcela_ja_paga');
      await spec
        .given(...bipado)
        .when((h, ctx) => h.agir(ctx, d.cte_id, { type: 'Liberar', posicao: 1 }))
        .thenRejects('parcela_ja_liberada');
    });

    it('422 parcela_nao_liberada for a pending installment, parcela_nao_encontrada for a position the document lacks', async () => {
      await spec
        .given(...bipado)
        .when((h, ctx) => h.agir(ctx, d.cte_id, { type: 'Pagar', posicao: 2 }))
        .thenRejects('parcela_nao_liberada');
      const m = documento({ modo: 'manual', parcelas: R7030 });
      await spec
        .given(...dado({ doc: m, depois: [geradas(m, SPLIT_70_30)] }))
        .when((h, ctx) => h.agir(ctx, m.cte_id, { type: 'Liberar', posicao: 3 }))
        .thenRejects('parcela_nao_encontrada');
    });
  });

  it('422 parcelas_nao_geradas before the scan, for release, payment and the later acts', async () => {
    const d = documento();
    for (const pedido of [
      { type: 'Liberar', posicao: 1 },
      { type: 'Pagar', posicao: 1 },
      { type: 'Concluir' },
      { type: 'PrestarContas' },
    ] as const)
      await spec
        .given(...dado({ doc: d }))
        .when((h, ctx) => h.agir(ctx, d.cte_id, pedido))
        .thenRejects('parcelas_nao_geradas');
  });

  it('a cancelled document: 422 documento_cancelado for the acts, parcela_cancelada for its installments', async () => {
    const d = documento();
    const cancelada = dado({ doc: d, depois: [geradas(d, SPLIT_60_20_20), cancelado(d, [1, 2, 3])] });
    await spec
      .given(...cancelada)
      .when((h, ctx) => h.agir(ctx, d.cte_id, { type: 'Concluir' }))
      .thenRejects('documento_cancelado');
    await spec
      .given(...cancelada)
      .when((h, ctx) => h.agir(ctx, d.cte_id, { type: 'Liberar', posicao: 2 }))
      .thenRejects('parcela_cancelada');
  });

  it('422 documento_em_cancelamento: release and payment wait for the authority', async () => {
    const d = documento({ modo: 'manual' });
    const pedido: DomainEvent = {
      type: 'repasse.cancelamento_solicitado',
      data: { ...alvo(d), event_key: 'ID110111', solicitado_em: agora },
    };
    await spec
      .given(...dado({ doc: d, depois: [geradas(d, SPLIT_60_20_20), pedido] }))
      .when((h, ctx) => h.agir(ctx, d.cte_id, { type: 'Liberar', posicao: 1 }))
      .thenRejects('documento_em_cancelamento');
  });

  it("a document whose financial step failed: 422 with the failure's code (regra_de_negocio for one the API does not know)", async () => {
    const d = documento();
    await spec
      .given(naStream(streamDe(d), falhou(d, 'motorista_nao_encontrado')))
      .when((h, ctx) => h.agir(ctx, d.cte_id, { type: 'Bipar' }))
      .thenRejects('motorista_nao_encontrado');
    await spec
      .given(naStream(streamDe(d), falhou(d, 'codigo_desconhecido')))
      .when((h, ctx) => h.agir(ctx, d.chave, { type: 'Bipar' }))
      .thenRejects('regra_de_negocio');
  });

  it("404 nao_encontrado for an unknown document, one that can name nothing, and another company's by any of its names", async () => {
    const d = documento({ documento_financeiro: `ROUTE:${'4'.repeat(44)}:3509502:3304557` });
    for (const nome of [randomUUID(), 'not-a-document', 'ROUTE:', '3'.repeat(43)])
      await spec
        .given(...dado({ doc: d }))
        .when((h, ctx) => h.agir(ctx, nome, { type: 'Bipar' }))
        .thenRejects('nao_encontrado');
    const alheio = documento({ company_id: OUTRA, documento_financeiro: `ROUTE:${'5'.repeat(44)}:3509502:3304557` });
    for (const nome of [alheio.cte_id, alheio.chave, alheio.documento_financeiro!])
      await spec
        .given(...dado({ doc: alheio }))
        .when((h, ctx) => h.agir(ctx, nome, { type: 'Liberar', posicao: 1 }))
        .thenRejects('nao_encontrado');
    // The same document is the other company's to act on.
    await especificacaoDeHandler(
      ({ store }) => repasseHandler({ store, readYourWrites: new SemEspera(), leituras: leiturasDoLog(store, []) }),
      { companyId: OUTRA },
    )
      .given(...dado({ doc: alheio }))
      .when((h, ctx) => h.agir(ctx, alheio.chave, { type: 'Bipar' }))
      .then(geradas(alheio, SPLIT_60_20_20), liberada(alheio, 1, 'bipagem', 0));
  });
});

describe('the same act on every CT-e of a manifest (repasseHandler.agirPorMdfe): only existing installments of its drivers', () => {
  const MDFE = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
  const scanned = documento({ cpf: CPF_B, modo: 'manual', posicao: 0 });
  const unscanned = documento({ cpf: CPF_B, modo: 'manual', posicao: 1 });
  const otherDriver = documento({ grupo: 'cte:outro', cpf: CPF_A, modo: 'manual' });
  const plain = { cte_id: randomUUID(), chave: '6'.repeat(44) };
  const ref = (d: Documento) => ({ cte_id: d.cte_id, chave: d.chave });
  const manifesto: Manifesto = {
    company_id: EMPRESA,
    mdfe_id: MDFE,
    ctes: [ref(scanned), ref(unscanned), ref(otherDriver), plain],
    motoristas: [CPF_B],
  };
  // Two documents of the group at 60/20/20: each is split in three at the scan.
  const doGrupo = (d: Documento, ordem: number) => ({
    type: 'repasse.parcelas_geradas' as const,
    data: { ...alvo(d), bipado_em: agora, documentos_no_grupo: 2, ordem_no_grupo: ordem, parcelas: SPLIT_60_20_20 },
  });
  const historia = [
    naStream(streamDe(scanned), registrado(scanned), registrado(unscanned), doGrupo(scanned, 1)),
    naStream(streamDe(otherDriver), registrado(otherDriver), geradas(otherDriver, SPLIT_60_20_20)),
  ];
  const porMdfe = especificacao([manifesto, { ...manifesto, company_id: OUTRA, mdfe_id: '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9' }]);
  const ignorado = (c: { cte_id: string; chave: string }, code: string) => ({
    cte_id: c.cte_id,
    chave: c.chave,
    status: 'ignorado',
    motivo: { code, message: expect.any(String) },
  });

  it("releases the position on the scanned document of the MDF-e's driver; each other CT-e says why it was left alone", async () => {
    const liberar = porMdfe.given(...historia).when((h, ctx) => h.agirPorMdfe(ctx, MDFE.toUpperCase(), { type: 'Liberar', posicao: 2 }));
    expect(await liberar.then(liberada(scanned, 2, 'manual', 10))).toEqual([
      { cte_id: scanned.cte_id, chave: scanned.chave, status: 'ok' },
      ignorado(unscanned, 'parcelas_nao_geradas'),
      ignorado(otherDriver, 'motorista_fora_do_mdfe'),
      ignorado(plain, 'sem_repasse'),
    ]);
    // Again: that CT-e's own refusal, not the request's; nothing appended.
    const again = await liberar.again().thenNothing();
    expect(again[0]).toEqual({
      cte_id: scanned.cte_id,
      chave: scanned.chave,
      status: 'erro',
      error: { code: 'parcela_ja_liberada', message: expect.any(String) },
    });
    expect(again.slice(1).map((r) => r.status)).toEqual(['ignorado', 'ignorado', 'ignorado']);
  });

  it("pays the released installment (the order's id in the result); an unreleased one is that CT-e's parcela_nao_liberada", async () => {
    const ordem = derivedEventId(EMPRESA, `pagar:k:${scanned.cte_id}:2`);
    const pagar = porMdfe
      .given(...historia, naStream(streamDe(scanned), liberada(scanned, 2, 'manual', 10)))
      .when((h, ctx) => h.agirPorMdfe(ctx, MDFE, { type: 'Pagar', posicao: 2, chave: 'k' }));
    const resultados = await pagar.then(solicitado(scanned, 2, ordem, 2_000));
    expect(resultados.map((r) => r.status)).toEqual(['ok', 'ignorado', 'ignorado', 'ignorado']);
    expect(resultados[0]).toEqual({ cte_id: scanned.cte_id, chave: scanned.chave, status: 'ok', ordem_id: ordem });
    expect((await pagar.again().thenNothing())[0]).toEqual(resultados[0]);
    const [naoLiberada] = await porMdfe
      .given(...historia)
      .when((h, ctx) => h.agirPorMdfe(ctx, MDFE, { type: 'Pagar', posicao: 1 }))
      .thenNothing();
    expect(naoLiberada).toMatchObject({ status: 'erro', error: { code: 'parcela_nao_liberada' } });
  });

  it('leaves alone a cancelled document, one whose financial step failed, and one without the position', async () => {
    const cancelada = documento({ cpf: CPF_B, grupo: 'cte:cancelada', modo: 'manual' });
    const falha = documento({ cpf: CPF_B, grupo: 'cte:falha' });
    const curta = documento({ cpf: CPF_B, grupo: 'cte:curta', modo: 'manual', parcelas: R7030 });
    const m: Manifesto = { company_id: EMPRESA, mdfe_id: MDFE, ctes: [ref(cancelada), ref(falha), ref(curta)], motoristas: [CPF_B] };
    const resultados = await especificacao([m])
      .given(
        naStream(streamDe(cancelada), registrado(cancelada), geradas(cancelada, SPLIT_60_20_20), cancelado(cancelada, [1, 2, 3])),
        naStream(streamDe(falha), falhou(falha, 'motorista_nao_encontrado')),
        naStream(streamDe(curta), registrado(curta), geradas(curta, SPLIT_70_30)),
      )
      .when((h, ctx) => h.agirPorMdfe(ctx, MDFE, { type: 'Liberar', posicao: 3 }))
      .thenNothing();
    expect(resultados).toEqual([
      ignorado(cancelada, 'documento_cancelado'),
      ignorado(falha, 'sem_repasse'),
      ignorado(curta, 'parcela_nao_encontrada'),
    ]);
  });

  it("404 nao_encontrado for an unknown MDF-e, a malformed id and another company's MDF-e", async () => {
    for (const id of [randomUUID(), 'not-a-uuid', '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9'])
      await porMdfe
        .given(...historia)
        .when((h, ctx) => h.agirPorMdfe(ctx, id, { type: 'Liberar', posicao: 2 }))
        .thenRejects('nao_encontrado');
  });

  it("another company's documents on the company's manifest have no payout of the company's: sem_repasse", async () => {
    const alheio = documento({ company_id: OUTRA, cpf: CPF_B, modo: 'manual' });
    const m: Manifesto = { company_id: EMPRESA, mdfe_id: MDFE, ctes: [ref(alheio)], motoristas: [CPF_B] };
    expect(
      await especificacao([m])
        .given(naStream(streamDe(alheio), registrado(alheio), geradas(alheio, SPLIT_60_20_20)))
        .when((h, ctx) => h.agirPorMdfe(ctx, MDFE, { type: 'Liberar', posicao: 2 }))
        .thenNothing(),
    ).toEqual([ignorado(alheio, 'sem_repasse')]);
  });
});
