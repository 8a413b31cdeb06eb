import { hkdfSync } from 'node:crypto';

/** The session cookie's name; HTTP-only, Secure, SameSite=Strict, scoped to /console. */
export const COOKIE_SESSAO = 'frete_sessao';

export const cookieSessao = { httpOnly: true, secure: true, sameSite: 'strict', path: '/console' } as const;

/** The key that signs the panel's CSRF cookie: derived from the deployment's secrets key, never the key itself. */
export const chaveDosCookies = (secretsKey: string): string =>
  Buffer.from(hkdfSync('sha256', Buffer.from(secretsKey, 'base64'), Buffer.alloc(0), 'frete console cookies', 32)).toString('base64');

/**
 * No script, style or font from anywhere but the panel itself; no framing; forms post only here. htmx runs from
 * /console/assets without eval (its config in the page says so).
 */
export const CABECALHOS_SEGURANCA: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};
