/** What precedence needs of a rule: its UF pair and its service type (null for the general rule of the pair). */
export interface RegraDaRota {
  uf_origem: string;
  uf_destino: string;
  tp_serv: number | null;
}

/**
 * The tax rule that applies to a route (origin UF → destination UF) and a service type (`ide/tpServ`).
 *
 * Precedence: the rule of the same UF pair with exactly that `tp_serv` wins; otherwise the general rule of the pair
 * (no `tp_serv`); otherwise none (null: the caller answers `sem_regra_tributacao`). Rules of another pair never
 * apply, whatever their service type. With no `tp_serv` given, only the general rule can apply.
 */
export function regraAplicavel<R extends RegraDaRota>(
  regras: readonly R[],
  ufOrigem: string,
  ufDestino: string,
  tpServ?: number | null,
): R | null {
  const daRota = regras.filter((r) => r.uf_origem === ufOrigem && r.uf_destino === ufDestino);
  const especifica = tpServ === undefined || tpServ === null ? undefined : daRota.find((r) => r.tp_serv === tpServ);
  return especifica ?? daRota.find((r) => r.tp_serv === null) ?? null;
}
