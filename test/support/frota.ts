import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { type PapelDeclarado } from './compose';
import { ROOT } from './processes';

/**
 * Service processes as a container runtime would run them: each in a process group of its own (a signal reaches it
 * and its children), its output to a file, its environment the declared one only (nothing of the test's leaks in),
 * its health told by the declared health check's command.
 */

/** The ports already handed out by this process: the OS may offer a port again once its listener closed. */
const entregues = new Set<number>();

/**
 * A port free at the moment (the OS picked it), never one handed out before by this process: the process that takes it
 * comes a moment later, and until then the OS would give the same free port to the next caller too.
 */
export async function portaLivre(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const s = net.createServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    if (!entregues.has(port)) {
      entregues.add(port);
      return port;
    }
  }
}

/** `node` in a declared command is this Node (the image's only one). */
const executavel = (arg0: string): string => (arg0 === 'node' ? process.execPath : arg0);

const ultimasLinhas = (file: string, n: number): string => {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n');
  } catch {
    return '(no output)';
  }
};

export class Instancia {
  private child: ChildProcess | null = null;
  private saida: Promise<number | null> = Promise.resolve(null);
  /** Starts after the first. */
  reinicios = 0;
  readonly log: string;

  constructor(
    readonly nome: string,
    readonly papel: PapelDeclarado,
    dir: string,
    private readonly cwd = ROOT,
  ) {
    this.log = path.join(dir, `${nome}.log`);
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  get vivo(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  iniciar(): void {
    if (this.vivo) throw new Error(`${this.nome} is already running`);
    if (this.child) this.reinicios++;
    fs.appendFileSync(this.log, `\n----- ${this.nome} start ${this.reinicios + 1} at ${new Date().toISOString()}\n`);
    const fd = fs.openSync(this.log, 'a');
    const [arg0, ...args] = this.papel.command;
    const child = spawn(executavel(arg0!), args, {
      cwd: this.cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...this.papel.environment },
      detached: true,
      stdio: ['ignore', fd, fd],
    });
    fs.closeSync(fd);
    this.child = child;
    this.saida = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  }

  /** Runs the declared health check until it exits 0; fails at once if the process died. */
  async saudavel(timeoutMs = 90_000): Promise<number> {
    const inicio = Date.now();
    const [arg0, ...args] = this.papel.healthcheck;
    for (;;) {
      if (!this.vivo) throw new Error(`${this.nome} exited before it was healthy:\n${ultimasLinhas(this.log, 40)}`);
      const code = await new Promise<number | null>((resolve) => {
        const check = spawn(executavel(arg0!), args, { cwd: this.cwd, env: { PATH: process.env.PATH ?? '' }, stdio: 'ignore' });
        const timer = setTimeout(() => check.kill('SIGKILL'), 5_000);
        check.once('exit', (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
      if (code === 0) return Date.now() - inicio;
      if (Date.now() - inicio > timeoutMs)
        throw new Error(`${this.nome} not healthy after ${timeoutMs} ms:\n${ultimasLinhas(this.log, 40)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Sends `signal` to the process group; resolves with the exit once it ended. */
  async sinal(signal: NodeJS.Signals, killAfterMs = 20_000): Promise<number | null> {
    if (!this.vivo) return this.saida;
    this.grupo(signal);
    const timer = setTimeout(() => this.grupo('SIGKILL'), killAfterMs);
    const code = await this.saida;
    clearTimeout(timer);
    return code;
  }

  /** SIGKILL to the group, without waiting: for the end of a test, failed or not. */
  matar(): void {
    if (this.child?.pid) this.grupo('SIGKILL');
  }

  private grupo(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.child!.pid!, signal);
    } catch {
      // The group is gone already.
    }
  }

  ultimas(n = 40): string {
    return `----- ${this.nome} (${this.log})\n${ultimasLinhas(this.log, n)}`;
  }
}

/** Every instance a test started: killed together at the end, their logs shown together on failure. */
export class Frota {
  readonly instancias: Instancia[] = [];
  private readonly aoSair = () => this.matarTodas();

  constructor(readonly dir: string) {
    // An interrupted jest must not leave service processes behind.
    process.once('exit', this.aoSair);
  }

  adicionar(i: Instancia): Instancia {
    this.instancias.push(i);
    return i;
  }

  doPapel(papel: string): Instancia[] {
    return this.instancias.filter((i) => i.papel.nome === papel);
  }

  matarTodas(): void {
    for (const i of this.instancias) i.matar();
  }

  async encerrar(): Promise<void> {
    await Promise.all(this.instancias.map((i) => i.sinal('SIGKILL', 5_000)));
    process.removeListener('exit', this.aoSair);
  }

  relatorio(n = 30): string {
    return this.instancias.map((i) => i.ultimas(n)).join('\n');
  }
}
