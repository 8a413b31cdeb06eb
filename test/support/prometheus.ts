import { request } from './http';

/** One sample of the text exposition: `name{labels} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** `# TYPE` of each family. */
  types: Map<string, string>;
  samples: Sample[];
  /** The samples of `name` whose labels include `labels`. */
  find(name: string, labels?: Record<string, string>): Sample[];
  /** The one sample of `name` with these labels (among others), or undefined; throws when several match. */
  value(name: string, labels?: Record<string, string>): number | undefined;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;

const unescape = (v: string) => v.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));

/** As Prometheus reads it (Go's ParseFloat): NaN and Inf in any case (prom-client writes `Nan`). */
const number = (text: string): number => {
  const special = text.toLowerCase();
  if (special === '+inf' || special === 'inf') return Infinity;
  if (special === '-inf') return -Infinity;
  if (special === 'nan') return NaN;
  const n = Number(text);
  if (text.trim() === '' || Number.isNaN(n)) throw new Error(`not a sample value: ${text}`);
  return n;
};

/**
 * Parses the Prometheus text exposition format (version 0.0.4) strictly: every line is a HELP, a TYPE or a sample with
 * a valid name, well-formed labels and a number, and every sample belongs to a family declared with a TYPE (a histogram
 * owns `_bucket`, `_sum` and `_count`). A line that is none of these fails the test that reads it.
 */
export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      if (!NAME.test(meta[2]!)) throw new Error(`line ${i + 1}: bad metric name ${meta[2]}`);
      if (meta[1] === 'TYPE') {
        if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(meta[3]!))
          throw new Error(`line ${i + 1}: bad type ${meta[3]}`);
        types.set(meta[2]!, meta[3]!);
      }
      continue;
    }
    if (line.startsWith('#')) continue;
    const head = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)( \d+)?$/.exec(line);
    if (!head) throw new Error(`line ${i + 1}: not a sample: ${line}`);
    const labels: Record<string, string> = {};
    const body = head[3] ?? '';
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < body.length) {
      const at = LABEL.lastIndex;
      const m = LABEL.exec(body);
      if (!m || m.index !== at) throw new Error(`line ${i + 1}: bad labels: ${body}`);
      labels[m[1]!] = unescape(m[2]!);
    }
    const name = head[1]!;
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    if (!types.has(family)) throw new Error(`line ${i + 1}: ${name} has no TYPE`);
    if (family !== name && !['histogram', 'summary'].includes(types.get(family)!))
      throw new Error(`line ${i + 1}: ${name} in a ${types.get(family)}`);
    samples.push({ name, labels, value: number(head[4]!) });
  }
  const find = (name: string, labels: Record<string, string> = {}) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return {
    types,
    samples,
    find,
    value: (name, labels) => {
      const found = find(name, labels);
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
  };
}

/** GET `url` (the API's or an ops server's `/metrics`), checks the answer and parses it. */
export async function scrape(url: string): Promise<Exposition & { contentType: string }> {
  const res = await request(url, 'GET');
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${res.text}`);
  return { ...parseExposition(res.text), contentType: res.headers.get('content-type') ?? '' };
}
