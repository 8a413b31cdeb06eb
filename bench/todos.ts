import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * `pnpm bench`: every benchmark in its own node process, one after the other (they would measure each other
 * otherwise), each printing its figures last as one JSON line; this collects those lines and prints them together.
 */
const BENCHES = ['documento', 'lote', 'lote-autoridade', 'crescimento', 'leitura', 'event-store', 'relay'];

const linhas: string[] = [];
let falhou = false;
for (const bench of BENCHES) {
  process.stdout.write(`\n== ${bench}\n`);
  const r = spawnSync(process.execPath, [path.join(__dirname, `${bench}.js`)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(r.stdout);
  const ultima = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status === 0 && ultima.startsWith('{')) linhas.push(ultima);
  else {
    falhou = true;
    linhas.push(JSON.stringify({ bench, erro: `exit ${r.status}` }));
  }
}
process.stdout.write(`\n${linhas.join('\n')}\n`);
process.exit(falhou ? 1 : 0);
