import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DataEnvelope, FiscalConfiguration, FiscalConfigurationUpdate } from '@frete/contracts';
import { pendenciasConfiguracao } from '@frete/domain';
import { configuracaoOf } from '@frete/projections';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';

export const configuracaoRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;
    const answer = async (companyId: string, cnpj: string, razao: string) => {
      const c = await configuracaoOf(deps.pool, companyId);
      const pendencias = pendenciasConfiguracao(c);
      return {
        data: {
          cnpj,
          razao_social: razao,
          inscricao_estadual: c.inscricao_estadual,
          regime_tributario: c.regime_tributario,
          rntrc: c.rntrc,
          serie_cte: c.serie_cte,
          serie_mdfe: c.serie_mdfe,
          percentual_frete_contra_cte: c.percentual_frete_contra_cte,
          endereco: c.endereco,
          completa: pendencias.length === 0,
          pendencias,
          atualizado_em: c.atualizado_em?.toISOString() ?? null,
        },
        environment: env,
      };
    };

    app.get(
      '/configuracao',
      {
        schema: {
          operationId: 'obterConfiguracaoFiscal',
          tags: ['Fiscal'],
          summary: 'Fiscal configuration of the authenticated carrier',
          response: { 200: DataEnvelope(Type.Ref(FiscalConfiguration)), ...errors() },
        },
      },
      async (request) => {
        const p = principalOf(request);
        return answer(p.companyId, p.company.cnpj, p.company.razao_social);
      },
    );

    app.put(
      '/configuracao',
      {
        schema: {
          operationId: 'alterarConfiguracaoFiscal',
          tags: ['Fiscal'],
          summary: 'Changes only the supplied fields; null clears a field',
          description:
            'Series 890–999 are reserved (422 `serie_reservada`). `endereco.municipio`/`uf` must be an IBGE pair (400 `validacao`).',
          body: Type.Ref(FiscalConfigurationUpdate),
          response: { 200: DataEnvelope(Type.Ref(FiscalConfiguration)), ...errors(400, 422, 'serie_reservada') },
        },
      },
      async (request) => {
        const p = principalOf(request);
        await deps.handlers.configuracao.atualizar(commandContext(request, deps), request.body as FiscalConfigurationUpdate);
        await deps.readYourWrites.waitFor(p.companyId);
        return answer(p.companyId, p.company.cnpj, p.company.razao_social);
      },
    );
  };
