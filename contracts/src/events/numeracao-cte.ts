import { Type, type Static } from '@sinclair/typebox';

/** A number of a CT-e series given to one CT-e; a CT-e keeps its number through rejections and retries. */
export const NumeracaoCteReservada = Type.Object({
  company_id: Type.String(),
  serie: Type.Integer(),
  numero: Type.Integer(),
  cte_id: Type.String(),
});
export type NumeracaoCteReservada = Static<typeof NumeracaoCteReservada>;
