import { getHashes, pbkdf2Sync } from 'node:crypto';
import * as forge from 'node-forge';

/**
 * A budget of key-derivation iterations for opening one PKCS#12 file. forge derives every key of the file inside
 * one call (`pkcs12FromAsn1`): the MAC's, the encrypted safes', and those of the key bags found inside decrypted
 * content, which no look at the file beforehand can see. Its three derivation functions are therefore wrapped
 * (once, process-wide): while a budget is active, each derivation is charged before it runs and refused when it
 * would pass either limit, so a file never gets more work than the budget, whatever it hides. Outside a budget
 * the wrappers only pass the call on.
 */

export interface DerivationLimits {
  /** Iterations of any single derivation. */
  each: number;
  /** Iterations of all derivations of the open, retries included. */
  total: number;
}

export class DerivationBudgetExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DerivationBudgetExceeded';
  }
}

type Pkcs12Kdf = (
  password: string | null,
  salt: forge.util.ByteStringBuffer,
  id: number,
  iterations: number,
  size: number,
  md?: unknown,
) => string;
type Pbkdf2 = (password: string, salt: string, iterations: number, size: number, md?: unknown, callback?: unknown) => string;

/** The parts of forge that derive keys, as its code calls them (not all are in its typings). */
interface ForgeKdfs {
  pbe: { generatePkcs12Key: Pkcs12Kdf };
  pkcs12: { generateKey: Pkcs12Kdf };
  pkcs5: { pbkdf2: Pbkdf2 };
}

let budget: (DerivationLimits & { spent: number }) | null = null;

function charge(iterations: number): void {
  if (!budget) return;
  if (!(iterations <= budget.each)) {
    throw new DerivationBudgetExceeded(
      `the file asks for ${iterations} key-derivation iterations at once, more than the ${budget.each} accepted`,
    );
  }
  if (budget.spent + iterations > budget.total) {
    throw new DerivationBudgetExceeded(`the file asks for more than ${budget.total} key-derivation iterations in all`);
  }
  budget.spent += iterations;
}

const NATIVE_DIGESTS = new Set(['sha1', 'sha224', 'sha256', 'sha384', 'sha512'].filter((d) => getHashes().includes(d)));
const isByteString = (s: unknown): s is string => typeof s === 'string' && /^[\0-\xff]*$/.test(s);

let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  const kdfs = forge as unknown as ForgeKdfs;
  const pkcs12Kdf = kdfs.pbe.generatePkcs12Key;
  const metered: Pkcs12Kdf = (password, salt, id, iterations, size, md) => {
    charge(iterations);
    return pkcs12Kdf(password, salt, id, iterations, size, md);
  };
  // The PBE ciphers call the first, the MAC check the second: forge copied one function to both names.
  kdfs.pbe.generatePkcs12Key = metered;
  kdfs.pkcs12.generateKey = metered;

  const pbkdf2 = kdfs.pkcs5.pbkdf2;
  kdfs.pkcs5.pbkdf2 = (password, salt, iterations, size, md, callback) => {
    charge(iterations);
    // forge runs PBKDF2 natively only when handed a digest name; PBES2 hands it a digest object, which makes it
    // run in JavaScript about thirty times slower. Within a budget, the same derivation runs in OpenSSL instead.
    const digest = md && typeof md === 'object' ? (md as { algorithm?: unknown }).algorithm : undefined;
    if (
      budget &&
      callback === undefined &&
      typeof digest === 'string' &&
      NATIVE_DIGESTS.has(digest) &&
      isByteString(password) &&
      isByteString(salt)
    ) {
      return pbkdf2Sync(Buffer.from(password, 'binary'), Buffer.from(salt, 'binary'), iterations, size, digest).toString('binary');
    }
    return pbkdf2(password, salt, iterations, size, md, callback);
  };
}

/** Runs `open` (synchronous forge work) with every key derivation charged to a fresh budget of `limits`. */
export function withDerivationBudget<T>(limits: DerivationLimits, open: () => T): T {
  install();
  const outer = budget;
  budget = { ...limits, spent: 0 };
  try {
    return open();
  } finally {
    budget = outer;
  }
}
