import { type ChavePix, type TipoChavePix } from '@frete/contracts';
import { Rejection } from '../decider';
import { normalizeCnpj, normalizeCpf } from '../fiscal/documents';
import { validarChavePix } from '../fiscal/pix';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The type of a PIX key given without one, by its shape: a UUID is a random key; an `@` makes an e-mail; a leading
 * `+` a phone (the directory keeps phones as `+55…`); 11 digits (punctuation ignored) a CPF; 14 characters a CNPJ.
 * Null when the shape says nothing. 11 digits without `+55` are a CPF, never a phone: a phone key always carries +55.
 */
export function inferirTipoChavePix(raw: string): TipoChavePix | null {
  const v = raw.trim();
  if (UUID.test(v)) return 'aleatoria';
  if (v.includes('@')) return 'email';
  if (v.startsWith('+')) return 'telefone';
  if (/^[0-9]{11}$/.test(normalizeCpf(v)) && /^[0-9.\-\s]+$/.test(v)) return 'cpf';
  if (/^[0-9A-Z]{14}$/i.test(normalizeCnpj(v))) return 'cnpj';
  return null;
}

/**
 * The key of a PIX check judged (type given or inferred) and normalized; 400 `validacao` on `chave` (or `tipo`)
 * otherwise. A given `tipo` is trusted: `{ tipo: 'telefone', chave: '11987654321' }` is refused for lacking +55.
 */
export function lerChavePix(tipo: TipoChavePix | undefined, chave: string): ChavePix {
  const t = tipo ?? inferirTipoChavePix(chave);
  if (!t) {
    const message =
      'cannot tell the key type: a CPF (11 digits), a CNPJ (14 characters), an e-mail, a phone (+55 and 10–11 digits) or a random key (UUID)';
    throw new Rejection('validacao', `chave: ${message}`, { fields: [{ field: 'chave', message }] });
  }
  const r = validarChavePix(t, chave);
  if (!r.ok) {
    // 11 digits were taken for a CPF: say how a phone is written, in case it was meant as one.
    const message = t === 'cpf' && !tipo ? `${r.message}; a phone key starts with +55` : r.message;
    throw new Rejection('validacao', `chave: ${message}`, { fields: [{ field: 'chave', message }] });
  }
  return { tipo: t, valor: r.valor };
}
