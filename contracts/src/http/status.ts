import { Type, type Static } from '@sinclair/typebox';
import { Environment } from './common';

export const FiscalStatus = Type.Object(
  {
    disponivel: Type.Boolean({ description: 'Key, environment and fiscal journey are all available' }),
    ambiente: Environment,
    empresa: Type.Object({ cnpj: Type.String(), razao_social: Type.String() }),
    credencial: Type.Object({ tipo: Type.String(), escopos: Type.Array(Type.String()) }),
    jornada_fiscal: Type.Object({
      cadastro_concluido: Type.Boolean(),
      producao_liberada: Type.Boolean(),
    }),
    certificado: Type.Object({ presente: Type.Boolean(), valido: Type.Boolean() }),
    configuracao: Type.Object({ completa: Type.Boolean(), pendencias: Type.Array(Type.String()) }),
    pendencias: Type.Array(Type.String(), { description: 'What still stands between the company and issuing' }),
  },
  { $id: 'FiscalStatus' },
);
export type FiscalStatus = Static<typeof FiscalStatus>;

export const Painel = Type.Object(
  {
    certificado: Type.Object({
      presente: Type.Boolean(),
      dias_para_expirar: Type.Union([Type.Integer(), Type.Null()]),
    }),
    configuracao: Type.Object({ completa: Type.Boolean(), pendencias: Type.Array(Type.String()) }),
    credenciais_ativas: Type.Integer(),
    eventos_registrados: Type.Integer({ description: 'Events recorded for the company (audit trail size)' }),
    ultima_atividade: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'Painel', description: 'Indicators of the fiscal track, computed from the read models' },
);
export type Painel = Static<typeof Painel>;

const Item = (code: typeof Type.String | typeof Type.Integer) => Type.Object({ codigo: code(), descricao: Type.String() });

export const Catalogos = Type.Object(
  {
    ufs: Type.Array(Type.Object({ sigla: Type.String(), codigo_ibge: Type.String(), nome: Type.String() })),
    tipos_servico: Type.Array(Item(Type.Integer), { description: 'ide/tpServ' }),
    tipos_cte: Type.Array(Item(Type.Integer), { description: 'ide/tpCTe' }),
    tomadores: Type.Array(Item(Type.Integer), { description: 'toma3/toma4 codes' }),
    cfops: Type.Array(Item(Type.String), { description: 'CFOPs valid for CT-e authorization (MOC §12)' }),
    situacoes_icms: Type.Array(Item(Type.String), { description: 'ICMS CST of CT-e' }),
    regimes_tributarios: Type.Array(Item(Type.Integer), { description: 'CRT' }),
  },
  { $id: 'Catalogos' },
);
export type Catalogos = Static<typeof Catalogos>;
