import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type FastifyRequest } from 'fastify';
import {
  CiotCancelamentoInput,
  CiotEncerramentoInput,
  CiotRetificacaoInput,
  CteCiotInput,
  CteCiotValidacao,
  CteIdParam,
  DataEnvelope,
  RespostaCiot,
} from '@frete/contracts';
import { gramasDeKg, normalizarRetificacao } from '@frete/domain';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { ciotView, declaracaoView, ownCiot, respostaDaDeclaracao, STATUS_CIOT } from './ciot';

const TAGS = ['CIOT'];

const SIMULADO =
  ' Simulated in the sandbox (nothing is registered at the regulator, no CIOT has legal value; deterministic: the same request gives ' +
  "the same answer; `CIOT-PENDENTE` or `CIOT-RECUSAR` written as a word in the CT-e's observations, `xObs`, makes the issue answer " +
  '202 `sent` or 422 `declaracao_recusada`); in production every operation under /fiscal/cte/{cte_uuid}/ciot answers 503 `provedor_indisponivel` until a CIOT ' +
  'provider is contracted (ruling 7). 404 `nao_encontrado` for a CT-e that is not yours.';

const ATOS =
  " Acts on the CT-e's latest CIOT operation (404 `ciot_nao_encontrado` when it has none). 422 `ciot_nao_registrado` while it is " +
  '`sent`, or when it was refused or blocked; `ciot_cancelado` and `ciot_encerrado` once it is cancelled or closed; ' +
  '`ciot_operacao_recusada` when the provider refuses (`error.details.motivo`). Answers 200 with the operation.';

/** The answers `ATOS` describes, which every act on the CT-e's latest operation may give. */
const ERROS_DO_CIOT_DO_CTE = [
  'ciot_nao_encontrado',
  'ciot_nao_registrado',
  'ciot_cancelado',
  'ciot_encerrado',
  'ciot_operacao_recusada',
  'provedor_indisponivel',
] as const;

/** A body the route may receive empty: validated as `{}`. */
const corpoOpcional = async (request: FastifyRequest) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

/** CIOT anchored on an own authorized CT-e: validation, issue, query, trip start, cancellation, rectification, closing. */
export const cteCiotRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    // Ruling 7: without a provider, every simulated operation answers 503 before anything is read or recorded.
    app.addHook('preValidation', async () => {
      if (!deps.ciot.disponivel) {
        throw new ApiError(
          'provedor_indisponivel',
          'no CIOT provider (IPEF) is contracted for this environment: the CIOT operations of a CT-e are not available',
        );
      }
    });

    const depois = async (companyId: string, ciotId: string) => {
      await deps.readYourWrites.waitFor(companyId);
      return { data: ciotView(await ownCiot(deps, companyId, ciotId), env), environment: env };
    };

    app.post(
      '/cte/:cte_uuid/ciot/validacao',
      {
        preValidation: corpoOpcional,
        schema: {
          operationId: 'validarCiotDoCte',
          tags: TAGS,
          summary: 'Checks what a CIOT of this CT-e needs, without issuing it',
          description:
            'Body `CteCiotInput` (optional; the same as `.../ciot/emissao`): what the CT-e does not carry, i.e. the driver and the vehicles, ' +
            'and optionally the load type (`lotacao` by default), the weight and the freight value. 200 with each check (`verificacoes`), ' +
            "what is missing (`pendencias`), the CT-e's operation that holds its CIOT slot (`ciot_em_vigor`) and the declaration that would " +
            'be sent (`declaracao`, null while something is missing); `apto` true when the issue would be transmitted. The CT-e gives the ' +
            'route, its NF-e (or itself) as fiscal documents with sender and recipient, the weight (infQ in KG or TON), vTPrest and, for ' +
            '`fracionada`, its taker as contracting party; the contracted party is the company (its RNTRC from the fiscal configuration). ' +
            '400 `validacao` for a malformed CPF or plate; 422 `cte_nao_autorizado` for a CT-e that is not authorized (draft, rejected, ' +
            'cancelled, without protocol), 422 `ciot_cte_incompativel` for one that cannot carry a CIOT (not road modal, not a normal CT-e).' +
            SIMULADO,
          params: CteIdParam,
          body: Type.Ref(CteCiotInput),
          response: {
            200: DataEnvelope(Type.Ref(CteCiotValidacao)),
            ...errors(400, 404, 422, 503, 'cte_nao_autorizado', 'ciot_cte_incompativel', 'provedor_indisponivel'),
          },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const { cte, avaliacao, emVigor } = await deps.handlers.ciot.avaliarDoCte(
          p.companyId,
          p.company,
          request.params.cte_uuid,
          request.body as CteCiotInput,
        );
        return {
          data: {
            cte: { id: cte.cte_id, access_key: cte.chave },
            apto: avaliacao.pendencias.length === 0,
            verificacoes: avaliacao.verificacoes,
            pendencias: avaliacao.pendencias,
            ciot_em_vigor: emVigor,
            declaracao: avaliacao.declaracao ? declaracaoView(avaliacao.declaracao) : null,
          },
          environment: env,
        };
      },
    );

    app.post(
      '/cte/:cte_uuid/ciot/emissao',
      {
        preValidation: corpoOpcional,
        schema: {
          operationId: 'emitirCiotDoCte',
          tags: TAGS,
          summary: 'Issues the CIOT of an own authorized CT-e',
          description:
            'Body `CteCiotInput`, as in `.../ciot/validacao`. The operation is recorded before the provider is called. 201 registered ' +
            '(`ciot`, `codigo_verificacao`); 202 `sent` (do not proceed; reread GET .../ciot); 422 `declaracao_recusada` with ' +
            "`error.details.ciot.id` if the provider refuses. 422 `ciot_ja_emitido` (`error.details.ciot.id`) while the CT-e's latest " +
            'operation is `sent`, registered, rectified or closed: a new one is possible after a cancellation, a refusal or a block; 422 ' +
            '`ciot_com_pendencias` with `error.details.pendencias` (the same list as the validation); 400, 422 `cte_nao_autorizado` and ' +
            '`ciot_cte_incompativel` as in the validation. ' +
            STATUS_CIOT +
            SIMULADO,
          params: CteIdParam,
          body: Type.Ref(CteCiotInput),
          response: {
            201: DataEnvelope(Type.Ref(RespostaCiot), 'Registered'),
            202: DataEnvelope(Type.Ref(RespostaCiot), 'Sent without verdict: reread'),
            ...errors(
              400,
              404,
              422,
              503,
              'declaracao_recusada',
              'ciot_ja_emitido',
              'ciot_com_pendencias',
              'cte_nao_autorizado',
              'ciot_cte_incompativel',
              'provedor_indisponivel',
            ),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const state = await deps.handlers.ciot.emitirDoCte(
          commandContext(request, deps),
          p.company,
          request.params.cte_uuid,
          request.body as CteCiotInput,
        );
        const out = await respostaDaDeclaracao(deps, p.companyId, state, env);
        return reply.status(out.status).send(out.body);
      },
    );

    app.get(
      '/cte/:cte_uuid/ciot',
      {
        schema: {
          operationId: 'obterCiotDoCte',
          tags: TAGS,
          summary: "The CT-e's CIOT: its latest CIOT operation (pure read)",
          description:
            '404 `ciot_nao_encontrado` when the CT-e has none. The same operation is at GET /fiscal/ciot/{ciot_uuid}. ' +
            STATUS_CIOT +
            SIMULADO,
          params: CteIdParam,
          response: { 200: DataEnvelope(Type.Ref(RespostaCiot)), ...errors(404, 503, 'ciot_nao_encontrado', 'provedor_indisponivel') },
        },
      },
      async (request) => {
        const row = await deps.handlers.ciot.ciotDoCte(principalOf(request).companyId, request.params.cte_uuid);
        return { data: ciotView(row, env), environment: env };
      },
    );

    app.post(
      '/cte/:cte_uuid/ciot/inicio-viagem',
      {
        schema: {
          operationId: 'informarInicioViagem',
          tags: TAGS,
          summary: 'Reports that the trip started: from then on the CIOT cannot be cancelled',
          description:
            "No body. Idempotent: 200 with `viagem_iniciada_em` (the first report's time). The start is also known, without a report, " +
            'when an authorized (or closed) MDF-e carries the CT-e.' +
            ATOS +
            SIMULADO,
          params: CteIdParam,
          response: {
            200: DataEnvelope(Type.Ref(RespostaCiot)),
            ...errors(404, 422, 503, ...ERROS_DO_CIOT_DO_CTE),
          },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const ciotId = await deps.handlers.ciot.iniciarViagemDoCte(commandContext(request, deps), request.params.cte_uuid);
        return depois(p.companyId, ciotId);
      },
    );

    app.post(
      '/cte/:cte_uuid/ciot/cancelamento',
      {
        schema: {
          operationId: 'cancelarCiotDoCte',
          tags: TAGS,
          summary: "Cancels the CT-e's CIOT, only before the trip",
          description:
            'Body `{ justificativa }` (15 to 255 characters). The regulator cancels only an operation that has not happened: 422 ' +
            '`ciot_viagem_iniciada` after the trip start was reported (POST .../ciot/inicio-viagem) or once an authorized or closed MDF-e ' +
            'carries the CT-e (`error.details.fonte`: `inicio_viagem` or `mdfe`); 422 `ciot_encerrado` after the closing. A cancelled ' +
            'operation frees the CT-e for a new issue.' +
            ATOS +
            SIMULADO,
          params: CteIdParam,
          body: Type.Ref(CiotCancelamentoInput),
          response: {
            200: DataEnvelope(Type.Ref(RespostaCiot)),
            ...errors(400, 404, 422, 503, 'ciot_viagem_iniciada', ...ERROS_DO_CIOT_DO_CTE),
          },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const justificativa = (request.body as CiotCancelamentoInput).justificativa.replace(/\s+/g, ' ').trim();
        if (justificativa.length < 15) {
          throw new ApiError('validacao', 'justificativa: at least 15 characters besides blanks', {
            fields: [{ field: 'justificativa', message: 'at least 15 characters' }],
          });
        }
        const ciotId = await deps.handlers.ciot.cancelarDoCte(commandContext(request, deps), request.params.cte_uuid, justificativa);
        return depois(p.companyId, ciotId);
      },
    );

    app.post(
      '/cte/:cte_uuid/ciot/retificacao',
      {
        schema: {
          operationId: 'retificarCiotDoCte',
          tags: TAGS,
          summary: "Rectifies the CT-e's CIOT (not for a full load)",
          description:
            'Body `CiotRetificacaoInput`: at least one of `veiculos`, `motorista`, `valores.frete`, `carga.peso_kg`; the groups given replace ' +
            'the registered ones (the CIOT number stays). The regulator does not rectify a full-load operation: 422 `ciot_retificacao_vedada` ' +
            'for `lotacao` (cancel before the trip and issue again). Allowed after the trip start, not after the closing. Status ' +
            '`retificado`, `retificacoes` counts them.' +
            ATOS +
            SIMULADO,
          params: CteIdParam,
          body: Type.Ref(CiotRetificacaoInput),
          response: {
            200: DataEnvelope(Type.Ref(RespostaCiot)),
            ...errors(400, 404, 422, 503, 'ciot_retificacao_vedada', ...ERROS_DO_CIOT_DO_CTE),
          },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const alteracoes = normalizarRetificacao(request.body as CiotRetificacaoInput);
        const ciotId = await deps.handlers.ciot.retificarDoCte(commandContext(request, deps), request.params.cte_uuid, alteracoes);
        return depois(p.companyId, ciotId);
      },
    );

    app.post(
      '/cte/:cte_uuid/ciot/encerramento',
      {
        preValidation: corpoOpcional,
        schema: {
          operationId: 'encerrarCiotDoCte',
          tags: TAGS,
          summary: "Closes the CT-e's CIOT (encerramento) after the trip",
          description:
            'Optional body `{ peso_entregue_kg }`. Status `encerrado`, final: no cancellation, rectification or second closing after it ' +
            "(422 `ciot_encerrado`), and the CT-e's CIOT slot stays taken." +
            ATOS +
            SIMULADO,
          params: CteIdParam,
          body: Type.Ref(CiotEncerramentoInput),
          response: {
            200: DataEnvelope(Type.Ref(RespostaCiot)),
            ...errors(400, 404, 422, 503, ...ERROS_DO_CIOT_DO_CTE),
          },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const peso = (request.body as CiotEncerramentoInput).peso_entregue_kg;
        const ciotId = await deps.handlers.ciot.encerrarDoCte(
          commandContext(request, deps),
          request.params.cte_uuid,
          peso === undefined ? null : gramasDeKg(peso),
        );
        return depois(p.companyId, ciotId);
      },
    );
  };
