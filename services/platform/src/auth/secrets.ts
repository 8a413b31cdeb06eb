import { createHash, randomBytes } from 'node:crypto';
import { type Environment } from '@frete/contracts';

/** Static API keys name their environment in the prefix (ruling 2). */
export const API_KEY_PREFIX: Record<Environment, string> = { homologacao: 'fk_hml_', producao: 'fk_prd_' };
const CLIENT_ID_PREFIX: Record<Environment, string> = { homologacao: 'cli_hml_', producao: 'cli_prd_' };

export const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** 256-bit random secrets: a plain SHA-256 is enough to store them (nothing to brute-force). */
export function newApiKey(environment: Environment): { key: string; sha256: string; hint: string } {
  const key = API_KEY_PREFIX[environment] + randomBytes(32).toString('base64url');
  return { key, sha256: sha256Hex(key), hint: key.slice(0, 11) };
}

export function newOAuthClient(environment: Environment): { clientId: string; clientSecret: string; sha256: string; hint: string } {
  const clientId = CLIENT_ID_PREFIX[environment] + randomBytes(12).toString('base64url');
  const clientSecret = 'cs_' + randomBytes(32).toString('base64url');
  return { clientId, clientSecret, sha256: sha256Hex(clientSecret), hint: clientId };
}

/** Which environment a static key or client id was made for, if it carries a prefix we know. */
export function environmentOfPrefix(value: string): Environment | null {
  for (const env of ['homologacao', 'producao'] as const) {
    if (value.startsWith(API_KEY_PREFIX[env]) || value.startsWith(CLIENT_ID_PREFIX[env])) return env;
  }
  return null;
}
