import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import {
  type DadosEventoMdfe,
  DataEnvelope,
  MdfeCancelamentoInput,
  MdfeCondutorInput,
  MdfeEncerramentoInput,
  MdfeEventoResultado,
  MdfeIdParam,
  type TipoEventoMdfe,
  type ErrorCode,
} from '@frete/contracts';
import { findMunicipio, isValidCpf, normalizeCpf } from '@frete/domain';
import { motoristaPorCpf } from '@frete/projections';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { ownMdfe } from './mdfe';

const TAGS = ['MDF-e'];
/** Every event may meet these; `extra` adds an event's own codes. */
const respostas = (...extra: ErrorCode[]) => ({
  200: DataEnvelope(Type.Ref(MdfeEventoResultado)),
  202: DataEnvelope(Type.Ref(MdfeEventoResultado)),
  ...errors(400, 404, 'regra_de_negocio', 'mdfe_nao_autorizado', 'provedor_indisponivel', 'autoridade_indisponivel', ...extra),
});
const COMUM =
  ' 200 when the authority registered it, 202 while it is pending (send the same request again to follow it: the same signed event is ' +
  'sent, never a second one); an authority refusal is 422 `regra_de_negocio` with `error.details.cstat` and `error.details.motivo`; ' +
  "422 `mdfe_nao_autorizado` when the MDF-e is not authorized (never issued, closed or cancelled). 404 for another company's MDF-e.";

const hojeSaoPaulo = (d: Date) => new Date(d.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);

/** The MDF-e events: cancelamento (110111), encerramento (110112), inclusão de condutor (110114). */
export const mdfeEventosRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    async function registrar(request: FastifyRequest, reply: FastifyReply, mdfeUuid: string, tipo: TipoEventoMdfe, dados: DadosEventoMdfe) {
      const p = principalOf(request);
      await deps.readYourWrites.waitFor(p.companyId);
      const row = await ownMdfe(deps, p.companyId, mdfeUuid);
      const r = await deps.handlers.mdfe.registrarEvento(commandContext(request, deps), row.mdfe_id, tipo, dados);
      await deps.readYourWrites.waitFor(p.companyId);
      if (r.situacao === 'rejeitado') {
        throw new ApiError('regra_de_negocio', `the authority refused the event: ${r.cstat} ${r.motivo}`, {
          cstat: r.cstat,
          motivo: r.motivo,
        });
      }
      const after = await ownMdfe(deps, p.companyId, row.mdfe_id);
      const ev = after.eventos.find((e) => e.tp_evento === r.tp_evento && e.n_seq === r.n_seq)!;
      return reply.status(r.situacao === 'registrado' ? 200 : 202).send({
        data: {
          mdfe: { id: after.mdfe_id, situacao: after.situacao, access_key: after.chave ?? '' },
          evento: {
            tipo: ev.tipo,
            tp_evento: ev.tp_evento,
            n_seq: ev.n_seq,
            situacao: ev.situacao,
            protocolo: ev.protocolo,
            retorno: ev.retorno,
            dados: ev.dados,
          },
        },
        environment: env,
      });
    }

    /** One event's route: its body is checked and made the event's data, then the event is registered. */
    function rotaDeEvento<B extends TSchema>(
      tipo: TipoEventoMdfe,
      o: { operationId: string; summary: string; description: string; body: B; erros?: ErrorCode[] },
      dadosDe: (body: Static<B>, request: FastifyRequest) => DadosEventoMdfe | Promise<DadosEventoMdfe>,
    ) {
      app.post(
        `/mdfe/:mdfe_uuid/eventos/${tipo}`,
        {
          schema: {
            operationId: o.operationId,
            tags: TAGS,
            summary: o.summary,
            description: o.description + COMUM,
            params: MdfeIdParam,
            body: Type.Ref(o.body),
            response: respostas(...(o.erros ?? [])),
          },
        },
        async (request, reply) =>
          registrar(request, reply, request.params.mdfe_uuid, tipo, await dadosDe(request.body as Static<B>, request)),
      );
    }

    rotaDeEvento(
      'cancelamento',
      {
        operationId: 'cancelarMdfe',
        summary: 'Cancels an authorized MDF-e (event 110111)',
        description:
          '`justificativa` (xJust) 15 to 255 characters. The authority allows it within 24 h of the authorization and before the closing.',
        body: MdfeCancelamentoInput,
      },
      (body) => {
        if (body.justificativa.trim().length < 15)
          throw new ApiError('validacao', 'justificativa: at least 15 characters', {
            fields: [{ field: 'justificativa', message: 'at least 15 characters' }],
          });
        return { justificativa: body.justificativa.trim() };
      },
    );

    rotaDeEvento(
      'encerramento',
      {
        operationId: 'encerrarMdfe',
        summary: 'Closes an authorized MDF-e at the end of the trip (encerramento, event 110112)',
        description:
          '`municipio` and `uf` where the trip ended (pair of the IBGE table, ruling 19), `data` (dtEnc) defaults to today in Brasília time.',
        body: MdfeEncerramentoInput,
      },
      (body) => {
        const m = findMunicipio(body.municipio, body.uf, body.codigo_ibge);
        if (!m)
          throw new ApiError('validacao', `municipio: ${body.municipio}/${body.uf} is not a municipality of the IBGE table`, {
            fields: [{ field: 'municipio', message: 'not in the IBGE table for this uf' }],
          });
        return { municipio: m, data: body.data ?? hojeSaoPaulo(deps.clock()) };
      },
    );

    rotaDeEvento(
      'condutor',
      {
        operationId: 'incluirCondutorMdfe',
        erros: ['motorista_nao_encontrado'],
        summary: 'Adds a driver to an authorized MDF-e (inclusão de condutor, event 110114)',
        description:
          '`{ cpf, nome }`, or the `cpf` of a registered driver (its name is taken from /fiscal/motoristas; 422 `motorista_nao_encontrado` ' +
          'otherwise). A driver already in the MDF-e is 422 `regra_de_negocio`.',
        body: MdfeCondutorInput,
      },
      async (body, request) => {
        const cpf = normalizeCpf(body.cpf);
        if (!isValidCpf(cpf))
          throw new ApiError('validacao', 'cpf: not a valid CPF', { fields: [{ field: 'cpf', message: 'not a valid CPF' }] });
        let nome = body.nome?.trim();
        if (!nome) {
          const m = await motoristaPorCpf(deps.pool, principalOf(request).companyId, cpf);
          if (!m)
            throw new ApiError('motorista_nao_encontrado', `no registered driver with CPF ${cpf}: send nome, or register the driver`, {
              fields: [{ field: 'cpf', message: 'not registered' }],
            });
          nome = m.nome;
        }
        return { condutor: { cpf, nome } };
      },
    );
  };
