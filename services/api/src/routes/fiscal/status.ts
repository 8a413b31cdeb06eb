import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Catalogos, DataEnvelope, FiscalStatus, Painel } from '@frete/contracts';
import { CATALOGOS, pendenciasConfiguracao } from '@frete/domain';
import { atividadeOf, certificadoOf, configuracaoOf } from '@frete/projections';
import { errors } from '../../schemas';
import { principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';

const DAY = 86_400_000;

export const statusRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    app.get(
      '/status',
      {
        schema: {
          operationId: 'obterStatusFiscal',
          tags: ['Fiscal'],
          summary: 'Checks that the key, the environment and the fiscal journey are available',
          response: { 200: DataEnvelope(Type.Ref(FiscalStatus)), ...errors() },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const [cert, conf, autoridade] = await Promise.all([
          certificadoOf(deps.pool, p.companyId),
          configuracaoOf(deps.pool, p.companyId),
          deps.statusAutoridade.daEmpresa(p.companyId),
        ]);
        const now = deps.clock().getTime();
        const certValido = cert !== null && cert.valido_ate.getTime() > now;
        const pendConf = pendenciasConfiguracao(conf);
        const pendencias = [
          ...(cert === null
            ? ['certificado: envie o certificado A1 (POST /fiscal/certificado)']
            : certValido
              ? []
              : ['certificado: expirado']),
          ...pendConf.map((f) => `configuracao.${f}`),
        ];
        return {
          data: {
            disponivel: pendencias.length === 0,
            ambiente: env,
            empresa: { cnpj: p.company.cnpj, razao_social: p.company.razao_social },
            credencial: { tipo: p.kind, escopos: p.scopes },
            jornada_fiscal: { cadastro_concluido: p.company.fiscal_ready, producao_liberada: p.company.fiscal_production },
            certificado: { presente: cert !== null, valido: certValido },
            configuracao: { completa: pendConf.length === 0, pendencias: pendConf },
            pendencias,
            autoridade: { tipo: deps.config.autoridadeFiscal.tipo, ...autoridade },
          },
          environment: env,
        };
      },
    );

    app.get(
      '/catalogos',
      {
        schema: {
          operationId: 'obterCatalogos',
          tags: ['Fiscal'],
          summary: 'Fiscal domain lists: UFs, service types, takers, CFOPs, ICMS situations, tax regimes',
          response: { 200: DataEnvelope(Type.Ref(Catalogos)), ...errors() },
        },
      },
      async () => ({ data: CATALOGOS, environment: env }),
    );

    app.get(
      '/painel',
      {
        schema: {
          operationId: 'obterPainelFiscal',
          tags: ['Fiscal'],
          summary: 'Indicators of the fiscal track, computed from the read models',
          response: { 200: DataEnvelope(Type.Ref(Painel)), ...errors() },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const [cert, conf, atividade] = await Promise.all([
          certificadoOf(deps.pool, p.companyId),
          configuracaoOf(deps.pool, p.companyId),
          atividadeOf(deps.pool, p.companyId),
        ]);
        const pend = pendenciasConfiguracao(conf);
        return {
          data: {
            certificado: {
              presente: cert !== null,
              dias_para_expirar: cert ? Math.floor((cert.valido_ate.getTime() - deps.clock().getTime()) / DAY) : null,
            },
            configuracao: { completa: pend.length === 0, pendencias: pend },
            credenciais_ativas: atividade.active_credentials,
            eventos_registrados: atividade.events_count,
            ultima_atividade: atividade.last_event_at?.toISOString() ?? null,
          },
          environment: env,
        };
      },
    );
  };
