import { expectError, randomCnpj, type TestApp, type TestCarrier } from '../support/app';
import { buildCteXml } from '../support/cte-xml';
import { ProcessadorLote } from '@frete/application';
import { MOTORISTA_CPF, MOTORISTA_CPF_2, PLACA, PLACA_2, receberCteDoContratante, relatorioFinal, servicoDeLote } from '../support/lote';

const LOTE = '/v1/fiscal/cte-subcontratacao/lote';
const CAMPINAS = { municipio: 'Campinas', uf: 'SP' };
const SAO_PAULO = { municipio: 'São Paulo', uf: 'SP' };
const RIO = { municipio: 'Rio de Janeiro', uf: 'RJ' };
const NITEROI = { municipio: 'Niterói', uf: 'RJ' };
const CURITIBA = { municipio: 'Curitiba', uf: 'PR' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The text of the first `<name>` of an XML document. */
const tag = (xml: string, name: string, within?: string): string | undefined => {
  const scope = within ? (new RegExp(`<${within}>[\\s\\S]*?</${within}>`).exec(xml)?.[0] ?? '') : xml;
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(scope)?.[1];
};

describe('counter-CT-e batch: POST and GET /fiscal/cte-subcontratacao/lote', () => {
  jest.setTimeout(180_000);
  let app: TestApp;
  let sub: TestCarrier;
  const CONTRATANTE = randomCnpj();

  beforeAll(async () => {
    ({ app, sub } = await servicoDeLote([
      { uf_origem: 'SP', uf_destino: 'SP', icms: { cst: '00', aliquota: 12 } },
      { uf_origem: 'RJ', uf_destino: 'RJ', icms: { cst: '00', aliquota: 12 } },
      { uf_origem: 'RJ', uf_destino: 'SP', icms: { cst: '00', aliquota: 12 } },
      { uf_origem: 'SP', uf_destino: 'RJ', tp_serv: 2, cfop: '6352', icms: { cst: '00', aliquota: 12 } },
      { uf_origem: 'RJ', uf_destino: 'SP', tp_serv: 2, cfop: '6352', icms: { cst: '00', aliquota: 12 } },
    ]));
  });
  afterAll(() => app?.close());

  const receber = (o: Parameters<typeof receberCteDoContratante>[2] = {}, emitente = CONTRATANTE, c = sub) =>
    receberCteDoContratante(c, emitente, o);
  const chaves = (n: number) => Promise.all(Array.from({ length: n }, () => receber()));
  const lote = (ctes: unknown[], over: Record<string, unknown> = {}) => ({
    subcontratada: { cnpj: sub.cnpj },
    motorista: { cpf: MOTORISTA_CPF },
    placa: PLACA,
    ctes,
    ...over,
  });
  const criar = (body: unknown, c = sub, headers?: Record<string, string>) => c.call('POST', LOTE, body, headers);
  /** Posts a batch and reads its report once it is no longer processing. */
  const concluido = async (body: unknown, c = sub) => {
    const r = await criar(body, c);
    expect(r.status).toBe(202);
    return (await relatorioFinal(c, r.body.data.batch_id)).body.data;
  };
  const cte = async (id: string, c = sub) => {
    const r = await c.call('GET', `/v1/fiscal/cte/${id}`);
    expect(r.status).toBe(200);
    return r.body.data;
  };
  const xml = async (id: string, c = sub) => {
    const r = await c.call('GET', `/v1/fiscal/cte/${id}/xml`);
    expect(r.status).toBe(200);
    return r.text;
  };
  const totalCtes = async () => (await sub.call('GET', '/v1/fiscal/cte?per_page=1')).body.meta.total as number;

  describe('1:1 design', () => {
    it("202 with the report's address; each key becomes an authorized counter-CT-e against the contractor's CT-e", async () => {
      const [k1, k2, k3] = await chaves(3);
      const r = await criar(
        lote([
          { chave: k1, valor: 1500 },
          { chave: k2, valor: 250.5 },
          { chave: k3, valor: 19.99 },
        ]),
      );
      expect(r.status).toBe(202);
      expect(r.body).toEqual({
        data: { batch_id: expect.stringMatching(UUID), status: 'processing', report: `${LOTE}/${r.body.data.batch_id}` },
        environment: 'homologacao',
      });
      const report = (await relatorioFinal(sub, r.body.data.batch_id)).body;
      expect(report.environment).toBe('homologacao');
      expect(report.data).toMatchObject({
        batch_id: r.body.data.batch_id,
        status: 'done',
        requester: null,
        subcontratada: { cnpj: sub.cnpj, nome: 'SUBCONTRATADA TRANSPORTES LTDA' },
      });
      expect(report.data.rows).toEqual(
        [k1, k2, k3].map((chave) => ({
          chave,
          perna: null,
          status: 'emitted',
          tipo_servico: 1,
          counter_cte_id: expect.stringMatching(UUID),
          financeiro: 'ok',
        })),
      );

      const [row] = report.data.rows;
      const doc = await cte(row.counter_cte_id);
      expect(doc).toMatchObject({
        id: row.counter_cte_id,
        origem: 'contra_cte',
        service_type: 1,
        situacao: 'autorizado',
        contra_cte: {
          chave_original: k1,
          contratante_cnpj: CONTRATANTE,
          modo: '1a1',
          tipo_servico: 1,
          lote_id: r.body.data.batch_id,
          valor: 1500,
          motorista_cpf: MOTORISTA_CPF,
          placa: PLACA,
          documento_financeiro: null,
        },
      });
      const proc = await xml(row.counter_cte_id);
      expect(tag(proc, 'tpServ')).toBe('1');
      expect(tag(proc, 'CNPJ', 'toma4')).toBe(CONTRATANTE);
      expect(tag(proc, 'CNPJ', 'emiDocAnt')).toBe(CONTRATANTE);
      expect(tag(proc, 'chCTe', 'idDocAntEle')).toBe(k1);
      expect([tag(proc, 'vTPrest'), tag(proc, 'vRec')]).toEqual(['1500.00', '1500.00']);
      expect(tag(proc, 'CFOP')).toBe('6360');
      expect(tag(await xml(report.data.rows[2].counter_cte_id), 'vTPrest')).toBe('19.99');
    });

    it("CFOP by rule 4: 5360, 6360, 5932, 6932; a tp_serv rule's CFOP only when starting in the emitter's UF", async () => {
      const ks = await chaves(6);
      const report = await concluido(
        lote([
          { chave: ks[0], valor: 10, origem: CAMPINAS, destino: SAO_PAULO },
          { chave: ks[1], valor: 10 },
          { chave: ks[2], valor: 10, origem: RIO, destino: NITEROI },
          { chave: ks[3], valor: 10, origem: RIO, destino: CAMPINAS },
          { chave: ks[4], valor: 10, origem: SAO_PAULO, destino: RIO, tipo_servico: 2 },
          { chave: ks[5], valor: 10, origem: RIO, destino: SAO_PAULO, tipo_servico: 2 },
        ]),
      );
      expect(report.rows.map((x: { status: string }) => x.status)).toEqual(Array(6).fill('emitted'));
      const cfops = [];
      for (const row of report.rows) cfops.push(tag(await xml(row.counter_cte_id), 'CFOP'));
      expect(cfops).toEqual(['5360', '6360', '5932', '6932', '6352', '6932']);
      const redespacho = await xml(report.rows[4].counter_cte_id);
      expect([tag(redespacho, 'tpServ'), tag(redespacho, 'cMunIni'), tag(redespacho, 'cMunFim')]).toEqual(['2', '3550308', '3304557']);
    });

    it('valores.frete_bruto: split in cents, the remainder on the last keys, the sum exact', async () => {
      const ks = await chaves(3);
      const report = await concluido(
        lote(
          ks.map((chave) => ({ chave })),
          { valores: { frete_bruto: 100 } },
        ),
      );
      const valores = [];
      const repasses = [];
      for (const row of report.rows) {
        repasses.push((await cte(row.counter_cte_id)).contra_cte.valor);
        valores.push(tag(await xml(row.counter_cte_id), 'vTPrest'));
      }
      expect(valores).toEqual(['33.33', '33.33', '33.34']);
      expect(repasses).toEqual([33.33, 33.33, 33.34]);
      expect(valores.reduce((a, v) => a + Math.round(Number(v) * 100), 0)).toBe(100_00);
    });

    it('resubmitting the batch: rows duplicated with the existing counter_cte_id and the requested type, nothing issued twice', async () => {
      const ks = await chaves(2);
      const first = await concluido(lote(ks.map((chave) => ({ chave, valor: 50 }))));
      const before = await totalCtes();
      const again = await concluido(
        lote(
          ks.map((chave) => ({ chave, valor: 70 })),
          { tipo_servico: 2, origem: SAO_PAULO, destino: RIO },
        ),
      );
      expect(again.status).toBe('done');
      expect(again.rows).toEqual(
        first.rows.map((row: { chave: string; counter_cte_id: string }) => ({
          chave: row.chave,
          perna: null,
          status: 'duplicated',
          tipo_servico: 2,
          counter_cte_id: row.counter_cte_id,
        })),
      );
      expect(await totalCtes()).toBe(before);
      expect((await cte(first.rows[0].counter_cte_id)).service_type).toBe(1);
    });
  });

  describe('legs design', () => {
    it('2 keys × 2 legs: one counter-CT-e per leg, each with its ROUTE document, driver and plate', async () => {
      const ks = await chaves(2);
      const report = await concluido(
        lote(
          ks.map((chave) => ({
            chave,
            pernas: [
              { origem: CAMPINAS, destino: SAO_PAULO, valor: 40 },
              { origem: SAO_PAULO, destino: RIO, valor: 60, motorista: { cpf: MOTORISTA_CPF_2 }, placa: PLACA_2 },
            ],
          })),
        ),
      );
      expect(report.status).toBe('done');
      expect(report.rows).toEqual(
        ks.flatMap((chave) => [
          {
            chave,
            perna: 0,
            status: 'emitted',
            tipo_servico: 1,
            counter_cte_id: expect.stringMatching(UUID),
            documento_financeiro: `ROUTE:${chave}:3509502:3550308`,
            financeiro: 'ok',
          },
          {
            chave,
            perna: 1,
            status: 'emitted',
            tipo_servico: 1,
            counter_cte_id: expect.stringMatching(UUID),
            documento_financeiro: `ROUTE:${chave}:3550308:3304557`,
            financeiro: 'ok',
          },
        ]),
      );
      const leg = await cte(report.rows[1].counter_cte_id);
      expect(leg.contra_cte).toMatchObject({
        modo: 'pernas',
        motorista_cpf: MOTORISTA_CPF_2,
        placa: PLACA_2,
        valor: 60,
        documento_financeiro: `ROUTE:${ks[0]}:3550308:3304557`,
      });
      const proc = await xml(report.rows[1].counter_cte_id);
      expect([tag(proc, 'cMunIni'), tag(proc, 'cMunFim'), tag(proc, 'vTPrest'), tag(proc, 'CFOP')]).toEqual([
        '3550308',
        '3304557',
        '60.00',
        '6360',
      ]);
    });

    it('tipo_servico precedence: leg, then key, then batch', async () => {
      const [a, b] = await chaves(2);
      const report = await concluido(
        lote(
          [
            {
              chave: a,
              tipo_servico: 3,
              pernas: [
                { origem: CAMPINAS, destino: SAO_PAULO, valor: 10 },
                { tipo_servico: 1, origem: SAO_PAULO, destino: RIO, valor: 10 },
              ],
            },
            { chave: b, pernas: [{ valor: 10 }] },
          ],
          { tipo_servico: 2, origem: SAO_PAULO, destino: RIO },
        ),
      );
      expect(report.rows.map((x: { status: string; tipo_servico: number }) => [x.status, x.tipo_servico])).toEqual([
        ['emitted', 3],
        ['emitted', 1],
        ['emitted', 2],
      ]);
      const types = [];
      for (const row of report.rows) types.push((await cte(row.counter_cte_id)).service_type);
      expect(types).toEqual([3, 1, 2]);
    });

    it('a redispatch leg equal to the whole trip fails on its row with redespacho_exige_rota', async () => {
      const k = await receber();
      const report = await concluido(lote([{ chave: k, pernas: [{ origem: CAMPINAS, destino: RIO, valor: 10, tipo_servico: 2 }] }]));
      expect(report.status).toBe('failed');
      expect(report.rows).toEqual([
        { chave: k, perna: 0, status: 'failed', tipo_servico: 2, error: { code: 'redespacho_exige_rota', message: expect.any(String) } },
      ]);
    });

    it('a key with a full counter-CT-e refuses legs, and a key in legs refuses a full one (rule 7)', async () => {
      const [full, legs] = await chaves(2);
      expect((await concluido(lote([{ chave: full, valor: 10 }]))).status).toBe('done');
      expect((await concluido(lote([{ chave: legs, pernas: [{ origem: CAMPINAS, destino: SAO_PAULO, valor: 10 }] }]))).status).toBe('done');
      const r1 = await concluido(lote([{ chave: full, pernas: [{ origem: SAO_PAULO, destino: RIO, valor: 10 }] }]));
      expect(r1.rows[0]).toMatchObject({ status: 'failed', error: { code: 'origem_ja_subcontratada_1a1' } });
      expect(r1.rows[0].counter_cte_id).toBeUndefined();
      const r2 = await concluido(lote([{ chave: legs, valor: 10 }]));
      expect(r2.rows[0]).toMatchObject({ status: 'failed', error: { code: 'origem_ja_subcontratada_em_pernas' } });
    });
  });

  describe('rows refused while processing', () => {
    it('multimodal, own CT-e, not received, no tax rule: each row failed with its code; every row failed fails the batch', async () => {
      const multimodal = await receber({ tpServ: 4 });
      const propria = await receber({}, sub.cnpj);
      const ausente = buildCteXml({ emitenteCnpj: CONTRATANTE }).chave;
      const semRegra = await receber();
      const report = await concluido(
        lote([
          { chave: multimodal, valor: 10 },
          { chave: propria, valor: 10 },
          { chave: ausente, valor: 10 },
          { chave: semRegra, valor: 10, origem: CURITIBA, destino: RIO },
        ]),
      );
      expect(report.status).toBe('failed');
      expect(report.rows.map((x: { status: string; error: { code: string } }) => [x.status, x.error.code])).toEqual([
        ['failed', 'origem_incompativel_com_tipo'],
        ['failed', 'cte_proprio'],
        ['failed', 'cte_nao_recebido'],
        ['failed', 'sem_regra_tributacao'],
      ]);
      for (const row of report.rows) expect(row.error.message).toEqual(expect.any(String));
    });
  });

  describe('progress', () => {
    /** The progress' invariants at any moment: counts add up to the total, final rows are processed rows. */
    const coerente = (p: { total: number; processed: number; completed: number; counts: Record<string, number> }) => {
      expect(Object.values(p.counts).reduce((a, b) => a + b, 0)).toBe(p.total);
      expect(p.counts.queued).toBe(p.total - p.processed);
      expect(p.completed).toBe(p.counts.emitted! + p.counts.duplicated! + p.counts.failed!);
    };

    it('the report counts rows by status, with start, end and (while it runs) the time left', async () => {
      const [k1, k2] = await chaves(2);
      const ausente = buildCteXml({ emitenteCnpj: CONTRATANTE }).chave;
      const r = await criar(
        lote([
          { chave: k1, valor: 10 },
          { chave: k2, valor: 20 },
          { chave: ausente, valor: 30 },
        ]),
      );
      expect(r.status).toBe(202);
      const id = r.body.data.batch_id;
      // Read while it runs, as an integrator polls: each snapshot is coherent.
      for (;;) {
        const now = (await sub.call('GET', `${LOTE}/${id}`)).body.data;
        coerente(now.progress);
        expect(now.progress.started_at).toBe(now.created_at);
        if (now.status !== 'processing') break;
        expect(now.progress.finished_at).toBeNull();
        const left = now.progress.estimated_seconds_left;
        if (now.progress.completed === 0) expect(left).toBeNull();
        else expect(left).toEqual(expect.any(Number));
        await new Promise((res) => setTimeout(res, 20));
      }
      const report = (await relatorioFinal(sub, id)).body.data;
      expect(report.progress).toEqual({
        total: 3,
        processed: 3,
        completed: 3,
        counts: { queued: 0, pending: 0, emitted: 2, duplicated: 0, failed: 1 },
        started_at: report.created_at,
        finished_at: expect.any(String),
        estimated_seconds_left: null,
      });
      expect(Date.parse(report.progress.finished_at)).toBeGreaterThanOrEqual(Date.parse(report.progress.started_at));
    });

    it('rows_from and rows_limit carry a slice of the rows; progress still counts them all; out of range is 400 validacao', async () => {
      const ks = await chaves(4);
      const completo = await concluido(lote(ks.map((chave, i) => ({ chave, valor: 10 + i }))));
      const id = completo.batch_id;
      expect(completo.rows.map((l: { chave: string }) => l.chave)).toEqual(ks);
      const faixa = async (q: string) => {
        const r = await sub.call('GET', `${LOTE}/${id}?${q}`);
        expect(r.status).toBe(200);
        expect(r.body.data.progress).toEqual(completo.progress);
        expect(r.body.data.status).toBe(completo.status);
        return r.body.data.rows;
      };
      expect(await faixa('rows_from=1&rows_limit=2')).toEqual(completo.rows.slice(1, 3));
      expect(await faixa('rows_from=3')).toEqual(completo.rows.slice(3));
      expect(await faixa('rows_limit=1')).toEqual(completo.rows.slice(0, 1));
      expect(await faixa('rows_from=4')).toEqual([]);
      for (const q of ['rows_from=-1', 'rows_from=1001', 'rows_limit=0', 'rows_limit=1001', 'rows_from=x', 'rows_limit=1.5']) {
        const r = await sub.call('GET', `${LOTE}/${id}?${q}`);
        expect(r.status).toBe(400);
        expect(r.body.error.code).toBe('validacao');
      }
    });
  });

  describe('the list of batches', () => {
    it("each batch with its report's progress, newest first; by page or cursor; filters; another company sees none", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const [k] = await chaves(1);
        const r = await criar(lote([{ chave: k, valor: 10 + i }]));
        expect(r.status).toBe(202);
        ids.push(r.body.data.batch_id);
      }
      const reports = await Promise.all(ids.map(async (id) => (await relatorioFinal(sub, id)).body.data));
      const all = (await sub.call('GET', `${LOTE}?per_page=100`)).body;
      expect(all.meta.next_cursor).toBeNull();
      const listed = new Map(all.data.map((b: { batch_id: string }) => [b.batch_id, b]));
      for (const report of reports) {
        const { rows: _rows, ...semLinhas } = report;
        expect(listed.get(report.batch_id)).toEqual(semLinhas);
      }
      const newest = all.data.map((b: { created_at: string }) => b.created_at);
      expect(newest).toEqual([...newest].sort().reverse());
      // By cursor, one at a time: the same batches in the same order.
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { data: { batch_id: string }[]; meta: { next_cursor: string | null } } = (
          await sub.call('GET', `${LOTE}?per_page=1${cursor ? `&cursor=${cursor}` : ''}`)
        ).body;
        walked.push(...page.data.map((b) => b.batch_id));
        cursor = page.meta.next_cursor;
      } while (cursor);
      expect(walked).toEqual(all.data.map((b: { batch_id: string }) => b.batch_id));
      const done = (await sub.call('GET', `${LOTE}?status=done&per_page=100`)).body.data;
      expect(done.every((b: { status: string }) => b.status === 'done')).toBe(true);
      expect(done.map((b: { batch_id: string }) => b.batch_id)).toEqual(expect.arrayContaining(ids));
      const stranger = await app.carrier();
      expect((await stranger.call('GET', LOTE)).body).toMatchObject({ data: [], meta: { total: 0, next_cursor: null } });
      expectError(await sub.call('GET', `${LOTE}?cursor=bm90LWEtY3Vyc29y`), 400, 'validacao');
      expectError(await sub.call('GET', `${LOTE}?status=talvez`), 400, 'validacao');
      expectError(await sub.call('GET', `${LOTE}?from=2026-02-02&to=2026-02-01`), 400, 'validacao');
    });
  });

  describe('refused before anything is created', () => {
    it('422 lote_invalido: keys with and without pernas mixed (rule 2)', async () => {
      const [a, b] = await chaves(2);
      const body = expectError(
        await criar(
          lote([
            { chave: a, valor: 1 },
            { chave: b, pernas: [{ valor: 1 }] },
          ]),
        ),
        422,
        'lote_invalido',
      );
      expect(body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['ctes']);
    });

    it('422 lote_invalido: valor together with valores.frete_bruto, and neither', async () => {
      const [a, b] = await chaves(2);
      const both = expectError(
        await criar(lote([{ chave: a, valor: 1 }, { chave: b }], { valores: { frete_bruto: 10 } })),
        422,
        'lote_invalido',
      );
      expect(both.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['valores.frete_bruto', 'ctes.0.valor']);
      const neither = expectError(await criar(lote([{ chave: a, valor: 1 }, { chave: b }])), 422, 'lote_invalido');
      expect(neither.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['ctes.1.valor']);
    });

    it('422 lote_invalido: tipo_servico 2 or 3 without origem/destino after precedence', async () => {
      const a = await receber();
      const body = expectError(
        await criar(lote([{ chave: a, pernas: [{ valor: 1, destino: RIO }] }], { tipo_servico: 3 })),
        422,
        'lote_invalido',
      );
      expect(body.error.details.fields).toEqual([{ field: 'ctes.0.pernas.0.origem', message: expect.stringMatching(/tipo_servico 3/) }]);
    });

    it("422 motorista_nao_encontrado / veiculo_nao_encontrado in the subcontractor's registry, naming the leg", async () => {
      const a = await receber();
      const m = expectError(
        await criar(lote([{ chave: a, pernas: [{ valor: 1 }, { valor: 1, motorista: { cpf: '39053344705' } }] }])),
        422,
        'motorista_nao_encontrado',
      );
      expect(m.error.message).toMatch(/^ctes\.0\.pernas\.1: driver 39053344705 /);
      const v = expectError(await criar(lote([{ chave: a, pernas: [{ valor: 1, placa: 'QWE1J23' }] }])), 422, 'veiculo_nao_encontrado');
      expect(v.error.message).toMatch(/^ctes\.0\.pernas\.0: vehicle QWE1J23 /);
      expectError(await criar(lote([{ chave: a, valor: 1 }], { placa: 'QWE1J23' })), 422, 'veiculo_nao_encontrado');
    });

    it('400 validacao with error.details.fields: shape, check digits, IBGE pairs', async () => {
      const a = await receber();
      const shape = expectError(await criar(lote([{ chave: a.slice(1), valor: 1.005, tipo_servico: 4 }])), 400, 'validacao');
      expect(shape.error.details.fields.map((f: { field: string }) => f.field)).toEqual(
        expect.arrayContaining(['ctes.0.chave', 'ctes.0.valor', 'ctes.0.tipo_servico']),
      );
      const broken = a.slice(0, 43) + String((Number(a[43]) + 1) % 10);
      const rules = expectError(
        await criar(lote([{ chave: broken, valor: 1, origem: { municipio: 'Gotham', uf: 'SP' }, destino: RIO }])),
        400,
        'validacao',
      );
      expect(rules.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['ctes.0.chave', 'ctes.0.origem.municipio']);
      expectError(await criar({ ...lote([{ chave: a, valor: 1 }]), subcontratada: { cnpj: '123' } }), 400, 'validacao');
      expectError(await criar(lote([])), 400, 'validacao');
    });

    it('400 validacao past the caps: 1,001 keys, or more than 1,000 rows counting legs; nothing is created', async () => {
      const a = await receber();
      const before = await totalCtes();
      const chaves = expectError(await criar(lote(Array.from({ length: 1001 }, () => ({ chave: a, valor: 1 })))), 400, 'validacao');
      expect(chaves.error.details.fields.map((f: { field: string }) => f.field)).toContain('ctes');
      const pernas = Array.from({ length: 20 }, () => ({ valor: 1 }));
      const linhas = expectError(await criar(lote(Array.from({ length: 51 }, () => ({ chave: a, pernas })))), 400, 'validacao');
      expect(linhas.error.details.fields).toEqual([{ field: 'ctes', message: expect.stringMatching(/^1020 rows .* at most 1000$/) }]);
      expect(await totalCtes()).toBe(before);
    });
  });

  describe('Idempotency-Key', () => {
    it('a retry answers the same batch and creates nothing new', async () => {
      const a = await receber();
      const headers = { 'idempotency-key': `lote-${a.slice(-12)}` };
      const first = await criar(lote([{ chave: a, valor: 5 }]), sub, headers);
      expect(first.status).toBe(202);
      const report = await relatorioFinal(sub, first.body.data.batch_id);
      const before = await totalCtes();
      const retry = await criar(lote([{ chave: a, valor: 5 }]), sub, headers);
      expect(retry.status).toBe(202);
      expect(retry.body.data.batch_id).toBe(first.body.data.batch_id);
      expect((await relatorioFinal(sub, first.body.data.batch_id)).body.data).toEqual(report.body.data);
      expect(await totalCtes()).toBe(before);
    });
  });

  describe('redelivery', () => {
    it('processing lote.criado again prepares, records and sends nothing new', async () => {
      const ks = await chaves(2);
      const r = await criar(lote(ks.map((chave) => ({ chave, valor: 9 }))));
      const report = (await relatorioFinal(sub, r.body.data.batch_id)).body.data;
      const store = app.running.platform.store;
      const stream = await store.readStream(`lote-${r.body.data.batch_id}`);
      const before = await totalCtes();
      const p = app.running.platform;
      const processador = new ProcessadorLote({
        store,
        contraCte: app.running.application.contraCte,
        emissor: app.running.application.emissorCte,
        clock: p.clock,
        readYourWrites: p.readYourWrites,
      });
      await processador.aoEvento(stream[0]!);
      await processador.aoEvento(stream[stream.length - 1]!);
      expect((await store.readStream(`lote-${r.body.data.batch_id}`)).map((e) => e.id)).toEqual(stream.map((e) => e.id));
      expect(await totalCtes()).toBe(before);
      expect((await relatorioFinal(sub, r.body.data.batch_id)).body.data).toEqual(report);
    });
  });

  describe('emission grants and tenancy', () => {
    let con: TestCarrier;
    let outra: TestCarrier;
    beforeAll(async () => {
      con = await app.carrier({ name: 'CONTRATANTE GRANDE TRANSPORTES SA' });
      outra = await app.carrier({ name: 'OUTRA TRANSPORTADORA LTDA' });
    });
    const doContratante = (chave: string) => ({
      ...lote([{ chave, valor: 80 }]),
      subcontratada: { cnpj: sub.cnpj.replace(/^(..)(...)(...)(....)(..)$/, '$1.$2.$3/$4-$5') },
    });

    it('403 emissao_nao_autorizada without a grant, and for an unknown CNPJ', async () => {
      const k = await receber({}, con.cnpj);
      expectError(await criar(doContratante(k), con), 403, 'emissao_nao_autorizada');
      expectError(await criar({ ...doContratante(k), subcontratada: { cnpj: randomCnpj() } }, con), 403, 'emissao_nao_autorizada');
    });

    it("with an active grant: 202, the batch on the subcontractor's account with the contractor as requester; revoking stops new batches only", async () => {
      expect((await sub.call('POST', '/v1/fiscal/cte-subcontratacao/autorizacoes', { contratante: { cnpj: con.cnpj } })).status).toBe(201);
      const k = await receber({}, con.cnpj);
      const r = await criar(doContratante(k), con);
      expect(r.status).toBe(202);
      const batchId = r.body.data.batch_id;
      const asCon = (await relatorioFinal(con, batchId)).body.data;
      expect(asCon).toMatchObject({
        status: 'done',
        requester: { cnpj: con.cnpj, nome: 'CONTRATANTE GRANDE TRANSPORTES SA' },
        subcontratada: { cnpj: sub.cnpj },
      });
      expect(asCon.rows[0]).toMatchObject({ chave: k, status: 'emitted' });
      expect((await sub.call('GET', `${LOTE}/${batchId}`)).body.data).toEqual(asCon);
      // The counter-CT-e is the subcontractor's document.
      expect((await cte(asCon.rows[0].counter_cte_id)).contra_cte.contratante_cnpj).toBe(con.cnpj);
      expectError(await con.call('GET', `/v1/fiscal/cte/${asCon.rows[0].counter_cte_id}`), 404, 'nao_encontrado');
      // A third carrier has no grant from the subcontractor.
      expectError(await criar(doContratante(k), outra), 403, 'emissao_nao_autorizada');

      expect((await sub.call('DELETE', `/v1/fiscal/cte-subcontratacao/autorizacoes/${con.cnpj}`)).status).toBe(200);
      expectError(await criar(doContratante(await receber({}, con.cnpj)), con), 403, 'emissao_nao_autorizada');
      expect((await con.call('GET', `${LOTE}/${batchId}`)).body.data).toEqual(asCon);
    });

    it("404 lote_nao_encontrado: missing, malformed, or another carrier's batch", async () => {
      const k = await receber();
      const r = await criar(lote([{ chave: k, valor: 3 }]));
      expect(r.status).toBe(202);
      expectError(await outra.call('GET', `${LOTE}/${r.body.data.batch_id}`), 404, 'lote_nao_encontrado');
      expectError(await sub.call('GET', `${LOTE}/00000000-0000-4000-8000-000000000000`), 404, 'lote_nao_encontrado');
      expectError(await sub.call('GET', `${LOTE}/not-a-batch`), 404, 'lote_nao_encontrado');
      await relatorioFinal(sub, r.body.data.batch_id);
    });
  });
});
