import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/*
 * CONTRIBUTING's naming rule, held on the tree: one aggregate, one word, in every layer (decider folder, handler folder
 * and key, projector folder, route file). A folder of another layer is named after a folder of `domain/src`, or is
 * listed below with why it is its layer's own.
 */
const ROOT = join(__dirname, '..');
const DOMAIN = join(ROOT, 'domain/src');
const ROUTES = join(ROOT, 'services/api/src/routes');

const pastas = (dir: string) => readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory());
const dominio = new Set(pastas(DOMAIN));
const agregados = [...dominio].filter((n) => existsSync(join(DOMAIN, n, 'decider.ts')));
const camel = (kebab: string) => kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const kebab = (camelCase: string) => camelCase.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Folders that are their layer's own, not an aggregate's under another name. */
const PROPRIAS: Record<string, Record<string, string>> = {
  'services/application/src': {
    auditoria: 'reads the log of every aggregate for the audit trail',
    commands: 'execute/handles, the machinery every handler runs through',
    demo: 'the sandbox demonstration data',
    operator: "the operator tool's commands over several aggregates",
  },
  'projections/src': {
    atividade: "the company's activity feed, from several aggregates' events",
    auditoria: 'the audit trail, from every event',
    catalogo: 'the read-model catalogue (tables and columns analysts query)',
    operacao: "the operator's views over several aggregates",
  },
};

/** Route files and folders not named after one domain folder: edges over several aggregates, or over none. */
const ROTAS_PROPRIAS: Record<string, string> = {
  index: 'registers a folder of routes',
  health: 'liveness and readiness',
  metrics: 'Prometheus metrics',
  oauth: 'the token endpoint',
  auditoria: 'the audit trail of any aggregate',
  carriers: "a carrier's installments, over repasse and its documents",
  'parcelas-repasse': 'installments of repasse, by their path',
  'parcelas-repasse-lista': 'installments of repasse, by their path',
  'parcelas-repasse-mdfe': 'installments of repasse, by their path',
  agregados: 'the registered carriers (cadastros)',
  'chaves-pix': "the registered carriers' PIX keys (cadastros)",
  dacte: 'the printed CT-e (the spec names it)',
  damdfe: 'the printed MDF-e (the spec names it)',
  impresso: 'the printed form of any issued kind',
  previa: 'the preview of any issued kind',
  'documento-proprio': 'the read of an own issued document of any kind',
  registro: 'the registries (motorista, veiculo, regra-tributacao) over one path shape',
  'registro-textos': 'the registries',
  status: "the authority's service status",
  'consulta-emissao': 'the issue consultation of any kind',
  'xml-arquivado': 'archived XML of any document',
  'xml-upload': 'uploads read as XML of any document',
  consultas: 'public lookups (CNPJ, IBGE)',
};

/** A route file may name a collection: the aggregate's plural (`motoristas`, `autorizacoes`), or a view of it (`cte-emitidos`). */
const singular = (n: string) => [n, n.replace(/oes$/, 'ao'), n.replace(/s$/, ''), n.replace(/s-/g, '-')];
const nomeiaDominio = (n: string) => singular(n).some((s) => dominio.has(s)) || [...dominio].some((d) => n.startsWith(`${d}-`));

function rotas(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return [p, ...rotas(p)];
    return n.endsWith('.ts') ? [p] : [];
  });
}

describe('one word per aggregate in every layer (CONTRIBUTING, Naming)', () => {
  it.each(Object.entries(PROPRIAS))('every folder of %s is named after a domain folder', (layer, proprias) => {
    const odd = pastas(join(ROOT, layer)).filter((n) => !dominio.has(n) && !(n in proprias));
    expect(odd.map((n) => `${layer}/${n}: no domain/src/${n} (name it after its aggregate, or list it with why)`)).toEqual([]);
  });

  it('every route file names a domain folder, its plural or a view of it', () => {
    const odd = rotas(ROUTES)
      .map((p) => relative(ROOT, p))
      .filter((p) => {
        const n = p.replace(/^.*\//, '').replace(/\.ts$/, '');
        return !nomeiaDominio(n) && !(n in ROTAS_PROPRIAS);
      });
    expect(odd.map((p) => `${p}: names no domain folder`)).toEqual([]);
  });

  it("every handler key is its folder's word, and every handler folder has its key", () => {
    const fonte = readFileSync(join(ROOT, 'services/application/src/handlers.ts'), 'utf8');
    const corpo = fonte.slice(fonte.indexOf('=> ({'));
    const chaves = [...corpo.matchAll(/^ {2}([a-z][A-Za-z]*): /gm)].map((m) => m[1] ?? '');
    expect(chaves.length).toBeGreaterThan(10);
    const semDominio = chaves.filter((k) => !dominio.has(kebab(k)));
    expect(semDominio.map((k) => `handlers.${k}: no domain/src/${kebab(k)}`)).toEqual([]);
    const app = join(ROOT, 'services/application/src');
    // Handlers used by processors, the panel or the operator tool alone, not by a route's `deps.handlers`.
    const foraDaChave: Record<string, string> = {
      cadastros: 'registered carriers, read by the panel through its own handler',
      emissao: "the issue of any kind, behind the cte and mdfe handlers' keys",
      'solicitacao-lote': "a requester's batch request, run by the batch processor",
    };
    expect(Object.keys(foraDaChave).filter((n) => !existsSync(join(app, n, 'handler.ts')))).toEqual([]);
    const semChave = pastas(app).filter((n) => existsSync(join(app, n, 'handler.ts')) && !chaves.includes(camel(n)) && !(n in foraDaChave));
    expect(semChave.map((n) => `services/application/src/${n}/handler.ts: no handlers.${camel(n)}`)).toEqual([]);
  });

  it('every exception listed names a folder or file that exists, so the lists cannot outlive the tree', () => {
    const stale = Object.entries(PROPRIAS).flatMap(([layer, nomes]) =>
      Object.keys(nomes)
        .filter((n) => !existsSync(join(ROOT, layer, n)))
        .map((n) => `${layer}/${n}`),
    );
    const nomesDeRotas = new Set(rotas(ROUTES).map((p) => p.replace(/^.*\//, '').replace(/\.ts$/, '')));
    stale.push(
      ...Object.keys(ROTAS_PROPRIAS)
        .filter((n) => !nomesDeRotas.has(n))
        .map((n) => `route ${n}`),
    );
    expect(stale).toEqual([]);
    // The subcontracting words have their aggregate in the domain, so the layers above may use them.
    expect(agregados).toEqual(expect.arrayContaining(['caixa-cte', 'chave-subcontratada']));
  });

  it('the old words of subcontracting are gone from code folders and route files', () => {
    const camadas = ['domain/src', 'services/application/src', 'projections/src', 'contracts/src/http'];
    const velhos = ['cte-subcontratacao', 'subcontratacao', 'cte-contra'];
    const achados = camadas.flatMap((c) =>
      readdirSync(join(ROOT, c))
        .filter((n) => velhos.includes(n.replace(/\.ts$/, '')))
        .map((n) => `${c}/${n}`),
    );
    const rotasVelhas = rotas(ROUTES).filter((p) => velhos.includes(p.replace(/^.*\//, '').replace(/\.ts$/, '')));
    expect([...achados, ...rotasVelhas.map((p) => relative(ROOT, p))]).toEqual([]);
  });
});
