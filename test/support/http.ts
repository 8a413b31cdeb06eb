import { randomBytes } from 'node:crypto';
import { cnpjCheckDigits } from '@frete/domain';

/** HTTP and identity helpers without a database: the tests and the benchmarks (run on plain node) share them. */

/** A random valid CNPJ (numeric, or alphanumeric with letters in the base). */
export function randomCnpj(alphanumeric = false): string {
  const chars = alphanumeric ? 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789' : '0123456789';
  let base = '';
  for (let i = 0; i < 8; i++) base += chars[randomBytes(1)[0]! % chars.length];
  base += '0001';
  return base + cnpjCheckDigits(base);
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  text: string;
}

export async function request(url: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    if (typeof body === 'string' || body instanceof FormData || body instanceof URLSearchParams) init.body = body;
    else {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
  }
  const res = await fetch(url, init);
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}
