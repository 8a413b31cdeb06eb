import { type RetornoAutorizacao, type RetornoEvento } from '@frete/adapters';

/** The protocol of an authorization; anything else the authority answered fails the test, showing the answer. */
export function autorizado(r: RetornoAutorizacao) {
  if (r.tipo !== 'autorizado') throw new Error(`expected an authorization, got ${JSON.stringify(r)}`);
  return r.protocolo;
}

/** The protocol of a registered event; anything else the authority answered fails the test, showing the answer. */
export function registrado(r: RetornoEvento) {
  if (r.tipo !== 'registrado') throw new Error(`expected a registered event, got ${JSON.stringify(r)}`);
  return r.protocolo;
}
