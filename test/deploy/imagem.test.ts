import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { parse } from 'yaml';
import { freshDatabase, type TestDatabase } from '../support/db';
import { portaLivre } from '../support/frota';
import { ROOT } from '../support/processes';
import { cteAutorizado, emissora } from '../support/emissora';
import { operadorCli, transportadoraPeloOperador } from '../support/operador-cli';

/**
 * Issue 17 point 6, without a Docker engine: the Dockerfile's own deploy step (read from the file, so the two cannot
 * drift) is run into a folder outside the repository, laid out as the runtime stage copies it, and the runtime stage's
 * CMD started from there against PostgreSQL. Only what the deploy put there can be loaded: node finds no repository
 * node_modules above /tmp, so the service running proves the image holds every production dependency it needs.
 */

const dockerfile = DockerfileParser.parse(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
const instrucoes = dockerfile.getInstructions();
const froms = dockerfile.getFROMs();
const runtimeFrom = froms[froms.length - 1]!;
/** The instructions of the last stage (the image), after its FROM. */
const runtime = instrucoes.filter((i) => i.getRange().start.line > runtimeFrom.getRange().start.line);
const build = instrucoes.filter((i) => i.getRange().start.line < runtimeFrom.getRange().start.line);
const args = (i: Instruction) => i.getArguments().map((a) => a.getValue());
/** An instruction's text after its keyword ('' when it has none). */
const texto = (i: Instruction): string => i.getArgumentsContent() ?? '';
const flag = (i: Instruction, name: string) =>
  (i as unknown as { getFlags?: () => { getName(): string; getValue(): string | null }[] })
    .getFlags?.()
    .find((f) => f.getName() === name)
    ?.getValue();

describe('the image (Dockerfile)', () => {
  jest.setTimeout(180_000);

  it('is multi-stage: build on node 20 with the frozen lockfile, runtime on node 20 slim as a non-root user', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    expect(froms[0]!.getImageName()).toBe('node');
    expect(froms[0]!.getImageTag()).toMatch(/^20\b/);
    expect(runtimeFrom.getImageName()).toBe('node');
    expect(runtimeFrom.getImageTag()).toMatch(/^20\b.*slim/);
    const runs = build.filter((i) => i.getKeyword() === 'RUN').map(texto);
    expect(runs).toEqual(expect.arrayContaining(['pnpm install --frozen-lockfile', 'pnpm build']));
    // pnpm at the version the repository pins.
    const pinned = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).packageManager as string;
    expect(runs.some((r) => r.includes(pinned))).toBe(true);
    const users = runtime.filter((i) => i.getKeyword() === 'USER').map(texto);
    expect(users.length).toBeGreaterThan(0);
    expect(users[users.length - 1]).not.toMatch(/^(root|0)(:|$)/);
    // The runtime stage has nothing of the build but what it copies from it: no RUN installing anything.
    expect(runtime.filter((i) => i.getKeyword() === 'RUN')).toEqual([]);
  });

  it('copies every workspace manifest before the install (the frozen install needs them all)', () => {
    const globs = (parse(fs.readFileSync(path.join(ROOT, 'pnpm-workspace.yaml'), 'utf8')) as { packages: string[] }).packages;
    const dirs = globs.flatMap((g) =>
      g.endsWith('/*')
        ? fs
            .readdirSync(path.join(ROOT, g.slice(0, -2)), { withFileTypes: true })
            .filter((e) => e.isDirectory())
            .map((e) => `${g.slice(0, -2)}/${e.name}`)
        : [g],
    );
    const manifests = dirs.filter((d) => fs.existsSync(path.join(ROOT, d, 'package.json'))).map((d) => `${d}/package.json`);
    const install = build.findIndex((i) => i.getKeyword() === 'RUN' && texto(i).startsWith('pnpm install'));
    const copied = build
      .slice(0, install)
      .filter((i) => i.getKeyword() === 'COPY')
      .flatMap((i) => args(i).slice(0, -1));
    expect(manifests.filter((m) => !copied.includes(m))).toEqual([]);
    for (const f of ['pnpm-lock.yaml', 'pnpm-workspace.yaml', 'package.json']) expect(copied).toContain(f);
  });

  describe("the deploy step's output alone runs the service", () => {
    const raiz = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-imagem-'));
    let db: TestDatabase;
    let child: ChildProcess | null = null;
    let saida = '';
    afterAll(async () => {
      if (child && child.exitCode === null) {
        const fim = new Promise((r) => child!.once('exit', r));
        child.kill('SIGKILL');
        await fim;
      }
      await db?.drop();
      fs.rmSync(raiz, { recursive: true, force: true });
    });

    it('pnpm deploy --prod as the Dockerfile runs it, laid out as the runtime stage copies it: the CMD serves /health/ready 200 on PostgreSQL and issues a CT-e with its DACTE, with no dev dependency in the output', async () => {
      // The build stage's deploy line; its last argument is where the output goes, which the runtime stage copies.
      const deploy = build.find((i) => i.getKeyword() === 'RUN' && / deploy /.test(texto(i)));
      expect(deploy).toBeDefined();
      const deployArgs = args(deploy!);
      expect(deployArgs).toContain('--prod');
      const destinoNoBuild = deployArgs[deployArgs.length - 1]!;
      const copia = runtime.find((i) => i.getKeyword() === 'COPY' && flag(i, 'from') === froms[0]!.getBuildStage());
      expect(copia).toBeDefined();
      const [origem, destinoNaImagem] = args(copia!) as [string, string];
      expect(origem).toBe(destinoNoBuild);
      // The image's file system under `raiz`: the deploy goes straight where the runtime stage would copy it.
      const destino = path.join(raiz, destinoNaImagem);
      const comando = texto(deploy!).replace(new RegExp(`${destinoNoBuild.replace(/[/.]/g, '\\$&')}$`), destino);
      // The repository is built already (the test command builds first): that is the build stage's `pnpm build`.
      const r = spawnSync('sh', ['-c', comando], { cwd: ROOT, encoding: 'utf8', timeout: 150_000 });
      expect({ status: r.status, stderr: r.status === 0 ? '' : `${r.stdout}\n${r.stderr}` }).toEqual({ status: 0, stderr: '' });

      // Production dependencies only: none of the workspace's dev tools came along.
      const store = fs.readdirSync(path.join(destino, 'node_modules', '.pnpm'));
      for (const dev of ['typescript@', 'jest@', '@swc+core@', 'eslint@', 'prettier@'])
        expect({ dev, found: store.filter((e) => e.startsWith(dev)) }).toEqual({ dev, found: [] });

      // The runtime stage's CMD from its WORKDIR, with its ENV.
      const workdirs = runtime.filter((i) => i.getKeyword() === 'WORKDIR').map(texto);
      const cwd = path.join(raiz, workdirs[workdirs.length - 1] ?? '/');
      const cmd = dockerfile.getCMDs()[0]!;
      const exec = (cmd as unknown as { getJSONStrings(): { getJSONValue(): string }[] }).getJSONStrings().map((s) => s.getJSONValue());
      expect(exec[0]).toBe('node');
      const env = Object.fromEntries(
        runtime
          .filter((i) => i.getKeyword() === 'ENV')
          .flatMap((i) => args(i))
          .map((kv) => kv.split('=') as [string, string]),
      );
      db = await freshDatabase();
      const port = await portaLivre();
      const secretsKey = randomBytes(32).toString('base64');
      child = spawn(process.execPath, exec.slice(1), {
        cwd,
        env: {
          PATH: process.env.PATH ?? '',
          ...env,
          DATABASE_URL: db.url,
          SECRETS_KEY: secretsKey,
          HOST: '127.0.0.1',
          PORT: String(port),
          // Every service (the default): the emission processor reads the XSD schemas and the DACTE's fonts.
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (d) => (saida += d));
      child.stderr!.on('data', (d) => (saida += d));
      const limite = Date.now() + 90_000;
      let status = 0;
      while (Date.now() < limite && child.exitCode === null) {
        status = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
          (res) => res.status,
          () => 0,
        );
        if (status === 200) break;
        await new Promise((res) => setTimeout(res, 250));
      }
      expect({ status, exit: child.exitCode, saida: status === 200 ? '' : saida.slice(-3000) }).toEqual({
        status: 200,
        exit: null,
        saida: '',
      });
      // It ran from the deployed copy, not from the repository.
      expect(saida).toContain('frete-fiscal: homologacao');

      // Real work from the deployed copy: what it reads at run time (the fiscal schemas, the signing, the DACTE's
      // layout and fonts, the migrations) came along. The carrier is made by the operator tool as in production.
      const ops = operadorCli({ DATABASE_URL: db.url, SECRETS_KEY: secretsKey });
      const c = await emissora({
        carrier: async (o = {}) => (await transportadoraPeloOperador(ops, o)).via(`http://127.0.0.1:${port}`),
      });
      const { id } = await cteAutorizado(c);
      const dacte = await fetch(`http://127.0.0.1:${port}/v1/fiscal/cte/${id}/dacte`, { headers: { authorization: `Bearer ${c.apiKey}` } });
      const pdf = Buffer.from(await dacte.arrayBuffer());
      expect({ status: dacte.status, type: dacte.headers.get('content-type'), magic: pdf.subarray(0, 5).toString() }).toEqual({
        status: 200,
        type: 'application/pdf',
        magic: '%PDF-',
      });
    });
  });
});
