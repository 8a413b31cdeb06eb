import { type CteDoMdfe } from '@frete/contracts';
import { type Centavos, somaCentavos } from '../money/money';
import { type Gramas } from '../money/peso';

/** The MDF-e's `tot`: how many CT-e it carries, their cargo value (`vCarga`) and gross weight (`qCarga` in KG). */
export interface TotaisMdfe {
  qtd_cte: number;
  valor_carga_centavos: Centavos;
  peso_gramas: Gramas;
}

/** One rule for the XML, the DAMDFE and the API's view, so that the three always show the same totals. */
export const totaisMdfe = (ctes: readonly Pick<CteDoMdfe, 'valor_carga_centavos' | 'peso_gramas'>[]): TotaisMdfe => ({
  qtd_cte: ctes.length,
  valor_carga_centavos: somaCentavos(ctes.map((c) => c.valor_carga_centavos)),
  peso_gramas: ctes.reduce((s, c) => s + c.peso_gramas, 0),
});
