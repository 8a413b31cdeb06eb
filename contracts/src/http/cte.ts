import { Type, type Static } from '@sinclair/typebox';
import { Environment, CursorQuery, PageQuery } from './common';
import { cteDocumentFields } from './cte-documento';
import { CteRascunho } from './cte-rascunho';
import { CteSituation } from '../events/cte';

/** What the archived XML of an own CT-e says (with the parties' addresses). */
export const CteDocumento = Type.Object(cteDocumentFields(true), { $id: 'CteDocumento' });
/** The same, parties without addresses, as lists show it. */
export const CteDocumentoResumo = Type.Object(cteDocumentFields(false), { $id: 'CteDocumentoResumo' });

const ContraCteView = Type.Object({
  chave_original: Type.String({ description: "The contractor's CT-e, referenced in docAnt" }),
  contratante_cnpj: Type.String(),
  modo: Type.Union([Type.Literal('1a1'), Type.Literal('pernas')]),
  tipo_servico: Type.Integer({ minimum: 1, maximum: 3 }),
  lote_id: Type.Union([Type.Null(), Type.String()]),
  documento_financeiro: Type.Union([
    Type.Null(),
    Type.String({ description: "A leg's financial document, `ROUTE:<key>:<start IBGE>:<end IBGE>`" }),
  ]),
  motorista_cpf: Type.String(),
  placa: Type.String(),
  valor: Type.Number({ description: "vTPrest = vRec, and the driver's payout for it" }),
});

const cteFields = {
  id: Type.String({ format: 'uuid', description: 'cte_uuid' }),
  access_key: Type.Union([Type.Null(), Type.String()], {
    description:
      'Access key, once the CT-e has one (null for a draft). Its 35th digit is `tpEmis`: 1 normal; 7 or 8 when the CT-e was ' +
      "issued in contingency through SVC-RS or SVC-SP (the operator switched the emitter's UF), with `ide/dhCont` and `ide/xJust` in the XML",
  }),
  service_type: Type.Integer({ description: 'ide/tpServ' }),
  environment: Environment,
  situacao: Type.Ref(CteSituation),
  origem: Type.Union([Type.Literal('emissao'), Type.Literal('cte_emitido'), Type.Literal('contra_cte')], {
    description:
      '`emissao`: drafted and issued through this service; `cte_emitido`: issued elsewhere and delivered by the carrier; ' +
      "`contra_cte`: a counter-CT-e made here of a contractor's CT-e (POST /fiscal/cte/contra or a batch row)",
  }),
  received_count: Type.Integer({ description: 'Deliveries through POST /fiscal/cte-emitidos (0 for a document drafted here)' }),
  handoffs: Type.Integer({ description: 'Hand-offs to subcontractors' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  rascunho: Type.Union([Type.Null(), Type.Ref(CteRascunho)], {
    description:
      "The draft's data (`CteRascunho`): the `CteDraftInput` of a CT-e drafted here, or what a counter-CT-e took from the contractor's CT-e",
  }),
  contra_cte: Type.Union([Type.Null(), ContraCteView], {
    description: "For a counter-CT-e: the contractor's CT-e it stands against, its batch row, driver and value",
  }),
  correcoes_em_vigor: Type.Array(
    Type.Object({
      grupo: Type.String({ description: '`grupoAlterado`' }),
      campo: Type.String({ description: '`campoAlterado`' }),
      valor: Type.String({ description: '`valorAlterado`, as the letter carries it' }),
      item: Type.Union([Type.Null(), Type.Integer()], { description: '`nroItemAlterado`, for a field in a list' }),
      n_seq_evento: Type.Integer({ description: 'The sequence (`nSeqEvento`) of the letter that set this value' }),
      event_key: Type.String({ description: 'The `event_key` of that letter' }),
    }),
    {
      description:
        'The corrections in force (cartas de correção registered by the authority, 135/136). Each letter repeats every earlier ' +
        'correction (the authority keeps the one with the highest nSeqEvento), a new value of the same field replacing the old one',
    },
  ),
};

/** An own CT-e: a draft, a document in issue, or an authorized one (issued here or delivered by the carrier). */
export const Cte = Type.Object(
  {
    ...cteFields,
    documento: Type.Union([Type.Null(), Type.Ref(CteDocumento)], { description: 'What the archived XML says, once there is one' }),
  },
  { $id: 'Cte' },
);

/** An own CT-e as the list shows it: the document's parties without addresses. */
export const CteSummary = Type.Object(
  { ...cteFields, documento: Type.Union([Type.Null(), Type.Ref(CteDocumentoResumo)]) },
  { $id: 'CteSummary' },
);

/** The own CT-e delivered through POST /fiscal/cte-emitidos, and whether this was its first delivery. */
export const CteEmitidoReceipt = Type.Object(
  {
    first_reception: Type.Boolean({ description: 'False on a resubmission of the same access key (nothing is reprocessed)' }),
    ...Cte.properties,
  },
  { $id: 'CteEmitidoReceipt' },
);

const date = (description: string) => Type.String({ format: 'date', description });

export const CteQuery = Type.Object({
  status: Type.Optional(Type.Ref(CteSituation)),
  from: Type.Optional(date('Issued on or after this day (YYYY-MM-DD, Brasília time)')),
  to: Type.Optional(date('Issued on or before this day (YYYY-MM-DD, Brasília time)')),
  ...PageQuery.properties,
  ...CursorQuery.properties,
});
export type CteQuery = Static<typeof CteQuery>;

export const CteIdParam = Type.Object({ cte_uuid: Type.String({ description: "The CT-e's public UUID" }) });

/** Hand-off of an authorized own CT-e to a subcontractor's inbox. */
export const SubcontratacaoRepasseInput = Type.Object(
  {
    subcontratada: Type.Object({
      cnpj: Type.String({ minLength: 1, maxLength: 32, description: 'CNPJ, with or without mask; alphanumeric CNPJ accepted' }),
    }),
    observacao: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 255 })])),
  },
  { $id: 'SubcontratacaoRepasseInput' },
);
export type SubcontratacaoRepasseInput = Static<typeof SubcontratacaoRepasseInput>;

export const SubcontratacaoRepasse = Type.Object(
  {
    cte: Type.Object({ id: Type.String({ format: 'uuid' }), access_key: Type.String() }),
    subcontratada: Type.Object({ cnpj: Type.String(), nome: Type.Union([Type.Null(), Type.String()]) }),
    recebimento: Type.Object(
      {
        access_key: Type.String(),
        status: Type.String(),
        carrier_role: Type.String(),
        allows_counter_cte: Type.Boolean(),
        received_count: Type.Integer(),
        content_updated: Type.Boolean(),
        first_received_at: Type.String({ format: 'date-time' }),
        last_received_at: Type.String({ format: 'date-time' }),
      },
      { description: "The receipt in the subcontractor's inbox" },
    ),
  },
  { $id: 'SubcontratacaoRepasse' },
);

/** The state of an issue, as `POST .../emissao` (202) and `POST .../consulta` (200 or 202) answer it. */
export const CteIssueEnvelope = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    situacao: Type.Ref(CteSituation),
    access_key: Type.Union([Type.Null(), Type.String()], {
      description: 'Known once the signed XML exists; its 35th digit is `tpEmis` (1 normal, 7 SVC-RS or 8 SVC-SP in contingency)',
    }),
    serie: Type.Union([Type.Null(), Type.Integer()]),
    numero: Type.Union([Type.Null(), Type.Integer()]),
    conclusivo: Type.Boolean({ description: 'False while the result is unknown: poll `consulta`, never issue again' }),
    retorno: Type.Union([Type.Null(), Type.Object({ cstat: Type.Union([Type.Null(), Type.Integer()]), motivo: Type.String() })], {
      description: "The authority's last answer (cStat and text): the authorization, the refusal, or why the result is still unknown",
    }),
    consulta: Type.String({ description: 'Where to poll' }),
  },
  { $id: 'CteIssueEnvelope' },
);

export const CTE_SCHEMAS = [
  CteSituation,
  CteDocumento,
  CteDocumentoResumo,
  Cte,
  CteSummary,
  CteEmitidoReceipt,
  CteIssueEnvelope,
  SubcontratacaoRepasseInput,
  SubcontratacaoRepasse,
];
