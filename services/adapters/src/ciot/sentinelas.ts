/**
 * Sandbox sentinels of the CIOT declaration (spec section 4, ruling 13: exact, capitals), read by the simulated
 * provider only, from `referencia_externa` (the whole value) or, for a CIOT anchored on a CT-e, from the CT-e's
 * observations (`observacoes`, `compl/xObs`: the sentinel as a word of its own):
 * - `CIOT-PENDENTE`: the declaration is received without verdict (202 `sent`); the emission processor's first
 *   follow-up finds it registered, so a reread soon shows `registrado`.
 * - `CIOT-RECUSAR`: the provider refuses it (422 `declaracao_recusada`).
 * Any other value (or none) is registered (201). In the sandbox the two sentinels are exempt from the uniqueness of
 * `referencia_externa`, so that integrators can drive these paths as often as they need.
 */
export const CIOT_PENDENTE = 'CIOT-PENDENTE';
export const CIOT_RECUSAR = 'CIOT-RECUSAR';

export type SentinelaCiot = 'pendente' | 'recusar';

export function lerSentinelaCiot(referencia: string | null): SentinelaCiot | null {
  if (referencia === CIOT_PENDENTE) return 'pendente';
  if (referencia === CIOT_RECUSAR) return 'recusar';
  return null;
}

export const eSentinelaCiot = (referencia: string | null): boolean => lerSentinelaCiot(referencia) !== null;

const NO_TEXTO = /(?:^|[^A-Z0-9-])(CIOT-PENDENTE|CIOT-RECUSAR)(?![A-Z0-9-])/;

/** The sentinel written in a free text (the first one), or null. */
export function lerSentinelaCiotNoTexto(texto: string | null | undefined): SentinelaCiot | null {
  const m = NO_TEXTO.exec(texto ?? '');
  return m ? lerSentinelaCiot(m[1]!) : null;
}
