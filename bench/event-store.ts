import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client, Pool } from 'pg';
import { getPostgreSQLEventStore, type PostgresEventStore as EmmettStore } from '@event-driven-io/emmett-postgresql';
import { type EventMetadata } from '@frete/contracts';
import { type EventStore, type ExpectedRevision, loadConfig, type Platform, startPlatform } from '@frete/platform';
import { executar, imprimirResultado, mediana, REPETICOES, resumo } from './comum';

/**
 * The product's PostgreSQL event store (`platform.store`, as `startPlatform` builds it on embedded PostgreSQL) against
 * Emmett's PostgreSQL store on the same database in the same run, with the workload the product's handlers make: many
 * streams, each append 1–3 events of ~1 KB JSON with an expected revision (no stream for the first, the known revision
 * after), one append at a time and 8 at a time, all of one company (each company's events are one hash chain, appended in
 * turn) and spread over several. Prints appends/s and events/s, this process's CPU ms per append,
 * p50/p99 append latency, the product/Emmett ratio of appends/s (target ≥ 1.5×), and the SQL round trips per append
 * (every `query` of a pg client, counted: the target is one). Runs on node against the built code
 * (`pnpm bench:event-store`); BENCH_APPENDS sets the appends per store, mode and round (default 1000).
 */
const APPENDS = Number(process.env.BENCH_APPENDS ?? 1000);
/** Appends per stream: a handler's aggregate sees a few commands in its life. */
const APPENDS_POR_STREAM = 4;
const CONCORRENCIA = 8;
/** Companies the spread mode shares its streams among: each company's events are one hash chain, appended in turn. */
const EMPRESAS = 8;

/** SQL round trips: node-postgres sends each `query` of a client as one exchange (Pool.query goes through it too). */
let idasEVoltas = 0;
function contarIdasEVoltas(): void {
  const queryOriginal = Client.prototype.query;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    idasEVoltas++;
    return (queryOriginal as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof Client.prototype.query;
}

/** A ~1 KB event body shaped like the fiscal events (keys, cents, names, addresses). */
export function dadosDeEvento(i: number): Record<string, unknown> {
  return {
    chave: String(35_000_000_000_000_000_000_000_000_000_000_000_000_000n + BigInt(i)).padStart(44, '0'),
    numero: i,
    serie: 1,
    valores: { frete_bruto: 123_456 + i, icms: 14_814, pedagio: 2_500, liquido: 106_142 },
    emitente: { cnpj: '11222333000181', razao_social: 'BENCH TRANSPORTES LTDA', inscricao_estadual: '110042490114' },
    tomador: { cnpj: '99888777000166', razao_social: 'CONTRATANTE DE BENCH S.A.', uf: 'SP' },
    origem: { municipio: 'Campinas', uf: 'SP', codigo_ibge: '3509502', cep: '13010000', logradouro: 'RUA BARAO DE JAGUARA' },
    destino: { municipio: 'Rio de Janeiro', uf: 'RJ', codigo_ibge: '3304557', cep: '20010000', logradouro: 'AVENIDA RIO BRANCO' },
    motorista: { cpf: '52998224725', nome: 'JOAO MOTORISTA DA SILVA' },
    veiculo: { placa: 'ABC1D23', rntrc: '12345678', tara_kg: 8_500, capacidade_kg: 23_000 },
    nfes: Array.from({ length: 3 }, (_, k) => String(35_240_111_222_333_000_181_550_010_000_000_000n + BigInt(i * 3 + k))),
    observacao: 'Carga fracionada; entrega agendada; manusear com cuidado. '.repeat(3),
  };
}

const METADATA: EventMetadata = {
  company_id: '11222333000181',
  correlation_id: '00000000-0000-4000-8000-000000000000',
  causation_id: null,
  request_id: 'bench',
  actor: 'system',
};

/** Stream number `s`'s metadata: one company for all, or `empresas` companies in turn. */
const metadataDoStream = (s: number, empresas: number): EventMetadata =>
  empresas === 1 ? METADATA : { ...METADATA, company_id: `bench-empresa-${s % empresas}` };

/** How many events the append number `k` of a stream carries: 1, 2 or 3, always the same for the same `k`. */
const eventosDoAppend = (k: number) => 1 + (k % 3);

/** One store under the workload: `append(stream, k, count)` appends `count` events as the stream's k-th append. */
interface Alvo {
  nome: string;
  append(stream: string, k: number, n: number, metadata: EventMetadata): Promise<void>;
}

function alvoProduto(store: EventStore): Alvo {
  const revisoes = new Map<string, bigint>();
  return {
    nome: 'produto',
    append: async (stream, k, n, metadata) => {
      const expected: ExpectedRevision = k === 0 ? 'no_stream' : revisoes.get(stream)!;
      const events = Array.from({ length: n }, (_, j) => ({
        id: crypto.randomUUID(),
        type: 'bench.registrado',
        schemaVersion: 1,
        data: dadosDeEvento(k * 3 + j),
        metadata,
      }));
      const r = await store.append(stream, events, expected);
      revisoes.set(stream, r.nextRevision);
    },
  };
}

function alvoEmmett(store: EmmettStore): Alvo {
  const versoes = new Map<string, bigint>();
  return {
    nome: 'emmett',
    append: async (stream, k, n, metadata) => {
      const events = Array.from({ length: n }, (_, j) => ({
        type: 'bench.registrado',
        data: dadosDeEvento(k * 3 + j),
        metadata,
      }));
      const r = await store.appendToStream(stream, events, {
        expectedStreamVersion: k === 0 ? 'STREAM_DOES_NOT_EXIST' : versoes.get(stream)!,
      });
      versoes.set(stream, r.nextExpectedStreamVersion);
    },
  };
}

interface Rodada {
  appendsPorS: number;
  eventosPorS: number;
  cpuMsPorAppend: number;
  p50: number;
  p99: number;
  idasEVoltasPorAppend: number;
}

const percentil = (ordenado: number[], p: number) => ordenado[Math.min(ordenado.length - 1, Math.floor(ordenado.length * p))]!;

/**
 * APPENDS appends over APPENDS / APPENDS_POR_STREAM fresh streams, `concorrencia` at a time; each worker owns its
 * streams and appends to them in turn, so every expected revision is the one it was told last (no conflicts: the
 * product's handlers retry those, which is not what is measured here).
 */
async function rodar(alvo: Alvo, prefixo: string, concorrencia: number, empresas = 1): Promise<Rodada> {
  const streams = Math.ceil(APPENDS / APPENDS_POR_STREAM);
  const latencias: number[] = [];
  let eventos = 0;
  const idas0 = idasEVoltas;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concorrencia }, async (_, w) => {
      // Round-robin over the worker's streams: the next append to a stream comes after others, as in the service.
      const meus = Array.from({ length: streams }, (_, s) => s).filter((s) => s % concorrencia === w);
      for (let k = 0; k < APPENDS_POR_STREAM; k++) {
        for (const s of meus) {
          const n = eventosDoAppend(k + s);
          const t = performance.now();
          await alvo.append(`${prefixo}-${s}`, k, n, metadataDoStream(s, empresas));
          latencias.push(performance.now() - t);
          eventos += n;
        }
      }
    }),
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const appends = latencias.length;
  latencias.sort((a, b) => a - b);
  return {
    appendsPorS: appends / (ms / 1000),
    eventosPorS: eventos / (ms / 1000),
    cpuMsPorAppend: (cpu.user + cpu.system) / 1000 / appends,
    p50: percentil(latencias, 0.5),
    p99: percentil(latencias, 0.99),
    idasEVoltasPorAppend: (idasEVoltas - idas0) / appends,
  };
}

/** The platform as the service starts it: embedded PostgreSQL in its own DATA_DIR under .data/bench. */
export async function plataformaDeBench(nome: string): Promise<{ platform: Platform; dataDir: string }> {
  const dataDir = path.resolve(__dirname, '..', '..', '..', '.data', 'bench', `${nome}-${process.pid}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const config = loadConfig({ ...process.env, DATABASE_URL: '', EVENTSTORE_URL: '', SECRETS_KEY: '', DATA_DIR: dataDir, PORT: '0' });
  return { platform: await startPlatform(config), dataDir };
}

async function main(): Promise<void> {
  contarIdasEVoltas();
  const { platform, dataDir } = await plataformaDeBench('event-store');
  const connectionString = platform.embedded!.connectionString();
  // Emmett's own pool would be shared by reference count and outlive close() (then the stopping database would crash
  // this process through its idle clients): it gets a pool of ours, of the size it would have made (pg's 10).
  const emmettPool = new Pool({ connectionString });
  emmettPool.on('error', () => undefined);
  const emmett = getPostgreSQLEventStore(connectionString, { connectionOptions: { connectionString, pool: emmettPool } });
  try {
    // Emmett's schema before anything is timed (it would otherwise migrate on the first append).
    await emmett.schema.migrate();
    const alvos = [alvoProduto(platform.store), alvoEmmett(emmett)];
    // Warm-up: the JIT, the pools' connections, PostgreSQL's caches, for both.
    for (const alvo of alvos) await rodar(alvo, `aquece-${alvo.nome}`, CONCORRENCIA);
    // Statistics as a running database has them: plans made while the fresh tables had none (statements prepared per
    // connection, plpgsql's) scan whole tables, and every round then read more (autovacuum analyses only later).
    await emmettPool.query('ANALYZE');

    const modos = [
      { nome: 'sequencial', concorrencia: 1 },
      { nome: 'concorrencia_8', concorrencia: CONCORRENCIA },
      // The same, spread over EMPRESAS companies: appends of different companies do not wait on each other's chain.
      { nome: 'concorrencia_8_empresas', concorrencia: CONCORRENCIA, empresas: EMPRESAS },
    ];
    const rodadas: Record<string, Record<string, Rodada[]>> = {};
    for (let r = 0; r < REPETICOES; r++) {
      for (const modo of modos) {
        // Alternating who goes first: a store must not always meet the database right after the other's writes.
        for (const alvo of r % 2 ? [...alvos].reverse() : alvos) {
          const x = await rodar(alvo, `r${r}-${modo.nome}-${alvo.nome}`, modo.concorrencia, modo.empresas);
          ((rodadas[modo.nome] ??= {})[alvo.nome] ??= []).push(x);
          process.stdout.write(
            `round ${r + 1} ${modo.nome.padEnd(23)} ${alvo.nome.padEnd(7)} ${x.appendsPorS.toFixed(0).padStart(5)} appends/s · ` +
              `${x.eventosPorS.toFixed(0).padStart(5)} events/s · ${x.cpuMsPorAppend.toFixed(3)} CPU ms/append · ` +
              `p50 ${x.p50.toFixed(2)} ms · p99 ${x.p99.toFixed(2)} ms · ${x.idasEVoltasPorAppend.toFixed(2)} round trips/append\n`,
          );
        }
      }
    }

    const figuras = (xs: Rodada[]) => ({
      appends_por_s: resumo(
        xs.map((x) => x.appendsPorS),
        0,
      ),
      eventos_por_s: resumo(
        xs.map((x) => x.eventosPorS),
        0,
      ),
      cpu_ms_por_append: resumo(xs.map((x) => x.cpuMsPorAppend)),
      p50_ms: resumo(xs.map((x) => x.p50)),
      p99_ms: resumo(xs.map((x) => x.p99)),
      idas_e_voltas_por_append: mediana(xs.map((x) => x.idasEVoltasPorAppend)),
    });
    const porModo = (m: string) => {
      const produto = rodadas[m]!.produto!;
      const emmett_ = rodadas[m]!.emmett!;
      return {
        produto: figuras(produto),
        emmett: figuras(emmett_),
        // Per round (both measured back to back): the ratio of the same moment's noise.
        razao_appends_produto_sobre_emmett: resumo(
          produto.map((p, i) => p.appendsPorS / emmett_[i]!.appendsPorS),
          2,
        ),
      };
    };
    imprimirResultado('event-store', {
      appends_por_rodada: APPENDS,
      appends_por_stream: APPENDS_POR_STREAM,
      eventos_por_append: '1–3, ~1 KB JSON cada',
      rodadas: REPETICOES,
      sequencial: porModo('sequencial'),
      concorrencia_8: porModo('concorrencia_8'),
      concorrencia_8_empresas: porModo('concorrencia_8_empresas'),
      empresas_no_modo_espalhado: EMPRESAS,
      alvo_razao_appends: 1.5,
      alvo_idas_e_voltas_por_append: 1,
    });
  } finally {
    await emmett.close();
    await emmettPool.end();
    await platform.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) executar(main);
