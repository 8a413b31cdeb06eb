/**
 * The IBS/CBS rates the authorities accept in the transition years, and the rejection they give otherwise: one pure
 * function, used by the tax-rule registry (422 before anything is sent), the pre-flight and the simulated authority.
 *
 * Facts and their sources:
 * - Rejections 316 "Alíquota do IBS da UF inválida", 321 "Alíquota do IBS do Município inválida", 326 "Alíquota da CBS
 *   inválida": NT 2025.001 (CT-e, RTC) v1.11a, regras de validação do grupo imp/IBSCBS/gIBSCBS (gIBSUF/pIBSUF,
 *   gIBSMun/pIBSMun, gCBS/pCBS). The numbers are the DF-e family's shared ones (NFCom uses the same 316/321/326 with
 *   the same text, migrate.info "Rejeições NFCom"); 316 seen from a CT-e authority for pIBSUF 0.0875 in 2025
 *   (suporte.nuvemfiscal.com.br topic 4122).
 * - Expected rates by year of the emission date (dhEmi): 2025 and 2026 pIBSUF 0.10, pIBSMun 0.00, pCBS 0.90 (LC 214/2025
 *   arts. 343 and 346); 2027 and 2028 pIBSUF 0.05 and pIBSMun 0.05 (art. 344), pCBS "alíquota de referência a ser
 *   publicada"; after 2028 the reference rates are still to be published. Unpublished rates are not judged here (null).
 * - Exception 1: a cClassTrib with the "tributação regular" indicator takes every rate at zero.
 * - Exception 2 (v1.11a): pCBS may be zero when the service starts and ends in the same incentivized area (ZFM, or the
 *   same ALC); the caller says so (`areaIncentivada`), the municipality table being the NT's.
 * - In force: homologação from 03/11/2025, produção from 05/01/2026 (NT 2025.001 v1.10/v1.11a, "Cronograma"); in
 *   2025 production the group was optional and not validated.
 */

/** Rates in hundredths of a percent (the registry's unit: 0.10% → 10, 0.90% → 90). */
export interface AliquotasIbsCbs {
  ibs_uf_centesimos: number;
  ibs_mun_centesimos: number;
  cbs_centesimos: number;
}

export interface RejeicaoAliquotaAutoridade {
  cStat: string;
  xMotivo: string;
  /** The rule's place in the technical note: group/field and what it demands. */
  regra: string;
  fonte: string;
}

export interface OpcoesAliquotasAutoridade {
  /** `producao` by default. */
  ambiente?: 'producao' | 'homologacao';
  /** The cClassTrib carries the "tributação regular" indicator: every rate must be zero (exception 1). */
  tributacaoRegular?: boolean;
  /** Start and end in the same incentivized area (ZFM or the same ALC): pCBS may be zero (exception 2, v1.11a). */
  areaIncentivada?: boolean;
}

const FONTE = 'NT 2025.001 CT-e (RTC) v1.11a, regras do grupo imp/IBSCBS/gIBSCBS; LC 214/2025 arts. 343, 344 e 346';

/** First day the validation applies, per environment (YYYY-MM-DD, Brasília). */
export const VIGENCIA_ALIQUOTAS_AUTORIDADE = { homologacao: '2025-11-03', producao: '2026-01-05' } as const;

/** Expected rates per year of emission; `null` = not yet published, so not judged. */
export function aliquotasEsperadas(ano: number): { ibs_uf: number | null; ibs_mun: number | null; cbs: number | null } {
  if (ano === 2025 || ano === 2026) return { ibs_uf: 10, ibs_mun: 0, cbs: 90 };
  if (ano === 2027 || ano === 2028) return { ibs_uf: 5, ibs_mun: 5, cbs: null };
  return { ibs_uf: null, ibs_mun: null, cbs: null };
}

/** The emission's calendar date in Brasília: an ISO string's own date part (dhEmi carries its offset), or a Date at -03:00. */
function dataBrasilia(dhEmi: string | Date): string {
  if (typeof dhEmi === 'string') {
    const m = /^(\d{4}-\d{2}-\d{2})/.exec(dhEmi);
    if (!m) throw new Error(`not an ISO date: ${dhEmi.slice(0, 40)}`);
    return m[1]!;
  }
  return new Date(dhEmi.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
}

const pct = (centesimos: number) => (centesimos / 100).toFixed(2);

/**
 * The rejection the authority gives for these rates on a document emitted at `dhEmi`, or null when it accepts them
 * (or does not judge them: before the validation's start, or a year whose rate is not published).
 */
export function rejeicaoAliquotasAutoridade(
  aliquotas: AliquotasIbsCbs,
  dhEmi: string | Date,
  opcoes: OpcoesAliquotasAutoridade = {},
): RejeicaoAliquotaAutoridade | null {
  const data = dataBrasilia(dhEmi);
  if (data < VIGENCIA_ALIQUOTAS_AUTORIDADE[opcoes.ambiente ?? 'producao']) return null;
  const ano = Number(data.slice(0, 4));
  const esperadas = opcoes.tributacaoRegular ? { ibs_uf: 0, ibs_mun: 0, cbs: 0 } : aliquotasEsperadas(ano);
  const porque = opcoes.tributacaoRegular ? 'a cClassTrib with tributação regular takes it at zero' : `for an emission in ${ano}`;

  if (esperadas.ibs_uf !== null && aliquotas.ibs_uf_centesimos !== esperadas.ibs_uf) {
    return {
      cStat: '316',
      xMotivo: 'Rejeição: Alíquota do IBS da UF inválida',
      regra: `gIBSUF/pIBSUF must be ${pct(esperadas.ibs_uf)}% ${porque} (got ${pct(aliquotas.ibs_uf_centesimos)}%)`,
      fonte: FONTE,
    };
  }
  if (esperadas.ibs_mun !== null && aliquotas.ibs_mun_centesimos !== esperadas.ibs_mun) {
    return {
      cStat: '321',
      xMotivo: 'Rejeição: Alíquota do IBS do Município inválida',
      regra: `gIBSMun/pIBSMun must be ${pct(esperadas.ibs_mun)}% ${porque} (got ${pct(aliquotas.ibs_mun_centesimos)}%)`,
      fonte: FONTE,
    };
  }
  const cbsZeroNaArea = opcoes.areaIncentivada === true && aliquotas.cbs_centesimos === 0;
  if (esperadas.cbs !== null && aliquotas.cbs_centesimos !== esperadas.cbs && !cbsZeroNaArea) {
    return {
      cStat: '326',
      xMotivo: 'Rejeição: Alíquota da CBS inválida',
      regra:
        `gCBS/pCBS must be ${pct(esperadas.cbs)}% ${porque}` +
        `${opcoes.tributacaoRegular ? '' : ', or 0 within ZFM or one ALC'} (got ${pct(aliquotas.cbs_centesimos)}%)`,
      fonte: FONTE,
    };
  }
  return null;
}
