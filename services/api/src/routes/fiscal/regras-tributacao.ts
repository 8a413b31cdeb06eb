import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DataEnvelope,
  RegraAplicavelQuery,
  type RegraTributacao,
  RegraTributacao as RegraTributacaoSchema,
  RegraTributacaoInput,
  RegraTributacaoQuery,
  type Uf,
} from '@frete/contracts';
import { percentualDeCentesimos, Rejection, regraAplicavel } from '@frete/domain';
import { type RegraTributacaoRow, regraTributacaoPorId, regrasDaRota, regrasTributacao } from '@frete/projections';
import { errors } from '../../schemas';
import { principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { registroRoutes } from './registro';

const TAG = 'Fiscal';

const PRECEDENCIA =
  'Precedence: for an origin UF, a destination UF and a `tp_serv`, the rule of that UF pair with exactly that ' +
  '`tp_serv` wins over the general rule of the pair (no `tp_serv`); otherwise the general rule applies; otherwise none ' +
  '(CT-e issue and batch rows answer `sem_regra_tributacao`).';

const REGRAS_CAMPOS =
  'ICMS CSTs: 00 (rate above 0), 20 (rate above 0 and `reducao_base` above 0 and below 100), 40/41/51 and SN ' +
  '(no rate: omit `aliquota` or send 0), 60 (rate above 0, the retained pICMSSTRet), 90 (rate required, `reducao_base` optional). ' +
  '`reducao_base` is refused for every CST but 20 and 90. Percentages 0–100 with up to 2 decimals. `cfop` starts with 5 when ' +
  'origin and destination are the same UF and with 6 otherwise. Wrong fields: 400 `validacao` naming each (`icms.aliquota`). ' +
  'One rule per (uf_origem, uf_destino, tp_serv or general): a second one is 422 `regra_tributacao_duplicada`. IBS/CBS rates the ' +
  'authority would reject for a CT-e emitted now (NT 2025.001 v1.11a rejections 316/321/326; in 2026 IBS UF 0.1%, IBS Mun 0%, ' +
  'CBS 0.9%, CBS 0 only between ZFM/ALC UFs with `inscricao_suframa`) are 422 `aliquota_rejeitada_autoridade` naming the rule, ' +
  'with `cStat`, `regra` and `fonte` in `error.details`.';

const IdParam = Type.Object({ id: Type.String({ description: 'Integer id of the rule' }) });

export const toRegraTributacao = (row: RegraTributacaoRow): RegraTributacao => ({
  id: row.regra_id,
  uf_origem: row.uf_origem as Uf,
  uf_destino: row.uf_destino as Uf,
  tp_serv: row.tp_serv,
  cfop: row.cfop,
  icms: {
    cst: row.icms_cst,
    aliquota: percentualDeCentesimos(row.icms_aliquota),
    reducao_base: row.icms_reducao_base === null ? null : percentualDeCentesimos(row.icms_reducao_base),
  },
  ibs_cbs: row.ibs_cbs && {
    cst: row.ibs_cbs.cst,
    cclass_trib: row.ibs_cbs.cclass_trib,
    aliquota_ibs_uf: percentualDeCentesimos(row.ibs_cbs.aliquota_ibs_uf_centesimos),
    aliquota_ibs_mun: percentualDeCentesimos(row.ibs_cbs.aliquota_ibs_mun_centesimos),
    aliquota_cbs: percentualDeCentesimos(row.ibs_cbs.aliquota_cbs_centesimos),
    ...(row.ibs_cbs.inscricao_suframa ? { inscricao_suframa: row.ibs_cbs.inscricao_suframa } : {}),
  },
  criada_em: row.criada_em.toISOString(),
  atualizada_em: row.atualizada_em.toISOString(),
});

/** Tax-rule registry (regras de tributação): ICMS and IBS/CBS per UF → UF route, optionally per service type. */
export const regrasTributacaoRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    registroRoutes(app, deps, {
      path: '/regras-tributacao',
      tag: TAG,
      schemas: { input: RegraTributacaoInput, query: RegraTributacaoQuery, view: RegraTributacaoSchema, params: IdParam },
      docs: {
        cadastrar: {
          operationId: 'cadastrarRegraTributacao',
          summary: 'Registers a tax rule',
          description:
            'Smallest body (ruling 20): `{ "uf_origem", "uf_destino", "icms": { "cst", "aliquota" } }`; optional `tp_serv`, ' +
            `\`cfop\` and \`ibs_cbs\`. ${REGRAS_CAMPOS} ${PRECEDENCIA}`,
        },
        listar: {
          operationId: 'listarRegrasTributacao',
          summary: 'Tax rules of the carrier',
          description:
            'Ordered by origin UF, destination UF, the general rule first, then by `tp_serv`. Filters are exact; ' +
            '`tp_serv` lists only the rules of that service type (not the general ones). ' +
            PRECEDENCIA,
        },
        ler: { operationId: 'obterRegraTributacao', summary: 'One tax rule' },
        alterar: {
          operationId: 'alterarRegraTributacao',
          summary: 'Replaces a tax rule',
          description: `The body is the whole rule, as in POST; omitted optional fields are cleared. The id stays. ${REGRAS_CAMPOS}`,
        },
        remover: {
          operationId: 'removerRegraTributacao',
          summary: 'Removes a tax rule',
          description: 'The id is not reused. Routes that depended on the rule fall back to the general rule, or to none.',
        },
      },
      handler: deps.handlers.regraTributacao,
      porId: regraTributacaoPorId,
      listar: regrasTributacao,
      toView: toRegraTributacao,
      duplicado: 'regra_tributacao_duplicada',
      outrosErros: ['aliquota_rejeitada_autoridade'],
      naoEncontrado: (id) => `no tax rule ${id}`,
    });

    app.get(
      '/regras-tributacao/aplicavel',
      {
        schema: {
          operationId: 'obterRegraTributacaoAplicavel',
          tags: [TAG],
          summary: 'The tax rule that applies to a route and service type',
          description: `${PRECEDENCIA} Without \`tp_serv\` only the general rule can apply. 422 \`sem_regra_tributacao\` when none applies.`,
          querystring: RegraAplicavelQuery,
          response: { 200: DataEnvelope(RegraTributacaoSchema), ...errors(400, 422, 'sem_regra_tributacao') },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const { uf_origem, uf_destino, tp_serv } = request.query;
        const regra = regraAplicavel(await regrasDaRota(deps.pool, p.companyId, uf_origem, uf_destino), uf_origem, uf_destino, tp_serv);
        if (!regra) {
          throw new Rejection(
            'sem_regra_tributacao',
            `no tax rule for ${uf_origem} → ${uf_destino}${tp_serv === undefined ? '' : ` with tp_serv ${tp_serv}`}`,
            {
              uf_origem,
              uf_destino,
              tp_serv: tp_serv ?? null,
            },
          );
        }
        return { data: toRegraTributacao(regra), environment: env };
      },
    );
  };
