import { Type, type Static } from '@sinclair/typebox';
import { Environment } from './common';

export const SituacaoAutorizador = Type.Object(
  {
    modelo: Type.Union([Type.Literal('cte'), Type.Literal('mdfe')]),
    autorizador: Type.String({ description: 'The authorizer of the company UF for the model (SVRS, SP, MG, …)' }),
    situacao: Type.Union(
      ['em_operacao', 'paralisado', 'indisponivel', 'sem_resposta', 'nao_configurada', 'desconhecido', 'verificando'].map((s) =>
        Type.Literal(s),
      ),
      {
        description:
          "From the authority's status service (cached for a few minutes): `em_operacao` (107), `paralisado` (108/109), `indisponivel` " +
          '(the channel failed or is paused after 678, consumo indevido), `sem_resposta`, `nao_configurada` (no authority for this deployment), ' +
          '`desconhecido` (e.g. no certificate to open the channel), `verificando` (a check is under way: ask again)',
      },
    ),
    cstat: Type.Union([Type.Integer(), Type.Null()]),
    motivo: Type.Union([Type.String(), Type.Null()]),
    verificado_em: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'SituacaoAutorizador' },
);
export type SituacaoAutorizador = Static<typeof SituacaoAutorizador>;

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
    autoridade: Type.Object(
      {
        tipo: Type.Union([Type.Literal('simulada'), Type.Literal('sefaz'), Type.Literal('nenhuma')], {
          description:
            "`simulada`: the sandbox's authority in process; `sefaz`: the state authorities' web services; `nenhuma`: none configured",
        }),
        uf: Type.Union([Type.String(), Type.Null()], {
          description: "The company's UF (from its fiscal configuration), which picks the CT-e authorizer",
        }),
        cte: Type.Union([Type.Ref(SituacaoAutorizador), Type.Null()]),
        mdfe: Type.Union([Type.Ref(SituacaoAutorizador), Type.Null()]),
      },
      { description: 'The authorizers of the company documents and their service status (never blocks on a slow authority)' },
    ),
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
