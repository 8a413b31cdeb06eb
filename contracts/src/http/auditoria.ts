import { Type, type Static } from '@sinclair/typebox';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

const EXEMPLO = {
  position: 42,
  id: '0b4f5c1e-6a43-4d1a-9a57-3f3c0f1f2a10',
  type: 'configuracao.atualizada',
  schema_version: 2,
  recorded_at: '2026-11-24T14:03:07.118Z',
  stream: 'configuracao-6f1c…',
  revision: 3,
  actor: 'credential:9d2b…',
  request_id: 'req-01HF…',
  correlation_id: 'req-01HF…',
  causation_id: null,
  data: { company_id: '6f1c…', changes: { percentual_frete_contra_cte_centesimos: 1250 } },
  recorded_schema_version: 1,
  recorded_data: { company_id: '6f1c…', changes: { percentual_frete_contra_cte: 12.5 } },
  hash: '5d41402abc4b2a76b9719d911017c592a1f0e3b0c44298fc1c149afbf4c8996f',
  previous_hash: '9e107d9d372bb6826bd81d3542a419d6e3b0c44298fc1c149afbf4c8996fb924',
};

/** One event as recorded, for auditors: its place in the company's chain, its metadata and its data. */
export const EventoAuditado = Type.Object(
  {
    position: Type.Integer({ minimum: 1, description: "Place in the company's chain (1, 2, 3…): `apos` resumes after it" }),
    id: Type.String({ description: 'Event id (UUID)' }),
    type: Type.String({ description: 'Event type, `<aggregate>.<past participle>`' }),
    schema_version: Type.Integer({ description: "The version of `data`'s shape: the type's current version" }),
    recorded_at: Type.String({ format: 'date-time', description: 'When it was recorded (UTC)' }),
    stream: Type.String({ description: 'The stream (one aggregate instance) it belongs to' }),
    revision: Type.Integer({ minimum: 0, description: '0-based place in its stream' }),
    actor: Type.String({ description: '`credential:<id>`, `operator`, `processor:<name>` or `system`' }),
    request_id: Nullable(Type.String({ description: 'The API request that caused it, when one did' })),
    correlation_id: Type.String(),
    causation_id: Nullable(Type.String({ description: 'The event that caused it, when one did' })),
    data: Type.Unknown({ description: "The event's data in its type's current shape (secrets are never recorded)" }),
    recorded_schema_version: Type.Optional(
      Type.Integer({ description: 'Present when the event was recorded in an older shape: that version (`recorded_data` holds it)' }),
    ),
    recorded_data: Type.Optional(Type.Unknown({ description: 'The data exactly as recorded, when older than the current shape' })),
    hash: Type.String({ description: 'SHA-256 (hex) of the event as recorded and of `previous_hash` (see the README, auditors)' }),
    previous_hash: Type.String({ description: "The hash of the previous event in the company's chain (64 zeros for the first)" }),
  },
  { $id: 'EventoAuditado', examples: [EXEMPLO] },
);
export type EventoAuditado = Static<typeof EventoAuditado>;

/** The resources whose history the audit API gives, as its path names them (`/auditoria/historico/{recurso}/{id}`). */
export const RECURSOS_AUDITADOS = [
  'cte',
  'mdfe',
  'lote',
  'autorizacao',
  'ciot',
  'repasse',
  'vale-pedagio',
  'conta-operacional',
  'cte-subcontratacao',
] as const;
export type RecursoAuditado = (typeof RECURSOS_AUDITADOS)[number];

export const RecursoAuditadoParam = Type.Object({
  recurso: Type.Union(
    RECURSOS_AUDITADOS.map((r) => Type.Literal(r)),
    {
      description:
        'The resource as the API exposes it. `id`: the CT-e, MDF-e, batch, grant, CIOT operation or toll pass id; for `repasse` the ' +
        "installment `documento` (a counter-CT-e's id, a leg's `documento_financeiro` or an authorized access key); for " +
        "`conta-operacional` the carrier's CNPJ; for `cte-subcontratacao` the access key of a CT-e in the company's inbox (its " +
        "receipts and the taker's desacordo events).",
    },
  ),
  id: Type.String({ minLength: 1, maxLength: 200 }),
});

export const HistoricoRecurso = Type.Object(
  { eventos: Type.Array(Type.Ref(EventoAuditado)) },
  { $id: 'HistoricoRecurso', description: 'Every event of the resource, in the order they were recorded' },
);
export type HistoricoRecurso = Static<typeof HistoricoRecurso>;

export const EVENTOS_AUDITORIA_LIMITE_MAXIMO = 1000;

export const EventosAuditoriaQuery = Type.Object({
  apos: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: "Only events after this `position` of the company's chain" })),
  tipos: Type.Optional(
    Type.String({ maxLength: 4000, description: 'Comma-separated event types (`cte.autorizado,lote.concluido`); all when absent' }),
  ),
  de: Type.Optional(Type.String({ format: 'date-time', description: 'Recorded at or after this instant' })),
  ate: Type.Optional(Type.String({ format: 'date-time', description: 'Recorded before this instant' })),
  limite: Type.Optional(
    Type.Integer({ minimum: 1, maximum: EVENTOS_AUDITORIA_LIMITE_MAXIMO, default: 100, description: 'Page size (JSON pages only)' }),
  ),
});
export type EventosAuditoriaQuery = Static<typeof EventosAuditoriaQuery>;

export const PaginaEventosAuditoria = Type.Object(
  {
    data: Type.Array(Type.Ref(EventoAuditado)),
    meta: Type.Object({
      apos: Type.Integer(),
      limite: Type.Integer(),
      proxima: Nullable(Type.Integer({ description: 'The `apos` of the next page; null when this page reached the end of the log' })),
    }),
    environment: Type.Union([Type.Literal('homologacao'), Type.Literal('producao')]),
  },
  { $id: 'PaginaEventosAuditoria' },
);

export const VerificacaoCadeia = Type.Object(
  {
    integra: Type.Boolean({ description: "Every event of the company's chain matches its hash and links to the previous one" }),
    primeiro_evento_divergente: Nullable(Type.String({ description: 'The id of the first event that does not match, or null' })),
    eventos_verificados: Type.Integer(),
  },
  { $id: 'VerificacaoCadeia', examples: [{ integra: true, primeiro_evento_divergente: null, eventos_verificados: 1234 }] },
);
export type VerificacaoCadeia = Static<typeof VerificacaoCadeia>;

export const AUDITORIA_SCHEMAS = [EventoAuditado, HistoricoRecurso, PaginaEventosAuditoria, VerificacaoCadeia];
