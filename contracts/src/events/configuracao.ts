import { Type, type Static } from '@sinclair/typebox';
import { Endereco, RegimeTributario } from '../http/configuracao';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

const campos = {
  inscricao_estadual: Type.Optional(Nullable(Type.String())),
  regime_tributario: Type.Optional(Nullable(RegimeTributario)),
  rntrc: Type.Optional(Nullable(Type.String())),
  serie_cte: Type.Optional(Nullable(Type.Integer())),
  serie_mdfe: Type.Optional(Nullable(Type.Integer())),
  endereco: Type.Optional(Nullable(Endereco)),
};

/**
 * Version 2: the counter-CT-e pricing rule is recorded as integer hundredths of a percentage point
 * (`percentual_frete_contra_cte_centesimos`: 12.5% → 1250). Version 1 recorded the percentage as a JSON number
 * (`percentual_frete_contra_cte`), a binary double that every reader had to round again before computing a share of
 * cents; its upcaster (events/upcasting.ts) turns it into this shape on read. Only the fields that changed; null means
 * cleared.
 */
export const ConfiguracaoAtualizada = Type.Object({
  company_id: Type.String(),
  changes: Type.Object({
    ...campos,
    percentual_frete_contra_cte_centesimos: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 10_000 }))),
  }),
});
export type ConfiguracaoAtualizada = Static<typeof ConfiguracaoAtualizada>;

/** Version 1, as events recorded before version 2 hold it: read only through its upcaster. */
export const ConfiguracaoAtualizadaV1 = Type.Object({
  company_id: Type.String(),
  changes: Type.Object({ ...campos, percentual_frete_contra_cte: Type.Optional(Nullable(Type.Number())) }),
});
export type ConfiguracaoAtualizadaV1 = Static<typeof ConfiguracaoAtualizadaV1>;
