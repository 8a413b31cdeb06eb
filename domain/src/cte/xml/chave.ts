import { accessKeyCheckDigit } from '../../fiscal/access-key';

/**
 * The CT-e access key (MOC 4.00 §2.1.4, §7.3): cUF(2) AAMM(4) CNPJ(14; a CPF as `000`+CPF) mod(2) serie(3) nCT(9)
 * tpEmis(1) cCT(8) cDV(1). The check digit is the shared mod-11 of fiscal/access-key.ts.
 */
export interface ChaveDeAcessoInput {
  cUF: string;
  /** Year and month of `dhEmi`, `AAMM`. */
  aamm: string;
  /** CNPJ (14, possibly alphanumeric) or CPF (11). */
  cnpj: string;
  /** 57 CT-e, 58 MDF-e (same key layout; `cCT` is then the MDF-e's `cMDF`). */
  modelo: '57' | '58';
  serie: number;
  numero: number;
  tpEmis: number;
  cCT: string;
}

export class ChaveDeAcessoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChaveDeAcessoError';
  }
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export function chaveDeAcesso(i: ChaveDeAcessoInput): string {
  const fail = (m: string): never => {
    throw new ChaveDeAcessoError(m);
  };
  if (!/^[0-9]{2}$/.test(i.cUF)) fail(`cUF '${i.cUF}' is not 2 digits`);
  if (!/^[0-9]{2}(0[1-9]|1[0-2])$/.test(i.aamm)) fail(`AAMM '${i.aamm}' is not a year and month`);
  const emitente = /^[0-9]{11}$/.test(i.cnpj) ? `000${i.cnpj}` : i.cnpj;
  if (!/^[A-Z0-9]{12}[0-9]{2}$/.test(emitente)) fail(`'${i.cnpj}' is neither a normalized CNPJ nor a CPF`);
  if (!Number.isInteger(i.serie) || i.serie < 0 || i.serie > 999) fail(`serie ${i.serie} is not 0–999`);
  if (!Number.isInteger(i.numero) || i.numero < 0 || i.numero > 999_999_999) fail(`numero ${i.numero} is not 0–999999999`);
  if (!Number.isInteger(i.tpEmis) || i.tpEmis < 1 || i.tpEmis > 9) fail(`tpEmis ${i.tpEmis} is not one digit`);
  if (!/^[0-9]{8}$/.test(i.cCT)) fail(`cCT '${i.cCT}' is not 8 digits`);
  const first43 = `${i.cUF}${i.aamm}${emitente}${i.modelo}${pad(i.serie, 3)}${pad(i.numero, 9)}${i.tpEmis}${i.cCT}`;
  return first43 + accessKeyCheckDigit(first43);
}

/**
 * Whether a cCT is acceptable (MOC: a random code, never the document number; sped-common `Keys::cNFIsValid`):
 * 8 digits, not equal to nCT, not one digit repeated, not a run of consecutive digits up or down.
 */
export function codigoNumericoValido(cCT: string, numero: number): boolean {
  if (!/^[0-9]{8}$/.test(cCT)) return false;
  if (Number(cCT) === numero) return false;
  if (/^(\d)\1{7}$/.test(cCT)) return false;
  const d = [...cCT].map(Number);
  const run = (step: number) => d.every((x, k) => k === 0 || x === d[k - 1]! + step);
  return !run(1) && !run(-1);
}

/** FNV-1a over the seed, then mulberry32: the same seed always gives the same sequence. */
function seeded(seed: string): () => number {
  let h = 0x811c9dc5;
  for (let k = 0; k < seed.length; k++) {
    h ^= seed.charCodeAt(k);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  let a = h;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A valid cCT for document number `numero`. The randomness comes from the caller: a function returning numbers in
 * [0, 1) (e.g. one over `crypto.randomInt`), or a string seed for a deterministic code (a preview's, from the
 * draft id). Draws again until the code is valid.
 */
export function codigoNumerico(fonte: string | (() => number), numero: number): string {
  const random = typeof fonte === 'string' ? seeded(fonte) : fonte;
  for (let attempt = 0; attempt < 1000; attempt++) {
    const r = random();
    const cCT = String(Math.floor(Math.min(Math.max(r, 0), 0.999999999) * 100_000_000)).padStart(8, '0');
    if (codigoNumericoValido(cCT, numero)) return cCT;
  }
  throw new ChaveDeAcessoError('the random source gave no valid cCT in 1000 draws');
}
