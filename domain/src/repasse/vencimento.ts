const DIA_MS = 86_400_000;
const BRASILIA_MS = -3 * 3_600_000;

/**
 * The due date of an installment released at `liberadaEm`: the release's calendar day in Brasília (ruling 11; the
 * offset is fixed at -03:00, as in `dhSaoPaulo`) plus `dias`, as `AAAA-MM-DD`.
 */
export const vencimentoDe = (liberadaEm: Date, dias: number): string =>
  new Date(liberadaEm.getTime() + BRASILIA_MS + dias * DIA_MS).toISOString().slice(0, 10);
