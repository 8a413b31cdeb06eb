import { Type, type Static } from '@sinclair/typebox';
import { Endereco, RegimeTributario } from '../http/configuracao';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

/** Only the fields that changed; null means cleared. */
export const ConfiguracaoAtualizada = Type.Object({
  company_id: Type.String(),
  changes: Type.Object({
    inscricao_estadual: Type.Optional(Nullable(Type.String())),
    regime_tributario: Type.Optional(Nullable(RegimeTributario)),
    rntrc: Type.Optional(Nullable(Type.String())),
    serie_cte: Type.Optional(Nullable(Type.Integer())),
    serie_mdfe: Type.Optional(Nullable(Type.Integer())),
    endereco: Type.Optional(Nullable(Endereco)),
    percentual_frete_contra_cte: Type.Optional(Nullable(Type.Number())),
  }),
});
export type ConfiguracaoAtualizada = Static<typeof ConfiguracaoAtualizada>;
