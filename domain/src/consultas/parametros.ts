import { type FieldError, type TipoDocumento } from '@frete/contracts';
import { Rejection } from '../decider';
import { isValidPlaca, normalizePlaca } from '../fiscal/placa';
import { documentoPessoa } from '../veiculo/decider';

/** Ruling 24: a fleet query names at most 50 plates. */
export const MAX_PLACAS_FROTA = 50;

const invalid = (fields: FieldError[]): Rejection =>
  new Rejection('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });

export interface DocumentoConsultado {
  documento: string;
  tipo_documento: TipoDocumento;
}

/**
 * A CPF or CNPJ, with or without punctuation: 11 digits are a CPF, 14 characters (letters allowed in the first 12,
 * the 2026 rule) a CNPJ; check digits validated. Null when it is neither.
 */
export const lerDocumento = (raw: string): DocumentoConsultado | null => documentoPessoa(raw);

const problemaDocumento = (raw: string): string => {
  const digits = raw.replace(/[.\-/\s]/g, '');
  if (/^[0-9]{11}$/.test(digits)) return 'CPF check digits do not match';
  if (/^[0-9A-Z]{14}$/i.test(digits)) return 'CNPJ check digits do not match';
  return 'not a CPF (11 digits) or CNPJ (14 characters)';
};

/**
 * RNTRC as the regulator numbers it: 8 or 9 digits (the fiscal registry keeps 8, ruling 23; the sandbox sentinels
 * have 9). Spaces, dots and hyphens are ignored; leading zeros are kept.
 */
export const RNTRC = /^[0-9]{8,9}$/;
export const normalizarRntrc = (raw: string): string => raw.replace(/[.\-\s]/g, '');

/** `GET /consultas/rntrc`: the document and the RNTRC, or 400 `validacao` naming each bad parameter. */
export function lerConsultaRntrc(q: { documento: string; rntrc: string }): DocumentoConsultado & { rntrc: string } {
  const fields: FieldError[] = [];
  const doc = lerDocumento(q.documento);
  if (!doc) fields.push({ field: 'querystring.documento', message: problemaDocumento(q.documento) });
  const rntrc = normalizarRntrc(q.rntrc);
  if (!RNTRC.test(rntrc)) fields.push({ field: 'querystring.rntrc', message: 'RNTRC has 8 or 9 digits' });
  if (fields.length > 0 || !doc) throw invalid(fields);
  return { ...doc, rntrc };
}

/**
 * `GET /consultas/frota`: the document and 1 to 50 distinct plates (comma-separated, or the parameter repeated), old
 * (`ABC1234`) or Mercosur (`ABC1D23`), case, spaces and hyphen ignored; a repeated plate is refused (the answer has one
 * item per plate). 400 `validacao` names each bad one as `querystring.placas.<n>` (0-based, in the order given).
 */
export function lerConsultaFrota(q: { documento: string; placas: string | string[] }): DocumentoConsultado & { placas: string[] } {
  const fields: FieldError[] = [];
  const doc = lerDocumento(q.documento);
  if (!doc) fields.push({ field: 'querystring.documento', message: problemaDocumento(q.documento) });
  const brutas = (Array.isArray(q.placas) ? q.placas : [q.placas]).flatMap((p) => p.split(','));
  const placas = brutas.map(normalizePlaca);
  if (placas.length > MAX_PLACAS_FROTA) {
    fields.push({ field: 'querystring.placas', message: `at most ${MAX_PLACAS_FROTA} plates (${placas.length} given)` });
  } else {
    const vistas = new Map<string, number>();
    placas.forEach((placa, i) => {
      const field = `querystring.placas.${i}`;
      if (placa === '') fields.push({ field, message: 'empty plate' });
      else if (!isValidPlaca(placa))
        fields.push({ field, message: `'${brutas[i]!.trim()}' is not a plate: old ABC1234 or Mercosur ABC1D23` });
      else if (vistas.has(placa)) fields.push({ field, message: `plate ${placa} repeated (also at position ${vistas.get(placa)})` });
      else vistas.set(placa, i);
    });
  }
  if (fields.length > 0 || !doc) throw invalid(fields);
  return { ...doc, placas };
}

/** A document in a path (`/agregados/{documento}`): the same rule, 400 `validacao` on `params.documento`. */
export function lerDocumentoParam(raw: string): DocumentoConsultado {
  const doc = lerDocumento(raw);
  if (!doc) throw invalid([{ field: 'params.documento', message: problemaDocumento(raw) }]);
  return doc;
}
