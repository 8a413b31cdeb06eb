import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A static file of the panel, kept in memory under a name that changes with its content (cached for a year). */
export interface Ativo {
  nome: string;
  tipo: string;
  corpo: Buffer;
}

function ativo(arquivo: string, base: string, extensao: string, tipo: string): Ativo {
  const corpo = readFileSync(arquivo);
  const hash = createHash('sha256').update(corpo).digest('hex').slice(0, 12);
  return { nome: `${base}.${hash}.${extensao}`, tipo, corpo };
}

// From src/ (tests) and dist/ alike the stylesheet is one folder up; htmx is the package's own minified build.
const css = ativo(path.join(__dirname, '..', 'assets', 'console.css'), 'console', 'css', 'text/css; charset=utf-8');
const htmx = ativo(require.resolve('htmx.org/dist/htmx.min.js'), 'htmx', 'js', 'text/javascript; charset=utf-8');
const painel = ativo(path.join(__dirname, '..', 'assets', 'console.js'), 'console', 'js', 'text/javascript; charset=utf-8');

export const ATIVOS: ReadonlyMap<string, Ativo> = new Map([css, htmx, painel].map((a) => [a.nome, a]));

/** Their addresses, for the pages' <link> and <script>. */
export const ativos = {
  css: `/console/assets/${css.nome}`,
  htmx: `/console/assets/${htmx.nome}`,
  painel: `/console/assets/${painel.nome}`,
};
