import { type ApiDeps } from '../../deps';

/**
 * `POST .../consulta` of a document in issue (CT-e or MDF-e): its handler refuses one never issued and, while the
 * result is unknown, asks the authority; then the envelope, 200 once conclusive and 202 while not.
 */
export async function consultarEmissao<R extends { situacao: string }, E extends { conclusivo: boolean }>(deps: ApiDeps, companyId: string, o: {
  ler: () => Promise<R>;
  consultar: (row: R) => Promise<void>;
  envelope: (row: R) => E;
  /** Situations that answer 200 besides the conclusive ones. */
  conhecido?: (row: R) => boolean;
}): Promise<{ status: 200 | 202; envelope: E }> {
  await deps.readYourWrites.waitFor(companyId);
  const row = await o.ler();
  await o.consultar(row);
  await deps.readYourWrites.waitFor(companyId);
  const after = await o.ler();
  const envelope = o.envelope(after);
  return { status: envelope.conclusivo || o.conhecido?.(after) ? 200 : 202, envelope };
}
