import { Type, type Static } from '@sinclair/typebox';
import { CursorQuery, Environment, PageMeta, PageQuery } from './common';
import { SituacaoParcela } from './repasse';

/**
 * `GET /carriers/parcelas-repasse`: the company's installments by due date, across documents (scope `operacao`). The
 * document's own route (`GET /carriers/parcelas-repasse/{documento}`) still has the rule and the acts.
 */
const Money = (description: string) => Type.Number({ minimum: 0, multipleOf: 0.01, description });
const Instant = (description: string) => Type.Union([Type.Null(), Type.String({ format: 'date-time', description })]);

export const ParcelaListQuery = Type.Object({
  ...PageQuery.properties,
  ...CursorQuery.properties,
  situacao: Type.Optional(SituacaoParcela),
  vencimento_ate: Type.Optional(
    Type.String({
      format: 'date',
      description:
        'Due on or before this day (Brasília calendar), e.g. today for the overdue and due ones; leaves out those without a due date',
    }),
  ),
});
export type ParcelaListQuery = Static<typeof ParcelaListQuery>;

export const ParcelaListada = Type.Object(
  {
    counter_cte_id: Type.String({ description: 'The counter-CT-e: `GET /carriers/parcelas-repasse/{counter_cte_id}` reads its document' }),
    chave: Type.String({ description: 'Access key of the counter-CT-e' }),
    documento_financeiro: Type.Union([Type.Null(), Type.String({ description: "The leg's `ROUTE:...` document; null in the 1:1 design" })]),
    lote_id: Type.Union([Type.Null(), Type.String({ description: 'The batch; null for a single counter-CT-e' })]),
    motorista_cpf: Type.String(),
    posicao: Type.Integer({ minimum: 1, maximum: 3, description: 'Installment position, 1 to 3' }),
    percentual: Type.Number({ description: "Share of the document's value" }),
    valor: Money('Amount of the installment'),
    dias: Type.Integer({ minimum: 0, maximum: 30, description: 'Days from the release to the due date' }),
    situacao: SituacaoParcela,
    vencimento: Type.Union([Type.Null(), Type.String({ format: 'date', description: 'Due date (Brasília); null until released' })]),
    liberada_em: Instant('When it was released'),
    pagamento_solicitado_em: Instant('When payment was ordered'),
    paga_em: Instant('When the payment settled'),
    cancelada_em: Instant("When the counter-CT-e's cancellation cancelled it"),
  },
  { $id: 'ParcelaListada', description: 'One installment in the list, with the document it belongs to' },
);
export type ParcelaListada = Static<typeof ParcelaListada>;

export const ParcelaLista = Type.Object(
  { data: Type.Array(Type.Ref(ParcelaListada)), meta: PageMeta, environment: Environment },
  {
    $id: 'ParcelaLista',
    description: 'Earliest due date first, those without one (not released yet) last; `meta.next_cursor` pages on (ruling 9)',
  },
);
export type ParcelaLista = Static<typeof ParcelaLista>;

export const REPASSE_LISTA_SCHEMAS = [ParcelaListada, ParcelaLista];
