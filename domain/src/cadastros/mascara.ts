import { normalizeCnpj, normalizeCpf, formatCnpj } from '../fiscal/documents';

/**
 * How the PIX key check shows a key's holder (design, README "Registrations and regulator queries"). A natural
 * person's data is personal data (LGPD): the name keeps its first word and the first letter of every later word, each
 * hidden letter an `*` (`JOAO DA SILVA` → `JOAO D* S****`); the CPF shows only digits 4 to 9, as the PIX
 * directory's own screens do (`***.982.247-**`). A company's corporate name and CNPJ are public registry data and are
 * shown in full.
 */
export function mascararNome(nome: string): string {
  const palavras = nome.trim().split(/\s+/).filter(Boolean);
  return palavras
    .map((p, i) => {
      if (i === 0) return p;
      const letras = [...p];
      return letras[0] + '*'.repeat(letras.length - 1);
    })
    .join(' ');
}

/** `52998224725` → `***.982.247-**`. Anything that is not 11 digits is hidden entirely. */
export function mascararCpf(cpf: string): string {
  const c = normalizeCpf(cpf);
  if (!/^[0-9]{11}$/.test(c)) return '***.***.***-**';
  return `***.${c.slice(3, 6)}.${c.slice(6, 9)}-**`;
}

/** `52998224725` → `529.982.247-25`. */
export const formatCpf = (cpf: string): string => {
  const c = normalizeCpf(cpf);
  return `${c.slice(0, 3)}.${c.slice(3, 6)}.${c.slice(6, 9)}-${c.slice(9)}`;
};

/** How a holder's document is shown: a CPF masked, a CNPJ in full, formatted. */
export const documentoDoTitular = (documento: string): string =>
  normalizeCpf(documento).length === 11 ? mascararCpf(documento) : formatCnpj(normalizeCnpj(documento));
