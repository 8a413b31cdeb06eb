import { Type, type Static } from '@sinclair/typebox';

/**
 * An emission grant: the subcontractor (subcontratada) authorizes a contractor (contratante) to trigger counter-CT-e
 * batches on its account. Both parties are recorded as they were at the moment of the grant, for auditors.
 */
export const AutorizacaoConcedida = Type.Object({
  autorizacao_id: Type.String({ format: 'uuid' }),
  subcontratada_id: Type.String(),
  subcontratada_cnpj: Type.String(),
  subcontratada_nome: Type.String(),
  contratante_id: Type.String(),
  contratante_cnpj: Type.String(),
  contratante_nome: Type.String(),
});
export type AutorizacaoConcedida = Static<typeof AutorizacaoConcedida>;

/** The grant stops authorizing new batches; batches already created are unchanged. */
export const AutorizacaoRevogada = Type.Object({
  autorizacao_id: Type.String({ format: 'uuid' }),
  subcontratada_id: Type.String(),
  contratante_id: Type.String(),
  contratante_cnpj: Type.String(),
});
export type AutorizacaoRevogada = Static<typeof AutorizacaoRevogada>;
