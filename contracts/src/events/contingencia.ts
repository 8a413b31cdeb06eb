import { Type, type Static } from '@sinclair/typebox';
import { Uf } from '../http/common';

/** The virtual contingency authorizers of CT-e: SVC-RS issues with `tpEmis` 7, SVC-SP with 8. */
export const AutorizadorContingencia = Type.Union([Type.Literal('SVC-RS'), Type.Literal('SVC-SP')]);
export type AutorizadorContingencia = Static<typeof AutorizadorContingencia>;

export const TpEmisContingencia = Type.Union([Type.Literal(7), Type.Literal(8)]);
export type TpEmisContingencia = Static<typeof TpEmisContingencia>;

/**
 * An operator switched a UF's CT-e to its contingency authorizer, for the whole deployment: from now on CT-e of
 * emitters in that UF carry `tpEmis`, `dhCont` and `xJust` as here. Who did it is in the event's metadata (`actor`).
 */
export const ContingenciaAtivada = Type.Object({
  uf: Uf,
  autorizador: AutorizadorContingencia,
  tp_emis: TpEmisContingencia,
  dh_cont: Type.String({ description: '`ide/dhCont`: when the contingency began, `AAAA-MM-DDTHH:MM:SS-03:00`' }),
  justificativa: Type.String({ description: '`ide/xJust`, as the CT-e carry it (15–255 characters)' }),
});
export type ContingenciaAtivada = Static<typeof ContingenciaAtivada>;

/** The UF is back to its normal authorizer; the period that ended is repeated so that one event tells it whole. */
export const ContingenciaDesativada = Type.Object({
  uf: Uf,
  autorizador: AutorizadorContingencia,
  tp_emis: TpEmisContingencia,
  dh_cont: Type.String(),
  dh_fim: Type.String({ description: 'When the contingency ended, `AAAA-MM-DDTHH:MM:SS-03:00`' }),
});
export type ContingenciaDesativada = Static<typeof ContingenciaDesativada>;
