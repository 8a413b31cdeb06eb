import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './processes';

/**
 * deploy/compose.yaml as the tests read it: the process roles (services built from the Dockerfile), each with its
 * command, environment and health check after the file's variables were substituted, the way `docker compose` does.
 */

export const COMPOSE_FILE = path.join(ROOT, 'deploy', 'compose.yaml');

interface ServicoBruto {
  build?: unknown;
  image?: string;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  healthcheck?: { test?: string[] | string };
  deploy?: { replicas?: number };
  profiles?: string[];
}

export interface ComposeBruto {
  services: Record<string, ServicoBruto>;
}

/** A process role as declared, variables substituted. */
export interface PapelDeclarado {
  nome: string;
  replicas: number;
  command: string[];
  environment: Record<string, string>;
  /** The health check's command (the part after `CMD`). */
  healthcheck: string[];
}

export function lerCompose(file = COMPOSE_FILE): ComposeBruto {
  // The file shares its environment and health checks through YAML merge keys (`<<: *env`).
  return parse(fs.readFileSync(file, 'utf8'), { merge: true }) as ComposeBruto;
}

/** The roles: the services built from the Dockerfile (the engines are images of their own). */
export function nomesDosPapeis(compose: ComposeBruto): string[] {
  return Object.entries(compose.services)
    .filter(([, s]) => s.build !== undefined)
    .map(([nome]) => nome);
}

export class VariavelObrigatoria extends Error {}

/**
 * Compose's interpolation: `${VAR}`, `${VAR:-default}` (unset or empty), `${VAR-default}` (unset), `${VAR:?message}`
 * and `${VAR?message}` (required), `$VAR`, and `$$` for a literal `$`. Defaults may hold further `${…}`.
 */
export function interpolar(texto: string, vars: Record<string, string | undefined>): string {
  let out = '';
  let i = 0;
  while (i < texto.length) {
    const c = texto[i]!;
    if (c !== '$') {
      out += c;
      i++;
      continue;
    }
    const next = texto[i + 1];
    if (next === '$') {
      out += '$';
      i += 2;
    } else if (next === '{') {
      // The closing brace of this expression, skipping nested ones in its default.
      let depth = 1;
      let j = i + 2;
      for (; j < texto.length && depth > 0; j++) {
        if (texto[j] === '{') depth++;
        else if (texto[j] === '}') depth--;
      }
      if (depth !== 0) throw new Error(`unclosed \${ in '${texto}'`);
      out += expressao(texto.slice(i + 2, j - 1), vars);
      i = j;
    } else {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(texto.slice(i + 1));
      if (!m) {
        out += '$';
        i++;
        continue;
      }
      out += vars[m[0]] ?? '';
      i += 1 + m[0].length;
    }
  }
  return out;
}

function expressao(corpo: string, vars: Record<string, string | undefined>): string {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([\s\S]*))?$/.exec(corpo);
  if (!m) throw new Error(`bad interpolation \${${corpo}}`);
  const [, nome, dois, op, resto] = m;
  const valor = vars[nome!];
  const faltando = valor === undefined || (dois === ':' && valor === '');
  if (!op) return valor ?? '';
  if (op === '-') return faltando ? interpolar(resto!, vars) : valor!;
  if (faltando) throw new VariavelObrigatoria(`${nome}: ${interpolar(resto!, vars) || 'required'}`);
  return valor!;
}

const texto = (v: string | number | boolean | null): string => (v === null ? '' : String(v));

/** A role's command, environment and health check with `vars` substituted (what `docker compose config` would show). */
export function papelDeclarado(compose: ComposeBruto, nome: string, vars: Record<string, string | undefined>): PapelDeclarado {
  const s = compose.services[nome];
  if (!s) throw new Error(`compose has no service '${nome}'`);
  if (!Array.isArray(s.command)) throw new Error(`service '${nome}': command must be a list (exec form)`);
  const env = s.environment ?? {};
  if (Array.isArray(env)) throw new Error(`service '${nome}': environment must be a map`);
  const teste = s.healthcheck?.test;
  if (!Array.isArray(teste) || teste[0] !== 'CMD') throw new Error(`service '${nome}': healthcheck.test must be ['CMD', ...]`);
  return {
    nome,
    replicas: s.deploy?.replicas ?? 1,
    command: s.command.map((a) => interpolar(a, vars)),
    environment: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, interpolar(texto(v), vars)])),
    healthcheck: teste.slice(1).map((a) => interpolar(a, vars)),
  };
}

/** The names of the variables a role's declaration reads (so a test can tell which it must give). */
export function variaveisDoPapel(compose: ComposeBruto, nome: string): Set<string> {
  const s = compose.services[nome]!;
  const all = JSON.stringify([s.command, s.environment, s.healthcheck?.test]);
  return new Set([...all.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!));
}
