import { Type, type Static } from '@sinclair/typebox';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

/**
 * Where a CIOT operation stands (spec section 3: `sent` is the spec's; the others are ours):
 * - `sent`: declaration recorded and handed to the provider, no verdict yet: the trip must not proceed; reread by id.
 * - `registrado`: the provider registered it: `ciot` (12 digits) and `codigo_verificacao` (4 digits) are known.
 * - `retificado`: registered and rectified at least once (still in force; same CIOT number).
 * - `recusado`: the provider refused the declaration (`motivo`).
 * - `bloqueado`: never transmitted (`motivo`): the contracted party is not the company, the profile is not covered
 *   (TAC-agregado, freight installments, toll pass with plazas) or no provider is contracted (production).
 * - `cancelado`: cancelled before the trip started.
 * - `encerrado`: closed (encerramento) after the trip.
 */
export const CiotStatus = Type.Union(
  ['sent', 'registrado', 'retificado', 'recusado', 'bloqueado', 'cancelado', 'encerrado'].map((v) => Type.Literal(v)),
  { $id: 'CiotStatus', description: 'sent | registrado | retificado | recusado | bloqueado | cancelado | encerrado' },
);
export type CiotStatus = 'sent' | 'registrado' | 'retificado' | 'recusado' | 'bloqueado' | 'cancelado' | 'encerrado';

/** `lotacao` (full load, ANTT type 1), `fracionada` (ANTT type 2); `tac_agregado` (type 3) is recognised and blocked. */
export type TipoCargaCiot = 'lotacao' | 'fracionada' | 'tac_agregado';

/** Why an operation was never transmitted. */
export type CodigoBloqueioCiot = 'contratado_divergente' | 'perfil_nao_coberto' | 'provedor_indisponivel';

export const MunicipioCiot = Type.Object({ codigo_ibge: Type.String(), municipio: Type.String(), uf: Type.String() });
export type MunicipioCiot = Static<typeof MunicipioCiot>;

export const ParteCiot = Type.Object({ documento: Type.String(), nome: Type.String() });
export type ParteCiot = Static<typeof ParteCiot>;

/**
 * A declaration as checked and normalized: documents without mask, plates upper-case, municipalities from the IBGE table, cents
 * and grams.
 */
export const DeclaracaoCiotDados = Type.Object({
  contratado: Type.Object({ documento: Type.String(), nome: Nullable(Type.String()) }),
  carga: Type.Object({
    tipo: Type.Union([Type.Literal('lotacao'), Type.Literal('fracionada'), Type.Literal('tac_agregado')]),
    peso_gramas: Type.Integer(),
    contratantes: Type.Array(ParteCiot),
  }),
  rota: Type.Object({
    origem: MunicipioCiot,
    destino: MunicipioCiot,
    trechos: Type.Array(Type.Object({ coleta: MunicipioCiot, entrega: MunicipioCiot })),
  }),
  veiculos: Type.Array(Type.Object({ placa: Type.String(), rntrc: Nullable(Type.String()) })),
  documentos_fiscais: Type.Array(
    Type.Object({
      chave: Nullable(Type.String()),
      numero: Nullable(Type.String()),
      remetente: ParteCiot,
      destinatario: ParteCiot,
    }),
  ),
  valores: Type.Object({
    frete_centavos: Type.Integer(),
    /** Freight installments: recognised only to block the declaration (profile not covered). */
    parcelas: Type.Array(Type.Object({ valor_centavos: Type.Integer(), vencimento: Nullable(Type.String()) })),
  }),
  motorista: Type.Object({ cpf: Type.String(), nome: Type.String() }),
  /** Toll pass declared with the operation; plazas block it (profile not covered). */
  vale_pedagio: Nullable(
    Type.Object({
      valor_centavos: Nullable(Type.Integer()),
      pracas: Type.Array(Type.Object({ nome: Type.String(), codigo: Nullable(Type.String()) })),
    }),
  ),
  /** Free observations sent with the declaration: an anchored operation carries its CT-e's `xObs`. */
  observacoes: Type.Optional(Nullable(Type.String())),
});
export type DeclaracaoCiotDados = Static<typeof DeclaracaoCiotDados>;

/** The CT-e an anchored operation belongs to (`/fiscal/cte/{cte_uuid}/ciot/*`); null for `POST /fiscal/ciot`. */
export const AncoraCiot = Type.Object({
  cte_id: Type.String(),
  chave: Type.String(),
  /** 1 for the CT-e's first CIOT operation, 2 after a refusal or cancellation, … */
  sequencia: Type.Integer(),
});
export type AncoraCiot = Static<typeof AncoraCiot>;

/** The operation exists (before any provider call): `sent` unless `ciot.bloqueada` follows in the same append. */
export const CiotDeclarada = Type.Object({
  ciot_id: Type.String(),
  company_id: Type.String(),
  ambiente: Type.String(),
  referencia_externa: Nullable(Type.String()),
  ancora: Nullable(AncoraCiot),
  declaracao: DeclaracaoCiotDados,
});
export type CiotDeclarada = Static<typeof CiotDeclarada>;

/** Not transmitted, for the stored reason. Final. */
export const CiotBloqueada = Type.Object({
  ciot_id: Type.String(),
  company_id: Type.String(),
  codigo: Type.Union([Type.Literal('contratado_divergente'), Type.Literal('perfil_nao_coberto'), Type.Literal('provedor_indisponivel')]),
  motivo: Type.String(),
});
export type CiotBloqueada = Static<typeof CiotBloqueada>;

/** The provider received the declaration and gave no verdict (or did not answer): the emission processor asks it again. */
export const CiotPendente = Type.Object({
  ciot_id: Type.String(),
  company_id: Type.String(),
  protocolo: Nullable(Type.String()),
  motivo: Type.String(),
  /** 1 for the declaration's own answer, n + 1 for the n-th follow-up that was still without verdict. */
  tentativa: Type.Integer(),
});
export type CiotPendente = Static<typeof CiotPendente>;

export const CiotRegistrada = Type.Object({
  ciot_id: Type.String(),
  company_id: Type.String(),
  ciot: Type.String({ description: '12 digits' }),
  codigo_verificacao: Type.String({ description: '4 digits' }),
  protocolo: Type.String(),
  registrada_em: Type.String({ description: 'ISO date-time of the registration at the provider' }),
});
export type CiotRegistrada = Static<typeof CiotRegistrada>;

export const CiotRecusada = Type.Object({
  ciot_id: Type.String(),
  company_id: Type.String(),
  codigo: Type.String({ description: "The provider's refusal code" }),
  motivo: Type.String(),
});
export type CiotRecusada = Static<typeof CiotRecusada>;

/** The start of the trip, as the carrier reported it (`POST .../ciot/inicio-viagem`): from here on no cancellation. */
export const CiotViagemIniciada = Type.Object({ ciot_id: Type.String(), company_id: Type.String(), iniciada_em: Type.String() });
export type CiotViagemIniciada = Static<typeof CiotViagemIniciada>;

export const CiotCancelada = Type.Object({
  ciot_id: Type.String(),
  company_id: Type.String(),
  justificativa: Type.String(),
  protocolo: Type.String(),
  cancelada_em: Type.String(),
});
export type CiotCancelada = Static<typeof CiotCancelada>;

/** What a rectification changed; the full declaration after it is in `declaracao`. */
export const AlteracoesCiot = Type.Object({
  veiculos: Type.Optional(Type.Array(Type.Object({ placa: Type.String(), rntrc: Nullable(Type.String()) }))),
  motorista: Type.Optional(Type.Object({ cpf: Type.String(), nome: Type.String() })),
  frete_centavos: Type.Optional(Type.Integer()),
  peso_gramas: Type.Optional(Type.Integer()),
});
export type AlteracoesCiot = Static<typeof AlteracoesCiot>;

export const CiotRetificada = Type.Object({
  ciot_id: Type.String(),
  company_id: Type.String(),
  alteracoes: AlteracoesCiot,
  declaracao: DeclaracaoCiotDados,
  protocolo: Type.String(),
  retificada_em: Type.String(),
});
export type CiotRetificada = Static<typeof CiotRetificada>;

export const CiotEncerrada = Type.Object({
  ciot_id: Type.String(),
  company_id: Type.String(),
  peso_entregue_gramas: Nullable(Type.Integer()),
  protocolo: Type.String(),
  encerrada_em: Type.String(),
});
export type CiotEncerrada = Static<typeof CiotEncerrada>;
