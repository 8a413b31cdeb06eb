import { Type, type Static, type TSchema } from '@sinclair/typebox';

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

export const PageMeta = Type.Object({ page: Type.Integer(), per_page: Type.Integer(), total: Type.Integer() });

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
