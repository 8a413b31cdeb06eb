import autocannon from 'autocannon';
import Fastify from 'fastify';
import { Pool } from 'pg';
import { rascunhoEmitivel } from '../test/support/rascunho';
import { contarSql, executar, imprimirResultado, mediana, REPETICOES, resumo } from './comum';
import { CPF, iniciarServico, ok, PLACA, prepararEmissora, receberContratantes, type Call } from './lote';

/**
 * Reads as users make them, on the service as `pnpm start` runs it (embedded PostgreSQL, every service in this process).
 *
 * 1. `GET /v1/fiscal/cte/{id}` of one authorized CT-e under autocannon (10 connections, 5 s after a 2 s warm-up), and
 *    in the same run the anchor: a bare Fastify + `pg` server, one route, one query on the same row of `rm.ctes` in the
 *    same database, answering at least as many bytes, loaded the same way. Requests/s, p50/p99 and this process's CPU ms per
 *    request of both, and the ratio product/bare (target ≥ 0.7×). The autocannon client runs in this process too, so
 *    its CPU is in both figures; the ratio of requests/s is the one the target is about.
 * 2. The batch report while a 1:1 batch of BENCH_KEYS keys (default 1000) runs, read as a client following it reads it:
 *    every 100 ms, the rows from the first it does not yet have final (`rows_from`, pages of 100) with the whole batch's
 *    `progress`, until the batch is done; p50/p99/max of those GETs (target p99 ≤ 50 ms), and the GETs at the start of
 *    the batch against the end (the report should cost the same whatever rows it already has). On the quiet service
 *    after, the CPU of a GET of the whole finished report and of its last page.
 *
 * Also: SQL statements per `GET /v1/fiscal/cte/{id}`, counted by wrapping the platform pools' `query` and `connect`.
 */
const KEYS = Number(process.env.BENCH_KEYS ?? 1000);
const CONEXOES = 10;
const AQUECIMENTO_S = 2;
const DURACAO_S = 5;
const PASSO_RELATORIO_MS = 100;
const PAGINA_RELATORIO = 100;

interface Carga {
  reqPorS: number;
  p50: number;
  p99: number;
  cpuMsPorReq: number;
}

/** One autocannon load of `url`: a warm-up (not counted), then the measured run with this process's CPU around it. */
async function carregar(url: string, headers: Record<string, string>): Promise<Carga> {
  const opcoes = { url, headers, connections: CONEXOES };
  await autocannon({ ...opcoes, duration: AQUECIMENTO_S });
  const cpu0 = process.cpuUsage();
  const r = await autocannon({ ...opcoes, duration: DURACAO_S });
  const cpu = process.cpuUsage(cpu0);
  if (r.errors || r.non2xx || !r['2xx']) throw new Error(`${url}: ${r.errors} errors, ${r.non2xx} non-2xx, ${r['2xx']} 2xx`);
  return {
    reqPorS: r['2xx'] / DURACAO_S,
    p50: r.latency.p50,
    p99: r.latency.p99,
    cpuMsPorReq: (cpu.user + cpu.system) / 1000 / r['2xx'],
  };
}

/** A draft SP → RJ issued and polled until the (simulated) authority authorizes it; its id. */
async function cteAutorizado(call: Call): Promise<string> {
  const d = await ok(call('POST', '/v1/fiscal/cte', rascunhoEmitivel()), 201, 'rascunho');
  const id = d.body.data.id as string;
  await ok(call('POST', `/v1/fiscal/cte/${id}/emissao`), 202, 'emissao');
  for (let i = 0; i < 300; i++) {
    const r = await call('POST', `/v1/fiscal/cte/${id}/consulta`);
    if (r.status === 200) {
      if (r.body.data.situacao !== 'autorizado') throw new Error(`CT-e ${id} is ${r.body.data.situacao}`);
      return id;
    }
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`CT-e ${id} was not authorized in 30 s`);
}

/** The columns the product's `cteOf` reads (projections/src/cte/queries.ts), so that both read the same bytes. */
const COLUNAS =
  'cte_id, company_id, chave, origem, situacao, service_type, xml_sha256, xml_size_bytes, received_count, handoffs, cte, dados, contra_cte, serie, numero, retorno, created_at, updated_at';

/**
 * The anchor: what a GET of one row costs with nothing but Fastify and `pg` — no authentication, no schema, no view.
 * It answers at least `bytes` bytes (the product's answer size), padded when its row is the shorter: the same columns
 * as JSON are in fact the longer (4.6 KB against 3.5 KB), so the anchor puts more on the wire, not less.
 */
async function servidorBruto(connectionString: string, companyId: string, bytes: number, environment: string) {
  const pool = new Pool({ connectionString, max: CONEXOES });
  const ler = async (id: string) =>
    (await pool.query(`SELECT ${COLUNAS} FROM rm.ctes WHERE company_id = $1 AND cte_id = $2`, [companyId, id])).rows[0] as unknown;
  const app = Fastify();
  let pad = '';
  app.get<{ Params: { id: string } }>('/v1/fiscal/cte/:id', async (request, reply) => {
    const row = await ler(request.params.id);
    if (!row) return reply.status(404).send({ error: 'not found' });
    return { data: row, environment, pad };
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    /** Pads the answer of `id` to the product's size (when the bare row is the shorter of the two). */
    igualar: async (id: string) => {
      const tamanho = Buffer.byteLength(JSON.stringify({ data: await ler(id), environment, pad: '' }));
      pad = 'x'.repeat(Math.max(0, bytes - tamanho));
      return tamanho + pad.length;
    },
    parar: async () => {
      await app.close();
      await pool.end();
    },
  };
}

interface Leitura {
  /** ms since the batch POST */
  t: number;
  ms: number;
  linhas: number;
  bytes: number;
  status: string;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
/** Where the run is, on stderr: a stuck step shows itself. */
const etapa = (s: string) => process.stderr.write(`  · ${s}\n`);
const r2 = (x: number) => Number(x.toFixed(2));

async function main(): Promise<void> {
  const servico = await iniciarServico('leitura');
  try {
    const { call, cnpj, apiKey, running } = servico;
    const url = running.url!;
    const auth = { authorization: `Bearer ${apiKey}` };
    await prepararEmissora(call, cnpj);

    // 1. One CT-e GET, product against the bare server.
    etapa('issuing one CT-e');
    const id = await cteAutorizado(call);
    const rota = `/v1/fiscal/cte/${id}`;
    const produto = await ok(call('GET', rota), 200, 'cte');
    const bytes = Buffer.byteLength(produto.text);
    const { rows } = await running.platform.pool.query('SELECT company_id FROM rm.ctes WHERE cte_id = $1', [id]);
    const companyId = (rows[0] as { company_id: string }).company_id;
    const connectionString = running.platform.embedded?.connectionString() ?? running.platform.config.databaseUrl!;
    const bruto = await servidorBruto(connectionString, companyId, bytes, produto.body.environment as string);
    const bytesBruto = await bruto.igualar(id);

    etapa('counting SQL per GET');
    // Both pools: the API reads on its own (readPool), the rest of the service on `pool`.
    const contadores = [...new Set([running.platform.pool, running.platform.readPool])].map((p) => contarSql(p));
    const sqlFeitos = () => contadores.reduce((n, c) => n + c().servico, 0);
    // What the service runs on its own when idle (the projector's polling) is taken out of the count per GET.
    const ociosoMs = 1000;
    const ocioso0 = sqlFeitos();
    await new Promise((res) => setTimeout(res, ociosoMs));
    const ociosoPorMs = (sqlFeitos() - ocioso0) / ociosoMs;
    const GETS = 200;
    const sql0 = sqlFeitos();
    const t0 = performance.now();
    for (let i = 0; i < GETS; i++) await ok(call('GET', rota), 200, 'cte');
    const sqlPorGet = (sqlFeitos() - sql0 - ociosoPorMs * (performance.now() - t0)) / GETS;

    const medidas: { produto: Carga; bruto: Carga }[] = [];
    try {
      for (let i = 0; i < REPETICOES; i++) {
        const p = await carregar(url + rota, auth);
        const b = await carregar(`${bruto.url}/v1/fiscal/cte/${id}`, {});
        medidas.push({ produto: p, bruto: b });
        process.stdout.write(
          `  run ${i + 1}: product ${p.reqPorS.toFixed(0)} req/s p50 ${p.p50} p99 ${p.p99} ms ${p.cpuMsPorReq.toFixed(3)} CPU ms/req · ` +
            `bare ${b.reqPorS.toFixed(0)} req/s p50 ${b.p50} p99 ${b.p99} ms ${b.cpuMsPorReq.toFixed(3)} CPU ms/req · ratio ${(p.reqPorS / b.reqPorS).toFixed(2)}×\n`,
        );
      }
    } finally {
      await bruto.parar();
    }

    // 2. The batch report while a 1:1 batch runs.
    etapa(`receiving ${KEYS} contractor CT-e`);
    const chaves = await receberContratantes(call, KEYS);
    etapa('batch running, its report read');
    const lote = await ok(
      call('POST', '/v1/fiscal/cte-subcontratacao/lote', {
        subcontratada: { cnpj },
        motorista: { cpf: CPF },
        placa: PLACA,
        ctes: chaves.map((chave) => ({ chave })),
        valores: { frete_bruto: KEYS * 100 },
      }),
      202,
      'lote',
    );
    const relatorio = url + (lote.body.data.report as string);
    const tLote = performance.now();
    const leituras: Leitura[] = [];
    // The rows this client already has final are not asked for again: each GET starts at the first still open.
    let desde = 0;
    for (let i = 0; ; i++) {
      // A steady pace from one client: the next GET at its slot, or at once when the last one overran it.
      const espera = tLote + i * PASSO_RELATORIO_MS - performance.now();
      if (espera > 0) await new Promise((res) => setTimeout(res, espera));
      const t = performance.now();
      const res = await fetch(`${relatorio}?rows_from=${desde}&rows_limit=${PAGINA_RELATORIO}`, { headers: auth });
      const texto = await res.text();
      const ms = performance.now() - t;
      if (res.status !== 200) throw new Error(`report: ${res.status} ${texto}`);
      const data = (JSON.parse(texto) as { data: { status: string; rows: { status: string }[] } }).data;
      let finais = 0;
      while (finais < data.rows.length && data.rows[finais]!.status !== 'pending') finais++;
      desde += finais;
      leituras.push({ t: t - tLote, ms, linhas: desde, bytes: Buffer.byteLength(texto), status: data.status });
      if (data.status !== 'processing') break;
    }
    const fim = leituras[leituras.length - 1]!;
    if (fim.status !== 'done') throw new Error(`batch ended ${fim.status}`);
    // The start and the end of the batch: its first and last tenth of GETs (at least 5 each).
    const decimo = Math.max(5, Math.floor(leituras.length / 10));
    const inicio = leituras.slice(0, decimo);
    const final = leituras.slice(-decimo);
    // The finished report's cost on a quiet service, against one CT-e's: CPU of this process per GET, one at a time.
    const cpuPorGet = async (u: string, n: number) => {
      const c0 = process.cpuUsage();
      for (let i = 0; i < n; i++) await (await fetch(u, { headers: auth })).text();
      const c = process.cpuUsage(c0);
      return (c.user + c.system) / 1000 / n;
    };
    const cpuRelatorioCheio = await cpuPorGet(relatorio, 50);
    const cpuRelatorioPagina = await cpuPorGet(`${relatorio}?rows_from=${KEYS - PAGINA_RELATORIO}&rows_limit=${PAGINA_RELATORIO}`, 50);
    const cpuCte = await cpuPorGet(url + rota, 50);

    const lat = leituras.map((l) => l.ms);
    const figura = (f: (m: { produto: Carga; bruto: Carga }) => number, casas = 1) => resumo(medidas.map(f), casas);
    const trecho = (ls: Leitura[]) => ({
      gets: ls.length,
      linhas: `${ls[0]!.linhas}–${ls[ls.length - 1]!.linhas}`,
      p50_ms: r2(mediana(ls.map((l) => l.ms))),
      max_ms: r2(Math.max(...ls.map((l) => l.ms))),
      bytes: Math.round(mediana(ls.map((l) => l.bytes))),
    });
    const lines = [
      `reads benchmark · embedded PostgreSQL · ${CONEXOES} connections, ${DURACAO_S} s after ${AQUECIMENTO_S} s warm-up, ${REPETICOES} runs`,
      `  GET /v1/fiscal/cte/{id}: ${bytes} bytes (bare ${bytesBruto}) · ${sqlPorGet.toFixed(2)} SQL statements per GET (idle ${(ociosoPorMs * 1000).toFixed(1)}/s taken out)`,
      `  batch report, ${KEYS} keys 1:1, one GET every ${PASSO_RELATORIO_MS} ms: ${leituras.length} GETs over ${(fim.t / 1000).toFixed(1)} s · ` +
        `p50 ${pct(lat, 50).toFixed(1)} p99 ${pct(lat, 99).toFixed(1)} max ${Math.max(...lat).toFixed(1)} ms`,
      `    start ${JSON.stringify(trecho(inicio))} · end ${JSON.stringify(trecho(final))}`,
      `    quiet, finished report: ${cpuRelatorioCheio.toFixed(2)} CPU ms per GET of all ${KEYS} rows, ${cpuRelatorioPagina.toFixed(2)} of its last ${PAGINA_RELATORIO} · one CT-e: ${cpuCte.toFixed(2)}`,
    ];
    process.stdout.write(`\n${lines.join('\n')}\n\n`);
    imprimirResultado('leitura', {
      cte: {
        bytes,
        sql_por_get: r2(sqlPorGet),
        produto: {
          req_por_s: figura((m) => m.produto.reqPorS, 0),
          p50_ms: figura((m) => m.produto.p50),
          p99_ms: figura((m) => m.produto.p99),
          cpu_ms_por_req: figura((m) => m.produto.cpuMsPorReq, 3),
        },
        bruto: {
          req_por_s: figura((m) => m.bruto.reqPorS, 0),
          p50_ms: figura((m) => m.bruto.p50),
          p99_ms: figura((m) => m.bruto.p99),
          cpu_ms_por_req: figura((m) => m.bruto.cpuMsPorReq, 3),
        },
        razao_req_por_s: figura((m) => m.produto.reqPorS / m.bruto.reqPorS, 2),
        razao_cpu: figura((m) => m.produto.cpuMsPorReq / m.bruto.cpuMsPorReq, 2),
        alvo_razao: 0.7,
      },
      relatorio_lote: {
        chaves: KEYS,
        gets: leituras.length,
        p50_ms: r2(pct(lat, 50)),
        p99_ms: r2(pct(lat, 99)),
        max_ms: r2(Math.max(...lat)),
        alvo_p99_ms: 50,
        inicio: trecho(inicio),
        fim: trecho(final),
        cpu_ms_por_get_concluido: r2(cpuRelatorioCheio),
        cpu_ms_por_get_pagina: r2(cpuRelatorioPagina),
        cpu_ms_por_get_cte: r2(cpuCte),
      },
    });
  } finally {
    await servico.parar();
  }
}

if (require.main === module) executar(main);
