import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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
