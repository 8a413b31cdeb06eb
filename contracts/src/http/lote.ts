import { Type, type Static } from '@sinclair/typebox';
import { Local } from './cte-rascunho';
import { ParcelaRepasse } from './motorista';
import { PlacaBrasileira } from './contra-cte';
import { CursorQuery, InteiroEnum, PageQuery } from './common';

/**
 * `POST /fiscal/cte-subcontratacao/lote` (spec section 2, "Counter-CT-e batch"; section 4, batch rules 1–8). Money is
 * decimal with two places at the edge and integer cents inside (ruling 10).
 */
const Valor = (description: string, maximum = 9_999_999.99) => Type.Number({ minimum: 0.01, maximum, multipleOf: 0.01, description });

const TipoServico = InteiroEnum([1, 2, 3], {
  description: 'ide/tpServ: 1 subcontracting, 2 redispatch, 3 intermediate redispatch; precedence leg, key, batch, then 1',
});

const Cpf = Type.String({ pattern: '^[0-9]{11}$', description: 'CPF, 11 digits' });
const MotoristaRef = Type.Object({ cpf: Cpf }, { additionalProperties: false, description: "A driver of the subcontractor's registry" });

/** Batch limits: one event carries the whole plan, and one report lists every row. */
export const LOTE_MAX_CHAVES = 1000;
export const LOTE_MAX_PERNAS = 20;
export const LOTE_MAX_LINHAS = 1000;

export const PernaLoteInput = Type.Object(
  {
    origem: Type.Optional(Type.Ref(Local)),
    destino: Type.Optional(Type.Ref(Local)),
    motorista: Type.Optional(MotoristaRef),
    placa: Type.Optional(PlacaBrasileira),
    valor: Type.Optional(Valor("This leg's counter-CT-e value (vTPrest = vRec) and driver payout, frozen as given")),
    tipo_servico: Type.Optional(TipoServico),
  },
  {
    additionalProperties: false,
    description: 'One leg: its own counter-CT-e. Missing ends, driver or plate come from the key, then the batch',
  },
);
export type PernaLoteInput = Static<typeof PernaLoteInput>;

export const CteLoteInput = Type.Object(
  {
    chave: Type.String({ minLength: 44, maxLength: 44, description: "The contractor's CT-e, already in the subcontractor's inbox" }),
    valor: Type.Optional(Valor('The counter-CT-e value of this key (1:1 design), frozen as given')),
    origem: Type.Optional(Type.Ref(Local)),
    destino: Type.Optional(Type.Ref(Local)),
    tipo_servico: Type.Optional(TipoServico),
    pernas: Type.Optional(
      Type.Array(PernaLoteInput, { minItems: 1, maxItems: LOTE_MAX_PERNAS, description: 'Legs design: one counter-CT-e per leg' }),
    ),
  },
  { additionalProperties: false },
);
export type CteLoteInput = Static<typeof CteLoteInput>;

export const ContraCteLoteInput = Type.Object(
  {
    subcontratada: Type.Object(
      {
        cnpj: Type.String({
          minLength: 1,
          maxLength: 32,
          description: 'CNPJ of the subcontractor, with or without mask: the caller, or a carrier that granted it emission',
        }),
      },
      { additionalProperties: false },
    ),
    motorista: MotoristaRef,
    placa: PlacaBrasileira,
    ctes: Type.Array(CteLoteInput, { minItems: 1, maxItems: LOTE_MAX_CHAVES }),
    valores: Type.Optional(
      Type.Object(
        { frete_bruto: Type.Optional(Valor('Total split over the rows in cents, the remainder cents on the last rows', 9_999_999_999.99)) },
        { additionalProperties: false },
      ),
    ),
    origem: Type.Optional(Type.Ref(Local)),
    destino: Type.Optional(Type.Ref(Local)),
    tipo_servico: Type.Optional(TipoServico),
    repasse: Type.Optional(
      Type.Object(
        {
          parcelas: Type.Optional(
            Type.Array(ParcelaRepasse, { minItems: 1, maxItems: 3, description: "Overrides the driver's registered rule" }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    $id: 'ContraCteLoteInput',
    description:
      'Either every key has `pernas` (legs design) or none has (1:1). Values: by key/leg (`valor`) or `valores.frete_bruto`, not both. ' +
      "Route ends: leg, then key, then batch; none inherits the contractor's.",
  },
);
export type ContraCteLoteInput = Static<typeof ContraCteLoteInput>;

export const LoteStatus = Type.Union([Type.Literal('processing'), Type.Literal('done'), Type.Literal('failed')]);
export type LoteStatus = Static<typeof LoteStatus>;

export const LinhaLoteStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('emitted'),
  Type.Literal('duplicated'),
  Type.Literal('failed'),
]);
export type LinhaLoteStatus = Static<typeof LinhaLoteStatus>;

export const LoteAceito = Type.Object(
  {
    batch_id: Type.String({ format: 'uuid' }),
    status: Type.Literal('processing'),
    report: Type.String({ description: 'Where the batch report is read' }),
  },
  { $id: 'LoteAceito' },
);
export type LoteAceito = Static<typeof LoteAceito>;

/**
 * Every code a batch row's `error.code` can be: the preparation's refusals (inbox, plan, key, draft) and the authority's.
 * One list: the schema below is made of it and the code that fails a row is typed by it (`CodigoLinhaLote`), so the
 * OpenAPI document cannot miss a code a row ends with. Each is also an `ErrorCode` (the single counter-CT-e answers it).
 */
export const CODIGOS_LINHA_LOTE = [
  'cte_nao_recebido',
  'cte_proprio',
  'origem_incompativel_com_tipo',
  'cte_original_invalido',
  'cte_contratante_cancelado',
  'redespacho_exige_rota',
  'sem_regra_tributacao',
  'cte_com_pendencias',
  'origem_ja_subcontratada_1a1',
  'origem_ja_subcontratada_em_pernas',
  'origem_ja_paga',
  'cte_rejeitado',
] as const;
export type CodigoLinhaLote = (typeof CODIGOS_LINHA_LOTE)[number];
export const ehCodigoLinhaLote = (code: string): code is CodigoLinhaLote => (CODIGOS_LINHA_LOTE as readonly string[]).includes(code);

export const LinhaLoteErro = Type.Object(
  {
    code: Type.Union(
      CODIGOS_LINHA_LOTE.map((c) => Type.Literal(c)),
      {
        description:
          '`cte_nao_recebido` the key is not in your inbox; `cte_proprio` your own CT-e; `origem_incompativel_com_tipo` a CT-e that admits ' +
          'no counter-CT-e (multimodal, CT-e OS, complement or annulment, sandbox document in production); `cte_original_invalido` its data ' +
          'cannot be carried into a CT-e (the message names the field); the inbox says both at receipt (`counter_cte_refusal`). ' +
          '`cte_contratante_cancelado` the contractor cancelled its CT-e (the inbox shows its `cancelamento`). ' +
          '`redespacho_exige_rota` redispatch without a leg of its own; `sem_regra_tributacao` no tax rule for the route and type; ' +
          '`cte_com_pendencias` the counter-CT-e lacks what an issue needs (`details.pendencias` on the single issue); ' +
          '`origem_ja_subcontratada_1a1`/`origem_ja_subcontratada_em_pernas` the key is taken in the other mode; `origem_ja_paga` a paid ' +
          'full counter-CT-e cannot become legs (ruling 8); `cte_rejeitado` the authority refused or denied it (cStat in the message)',
      },
    ),
    message: Type.String(),
  },
  { description: 'Why the row was not emitted' },
);

export const LinhaLote = Type.Object(
  {
    chave: Type.String(),
    perna: Type.Union([Type.Null(), Type.Integer({ minimum: 0 })], {
      description: 'Leg index within the key (0-based); null in the 1:1 design',
    }),
    status: LinhaLoteStatus,
    tipo_servico: Type.Integer({ minimum: 1, maximum: 3, description: 'The type requested (on a `duplicated` row too)' }),
    counter_cte_id: Type.Optional(
      Type.String({ format: 'uuid', description: 'The counter-CT-e (usable as cte_uuid); on a duplicated row, the existing one' }),
    ),
    documento_financeiro: Type.Optional(
      Type.String({ description: "A leg's installment document, `ROUTE:<key>:<start IBGE>:<end IBGE>`" }),
    ),
    financeiro: Type.Optional(
      Type.Union([Type.Null(), Type.Literal('ok'), Type.Literal('failed')], {
        description: "Emitted rows: the driver payout's registration; `failed` when it failed after the authority accepted the document",
      }),
    ),
    error: Type.Optional(LinhaLoteErro),
  },
  { $id: 'LinhaLote' },
);
export type LinhaLote = Static<typeof LinhaLote>;

const contagem = (description: string) => Type.Integer({ minimum: 0, description });

export const LoteProgresso = Type.Object(
  {
    total: contagem('Rows of the batch: one per key, or one per leg'),
    processed: contagem('Rows written to the report so far (any status)'),
    completed: contagem('Rows in a final status: `emitted`, `duplicated` or `failed`'),
    counts: Type.Object(
      {
        queued: contagem('Not processed yet: no row in the report'),
        pending: contagem('Sent to the fiscal authority, waiting for its answer'),
        emitted: contagem('Authorized'),
        duplicated: contagem('Already subcontracted the same way: the existing counter-CT-e'),
        failed: contagem('Not emitted: `error` says why'),
      },
      { description: 'Rows by status; they add up to `total`' },
    ),
    started_at: Type.String({ format: 'date-time', description: 'When the batch was created' }),
    finished_at: Type.Union([Type.Null(), Type.String({ format: 'date-time' })], {
      description: 'When its decider found it finished (`status` no longer `processing`); null while it runs',
    }),
    estimated_seconds_left: Type.Union([Type.Null(), Type.Integer({ minimum: 0 })], {
      description:
        "While it runs: the rows not yet final times the mean time per final row so far (from the report's own timings). " +
        'Null before the first row is final and once the batch is finished. An estimate, not a promise',
    }),
  },
  { $id: 'LoteProgresso', description: 'What an integrator shows as progress: totals, counts by status, start, end, time left' },
);
export type LoteProgresso = Static<typeof LoteProgresso>;

export const LoteRelatorio = Type.Object(
  {
    batch_id: Type.String({ format: 'uuid' }),
    status: LoteStatus,
    requester: Type.Union([Type.Null(), Type.Object({ cnpj: Type.String(), nome: Type.String() })], {
      description: 'The contractor that triggered the batch under an emission grant; null when the subcontractor did',
    }),
    subcontratada: Type.Object({ cnpj: Type.String(), nome: Type.String() }),
    created_at: Type.String({ format: 'date-time' }),
    progress: Type.Ref(LoteProgresso),
    rows: Type.Array(Type.Ref(LinhaLote), { description: "One per key (or per leg), in the batch's order, written as each is processed" }),
  },
  {
    $id: 'LoteRelatorio',
    description:
      '`processing` while a row is missing or pending (an emitted row waits for its payout registration too); then `done` when any row ' +
      'was emitted or duplicated, `failed` when every row failed',
  },
);
export type LoteRelatorio = Static<typeof LoteRelatorio>;

export const LoteResumo = Type.Object(
  {
    batch_id: Type.String({ format: 'uuid' }),
    status: LoteStatus,
    requester: Type.Union([Type.Null(), Type.Object({ cnpj: Type.String(), nome: Type.String() })]),
    subcontratada: Type.Object({ cnpj: Type.String(), nome: Type.String() }),
    created_at: Type.String({ format: 'date-time' }),
    progress: Type.Ref(LoteProgresso),
  },
  { $id: 'LoteResumo', description: 'A batch in the list: its report without the rows (GET the batch for them)' },
);
export type LoteResumo = Static<typeof LoteResumo>;

const dia = (description: string) => Type.String({ format: 'date', description });

export const LoteListQuery = Type.Object({
  status: Type.Optional(LoteStatus),
  from: Type.Optional(dia('Created on or after this day (YYYY-MM-DD, Brasília time)')),
  to: Type.Optional(dia('Created on or before this day (YYYY-MM-DD, Brasília time)')),
  ...PageQuery.properties,
  ...CursorQuery.properties,
});
export type LoteListQuery = Static<typeof LoteListQuery>;

export const LoteIdParam = Type.Object({ batch_id: Type.String({ description: 'The batch id returned by the POST' }) });

export const LoteRelatorioQuery = Type.Object({
  rows_from: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: LOTE_MAX_LINHAS,
      description:
        "The first row to carry, 0-based in the batch's order (default 0). A client following a running batch asks for the rows " +
        'after those it has: `progress` still counts them all',
    }),
  ),
  rows_limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: LOTE_MAX_LINHAS, description: 'At most this many rows (default: every row from `rows_from`)' }),
  ),
});
export type LoteRelatorioQuery = Static<typeof LoteRelatorioQuery>;

export const LOTE_SCHEMAS = [ContraCteLoteInput, LoteAceito, LinhaLote, LoteProgresso, LoteRelatorio, LoteResumo];
