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

/** The columns of a document's read model that its issue envelope shows. */
interface LinhaEmitida<S extends string> {
  situacao: S;
  chave: string | null;
  serie: number | null;
  numero: string | null;
  retorno: { cstat: number | null; motivo: string } | null;
}

/**
 * Where a document's issue stands (`CteIssueEnvelope`, `MdfeIssueEnvelope`) and where to poll it: conclusive once in
 * one of the kind's final situations.
 */
export const envelopeDaEmissao = (documento: 'cte' | 'mdfe', conclusivas: readonly string[]) =>
  <S extends string>(id: string, r: LinhaEmitida<S>) => ({
    id,
    situacao: r.situacao,
    access_key: r.chave,
    serie: r.serie,
    numero: r.numero === null ? null : Number(r.numero),
    conclusivo: conclusivas.includes(r.situacao),
    retorno: r.retorno,
    consulta: `/v1/fiscal/${documento}/${id}/consulta`,
  });
