import { type ApiDeps } from '../../deps';
import { type ApiError } from '../../errors';

/**
 * `POST .../consulta` of a document in issue (CT-e or MDF-e): one never issued is refused; while the result is
 * unknown the authority is asked (the emitter resends the same signed XML if it never got it); then the envelope,
 * 200 once conclusive and 202 while not.
 */
export async function consultarEmissao<R extends { situacao: string }, E extends { conclusivo: boolean }>(deps: ApiDeps, companyId: string, o: {
  ler: () => Promise<R>;
  consultar: (row: R) => Promise<void>;
  envelope: (row: R) => E;
  nuncaEmitido: () => ApiError;
  /** Situations that answer 200 besides the conclusive ones. */
  conhecido?: (row: R) => boolean;
}): Promise<{ status: 200 | 202; envelope: E }> {
  await deps.readYourWrites.waitFor(companyId);
  let row = await o.ler();
  if (row.situacao === 'rascunho') throw o.nuncaEmitido();
  if (row.situacao === 'em_processamento') {
    await o.consultar(row);
    await deps.readYourWrites.waitFor(companyId);
    row = await o.ler();
  }
  const envelope = o.envelope(row);
  return { status: envelope.conclusivo || o.conhecido?.(row) ? 200 : 202, envelope };
}
