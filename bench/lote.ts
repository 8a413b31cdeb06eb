import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';
import { loadConfig } from '@frete/platform';
import { type RunningServices, startServices } from '@frete/server';
import { randomCnpj, request, type ApiResponse } from '../test/support/http';
import { makeA1 } from '../test/support/certificates';
import { buildCteXml, nfeKey } from '../test/support/cte-xml';
import { appendsEntre, type ContagemAppends, contarAppends, contarSql, cpuDosDescendentesMs, executar, imprimirResultado } from './comum';
import { pisoDoDocumento } from './documento';

/**
 * Counter-CT-e batch throughput: the service as `pnpm start` runs it (embedded PostgreSQL, every service in this
 * process; the processors on Kafka when KAFKA_BROKERS is set), a carrier made through the operator, N contractor CT-e
 * received, then a 1:1 batch of N keys and a legs batch of N/5 keys × 5 legs. Prints, per batch, keys per second from
 * the POST to the report's last row, and the time until the report is `done` (every counter-CT-e authorized and its
 * payout registered). BENCH_KEYS sets N (default 1000). Runs on node against the built code (`pnpm bench:lote`).
 *
 * The anchor, measured in the same run: the CPU a document cannot avoid (its build, raw crypto of its signature made
 * and checked, libxml2's schema check; see `pisoDoDocumento`), so `razao_cpu_piso` says how far this process's CPU
 * (API, processors and projector) per row is from that floor, to the last row.
 *
 * Counted from the POST to `done`, per key (and per row for legs): the appends to the event store (calls and events,
 * by stream category: the name's prefix before its first '-'), counted on the store every writer appends through; the
 * SQL statements of the platform's two pools, all told (this bench's report GETs among them, and said apart); the CPU
 * of this process plus embedded PostgreSQL's, and their sum per row against the floor (`razao_cpu_total_piso`, issue
 * 27's target ≤ 10×). Each batch starts on a quiet service: what a batch still appends after `done` is printed apart.
 */
const KEYS = Number(process.env.BENCH_KEYS ?? 1000);
const LEG_KEYS = Math.max(1, Math.round(KEYS / 5));
const CONCURRENCY = 16;
export const CPF = '52998224725';
export const PLACA = 'ABC1D23';
const LEGS = [
  [
    { municipio: 'Campinas', uf: 'SP' },
    { municipio: 'Jundiaí', uf: 'SP' },
  ],
  [
    { municipio: 'Jundiaí', uf: 'SP' },
    { municipio: 'São Paulo', uf: 'SP' },
  ],
  [
    { municipio: 'São Paulo', uf: 'SP' },
    { municipio: 'São José dos Campos', uf: 'SP' },
  ],
  [
    { municipio: 'São José dos Campos', uf: 'SP' },
    { municipio: 'Resende', uf: 'RJ' },
  ],
  [
    { municipio: 'Resende', uf: 'RJ' },
    { municipio: 'Rio de Janeiro', uf: 'RJ' },
  ],
].map(([origem, destino]) => ({ origem, destino }));

export type Call = (method: string, route: string, body?: unknown) => Promise<ApiResponse>;

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const perSecond = (n: number, ms: number) => (n / (ms / 1000)).toFixed(1);

export async function ok(res: Promise<ApiResponse>, status: number, what: string): Promise<ApiResponse> {
  const r = await res;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r;
}

/** Runs `task` over `items`, CONCURRENCY at a time. */
export async function inParallel<T, R>(items: T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await task(items[i]!);
      }
    }),
  );
  return out;
}

/** Configuration, A1 certificate, tax rules of the legs' UF pairs, one driver and one vehicle. */
export async function prepararEmissora(call: Call, cnpj: string): Promise<void> {
  await ok(
    call('PUT', '/v1/fiscal/configuracao', {
      inscricao_estadual: '110042490114',
      regime_tributario: 3,
      rntrc: '12345678',
      serie_cte: 1,
      endereco: { logradouro: 'AVENIDA PAULISTA', numero: '1000', bairro: 'BELA VISTA', municipio: 'São Paulo', uf: 'SP', cep: '01310100' },
    }),
    200,
    'configuracao',
  );
  const a1 = makeA1({ cnpj, razao: 'BENCH TRANSPORTES LTDA', password: 'senha-a1', cnpjIn: 'otherName' });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(a1.pfx)], { type: 'application/x-pkcs12' }), 'empresa.pfx');
  form.append('cert_pass', 'senha-a1');
  await ok(call('POST', '/v1/fiscal/certificado', form), 201, 'certificado');
  for (const [uf_origem, uf_destino] of [
    ['SP', 'SP'],
    ['SP', 'RJ'],
    ['RJ', 'RJ'],
  ]) {
    await ok(call('POST', '/v1/fiscal/regras-tributacao', { uf_origem, uf_destino, icms: { cst: '00', aliquota: 12 } }), 201, 'regra');
  }
  await ok(call('POST', '/v1/fiscal/motoristas', { cpf: CPF, nome: 'JOAO MOTORISTA' }), 201, 'motorista');
  await ok(call('POST', '/v1/fiscal/veiculos', { placa: PLACA }), 201, 'veiculo');
}

/** `n` CT-e of one contractor received in the carrier's inbox, CONCURRENCY at a time; their keys, for a batch. */
export async function receberContratantes(call: Call, n: number): Promise<string[]> {
  const contratante = randomCnpj();
  return inParallel(
    Array.from({ length: n }, (_, i) => i),
    async () => {
      const { chave, xml } = buildCteXml({ emitenteCnpj: contratante, nfeChaves: [nfeKey()] });
      await ok(call('POST', '/v1/fiscal/cte-subcontratacao', { xml }), 201, 'inbox');
      return chave;
    },
  );
}

export interface Medida {
  rows: number;
  postMs: number;
  lastRowMs: number;
  /** This process's CPU from the POST to the last row. */
  cpuMs: number;
  /** Embedded PostgreSQL's CPU over the same span (0 when it is not this process's child). */
  pgCpuMs: number;
  doneMs: number;
  /** This process's CPU and embedded PostgreSQL's from the POST to the report's `done` (payouts included). */
  cpuMsConcluido: number;
  pgCpuMsConcluido: number;
  /** What the service sent to PostgreSQL and appended from the POST to `done`, when the caller counts. */
  contagem: Contagem | null;
  status: string;
  emitted: number;
}

/** What a batch is counted with (bench/lote): running totals of the service's SQL and appends. */
export interface Contadores {
  /** SQL statements this process's platform pools sent so far. */
  sql(): number;
  /** Of those, the API reads' pool (`readPool`): where this bench's own report GETs run. */
  sqlLeituras(): number;
  /** Not among them: the simulated authority's statements (it stands in for the state's web service). */
  sqlAutoridade(): number;
  appends(): ContagemAppends;
}

export interface Contagem {
  /** Every SQL statement from the POST to `done`, all told: API, processors, projector, this bench's report GETs. */
  sql: number;
  /** Of those, the read pool's while one of this bench's report GETs was under way. */
  sqlRelatorio: number;
  /** The simulated authority's statements over the same span, not in `sql`. */
  sqlAutoridade: number;
  gets: number;
  appends: ContagemAppends;
}

/** With BENCH_SQL_POR_COMANDO=1, the statements counted by their text: the 1:1 batch's most frequent are printed. */
const SQL_POR_COMANDO = process.env.BENCH_SQL_POR_COMANDO ? new Map<string, number>() : undefined;

/**
 * With BENCH_PERFIL=<dir>, the main thread's CPU profile of the 1:1 batch alone is written there (open it in Chrome's
 * DevTools or speedscope): where a key's time goes, without the setup around it.
 */
const PERFIL = process.env.BENCH_PERFIL;

async function perfilar(dir: string | undefined): Promise<{ parar(nome: string): Promise<void> }> {
  if (!dir) return { parar: async () => {} };
  const sessao = new inspector.Session();
  sessao.connect();
  const post = (metodo: string) => new Promise<unknown>((ok_, falha) => sessao.post(metodo, (err, res) => (err ? falha(err) : ok_(res))));
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    async parar(nome) {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${nome}-${process.pid}.cpuprofile`), JSON.stringify(profile));
      sessao.disconnect();
    },
  };
}

/** Counts from now on the SQL statements of the service's two platform pools and the appends to its event store. */
export function contadoresDoServico(running: RunningServices): Contadores {
  const { pool, readPool, store } = running.platform;
  const processos = contarSql(pool, SQL_POR_COMANDO);
  // A test hands in one pool for both; here they are two, counted apart.
  const leituras = readPool === pool ? () => ({ servico: 0, autoridade: 0 }) : contarSql(readPool, SQL_POR_COMANDO);
  // `store.recorded` is what the upcasting store appends through: every writer's append passes there.
  const appends = contarAppends(store.recorded);
  return {
    sql: () => processos().servico + leituras().servico,
    sqlLeituras: () => leituras().servico,
    sqlAutoridade: () => processos().autoridade + leituras().autoridade,
    appends,
  };
}

/**
 * Posts a batch and follows its report: when the last row appears, and when the batch leaves `processing`. With
 * `contadores`, counts the SQL statements and appends from the POST to then.
 */
export async function medirLote(call: Call, body: unknown, rows: number, contadores?: Contadores): Promise<Medida> {
  const sql0 = contadores?.sql() ?? 0;
  const autoridade0 = contadores?.sqlAutoridade() ?? 0;
  const appends0 = contadores?.appends();
  let sqlRelatorio = 0;
  let gets = 0;
  const cpu0 = process.cpuUsage();
  const pg0 = cpuDosDescendentesMs();
  const t0 = Date.now();
  const r = await ok(call('POST', '/v1/fiscal/cte-subcontratacao/lote', body), 202, 'lote');
  const postMs = Date.now() - t0;
  let lastRowMs = 0;
  let cpuMs = 0;
  let pgCpuMs = 0;
  for (;;) {
    const leituras0 = contadores?.sqlLeituras() ?? 0;
    const report = await ok(call('GET', r.body.data.report), 200, 'report');
    sqlRelatorio += (contadores?.sqlLeituras() ?? 0) - leituras0;
    gets++;
    const data = report.body.data as { status: string; rows: { status: string }[] };
    if (!lastRowMs && data.rows.length === rows) {
      lastRowMs = Date.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      cpuMs = (cpu.user + cpu.system) / 1000;
      pgCpuMs = cpuDosDescendentesMs() - pg0;
    }
    if (data.status !== 'processing') {
      const doneMs = Date.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const pgCpuMsConcluido = cpuDosDescendentesMs() - pg0;
      return {
        rows,
        postMs,
        lastRowMs,
        cpuMs,
        pgCpuMs,
        doneMs,
        cpuMsConcluido: (cpu.user + cpu.system) / 1000,
        pgCpuMsConcluido,
        contagem: contadores
          ? {
              sql: contadores.sql() - sql0,
              sqlRelatorio,
              sqlAutoridade: contadores.sqlAutoridade() - autoridade0,
              gets,
              appends: appendsEntre(appends0!, contadores.appends()),
            }
          : null,
        status: data.status,
        emitted: data.rows.filter((x) => x.status === 'emitted').length,
      };
    }
    // A 1000-row report is not free to serialize: polling it faster would slow what it measures.
    await new Promise((res) => setTimeout(res, 500));
  }
}

/**
 * Waits until nothing has been appended for `quietoMs` (at most `maxMs`): what a batch's flows still append after
 * its report says `done` is not the next batch's. Returns those appends and how long they took to stop.
 */
async function aguardarQuietude(contadores: Contadores, quietoMs = 1000, maxMs = 15_000) {
  const a0 = contadores.appends();
  const t0 = Date.now();
  let ultimo = a0;
  let desde = Date.now();
  while (Date.now() - desde < quietoMs && Date.now() - t0 < maxMs) {
    await new Promise((res) => setTimeout(res, 100));
    const agora = contadores.appends();
    if (agora.chamadas !== ultimo.chamadas) {
      ultimo = agora;
      desde = Date.now();
    }
  }
  return { appends: appendsEntre(a0, ultimo), ms: desde - t0 };
}

async function main(): Promise<void> {
  const piso = await pisoDoDocumento(300);
  const kafka = process.env.KAFKA_BROKERS?.trim();
  const servico = await iniciarServico('lote');
  try {
    const { call, cnpj } = servico;
    await prepararEmissora(call, cnpj);

    const tReceipt = Date.now();
    const chaves = await receberContratantes(call, KEYS + LEG_KEYS);
    const receiptMs = Date.now() - tReceipt;

    const contadores = contadoresDoServico(servico.running);
    // What the service sends on its own, idle (the subscriptions' and the projector's polling), for the reader.
    await aguardarQuietude(contadores);
    const ociosoMs = 2000;
    const ocioso0 = contadores.sql();
    await new Promise((res) => setTimeout(res, ociosoMs));
    const sqlOciosoPorS = ((contadores.sql() - ocioso0) / ociosoMs) * 1000;

    // The counts checked against the table: the events a batch added to es_events, to the quiet after its `done`.
    const eventosGravados = async () =>
      Number((await servico.running.platform.pool.query<{ n: string }>('SELECT count(*) AS n FROM es_events')).rows[0]!.n);
    const depois = async (g0: number): Promise<Cauda> => {
      const cauda = await aguardarQuietude(contadores);
      return { ...cauda, gravados: (await eventosGravados()) - g0 };
    };

    const base = { subcontratada: { cnpj }, motorista: { cpf: CPF }, placa: PLACA };
    const g1 = await eventosGravados();
    SQL_POR_COMANDO?.clear();
    const perfil = await perfilar(PERFIL);
    const umPraUm = await medirLote(
      call,
      { ...base, ctes: chaves.slice(0, KEYS).map((chave) => ({ chave })), valores: { frete_bruto: KEYS * 100 } },
      KEYS,
      contadores,
    );
    await perfil.parar('lote-1a1');
    const caudaUmPraUm = await depois(g1);
    if (SQL_POR_COMANDO) {
      const maiores = [...SQL_POR_COMANDO].sort(([, a], [, b]) => b - a).slice(0, 40);
      process.stdout.write(
        `\nSQL per key of the 1:1 batch, by statement:\n${maiores.map(([t, n]) => `${(n / KEYS).toFixed(2).padStart(7)}  ${t}`).join('\n')}\n`,
      );
    }
    const g2 = await eventosGravados();
    const pernas = await medirLote(
      call,
      {
        ...base,
        ctes: chaves.slice(KEYS).map((chave) => ({ chave, pernas: LEGS.map((l) => ({ ...l, valor: 20 })) })),
      },
      LEG_KEYS * LEGS.length,
      contadores,
    );
    const caudaPernas = await depois(g2);

    const lines = [
      `counter-CT-e batch benchmark · ${kafka ? `processors on Kafka ${kafka}` : 'processors on event-store subscriptions'} · embedded PostgreSQL`,
      `  received ${chaves.length} contractor CT-e in ${seconds(receiptMs)} (${perSecond(chaves.length, receiptMs)}/s, ${CONCURRENCY} at a time)`,
      `  document floor ${piso.toFixed(3)} CPU ms · idle service ${sqlOciosoPorS.toFixed(1)} SQL statements/s`,
      `  1:1   ${KEYS} keys: POST ${umPraUm.postMs} ms · last row after ${seconds(umPraUm.lastRowMs)} (${perSecond(KEYS, umPraUm.lastRowMs)} keys/s) · ` +
        `${umPraUm.status} after ${seconds(umPraUm.doneMs)} (${umPraUm.emitted} emitted) · CPU ms/key: node ` +
        `${(umPraUm.cpuMs / KEYS).toFixed(1)}, PostgreSQL ${(umPraUm.pgCpuMs / KEYS).toFixed(1)}`,
      ...contados(umPraUm, KEYS, piso, caudaUmPraUm),
      `  legs  ${LEG_KEYS} keys × ${LEGS.length} legs = ${pernas.rows} rows: POST ${pernas.postMs} ms · last row after ${seconds(pernas.lastRowMs)} ` +
        `(${perSecond(LEG_KEYS, pernas.lastRowMs)} keys/s, ${perSecond(pernas.rows, pernas.lastRowMs)} rows/s) · ${pernas.status} after ${seconds(pernas.doneMs)} ` +
        `(${pernas.emitted} emitted) · CPU ms/row: node ${(pernas.cpuMs / pernas.rows).toFixed(1)}, PostgreSQL ${(pernas.pgCpuMs / pernas.rows).toFixed(1)}`,
      ...contados(pernas, LEG_KEYS, piso, caudaPernas),
    ];
    process.stdout.write(`\n${lines.join('\n')}\n\n`);
    if (umPraUm.status !== 'done' || umPraUm.emitted !== KEYS)
      throw new Error(`1:1 batch ended ${umPraUm.status} with ${umPraUm.emitted} emitted`);
    if (pernas.status !== 'done' || pernas.emitted !== pernas.rows)
      throw new Error(`legs batch ended ${pernas.status} with ${pernas.emitted} emitted`);
    const r2 = (x: number) => Number(x.toFixed(2));
    const figuras = (m: Medida, chaves: number, cauda: Cauda) => {
      const c = m.contagem!;
      const cpuTotal = m.cpuMsConcluido + m.pgCpuMsConcluido;
      return {
        chaves_por_s: Number((chaves / (m.lastRowMs / 1000)).toFixed(1)),
        linhas_por_s: Number((m.rows / (m.lastRowMs / 1000)).toFixed(1)),
        cpu_ms_por_chave: r2(m.cpuMs / chaves),
        cpu_ms_por_linha: r2(m.cpuMs / m.rows),
        cpu_postgres_ms_por_chave: r2(m.pgCpuMs / chaves),
        ms_ate_ultima_linha: m.lastRowMs,
        ms_ate_concluido: m.doneMs,
        razao_cpu_piso: Number((m.cpuMs / m.rows / piso).toFixed(1)),
        // From the POST to `done`, counted.
        appends_por_chave: r2(c.appends.chamadas / chaves),
        eventos_por_chave: r2(c.appends.eventos / chaves),
        appends_por_linha: r2(c.appends.chamadas / m.rows),
        appends_conflitos: c.appends.conflitos,
        appends_por_categoria: Object.fromEntries(
          Object.entries(c.appends.porCategoria)
            .sort(([, a], [, b]) => b.chamadas - a.chamadas)
            .map(([k, v]) => [k, { appends_por_chave: r2(v.chamadas / chaves), eventos_por_chave: r2(v.eventos / chaves) }]),
        ),
        appends_apos_concluido: cauda.appends.chamadas,
        eventos_gravados_es_events: cauda.gravados,
        sql_por_chave: r2(c.sql / chaves),
        sql_por_linha: r2(c.sql / m.rows),
        sql_relatorio_por_chave: r2(c.sqlRelatorio / chaves),
        sql_autoridade_simulada_por_chave: r2(c.sqlAutoridade / chaves),
        gets_relatorio: c.gets,
        cpu_node_ms_por_chave_ate_concluido: r2(m.cpuMsConcluido / chaves),
        cpu_postgres_ms_por_chave_ate_concluido: r2(m.pgCpuMsConcluido / chaves),
        cpu_total_ms_por_chave: r2(cpuTotal / chaves),
        cpu_total_ms_por_linha: r2(cpuTotal / m.rows),
        razao_cpu_total_piso: Number((cpuTotal / m.rows / piso).toFixed(1)),
      };
    };
    imprimirResultado('lote', {
      chaves: KEYS,
      processadores: kafka ? 'kafka' : 'assinaturas do event store',
      piso_ms_por_documento: Number(piso.toFixed(3)),
      sql_ocioso_por_s: Number(sqlOciosoPorS.toFixed(1)),
      alvo_chaves_por_s: 150,
      alvo_appends_por_chave: 3,
      alvo_sql_por_chave: 15,
      alvo_razao_cpu_total_piso: 10,
      um_para_um: figuras(umPraUm, KEYS, caudaUmPraUm),
      pernas: figuras(pernas, LEG_KEYS, caudaPernas),
    });
  } finally {
    await servico.parar();
  }
}

/** What a batch appended after its `done` until the service was quiet, and the rows it added to es_events in all. */
type Cauda = Awaited<ReturnType<typeof aguardarQuietude>> & { gravados: number };

/**
 * The counted lines of a batch, from its POST to `done`: appends per key by stream category (appends, and events in
 * parentheses), SQL statements per key all told, CPU per key of node and PostgreSQL and their sum against the floor
 * (per row, a row being one document), and what was still appended after `done`.
 */
function contados(m: Medida, chaves: number, piso: number, cauda: Cauda): string[] {
  const c = m.contagem!;
  const porChave = (n: number) => (n / chaves).toFixed(2);
  const porLinha = (n: number) => (m.rows === chaves ? '' : `, ${(n / m.rows).toFixed(2)}/row`);
  const categorias = Object.entries(c.appends.porCategoria)
    .sort(([, a], [, b]) => b.chamadas - a.chamadas)
    .map(([k, v]) => `${k} ${porChave(v.chamadas)} (${porChave(v.eventos)})`)
    .join(' · ');
  const cpuTotal = m.cpuMsConcluido + m.pgCpuMsConcluido;
  const cauda_ =
    cauda.appends.chamadas > 0
      ? ` · after done: ${cauda.appends.chamadas} appends (${cauda.appends.eventos} events) within ${seconds(cauda.ms)}`
      : '';
  return [
    `        POST → done: appends/key ${porChave(c.appends.chamadas)}${porLinha(c.appends.chamadas)} (events ${porChave(c.appends.eventos)}), ` +
      `${c.appends.conflitos} conflicts · by category, appends (events): ${categorias}${cauda_} · es_events +${cauda.gravados} rows`,
    `        SQL statements/key ${porChave(c.sql)}${porLinha(c.sql)} all told (${porChave(c.sqlRelatorio)} of them this bench's ${c.gets} report GETs; ` +
      `not counted: ${porChave(c.sqlAutoridade)} of the simulated authority) · ` +
      `CPU ms/key: node ${porChave(m.cpuMsConcluido)} + PostgreSQL ${porChave(m.pgCpuMsConcluido)} = ${porChave(cpuTotal)}` +
      `${porLinha(cpuTotal)}, ${(cpuTotal / m.rows / piso).toFixed(1)}× the floor per document`,
  ];
}

export interface Servico {
  running: RunningServices;
  /** The carrier's API key and CNPJ, made through the operator as a deployment makes them. */
  apiKey: string;
  cnpj: string;
  call: Call;
  parar(): Promise<void>;
}

/**
 * The service as `pnpm start` runs it (the embedded default, whatever the shell has) with one carrier made through the
 * operator, its data under `.data/bench/` and removed by `parar`. `nome` names the Kafka topic when KAFKA_BROKERS is set;
 * `env` adds settings (the fiscal authority, the concurrency).
 */
export async function iniciarServico(nome: string, env: Record<string, string> = {}): Promise<Servico> {
  const dataDir = path.resolve(__dirname, '..', '..', '..', '.data', 'bench', `run-${process.pid}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const kafka = process.env.KAFKA_BROKERS?.trim();
  const config = loadConfig({
    ...process.env,
    // The embedded default, whatever the shell has: its own PostgreSQL in DATA_DIR, its own sealing key.
    DATABASE_URL: '',
    EVENTSTORE_URL: '',
    SECRETS_KEY: '',
    DATA_DIR: dataDir,
    PORT: '0',
    // One carrier makes every request here: the per-carrier and per-IP limits are not what is measured.
    RATE_LIMIT_FISCAL_PER_MIN: '100000000',
    RATE_LIMIT_IP_PER_MIN: '100000000',
    ...(kafka ? { KAFKA_TOPIC: `bench-${nome}-${process.pid}-${Date.now()}` } : {}),
    ...env,
  });
  let running: RunningServices | null = null;
  try {
    running = await startServices(config);
    const url = running.url!;
    const operator = running.application.operator;
    const cnpj = randomCnpj();
    await operator.createCompany({
      cnpj,
      razao_social: 'BENCH TRANSPORTES LTDA',
      carrier: true,
      fiscal_ready: true,
      fiscal_production: false,
    });
    const cred = await operator.createCredential({ company: cnpj, kind: 'api-key', scopes: ['fiscal'] });
    if (cred.kind !== 'api-key') throw new Error('expected an API key');
    const apiKey = cred.api_key;
    const call: Call = (method, route, body) => request(url + route, method, body, { authorization: `Bearer ${apiKey}` });
    const r = running;
    return {
      running: r,
      apiKey,
      cnpj,
      call,
      parar: async () => {
        await r.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await running?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

// Imported by other benches for its helpers: it runs only as a script.
if (require.main === module) executar(main);
