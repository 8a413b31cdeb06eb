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

/**
 * Outside Brazil (an export's end, a foreign party): CT-e 4.00 writes cMun 9999999, xMun EXTERIOR and UF EX
 * (cteTiposBasico_v4.00.xsd: "Informar 9999999 para operações com o exterior", "Informar 'EXTERIOR'", "Informar 'EX'").
 */
export const EXTERIOR: Municipio = { codigo_ibge: '9999999', municipio: 'EXTERIOR', uf: 'EX' };
const exterior = (municipio: string) => (normalizeName(municipio) === 'exterior' ? EXTERIOR : undefined);

/**
 * The municipality a fiscal document names, by its code: the code identifies it and the name is informative. The MOC's
 * rules compare codes (G069: "o mesmo código de município de início e fim") and the schema ties cMun to the IBGE table,
 * while no rule checks xMun (shared/design/fiscal-domain.md §4 and §B): a contractor's CT-e whose name came mis-encoded
 * (`MossorÃ³`) with a valid code is the municipality of that code. A code of another UF names nothing.
 */
export function municipioDoDocumento(codigo: string | null | undefined, uf: string | null | undefined): Municipio | undefined {
  if (!codigo) return undefined;
  if (codigo === EXTERIOR.codigo_ibge) return uf === EXTERIOR.uf ? EXTERIOR : undefined;
  const found = byCode.get(codigo);
  return found && found.uf === uf ? found : undefined;
}

/** Ruling 19: the pair must exist; when `codigo_ibge` is given it must be that pair's code. */
export const findMunicipio = (municipio: string, uf: string, codigoIbge?: string): Municipio | undefined => {
  const found = uf === EXTERIOR.uf ? exterior(municipio) : byNameUf.get(`${uf}|${normalizeName(municipio)}`);
  if (!found) return undefined;
  if (codigoIbge !== undefined && codigoIbge !== found.codigo_ibge) return undefined;
  return found;
};

export const municipioCount = (): number => byCode.size;
