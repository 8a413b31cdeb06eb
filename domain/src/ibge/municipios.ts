import rows from './municipios.json';

export interface Municipio {
  codigo_ibge: string;
  municipio: string;
  uf: string;
}

/** Case- and accent-insensitive key: "São Paulo", "SAO PAULO" and "sao  paulo" meet. */
export const normalizeName = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

const byCode = new Map<string, Municipio>();
const byNameUf = new Map<string, Municipio>();
for (const [codigo_ibge, municipio, uf] of rows as [string, string, string][]) {
  const m = { codigo_ibge, municipio, uf };
  byCode.set(codigo_ibge, m);
  byNameUf.set(`${uf}|${normalizeName(municipio)}`, m);
}

export const municipioByCode = (code: string): Municipio | undefined => byCode.get(code);

/** Ruling 19: the pair must exist; when `codigo_ibge` is given it must be that pair's code. */
export const findMunicipio = (municipio: string, uf: string, codigoIbge?: string): Municipio | undefined => {
  const found = byNameUf.get(`${uf}|${normalizeName(municipio)}`);
  if (!found) return undefined;
  if (codigoIbge !== undefined && codigoIbge !== found.codigo_ibge) return undefined;
  return found;
};

export const municipioCount = (): number => byCode.size;
