import { type CteLido } from '@frete/contracts';

/** The columns every read model of a CT-e copies from its reading: the taker, the route's ends and the amounts. */
export const colunasDoCte = (c: CteLido) => ({
  tomador_papel: c.tomador.papel,
  tomador_documento: c.tomador.parte?.documento ?? null,
  tomador_nome: c.tomador.parte?.nome ?? null,
  inicio_municipio: c.inicio.municipio,
  inicio_uf: c.inicio.uf,
  fim_municipio: c.fim.municipio,
  fim_uf: c.fim.uf,
  valor_prestacao_centavos: c.valor_prestacao_centavos,
  valor_receber_centavos: c.valor_receber_centavos,
});
