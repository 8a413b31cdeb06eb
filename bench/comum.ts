import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Pool } from 'pg';
import { type EventStore, WrongExpectedRevision } from '@frete/platform';

/**
 * What every benchmark shares: CPU time of this process around a piece of work, repetitions summarised by min and
 * median (the machine is shared and noisy), and the last line each prints, one JSON object that `pnpm bench` collects.
 */

export interface Medicao {
  /** Wall-clock milliseconds. */
  ms: number;
  /** This process's CPU milliseconds (user + system). */
  cpuMs: number;
}

export async function medir(trabalho: () => Promise<unknown> | unknown): Promise<Medicao> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await trabalho();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

export const mediana = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Min and median of a figure over repetitions, rounded for printing. */
export const resumo = (xs: number[], casas = 3) => ({
  min: Number(Math.min(...xs).toFixed(casas)),
  mediana: Number(mediana(xs).toFixed(casas)),
});

export const REPETICOES = Number(process.env.BENCH_REPETICOES ?? 5);

/** The figures line: last on stdout, and kept under bench/out for the README's table. */
export function imprimirResultado(bench: string, figuras: Record<string, unknown>): void {
  const linha = JSON.stringify({ bench, maquina: maquina(), ...figuras });
  const out = path.join(__dirname, '..', '..', 'out');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, `${bench}.json`), `${linha}\n`);
  process.stdout.write(`${linha}\n`);
}

function maquina(): string {
  return `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`;
}

/** Runs a benchmark's main, exiting 1 with the error when it fails (a benchmark that cannot run says so). */
export function executar(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(1);
    },
  );
}

/**
 * CPU milliseconds of this process's descendants so far (embedded PostgreSQL's server and its backends), from /proc:
 * their own time and that of their children already ended. Linux only; 0 elsewhere.
 */
export function cpuDosDescendentesMs(): number {
  let entradas: string[];
  try {
    entradas = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return 0;
  }
  const pais = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const d of entradas) {
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: fields are counted after its closing one.
      const campos = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      pais.set(Number(d), Number(campos[1]));
      ticks.set(Number(d), Number(campos[11]) + Number(campos[12]) + Number(campos[13]) + Number(campos[14]));
    } catch {
      // Ended while listed.
    }
  }
  const descende = (pid: number): boolean => {
    for (let p = pais.get(pid); p !== undefined && p > 1; p = pais.get(p)) if (p === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, t] of ticks) if (descende(pid)) total += t;
  // Kernel clock ticks: 100 per second on Linux.
  return total * 10;
}

/**
 * The simulated authority's own statements: it stands in for the state's web service and keeps its documents in the
 * same database (through the platform pool), one transaction per decision that begins by taking its advisory lock.
 */
const DA_AUTORIDADE_SIMULADA = /autoridade_simulada|^SELECT pg_advisory_xact_lock(_shared)?\(\$1\)/;

/** Statements counted: the service's own, and (apart) those the simulated authority ran through the same pool. */
export interface ContagemSql {
  servico: number;
  autoridade: number;
}

/**
 * Counts the statements the platform pool runs: each client it lends gets a counting `query`. `pool.query` borrows a
 * client through `connect` with a callback, so it is counted there, once, like a transaction's statements. A client
 * already held when the count starts (the LISTEN connections, which send nothing more) is not counted. Count each
 * pool once: a client is wrapped by the first counter that sees it. The simulated authority's statements (its
 * transaction's BEGIN and COMMIT included) are counted apart: the real one's are not ours.
 */
export function contarSql(pool: Pool, porComando?: Map<string, number>): () => ContagemSql {
  const n: ContagemSql = { servico: 0, autoridade: 0 };
  type Cliente = { query: (...a: unknown[]) => unknown; contado?: boolean; begin?: boolean; daAutoridade?: boolean };
  const contar = (c: Cliente | undefined) => {
    if (!c || c.contado) return;
    c.contado = true;
    const q = c.query.bind(c);
    c.query = (...a: unknown[]) => {
      const texto = (typeof a[0] === 'string' ? a[0] : String((a[0] as { text?: unknown } | undefined)?.text ?? '?'))
        .replace(/\s+/g, ' ')
        .trim();
      const eBegin = texto === 'BEGIN';
      if (c.begin && DA_AUTORIDADE_SIMULADA.test(texto)) {
        // The BEGIN just counted as the service's opened the authority's transaction.
        n.servico--;
        n.autoridade++;
        c.daAutoridade = true;
        if (porComando) {
          porComando.set('BEGIN', (porComando.get('BEGIN') ?? 1) - 1);
          porComando.set('[authority] BEGIN', (porComando.get('[authority] BEGIN') ?? 0) + 1);
        }
      }
      c.begin = eBegin;
      const autoridade = c.daAutoridade === true || DA_AUTORIDADE_SIMULADA.test(texto);
      if (autoridade) n.autoridade++;
      else n.servico++;
      if (c.daAutoridade && (texto === 'COMMIT' || texto === 'ROLLBACK')) c.daAutoridade = false;
      if (porComando) {
        const chave = `${autoridade ? '[authority] ' : ''}${texto.slice(0, 90)}`;
        porComando.set(chave, (porComando.get(chave) ?? 0) + 1);
      }
      return q(...a);
    };
  };
  const connect = pool.connect.bind(pool) as (cb?: (...a: unknown[]) => void) => Promise<Cliente> | undefined;
  (pool as unknown as { connect: unknown }).connect = (cb?: (err: unknown, c: Cliente, done: unknown) => void) =>
    cb
      ? connect((err, c, done) => {
          contar(c as Cliente);
          cb(err, c as Cliente, done);
        })
      : connect()!.then((c) => {
          contar(c);
          return c;
        });
  return () => ({ ...n });
}

/** Appends to the event store by stream category (the stream name's prefix before its first '-': `lote`, `cte`…). */
export interface ContagemAppends {
  /** Calls of `append`, whatever their outcome. */
  chamadas: number;
  /** Events of the appends that succeeded (an idempotent repeat counts again: the store answers it the same). */
  eventos: number;
  /** Appends refused on their expected revision (the caller folds again and retries: another call). */
  conflitos: number;
  porCategoria: Record<string, { chamadas: number; eventos: number }>;
}

export const categoriaDoStream = (streamId: string): string => streamId.split('-', 1)[0]!;

/**
 * Counts the appends of `store` from now on by wrapping its `append`; a snapshot of the counts so far on each call.
 * Give it the store every writer's append goes through (the platform's `store.recorded`, under the upcasting store).
 */
export function contarAppends(store: EventStore): () => ContagemAppends {
  const c: ContagemAppends = { chamadas: 0, eventos: 0, conflitos: 0, porCategoria: {} };
  const append = store.append.bind(store);
  store.append = async (streamId, events, expected) => {
    const categoria = (c.porCategoria[categoriaDoStream(streamId)] ??= { chamadas: 0, eventos: 0 });
    c.chamadas++;
    categoria.chamadas++;
    try {
      const result = await append(streamId, events, expected);
      c.eventos += events.length;
      categoria.eventos += events.length;
      return result;
    } catch (err) {
      if (err instanceof WrongExpectedRevision) c.conflitos++;
      throw err;
    }
  };
  return () => structuredClone(c);
}

/** What was appended between two snapshots of `contarAppends`. */
export function appendsEntre(antes: ContagemAppends, depois: ContagemAppends): ContagemAppends {
  const porCategoria: ContagemAppends['porCategoria'] = {};
  for (const [k, d] of Object.entries(depois.porCategoria)) {
    const a = antes.porCategoria[k] ?? { chamadas: 0, eventos: 0 };
    if (d.chamadas > a.chamadas) porCategoria[k] = { chamadas: d.chamadas - a.chamadas, eventos: d.eventos - a.eventos };
  }
  return {
    chamadas: depois.chamadas - antes.chamadas,
    eventos: depois.eventos - antes.eventos,
    conflitos: depois.conflitos - antes.conflitos,
    porCategoria,
  };
}
