import { Type, type Static } from '@sinclair/typebox';

/** `POST /fiscal/cte-subcontratacao/autorizacoes`: the caller (subcontractor) names the contractor it authorizes. */
export const AutorizacaoInput = Type.Object(
  {
    contratante: Type.Object(
      {
        cnpj: Type.String({
          minLength: 1,
          maxLength: 32,
          description: 'CNPJ of the contractor, with or without punctuation; alphanumeric CNPJ accepted',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type AutorizacaoInput = Static<typeof AutorizacaoInput>;

export const AutorizacaoParte = Type.Object({
  cnpj: Type.String({ description: 'CNPJ without punctuation (14 characters)' }),
  nome: Type.String({ description: 'Corporate name (razão social)' }),
});

export const AutorizacaoStatus = Type.Union([Type.Literal('ativa'), Type.Literal('revogada')]);
export type AutorizacaoStatus = Static<typeof AutorizacaoStatus>;

/** One emission grant: the contractor may trigger batches whose `subcontratada.cnpj` is the subcontractor. */
export const AutorizacaoEmissao = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    contratante: AutorizacaoParte,
    subcontratada: AutorizacaoParte,
    status: AutorizacaoStatus,
    concedida_em: Type.String({ format: 'date-time' }),
    revogada_em: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'AutorizacaoEmissao', description: 'Emission grant (autorização de emissão) between two carriers' },
);
export type AutorizacaoEmissao = Static<typeof AutorizacaoEmissao>;

/** Active grants in both directions. */
export const AutorizacoesLista = Type.Object(
  {
    concedidas: Type.Array(AutorizacaoEmissao, { description: 'Grants the caller gave, as subcontractor' }),
    recebidas: Type.Array(AutorizacaoEmissao, { description: 'Grants the caller received, as contractor' }),
  },
  { title: 'AutorizacoesLista' },
);
export type AutorizacoesLista = Static<typeof AutorizacoesLista>;
