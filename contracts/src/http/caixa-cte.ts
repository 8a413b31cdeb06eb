import { Type, type Static } from '@sinclair/typebox';
import { CursorQuery, PageQuery } from './common';
import { cteDocumentFields } from './cte-documento';
import { ProtocoloDoEvento, RetornoDoEvento } from './cte-eventos';
import { type CodigoLinhaLote } from './lote';
import { BLOQUEIOS_CONTRA_CTE } from '../events/cte-subcontratacao';

export const InboundCteStatus = Type.Union(
  [Type.Literal('recebido'), Type.Literal('subcontratado'), Type.Literal('subcontratado_em_pernas')],
  {
    $id: 'InboundCteStatus',
    description:
      'Where a received CT-e stands in the subcontracting flow. `recebido`: in the inbox, no active counter-CT-e against it. ' +
      '`subcontratado`: an active full (1:1) counter-CT-e exists. `subcontratado_em_pernas`: active counter-CT-e for legs exist. ' +
      'Cancelling the counter-CT-e brings it back to `recebido`.',
  },
);
export type InboundCteStatus = Static<typeof InboundCteStatus>;

export const InboundCteCarrierRole = Type.Union(
  ['emitente', 'tomador', 'expedidor', 'recebedor', 'remetente', 'destinatario', 'terceiro'].map((v) => Type.Literal(v)),
  {
    $id: 'InboundCteCarrierRole',
    description:
      "Your company's role in the document, by where its CNPJ appears (the first that applies): `emitente` (your own CT-e), " +
      '`tomador`, `expedidor`, `recebedor`, `remetente`, `destinatario`, or `terceiro` when it is not named (the usual case of a subcontractor).',
  },
);

export const CounterCteBlockedReason = Type.Union(
  BLOQUEIOS_CONTRA_CTE.map((v) => Type.Literal(v)),
  {
    description:
      'Why `allows_counter_cte` is false: `cte_proprio` (your own CT-e), `vinculado_multimodal` (tpServ 4), `nao_e_cte_de_carga` ' +
      '(a CT-e OS, model 67), `cte_nao_normal` (complementary or annulment CT-e), `ambiente_homologacao` (a sandbox document in production), ' +
      '`dados_invalidos` (its parties or route cannot be carried into a CT-e: `counter_cte_refusal.message` names them), ' +
      '`cte_cancelado` (the contractor cancelled it: `cancelamento`)',
  },
);

/** The refusal any batch row of this key would end with, decided at receipt by the same rule. */
const CounterCteRefusal = Type.Object(
  {
    code: Type.Union(
      (
        [
          'cte_proprio',
          'origem_incompativel_com_tipo',
          'cte_original_invalido',
          'cte_contratante_cancelado',
        ] as const satisfies readonly CodigoLinhaLote[]
      ).map((c) => Type.Literal(c)),
      { description: 'The row code a batch row of this key ends with (`LinhaLote.error.code`)' },
    ),
    message: Type.String({ description: 'Why, in the words the row would carry' }),
  },
  { description: 'Present when `allows_counter_cte` is false: what a counter-CT-e of this CT-e would be refused with' },
);

const receiptFields = {
  status: Type.Ref(InboundCteStatus),
  carrier_role: Type.Ref(InboundCteCarrierRole),
  allows_counter_cte: Type.Boolean({
    description:
      'False when no counter-CT-e can ever be made of it: your own CT-e, one linked to multimodal, and the other cases of ' +
      '`counter_cte_blocked_reason`; `counter_cte_refusal` says what a batch row of it would end with',
  }),
  counter_cte_blocked_reason: Type.Union([Type.Null(), CounterCteBlockedReason]),
  counter_cte_refusal: Type.Union([Type.Null(), CounterCteRefusal]),
  received_count: Type.Integer({ description: 'Incremented on each resubmission of the same access key' }),
  content_updated: Type.Boolean({ description: 'True when the last resubmission replaced the archived XML with different content' }),
  first_received_at: Type.String({ format: 'date-time', description: 'Receipt date: what `from`/`to` filter' }),
  last_received_at: Type.String({ format: 'date-time' }),
  delivered_by: Type.Union(
    [
      Type.Null(),
      Type.Object({
        cnpj: Type.String(),
        nome: Type.String(),
        cte_id: Type.String(),
        observacao: Type.Union([Type.Null(), Type.String()]),
      }),
    ],
    { description: 'The contractor that handed this CT-e off (POST /fiscal/cte/{cte_uuid}/subcontratacao), when it came that way' },
  ),
  origem: Type.Union([Type.Literal('distribuicao'), Type.Literal('envio')], {
    description:
      'How the key first reached the inbox: `distribuicao` (the national distribution service, CTeDistribuicaoDFe, brought it by ' +
      'itself) or `envio` (uploaded with POST /fiscal/cte-subcontratacao, or handed off by the contractor). Later receipts do not change it',
  }),
  cancelamento: Type.Union(
    [
      Type.Null(),
      Type.Object({
        protocolo: Type.String({ description: "The cancellation's protocol (`nProt` of the registered event 110111)" }),
        cancelado_em: Type.String({ description: 'When the authority registered it (`dhRegEvento`, as written)' }),
        xml_sha256: Type.String({ description: 'SHA-256 of the archived procEventoCTe, byte for byte as distributed' }),
      }),
    ],
    {
      description:
        'The contractor cancelled this CT-e (event 110111, brought by the national distribution): from then on `allows_counter_cte` is ' +
        'false and a counter-CT-e of it, single or batch row, is refused with `cte_contratante_cancelado`',
    },
  ),
};

/** One received CT-e, with the parties' full addresses. */
export const InboundCte = Type.Object({ ...receiptFields, ...cteDocumentFields(true) }, { $id: 'InboundCte' });
/** A received CT-e as the list shows it: parties without addresses. */
export const InboundCteSummary = Type.Object({ ...receiptFields, ...cteDocumentFields(false) }, { $id: 'InboundCteSummary' });

const date = (description: string) => Type.String({ format: 'date', description });

export const InboundCteQuery = Type.Object({
  search: Type.Optional(
    Type.String({
      maxLength: 120,
      description:
        "Access key (or its start), issuer CNPJ (or its start, with or without punctuation) or part of the issuer's corporate name",
    }),
  ),
  carrier_role: Type.Optional(Type.Ref(InboundCteCarrierRole)),
  status: Type.Optional(Type.Ref(InboundCteStatus)),
  from: Type.Optional(date('First receipt on or after this day (YYYY-MM-DD, Brasília time)')),
  to: Type.Optional(date('First receipt on or before this day (YYYY-MM-DD, Brasília time)')),
  ...PageQuery.properties,
  ...CursorQuery.properties,
});
export type InboundCteQuery = Static<typeof InboundCteQuery>;

export const AccessKeyParam = Type.Object({
  access_key: Type.String({ description: 'Access key, 44 characters' }),
});

/** `POST /fiscal/cte-subcontratacao/{access_key}/desacordo`: the taker's observation (`xObs`, MOC 4.00 Visão Geral §6.5). */
export const DesacordoInput = Type.Object(
  {
    observacao: Type.String({
      minLength: 15,
      maxLength: 255,
      description: 'Why the service was not provided as the CT-e says (`xObs`), 15–255 characters besides blanks at either end',
    }),
  },
  { additionalProperties: false },
);
export type DesacordoInput = Static<typeof DesacordoInput>;

export const DesacordoResultado = Type.Object(
  {
    event_key: Type.String({
      description: "Opaque key of the event (the eventoCTe's Id): a pending one is reconciled by repeating the request",
    }),
    tipo: Type.Union([Type.Literal('desacordo'), Type.Literal('cancelamento_desacordo')], {
      description: '`desacordo`: event 610110; `cancelamento_desacordo`: event 610111',
    }),
    situacao: Type.Union([Type.Literal('registrado'), Type.Literal('pendente')], {
      description: '`registrado` (200): the authority registered it; `pendente` (202): no verdict yet (105 or no answer)',
    }),
    sequencia: Type.Integer({ description: '`nSeqEvento` (1–20 per event type)' }),
    protocolo: ProtocoloDoEvento,
    retorno: RetornoDoEvento,
    access_key: Type.String(),
    desacordo: Type.Union([Type.Literal('nenhum'), Type.Literal('pendente'), Type.Literal('registrado'), Type.Literal('cancelado')], {
      description: "The CT-e's disagreement after this request: none, with the authority, registered and in force, or cancelled",
    }),
  },
  { $id: 'DesacordoResultado' },
);
export type DesacordoResultado = Static<typeof DesacordoResultado>;

export const INBOX_SCHEMAS = [InboundCteStatus, InboundCteCarrierRole, InboundCte, InboundCteSummary, DesacordoResultado];
