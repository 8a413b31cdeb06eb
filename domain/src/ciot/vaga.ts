import { type CiotStatus } from '@frete/contracts';
import { Rejection } from '../decider';

/** A CT-e's latest CIOT operation, as far as its slot goes. */
export interface OperacaoCiotDoCte {
  ciot_id: string;
  status: CiotStatus;
}

/** Statuses that hold the CT-e's CIOT slot: a new issue waits for a cancellation (or a refusal, or a block). */
export const CIOT_OCUPA_O_CTE: readonly CiotStatus[] = ['sent', 'registrado', 'retificado', 'encerrado'];

/** The operation that holds the CT-e's CIOT slot, or null when the slot is free (none yet, or the latest let it go). */
export const ciotQueOcupaOCte = (atual: OperacaoCiotDoCte | null): { id: string; status: CiotStatus } | null =>
  atual && CIOT_OCUPA_O_CTE.includes(atual.status) ? { id: atual.ciot_id, status: atual.status } : null;

/** A new CIOT of the CT-e only on a free slot: 422 `ciot_ja_emitido` with the operation that holds it. */
export function exigirVagaDoCteLivre(emVigor: { id: string; status: string } | null): void {
  if (emVigor) {
    throw new Rejection(
      'ciot_ja_emitido',
      `the CT-e already has CIOT operation ${emVigor.id} (${emVigor.status}): only after a cancellation, refusal or block can another be issued`,
      { ciot: emVigor },
    );
  }
}
