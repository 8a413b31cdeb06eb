import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Admin, Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { consumerGroupOf, SERVICE_NAMES } from '@frete/platform';
import { describeKafka } from '../support/kafka';
import { lerCompose, nomesDosPapeis, papelDeclarado, variaveisDoPapel } from '../support/compose';
import { Frota, Instancia, portaLivre } from '../support/frota';
import { operadorCli, transportadoraPeloOperador } from '../support/operador-cli';
import { type ApiResponse, randomCnpj } from '../support/http';
import { type TestCarrier } from '../support/app';
import { postarLote1a1, receberCteDoContratante, subcontratadaPronta } from '../support/lote';

/**
 * Issue 17 point 1: every process role in its own OS process, as deploy/compose.yaml declares them (command,
 * environment, health check; only addresses, ports and the topic substituted), on the machine's PostgreSQL and the
 * real Kafka broker. They start together on an empty database (migrations raced for), then a 300-key counter-CT-e
 * batch runs while one emission processor is SIGKILLed and later restarted and one API instance restarts.
 */

const CHAVES = 300;
/** The rows processed when the emission processor is killed: well inside the batch. */
const MATAR_APOS_LINHAS = 20;

/** Roles the issue names, with the copies it asks for at least. */
const TOPOLOGIA: Record<string, number> = {
  api: 2,
  projector: 1,
  relay: 1,
  'emission-processor': 2,
  'payout-processor': 1,
  'webhooks-processor': 1,
  'distribuicao-processor': 1,
};

const pausa = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A random Mercosur plate (ABC1D23). */
const placaAleatoria = (): string => {
  const b = randomBytes(7);
  const L = (i: number) => String.fromCharCode(65 + (b[i]! % 26));
  const D = (i: number) => String(b[i]! % 10);
  return `${L(0)}${L(1)}${L(2)}${D(3)}${L(4)}${D(5)}${D(6)}`;
};

describeKafka('distributed: every role in its own process, started from deploy/compose.yaml (real PostgreSQL and Kafka)', (brokers) => {
  jest.setTimeout(240_000);
  const compose = lerCompose();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-distribuido-'));
  const frota = new Frota(dir);
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const dbName = `frete_dist_${process.pid}_${Date.now().toString(36)}`;
  const dbUrl = (() => {
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    return u.toString();
  })();
  const secretsKey = randomBytes(32).toString('base64');
  const topic = `test-distribuido-${randomUUID()}`;
  /** What the test gives compose's variables besides the ports: where the engines are, the key, the topic. */
  const comuns: Record<string, string> = {
    DATABASE_URL: dbUrl,
    KAFKA_BROKERS: brokers,
    KAFKA_TOPIC: topic,
    SECRETS_KEY: secretsKey,
    HOST: '127.0.0.1',
    // 300 uploads and the polling of one carrier in a minute: over the default per-carrier limit.
    RATE_LIMIT_FISCAL_PER_MIN: '100000',
    RATE_LIMIT_IP_PER_MIN: '100000',
  };
  let db: Client;
  /** Reads the consumer groups' membership (which copy the broker still counts). */
  let kafkaAdmin: Admin;
  let falhou = false;
  const figuras: Record<string, unknown> = {};

  beforeAll(async () => {
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    // Empty, not the migrated template: the processes run the migrations, all at once.
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    db = new Client({ connectionString: dbUrl });
    await db.connect();
    kafkaAdmin = new Kafka({ clientId: `distribuido-${randomUUID()}`, brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
    await kafkaAdmin.connect();
  });

  afterAll(async () => {
    await frota.encerrar();
    await kafkaAdmin?.disconnect();
    await db?.end();
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    if (falhou) console.error(`distributed test: process logs kept in ${dir}\n${frota.relatorio()}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `body`; on failure, the processes' last lines join the error (and their log files are kept). */
  const comLogs = async (body: () => Promise<void>) => {
    try {
      await body();
    } catch (err) {
      falhou = true;
      if (err instanceof Error) err.message += `\n\nprocess logs (${dir}):\n${frota.relatorio(25)}`;
      throw err;
    }
  };

  it('compose declares exactly the roles the issue names, each one service of the server, the API and emission processor scaled', () => {
    const papeis = nomesDosPapeis(compose);
    expect([...papeis].sort()).toEqual(Object.keys(TOPOLOGIA).sort());
    const servicos = papeis.map((p) => {
      const d = papelDeclarado(compose, p, { ...comuns, SECRETS_KEY: secretsKey });
      expect(d.replicas).toBeGreaterThanOrEqual(TOPOLOGIA[p]!);
      expect(d.command).toEqual(['node', 'services/server/dist/main.js']);
      return d.environment.SERVICES;
    });
    // Every service the server has runs in some role, and no role runs two.
    expect([...servicos].sort()).toEqual([...SERVICE_NAMES].sort());
    // What the test substitutes: the engines' addresses, the key, the topic, ports and rate limits, nothing else.
    for (const p of papeis)
      for (const v of variaveisDoPapel(compose, p))
        expect(
          v in comuns ||
            /_PORT$/.test(v) ||
            ['APP_ENVIRONMENT', 'EVENTSTORE_URL', 'LOG_LEVEL', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'TRUST_PROXY'].includes(v),
        ).toBe(true);
  });

  it('starts every role together, runs a 300-key batch through a SIGKILLed emission processor and a restarted API: every row once, numbering gapless, installments once, read-your-writes on both APIs', () =>
    comLogs(async () => {
      // ---- Start: each compose role × its replicas, each with ports of its own, all at once.
      for (const nome of nomesDosPapeis(compose)) {
        const replicas = papelDeclarado(compose, nome, comuns).replicas;
        for (let i = 0; i < replicas; i++) {
          const vars: Record<string, string> = { ...comuns };
          for (const v of variaveisDoPapel(compose, nome)) if (/_PORT$/.test(v)) vars[v] = String(await portaLivre());
          frota.adicionar(new Instancia(`${nome}-${i + 1}`, papelDeclarado(compose, nome, vars), dir));
        }
      }
      const inicio = Date.now();
      for (const i of frota.instancias) i.iniciar();
      await Promise.all(frota.instancias.map((i) => i.saudavel()));
      figuras.processos = frota.instancias.length;
      figuras.inicio_todos_saudaveis_s = (Date.now() - inicio) / 1000;
      // Migrations ran once, whoever ran them: no process died racing for them.
      for (const i of frota.instancias) expect({ nome: i.nome, vivo: i.vivo }).toEqual({ nome: i.nome, vivo: true });

      const [apiA, apiB] = frota.doPapel('api') as [Instancia, Instancia];
      const urlDe = (i: Instancia) => `http://127.0.0.1:${i.papel.environment.PORT}`;

      // ---- A carrier, through the operator tool (as `pnpm ops` would), and its key on either API.
      const ops = operadorCli({ DATABASE_URL: dbUrl, SECRETS_KEY: secretsKey });
      let viaA!: TestCarrier;
      let viaB!: TestCarrier;
      const sub = await subcontratadaPronta({
        carrier: async (o = {}) => {
          const t = await transportadoraPeloOperador(ops, o);
          viaA = t.via(urlDe(apiA));
          viaB = t.via(urlDe(apiB));
          return viaA;
        },
      });
      expect(sub).toBe(viaA);

      /** A write through one API is seen at once by a GET through the other (the server-side watermark). */
      const leiturasDepoisDeEscrita: { escrita: string; leitura: string; ms: number }[] = [];
      const lerOQueEscreveu = async (escreve: TestCarrier, le: TestCarrier, nomes: [string, string]) => {
        const placa = placaAleatoria();
        const posted = await escreve.call('POST', '/v1/fiscal/veiculos', { placa });
        expect({ status: posted.status, text: posted.status === 201 ? '' : posted.text }).toEqual({ status: 201, text: '' });
        const t = Date.now();
        const lido = await le.call('GET', `/v1/fiscal/veiculos/${posted.body.data.id}`);
        leiturasDepoisDeEscrita.push({ escrita: nomes[0], leitura: nomes[1], ms: Date.now() - t });
        expect({ status: lido.status, placa: lido.body?.data?.placa }).toEqual({ status: 200, placa });
      };
      await lerOQueEscreveu(viaA, viaB, ['A', 'B']);
      await lerOQueEscreveu(viaB, viaA, ['B', 'A']);

      // ---- 300 contractor CT-e in the inbox, uploaded through both APIs.
      const contratante = randomCnpj();
      const chaves: string[] = new Array(CHAVES);
      let proxima = 0;
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          for (let k = proxima++; k < CHAVES; k = proxima++) chaves[k] = await receberCteDoContratante(w % 2 ? viaB : viaA, contratante);
        }),
      );

      // ---- The batch, and what happens to the processes while it runs.
      const [emissao1] = frota.doPapel('emission-processor') as [Instancia, Instancia];
      const t0 = Date.now();
      const posted = await postarLote1a1(viaA, chaves);
      expect({ status: posted.status, text: posted.status === 202 ? '' : posted.text }).toEqual({ status: 202, text: '' });
      const batchId = posted.body.data.batch_id as string;
      const relatorio = async (via: TestCarrier): Promise<{ status: string; rows: { status: string }[] }> => {
        const r: ApiResponse = await via.call('GET', `/v1/fiscal/cte-subcontratacao/lote/${batchId}`);
        if (r.status !== 200) throw new Error(`report: ${r.status} ${r.text}`);
        return r.body.data;
      };
      const ate = async (cond: (r: { status: string; rows: { status: string }[] }) => boolean, timeoutMs: number) => {
        const limite = Date.now() + timeoutMs;
        for (;;) {
          const r = await relatorio(viaB);
          if (cond(r)) return r;
          if (Date.now() > limite) throw new Error(`batch: ${r.status}, ${r.rows.length} rows after ${timeoutMs} ms`);
          await pausa(100);
        }
      };

      /** The group's members once `ok` holds for them and the group is stable (another run may share the group id). */
      const membrosDoGrupo = async (grupo: string, ok: (m: unknown[]) => boolean, timeoutMs: number): Promise<unknown[]> => {
        const limite = Date.now() + timeoutMs;
        for (;;) {
          const [g] = (await kafkaAdmin.describeGroups([grupo])).groups;
          if (g && g.state === 'Stable' && ok(g.members)) return g.members;
          if (Date.now() > limite) throw new Error(`group ${grupo}: ${g?.state}, ${g?.members.length} members after ${timeoutMs} ms`);
          await pausa(500);
        }
      };

      const noKill = await ate((r) => r.rows.length >= MATAR_APOS_LINHAS || r.status !== 'processing', 120_000);
      const membrosAntes = (await membrosDoGrupo(consumerGroupOf(topic, 'emission'), (m) => m.length >= 2, 30_000)).length;
      const kill = { t_s: (Date.now() - t0) / 1000, linhas: noKill.rows.length, status: noKill.status };
      await emissao1.sinal('SIGKILL');
      // Mid-batch: the kill came while rows were still to be processed.
      expect(kill.status).toBe('processing');

      // The API restart: SIGTERM (it answers what is in flight and stops), then the same command again.
      const antesDoTerm = await relatorio(viaB);
      const term = {
        t_s: (Date.now() - t0) / 1000,
        linhas: antesDoTerm.rows.length,
        status: antesDoTerm.status,
        exit: null as number | null,
      };
      term.exit = await apiA.sinal('SIGTERM');
      expect(term.exit).toBe(0);
      // While A is down, B answers alone.
      expect((await relatorio(viaB)).status).toBeDefined();
      apiA.iniciar();
      const apiAVoltouMs = await apiA.saudavel();
      await lerOQueEscreveu(viaA, viaB, ['A (restarted)', 'B']);
      await lerOQueEscreveu(viaB, viaA, ['B', 'A (restarted)']);

      // The killed copy holds its partitions until the broker's session timeout (kafkajs' 30 s) ends its membership
      // and the survivor takes them; only then does it come back. Restarted earlier, its join would make the broker
      // wait for the dead member to rejoin as well (the rebalance timeout, 60 s) before anyone consumes again.
      const morto = await membrosDoGrupo(consumerGroupOf(topic, 'emission'), (m) => m.length < membrosAntes, 90_000);
      const naRetomada = await relatorio(viaB);
      const retomou = { t_s: (Date.now() - t0) / 1000, membros: morto, linhas: naRetomada.rows.length, status: naRetomada.status };
      emissao1.iniciar();
      const emissaoVoltouMs = await emissao1.saudavel();
      const restartEmissao = { t_s: (Date.now() - t0) / 1000, linhas: (await relatorio(viaB)).rows.length };

      const fim = await ate((r) => r.status !== 'processing', 180_000);
      const duracao = (Date.now() - t0) / 1000;
      await lerOQueEscreveu(viaA, viaB, ['A', 'B']);

      // ---- Every row once, each emitted with its payout registered.
      expect(fim.status).toBe('done');
      expect(fim.rows.map((r) => (r as unknown as { chave: string }).chave)).toEqual(chaves);
      const porStatus: Record<string, number> = {};
      for (const r of fim.rows as unknown as { status: string; financeiro?: string }[])
        porStatus[`${r.status}/${r.financeiro}`] = (porStatus[`${r.status}/${r.financeiro}`] ?? 0) + 1;
      expect(porStatus).toEqual({ 'emitted/ok': CHAVES });

      // In the event store: one row event per row, one counter-CT-e per key, one authorization and one payout each.
      const contar = async (sql: string, params: unknown[]) => (await db.query<{ n: string; c: string }>(sql, params)).rows;
      const linhas = await contar(
        `SELECT data->>'linha' AS c, count(*) AS n FROM es_events WHERE stream_id = $1 AND event_type = 'lote.linha_processada' GROUP BY 1`,
        [`lote-${batchId}`],
      );
      expect(linhas.length).toBe(CHAVES);
      expect(linhas.filter((l) => l.n !== '1')).toEqual([]);
      const contras = await contar(
        `SELECT data->'vinculo'->>'chave_original' AS c, count(*) AS n FROM es_events
          WHERE event_type = 'cte.contra_cte_criado' AND data->'vinculo'->>'lote_id' = $1 GROUP BY 1`,
        [batchId],
      );
      expect(contras.length).toBe(CHAVES);
      expect(contras.filter((l) => l.n !== '1')).toEqual([]);
      expect(new Set(contras.map((l) => l.c))).toEqual(new Set(chaves));
      const idsDoLote = `SELECT data->>'cte_id' FROM es_events WHERE event_type = 'cte.contra_cte_criado' AND data->'vinculo'->>'lote_id' = $1`;
      for (const tipo of ['cte.autorizado', 'repasse.documento_registrado']) {
        const porCte = await contar(
          `SELECT data->>'cte_id' AS c, count(*) AS n FROM es_events WHERE event_type = $2 AND data->>'cte_id' IN (${idsDoLote}) GROUP BY 1`,
          [batchId, tipo],
        );
        expect({ tipo, ctes: porCte.length, repetidos: porCte.filter((l) => l.n !== '1') }).toEqual({ tipo, ctes: CHAVES, repetidos: [] });
      }

      // ---- Numbering: one number per counter-CT-e, a contiguous range with no repeats (events and read model agree).
      const assinados = await contar(
        `SELECT data->>'cte_id' AS c, count(DISTINCT data->>'numero') AS n FROM es_events
          WHERE event_type = 'cte.xml_assinado' AND data->>'cte_id' IN (${idsDoLote}) GROUP BY 1`,
        [batchId],
      );
      expect(assinados.filter((l) => l.n !== '1')).toEqual([]);
      const { rows: numeros } = await db.query<{ numero: string }>(
        `SELECT numero FROM rm.ctes WHERE company_id = $1 AND origem = 'contra_cte' ORDER BY numero`,
        [sub.companyId],
      );
      const ns = numeros.map((r) => Number(r.numero));
      expect(ns.length).toBe(CHAVES);
      expect(new Set(ns).size).toBe(CHAVES);
      expect(ns[ns.length - 1]! - ns[0]! + 1).toBe(CHAVES);

      // ---- Installments: every document scanned once through one API or the other, the first ten again through the
      // other one; each document's installments are generated once.
      const { rows: docs } = await db.query<{ cte_id: string }>(
        `SELECT cte_id FROM rm.repasse_documentos WHERE company_id = $1 AND lote_id = $2 ORDER BY posicao_no_grupo`,
        [sub.companyId, batchId],
      );
      expect(docs.length).toBe(CHAVES);
      const bipar = async (via: TestCarrier, cteId: string) => {
        const r = await via.call('POST', `/v1/carriers/parcelas-repasse/${cteId}/bipagem`);
        expect({ cteId, status: r.status, text: r.status === 200 ? '' : r.text }).toEqual({ cteId, status: 200, text: '' });
      };
      for (const [k, d] of docs.entries()) await bipar(k % 2 ? viaB : viaA, d.cte_id);
      for (const [k, d] of docs.slice(0, 10).entries()) await bipar(k % 2 ? viaA : viaB, d.cte_id);
      const geradas = await db.query<{ cte_id: string; n: string; parcelas: string }>(
        `SELECT data->>'cte_id' AS cte_id, count(*) AS n, max(jsonb_array_length(data->'parcelas')) AS parcelas FROM es_events
          WHERE event_type = 'repasse.parcelas_geradas' AND data->>'cte_id' IN (${idsDoLote}) GROUP BY 1`,
        [batchId],
      );
      expect(geradas.rows.length).toBe(CHAVES);
      expect(geradas.rows.filter((g) => g.n !== '1')).toEqual([]);
      const { rows: parcelas } = await db.query<{ cte_id: string; n: string }>(
        `SELECT cte_id, count(*) AS n FROM rm.parcelas_repasse WHERE company_id = $1 AND cte_id IN (${idsDoLote.replace('$1', '$2')}) GROUP BY 1`,
        [sub.companyId, batchId],
      );
      const esperadas = new Map(geradas.rows.map((g) => [g.cte_id, Number(g.parcelas)]));
      expect(parcelas.length).toBe(CHAVES);
      expect(parcelas.filter((p) => esperadas.get(p.cte_id) !== Number(p.n))).toEqual([]);

      // Every process still up at the end (the restarted ones included).
      for (const i of frota.instancias) expect({ nome: i.nome, vivo: i.vivo }).toEqual({ nome: i.nome, vivo: true });

      Object.assign(figuras, {
        chaves: CHAVES,
        lote_duracao_s: duracao,
        chaves_por_s: Number((CHAVES / duracao).toFixed(1)),
        sigkill_emission_processor: kill,
        sigterm_api: term,
        lote_retomou_sem_o_morto: { ...retomou, membros: retomou.membros.length },
        api_de_volta_saudavel_ms: apiAVoltouMs,
        emission_processor_reiniciado: { ...restartEmissao, saudavel_ms: emissaoVoltouMs },
        reinicios: Object.fromEntries(frota.instancias.filter((i) => i.reinicios > 0).map((i) => [i.nome, i.reinicios])),
        linhas: porStatus,
        numeracao: { de: ns[0], ate: ns[ns.length - 1] },
        parcelas: parcelas.reduce((s, p) => s + Number(p.n), 0),
        leituras_depois_de_escrita: leiturasDepoisDeEscrita,
      });
      const texto = JSON.stringify(figuras, null, 2);
      console.log(`distributed test figures:\n${texto}`);
      fs.writeFileSync(path.join(os.tmpdir(), 'frete-distribuido-figuras.json'), texto);
    }));
});
