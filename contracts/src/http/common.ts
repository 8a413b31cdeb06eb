import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

/**
 * An integer code among a few (`tpServ` 1–3): `{ type: integer, enum }` in the document, which client generators turn into
 * an enum of integers. A union of `Type.Literal` would be `number` constants, which Java generators write as BigDecimal.
 * The static type stays the union of the values.
 */
export const InteiroEnum = <const T extends readonly number[]>(values: T, options: { description?: string } = {}): TUnsafe<T[number]> =>
  Type.Unsafe<T[number]>(Type.Integer({ ...options, enum: [...values] }));

export const Environment = Type.Union([Type.Literal('homologacao'), Type.Literal('producao')], {
  description: '`homologacao` (sandbox) or `producao`',
});
export type Environment = Static<typeof Environment>;

export const Scope = Type.Union(
  [
    Type.Literal('fiscal'),
    Type.Literal('operacao'),
    Type.Literal('cadastros'),
    Type.Literal('consultas'),
    Type.Literal('auditoria'),
    Type.Literal('webhooks'),
  ],
  {
    description: 'Credential scope (spec section 5)',
  },
);
export type Scope = Static<typeof Scope>;
export const SCOPES: readonly Scope[] = ['fiscal', 'operacao', 'cadastros', 'consultas', 'auditoria', 'webhooks'];

/** A resource body in `data`, with the environment beside it (spec section 2). */
export const DataEnvelope = <T extends TSchema>(data: T, description?: string) =>
  Type.Object({ data, environment: Environment }, description ? { description } : {});

/**
 * Ruling 9's bounds. A page beyond the last is an empty list, but a page number whose offset no list can reach
 * (`1e308`, beyond 64 bits) is out of range: the offset `(page - 1) * per_page` must stay an exact integer.
 */
export const MAX_PAGE = 1_000_000_000;

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});
export type PageQuery = Static<typeof PageQuery>;

/**
 * The lists that can grow large also page by cursor (keyset): `cursor` is `meta.next_cursor` of the page before, and
 * the page holds the rows after the last one that page gave, whatever was inserted meanwhile. Opaque: not to be built
 * nor read by clients; one list's cursor is refused by another (400 `validacao` on `querystring.cursor`).
 */
export const CursorQuery = Type.Object({
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1024,
      pattern: '^[A-Za-z0-9_-]+$',
      description: '`meta.next_cursor` of the previous page: the rows after its last one (`page` is then ignored; `per_page` applies)',
    }),
  ),
});
export type CursorQuery = Static<typeof CursorQuery>;

export const PageMeta = Type.Object({
  page: Type.Integer(),
  per_page: Type.Integer(),
  total: Type.Integer(),
  next_cursor: Type.Optional(
    Type.Union([Type.Null(), Type.String()], {
      description: 'On the lists that offer a cursor: pass it as `cursor` for the next page; null on the last page',
    }),
  ),
});

/** Lists answer `{ data: [...], meta: { page, per_page, total }, environment }` (ruling 9). */
export const ListEnvelope = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), meta: PageMeta, environment: Environment });

export const Uf = Type.Union(
  [
    'AC',
    'AL',
    'AP',
    'AM',
    'BA',
    'CE',
    'DF',
    'ES',
    'GO',
    'MA',
    'MT',
    'MS',
    'MG',
    'PA',
    'PB',
    'PR',
    'PE',
    'PI',
    'RJ',
    'RN',
    'RS',
    'RO',
    'RR',
    'SC',
    'SP',
    'SE',
    'TO',
  ].map((uf) => Type.Literal(uf)),
  { description: 'Brazilian state (UF)' },
);
export type Uf = Static<typeof Uf>;
