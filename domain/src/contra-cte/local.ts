import { type Local } from '@frete/contracts';
import { findMunicipio } from '../ibge/municipios';
import { type LocalIbge } from './planejar';

/** A route end of a request checked against the IBGE table (ruling 19), or null when the pair does not exist. */
export function localIbge(l: Local): LocalIbge | null {
  const found = findMunicipio(l.municipio, l.uf, l.codigo_ibge);
  return found ? { codigo_ibge: found.codigo_ibge, municipio: found.municipio, uf: l.uf } : null;
}
