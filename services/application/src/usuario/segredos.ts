import { randomBytes } from 'node:crypto';
import { Algorithm, hash, verify } from '@node-rs/argon2';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** argon2id with the library's defaults (OWASP's minimum: 19 MiB, 2 passes). */
const OPCOES = { algorithm: Algorithm.Argon2id } as const;

export const hashDaSenha = (senha: string): Promise<string> => hash(senha, OPCOES);

export async function senhaConfere(hashGuardado: string, senha: string): Promise<boolean> {
  try {
    return await verify(hashGuardado, senha);
  } catch {
    return false;
  }
}

let hashFicticio: Promise<string> | null = null;
/**
 * For an unknown e-mail the password is checked against a hash of nothing anyone knows: the answer takes as long as
 * for a wrong password, so timing does not tell which e-mails have a user.
 */
export async function conferirSemUsuario(senha: string): Promise<void> {
  hashFicticio ??= hashDaSenha(randomBytes(24).toString('base64'));
  await senhaConfere(await hashFicticio, senha);
}

/** A one-time password to hand to a new user: 16 characters of 96 random bits. */
export const senhaTemporaria = (): string => randomBytes(12).toString('base64url');

const EMISSOR = 'Frete Fiscal';
const totpDe = (segredoBase32: string, email: string) =>
  new TOTP({ issuer: EMISSOR, label: email, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(segredoBase32) });

export const novoSegredoTotp = (): string => new Secret({ size: 20 }).base32;

/** What the user's authenticator app needs: the otpauth URI as a QR code (inline SVG) and as text. */
export async function provisionamentoTotp(segredoBase32: string, email: string): Promise<{ segredo: string; uri: string; svg: string }> {
  const uri = totpDe(segredoBase32, email).toString();
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return { segredo: segredoBase32, uri, svg };
}

const PERIODO_MS = 30_000;

/**
 * The time step (30 s periods since the epoch) of a 6-digit code of now, one period either side (clocks drift), or null
 * when it is not one. A step is used once: the caller records it so that an overheard code cannot be replayed.
 */
export function passoDoCodigo(segredoBase32: string, email: string, codigo: string, agora: Date): number | null {
  const token = codigo.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpDe(segredoBase32, email).validate({ token, timestamp: agora.getTime(), window: 1 });
  return delta === null ? null : Math.floor(agora.getTime() / PERIODO_MS) + delta;
}

/** The code of a moment (tests and the confirmation help). */
export const codigoTotp = (segredoBase32: string, email: string, agora: Date): string =>
  totpDe(segredoBase32, email).generate({ timestamp: agora.getTime() });
