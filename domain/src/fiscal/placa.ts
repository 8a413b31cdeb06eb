/**
 * Vehicle plates: the old Brazilian pattern `ABC1234` and the Mercosur one `ABC1D23` (design, fiscal domain).
 * Stored upper case, without hyphen or spaces.
 */
export const normalizePlaca = (raw: string): string => raw.replace(/[\s-]/g, '').toUpperCase();

export const PLACA_ANTIGA = /^[A-Z]{3}[0-9]{4}$/;
export const PLACA_MERCOSUL = /^[A-Z]{3}[0-9][A-Z][0-9]{2}$/;

export const isValidPlaca = (raw: string): boolean => {
  const placa = normalizePlaca(raw);
  return PLACA_ANTIGA.test(placa) || PLACA_MERCOSUL.test(placa);
};
