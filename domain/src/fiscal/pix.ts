import { type TipoChavePix } from '@frete/contracts';
import { isValidCnpj, isValidCpf, normalizeCnpj, normalizeCpf } from './documents';

export type ChavePixResultado = { ok: true; valor: string } | { ok: false; message: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A PIX key judged by its type and normalized as the DICT stores it: CPF and CNPJ without punctuation (check digits
 * validated), e-mail in lower case, phone as `+55` and 10–11 digits (spaces, parentheses and hyphens ignored), random
 * key a UUID in lower case.
 */
export function validarChavePix(tipo: TipoChavePix, raw: string): ChavePixResultado {
  const valor = raw.trim();
  switch (tipo) {
    case 'cpf':
      return isValidCpf(valor)
        ? { ok: true, valor: normalizeCpf(valor) }
        : { ok: false, message: 'not a valid CPF (11 digits, check digits)' };
    case 'cnpj':
      return isValidCnpj(valor)
        ? { ok: true, valor: normalizeCnpj(valor) }
        : { ok: false, message: 'not a valid CNPJ (14 characters, check digits)' };
    case 'email': {
      const email = valor.toLowerCase();
      return EMAIL.test(email) && email.length <= 77 ? { ok: true, valor: email } : { ok: false, message: 'not an e-mail address' };
    }
    case 'telefone': {
      const phone = valor.replace(/[\s()-]/g, '');
      return /^\+55[0-9]{10,11}$/.test(phone)
        ? { ok: true, valor: phone }
        : { ok: false, message: 'a phone key is +55 followed by 10 or 11 digits' };
    }
    case 'aleatoria': {
      const uuid = valor.toLowerCase();
      return UUID.test(uuid) ? { ok: true, valor: uuid } : { ok: false, message: 'a random key is a UUID' };
    }
  }
}
