import { Type, type Static } from '@sinclair/typebox';
import { CteSituation } from '../events/cte';

/** The authority's protocol of a registered event (`retEvento`), null while it has none. */
export const ProtocoloDoEvento = Type.Union([
  Type.Null(),
  Type.Object({
    numero: Type.String(),
    registrado_em: Type.String({ description: '`dhRegEvento`' }),
    cstat: Type.Integer(),
    motivo: Type.String(),
  }),
]);

/** The authority's last answer to an event, or why its result is still unknown. */
export const RetornoDoEvento = Type.Union(
  [Type.Null(), Type.Object({ cstat: Type.Union([Type.Null(), Type.Integer()]), motivo: Type.String() })],
  { description: "The authority's last answer, or why the result is still unknown" },
);

/** Fiscal events of an own CT-e (`/fiscal/cte/{cte_uuid}/eventos/...`, spec sections 4 and 6). */

export const CteEventoKeyParam = Type.Object({
  cte_uuid: Type.String({ description: "The CT-e's public UUID" }),
  event_key: Type.String({ description: 'The `event_key` a 200 or 202 returned (opaque)' }),
});

export const CteCancelamentoInput = Type.Object(
  {
    justificativa: Type.String({ minLength: 15, maxLength: 255, description: 'Why the CT-e is cancelled (`xJust`), 15–255 characters' }),
  },
  { additionalProperties: false },
);
export type CteCancelamentoInput = Static<typeof CteCancelamentoInput>;

export const CteCartaCorrecaoInput = Type.Object(
  {
    correcoes: Type.Array(
      Type.Object(
        {
          grupo: Type.String({
            minLength: 1,
            maxLength: 20,
            pattern: '^[A-Za-z0-9_]+$',
            description: 'The CT-e group of the field (`grupoAlterado`, e.g. `compl`)',
          }),
          campo: Type.String({
            minLength: 1,
            maxLength: 20,
            pattern: '^[A-Za-z0-9_]+$',
            description: 'The field (`campoAlterado`, e.g. `xObs`)',
          }),
          valor: Type.String({ minLength: 1, maxLength: 500, description: 'The corrected value (`valorAlterado`)' }),
          item: Type.Optional(
            Type.Integer({ minimum: 1, maximum: 99, description: 'Index (from 1) of the item when the field is in a list' }),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
  },
  {
    additionalProperties: false,
    description:
      "Fields the manual forbids correcting (MOC 4.00 Visão Geral §13.1: key data, parties' documents, values and taxes) are refused with 422 `carta_correcao_campo_vedado`",
  },
);
export type CteCartaCorrecaoInput = Static<typeof CteCartaCorrecaoInput>;

export const CteEntregaInput = Type.Object(
  {
    entregue_em: Type.String({ format: 'date-time', description: 'When the cargo was delivered (`dhEntrega`)' }),
    recebedor: Type.Object(
      {
        documento: Type.String({
          minLength: 2,
          maxLength: 20,
          pattern: '^[A-Za-z0-9]+$',
          description: 'Document of who received it (`nDoc`)',
        }),
        nome: Type.String({ minLength: 2, maxLength: 60, description: 'Name of who received it (`xNome`)' }),
      },
      { additionalProperties: false },
    ),
    latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
    longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
    hash_imagem: Type.String({
      pattern: '^[A-Za-z0-9+/]{27}=$',
      description: 'Base64 SHA-1 digest (20 bytes) of the delivery image (`hashEntrega`)',
    }),
    hash_em: Type.Optional(
      Type.String({ format: 'date-time', description: 'When the digest was taken (`dhHashEntrega`); default `entregue_em`' }),
    ),
    nfe_chaves: Type.Optional(
      Type.Array(Type.String({ pattern: '^[0-9]{44}$' }), {
        maxItems: 2000,
        description: 'NF-e delivered (`infEntrega/chNFe`); default the NF-e the CT-e carries (normal service)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CteEntregaInput = Static<typeof CteEntregaInput>;

export const CteEventoTipo = Type.Union(
  ['cancelamento', 'carta_correcao', 'entrega', 'entrega_cancelamento'].map((v) => Type.Literal(v)),
  {
    description: 'cancelamento (110111) | carta_correcao (110110) | entrega (110180) | entrega_cancelamento (110181)',
  },
);

const Valor = Type.Number({ minimum: 0, multipleOf: 0.01 });
const PosicaoParcela = Type.Integer({ minimum: 1, maximum: 3 });

/** A counter-CT-e's cancellation, as its driver's payout took it (spec section 4, installments; issue 26). */
export const RepasseNoCancelamento = Type.Object(
  {
    cancelado: Type.Boolean({
      description: 'The payout is cancelled: the authority registered the cancellation; every installment not paid is `cancelada`',
    }),
    em_cancelamento: Type.Boolean({
      description:
        'The cancellation is at the authority (202): until its verdict no installment is released or ordered ' +
        '(422 `documento_em_cancelamento`); a refusal lets the payout go on',
    }),
    parcelas_canceladas: Type.Array(PosicaoParcela, { description: 'Positions of the installments cancelled with the document' }),
    parcelas_pagas: Type.Array(
      Type.Object({
        posicao: PosicaoParcela,
        ordem_pagamento_id: Type.String(),
        valor: Valor,
        situacao: Type.Union([Type.Literal('paga'), Type.Literal('pagamento_enviado')], {
          description: '`paga`: settled; `pagamento_enviado`: already handed to the bank rail, settles as `paga`',
        }),
      }),
      {
        description:
          'Installments whose money had already left when the cancellation was decided: they stay paid (recover them outside the ' +
          'product, e.g. from the next freight)',
      },
    ),
    ordens_retiradas: Type.Array(Type.Object({ posicao: PosicaoParcela, ordem_pagamento_id: Type.String(), valor: Valor }), {
      description:
        'Payment orders recorded before the cancellation and taken back before they reached the bank rail: no money moved ' +
        '(webhook `parcela.pagamento_retirado`)',
    }),
  },
  {
    $id: 'RepasseNoCancelamento',
    description: "What the cancellation of a counter-CT-e did to its driver's installments; present only for a counter-CT-e's cancellation",
  },
);
export type RepasseNoCancelamento = Static<typeof RepasseNoCancelamento>;

export const CteEventoResultado = Type.Object(
  {
    event_key: Type.String({
      description: 'Opaque key of the event: reconcile a pending one with POST .../eventos/{event_key}/reconciliacao',
    }),
    tipo: CteEventoTipo,
    situacao: Type.Union([Type.Literal('registrado'), Type.Literal('pendente')], {
      description: '`registrado` (200): the authority registered it; `pendente` (202): no verdict yet (105 or no answer), reconcile later',
    }),
    sequencia: Type.Integer({ description: '`nSeqEvento`' }),
    protocolo: ProtocoloDoEvento,
    retorno: RetornoDoEvento,
    reconciliacao: Type.String({ description: 'Where to reconcile while pending' }),
    cte: Type.Object({ id: Type.String({ format: 'uuid' }), situacao: Type.Ref(CteSituation) }),
    repasse: Type.Optional(Type.Ref(RepasseNoCancelamento)),
  },
  { $id: 'CteEventoResultado' },
);
export type CteEventoResultado = Static<typeof CteEventoResultado>;

export const CTE_EVENTO_SCHEMAS = [RepasseNoCancelamento, CteEventoResultado];
