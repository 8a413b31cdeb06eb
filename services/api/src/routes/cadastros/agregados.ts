import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Agregado, Agregado as AgregadoSchema, AgregadoListQuery, AgregadoParams, DataEnvelope, ListEnvelope } from '@frete/contracts';
import { lerDocumentoParam, Rejection, situacaoAgregado } from '@frete/domain';
import { type AgregadoRow, agregadoPorDocumento, agregadosDaEmpresa, searchable } from '@frete/projections';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { listOf, pageOf } from '../../paging';

export const TAG = 'Cadastros';

const FONTE =
  "An aggregate driver (TAC-agregado) is an owner of the company's active vehicles registered at `/fiscal/veiculos` with " +
  '`proprietario.tipo_proprietario` 0, one per owner document (CPF or CNPJ); name and RNTRC come from its most recently updated ' +
  'vehicle. Its driver record is the active driver at `/fiscal/motoristas` with that CPF (for a CNPJ owner, the driver whose PIX key is ' +
  'that CNPJ). Onboarding: `cadastro_incompleto` while the registry lacks something (`pendencias` `motorista_nao_cadastrado`, ' +
  '`chave_pix_ausente`, `rntrc_divergente`: its vehicles name different RNTRCs); `aguardando_rntrc` when the registry is complete but ' +
  'the regulator has not confirmed the RNTRC active (`rntrc_inativo`, or `rntrc_nao_verificado` when no regulator provider answers: ' +
  'production); `ativo` with nothing pending. `pendencias` lists everything pending. The RNTRC is checked through the regulator on every ' +
  'read (sandbox: simulated, `rntrc.verificacao: "simulada"`; the 8-digit `00000000` is inactive there).';

/** Aggregate drivers of the company and their onboarding (scope `cadastros`). */
export const agregadosRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;
    const config = { scope: 'cadastros' as const };

    /** The RNTRC at the regulator; `nao_verificado` when no provider answers (ruling 7: never invented). */
    const rntrcDe = async (row: AgregadoRow): Promise<Agregado['rntrc']> => {
      const naoVerificado: Agregado['rntrc'] = { numero: row.rntrc, situacao: 'nao_verificado', tipo: null, equiparado_tac: null };
      if (!deps.regulador.disponivel) return naoVerificado;
      try {
        const r = await deps.regulador.consultarRntrc({ documento: row.documento, tipo_documento: row.tipo_documento, rntrc: row.rntrc });
        return {
          numero: row.rntrc,
          situacao: r.situacao,
          tipo: r.tipo,
          equiparado_tac: r.equiparado_tac,
          ...(r.verificacao ? { verificacao: r.verificacao } : {}),
        };
      } catch (err) {
        if (err instanceof Rejection && (err.code === 'provedor_indisponivel' || err.code === 'consulta_indisponivel'))
          return naoVerificado;
        throw err;
      }
    };

    const toAgregado = async (row: AgregadoRow): Promise<Agregado> => {
      const rntrc = await rntrcDe(row);
      const { estado, pendencias } = situacaoAgregado({
        tipo_documento: row.tipo_documento,
        motorista: row.motorista,
        rntrcs: row.rntrcs,
        rntrc: rntrc.situacao,
      });
      return {
        documento: row.documento,
        tipo_documento: row.tipo_documento,
        nome: row.nome,
        rntrc,
        veiculos: row.veiculos,
        motorista: row.motorista,
        estado,
        pendencias,
        cadastrado_em: row.cadastrado_em.toISOString(),
        atualizado_em: row.atualizado_em.toISOString(),
      };
    };

    app.get(
      '/agregados',
      {
        config,
        schema: {
          operationId: 'listarAgregados',
          tags: [TAG],
          summary: "Lists the company's aggregate drivers and the state of each onboarding",
          description:
            `By name, then document. Filters: \`estado\`; \`search\`, part of the name (case and accents ignored), of the document ` +
            `or of a plate (punctuation ignored). Paging per ruling 9. ${FONTE}`,
          querystring: AgregadoListQuery,
          response: { 200: ListEnvelope(Type.Ref(AgregadoSchema)), ...errors(400) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const paging = pageOf(request.query);
        const term = request.query.search?.trim();
        const nome = term ? searchable(term) : '';
        const compacto = term ? term.replace(/[.\-/\s]/g, '').toUpperCase() : '';
        const rows = (await agregadosDaEmpresa(deps.pool, p.companyId)).filter(
          (r) =>
            !term ||
            searchable(r.nome).includes(nome) ||
            (compacto !== '' && (r.documento.includes(compacto) || r.veiculos.some((v) => v.placa.includes(compacto)))),
        );
        const todos = await Promise.all(rows.map(toAgregado));
        const filtrados = request.query.estado ? todos.filter((a) => a.estado === request.query.estado) : todos;
        const start = (paging.page - 1) * paging.per_page;
        return listOf(filtrados.slice(start, start + paging.per_page), paging, filtrados.length, env);
      },
    );

    app.get(
      '/agregados/:documento',
      {
        config,
        schema: {
          operationId: 'obterAgregado',
          tags: [TAG],
          summary: 'One aggregate driver of the company and the state of its onboarding',
          description:
            `\`documento\` is the owner's CPF or CNPJ, with or without punctuation (a \`/\` as \`%2F\`). 400 \`validacao\` for a ` +
            `malformed document or wrong check digits; 404 \`nao_encontrado\` for a document that is not an aggregate driver of the company. ${FONTE}`,
          params: AgregadoParams,
          response: { 200: DataEnvelope(Type.Ref(AgregadoSchema)), ...errors(400, 404) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const { documento } = lerDocumentoParam(request.params.documento);
        const row = await agregadoPorDocumento(deps.pool, p.companyId, documento);
        if (!row) throw new ApiError('nao_encontrado', `${documento} is not an aggregate driver of the company`);
        return { data: await toAgregado(row), environment: env };
      },
    );
  };
