import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type FastifyRequest } from 'fastify';
import {
  CiotCancelamentoInput, CiotEncerramentoInput, CiotRetificacaoInput, CteCiotInput, CteCiotValidacao, CteIdParam, DataEnvelope, RespostaCiot,
} from '@frete/contracts';
import { avaliarCiotDoCte, cteIncompativelComCiot, gramasDeKg, normalizarRetificacao, normalizeCpf } from '@frete/domain';
import { derivedEventId } from '@frete/platform';
import { type CiotRow, ciotsDoCte, configuracaoOf, type CteRow, mdfeAutorizadoDoCte, motoristaPorCpf } from '@frete/projections';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { ownCte } from './cte';
import { ciotView, declaracaoView, ownCiot, respostaDaDeclaracao, STATUS_CIOT } from './ciot';

const TAGS = ['fiscal: ciot'];

/** Statuses that hold the CT-e's CIOT slot: a new issue waits for a cancellation (or a refusal, or a block). */
const OCUPAM = ['sent', 'registrado', 'retificado', 'encerrado'];

const SIMULADO =
  ' Simulated in the sandbox (nothing is registered at the regulator, no CIOT has legal value; deterministic: the same request gives ' +
  'the same answer; `CIOT-PENDENTE` or `CIOT-RECUSAR` written as a word in the CT-e\'s observations, `xObs`, makes the issue answer ' +
  '202 `sent` or 422 `declaracao_recusada`); in production every operation under /fiscal/cte/{cte_uuid}/ciot answers 503 `provedor_indisponivel` until a CIOT ' +
  'provider is contracted (ruling 7). 404 `nao_encontrado` for a CT-e that is not yours.';

const ATOS =
  ' Acts on the CT-e\'s latest CIOT operation (404 `ciot_nao_encontrado` when it has none). 422 `ciot_nao_registrado` while it is ' +
  '`sent`, or when it was refused or blocked; `ciot_cancelado` and `ciot_encerrado` once it is cancelled or closed; ' +
  '`ciot_operacao_recusada` when the provider refuses (`error.details.motivo`). Answers 200 with the operation.';

/** A body the route may receive empty: validated as `{}`. */
const corpoOpcional = async (request: FastifyRequest) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

/** CIOT anchored on an own authorized CT-e: validation, issue, query, trip start, cancellation, rectification, closing. */
export const cteCiotRoutes = (deps: ApiDeps): FastifyPluginAsyncTypebox => async (app) => {
  const env = deps.config.environment;

  // Ruling 7: without a provider, every simulated operation answers 503 before anything is read or recorded.
  app.addHook('preValidation', async () => {
    if (!deps.ciot.disponivel) {
      throw new ApiError('provedor_indisponivel', 'no CIOT provider (IPEF) is contracted for this environment: the CIOT operations of a CT-e are not available');
    }
  });

  /** The own CT-e, authorized and able to carry a CIOT; 404 / 422 otherwise. */
  const cteComCiot = async (companyId: string, cteUuid: string): Promise<CteRow & { cte: NonNullable<CteRow['cte']>; chave: string }> => {
    await deps.readYourWrites.waitFor(companyId);
    const row = await ownCte(deps, companyId, cteUuid);
    if (row.situacao !== 'autorizado' || !row.cte || !row.chave) {
      throw new ApiError('cte_nao_autorizado', `only an own authorized CT-e carries a CIOT; this one is ${row.situacao}`, { situacao: row.situacao });
    }
    const incompativel = cteIncompativelComCiot(row.cte);
    if (incompativel) throw new ApiError('ciot_cte_incompativel', incompativel);
    return row as CteRow & { cte: NonNullable<CteRow['cte']>; chave: string };
  };

  const avaliar = async (request: FastifyRequest, row: CteRow & { cte: NonNullable<CteRow['cte']> }, input: CteCiotInput) => {
    const p = principalOf(request);
    const config = await configuracaoOf(deps.pool, p.companyId);
    const registrado = input.motorista ? await motoristaPorCpf(deps.pool, p.companyId, normalizeCpf(input.motorista.cpf.trim())) : null;
    const operacoes = await ciotsDoCte(deps.pool, p.companyId, row.cte_id);
    const atual = operacoes[0] ?? null;
    const emVigor = atual && OCUPAM.includes(atual.status) ? { id: atual.ciot_id, status: atual.status } : null;
    const avaliacao = avaliarCiotDoCte({
      cte: row.cte,
      empresa: { cnpj: p.company.cnpj, razao_social: p.company.razao_social },
      rntrc: config.rntrc ?? row.cte.rntrc ?? null,
      input,
      motoristaRegistrado: registrado ? { cpf: registrado.cpf, nome: registrado.nome } : null,
      emVigor,
    });
    return { avaliacao, atual, emVigor };
  };

  /** The CT-e's latest CIOT operation. */
  const ciotDoCte = async (companyId: string, cteUuid: string): Promise<CiotRow> => {
    await deps.readYourWrites.waitFor(companyId);
    const cte = await ownCte(deps, companyId, cteUuid);
    const atual = (await ciotsDoCte(deps.pool, companyId, cte.cte_id))[0];
    if (!atual) throw new ApiError('ciot_nao_encontrado', 'this CT-e has no CIOT operation: POST .../ciot/emissao first');
    return atual;
  };

  const depois = async (companyId: string, ciotId: string) => {
    await deps.readYourWrites.waitFor(companyId);
    return { data: ciotView(await ownCiot(deps, companyId, ciotId), env), environment: env };
  };

  app.post('/cte/:cte_uuid/ciot/validacao', {
    preValidation: corpoOpcional,
    schema: {
      tags: TAGS,
      summary: 'Checks what a CIOT of this CT-e needs, without issuing it',
      description:
        'Body `CteCiotInput` (optional; the same as `.../ciot/emissao`): what the CT-e does not carry, i.e. the driver and the vehicles, ' +
        'and optionally the load type (`lotacao` by default), the weight and the freight value. 200 with each check (`verificacoes`), ' +
        'what is missing (`pendencias`), the CT-e\'s operation that holds its CIOT slot (`ciot_em_vigor`) and the declaration that would ' +
        'be sent (`declaracao`, null while something is missing); `apto` true when the issue would be transmitted. The CT-e gives the ' +
        'route, its NF-e (or itself) as fiscal documents with sender and recipient, the weight (infQ in KG or TON), vTPrest and, for ' +
        '`fracionada`, its taker as contracting party; the contracted party is the company (its RNTRC from the fiscal configuration). ' +
        '400 `validacao` for a malformed CPF or plate; 422 `cte_nao_autorizado` for a CT-e that is not authorized (draft, rejected, ' +
        'cancelled, without protocol), 422 `ciot_cte_incompativel` for one that cannot carry a CIOT (not road modal, not a normal CT-e).' + SIMULADO,
      params: CteIdParam,
      body: Type.Ref(CteCiotInput),
      response: { 200: DataEnvelope(Type.Ref(CteCiotValidacao)), ...errors(400, 404, 422, 503) },
    },
  }, async (request) => {
    const p = principalOf(request);
    const row = await cteComCiot(p.companyId, request.params.cte_uuid);
    const { avaliacao, emVigor } = await avaliar(request, row, request.body as CteCiotInput);
    return {
      data: {
        cte: { id: row.cte_id, access_key: row.chave },
        apto: avaliacao.pendencias.length === 0,
        verificacoes: avaliacao.verificacoes,
        pendencias: avaliacao.pendencias,
        ciot_em_vigor: emVigor,
        declaracao: avaliacao.declaracao ? declaracaoView(avaliacao.declaracao) : null,
      },
      environment: env,
    };
  });

  app.post('/cte/:cte_uuid/ciot/emissao', {
    preValidation: corpoOpcional,
    schema: {
      tags: TAGS,
      summary: 'Issues the CIOT of an own authorized CT-e',
      description:
        'Body `CteCiotInput`, as in `.../ciot/validacao`. The operation is recorded before the provider is called. 201 registered ' +
        '(`ciot`, `codigo_verificacao`); 202 `sent` (do not proceed; reread GET .../ciot); 422 `declaracao_recusada` with ' +
        '`error.details.ciot.id` if the provider refuses. 422 `ciot_ja_emitido` (`error.details.ciot.id`) while the CT-e\'s latest ' +
        'operation is `sent`, registered, rectified or closed: a new one is possible after a cancellation, a refusal or a block; 422 ' +
        '`ciot_com_pendencias` with `error.details.pendencias` (the same list as the validation); 400, 422 `cte_nao_autorizado` and ' +
        '`ciot_cte_incompativel` as in the validation. ' + STATUS_CIOT + SIMULADO,
      params: CteIdParam,
      body: Type.Ref(CteCiotInput),
      response: {
        201: DataEnvelope(Type.Ref(RespostaCiot), 'Registered'),
        202: DataEnvelope(Type.Ref(RespostaCiot), 'Sent without verdict: reread'),
        ...errors(400, 404, 422, 503),
      },
    },
  }, async (request, reply) => {
    const p = principalOf(request);
    const row = await cteComCiot(p.companyId, request.params.cte_uuid);
    const { avaliacao, atual, emVigor } = await avaliar(request, row, request.body as CteCiotInput);
    if (emVigor) {
      throw new ApiError('ciot_ja_emitido', `the CT-e already has CIOT operation ${emVigor.id} (${emVigor.status}): only after a cancellation, refusal or block can another be issued`, { ciot: emVigor });
    }
    if (!avaliacao.declaracao) {
      throw new ApiError('ciot_com_pendencias', `the CIOT cannot be issued yet: ${avaliacao.pendencias.map((x) => x.campo).join(', ')}`, { pendencias: avaliacao.pendencias });
    }
    const sequencia = (atual?.cte_sequencia ?? 0) + 1;
    // Derived from the CT-e and the slot's sequence: two concurrent issues meet on the same stream, and only one wins.
    const ciotId = derivedEventId(p.companyId, `ciot-cte:${row.cte_id}:${sequencia}`);
    const state = await deps.ciot.declarar({
      ciot_id: ciotId, company_id: p.companyId, cnpj_empresa: p.company.cnpj, referencia_externa: null,
      ancora: { cte_id: row.cte_id, chave: row.chave, sequencia }, declaracao: avaliacao.declaracao,
    }, commandContext(request, deps));
    const out = await respostaDaDeclaracao(deps, p.companyId, state, env);
    return reply.status(out.status).send(out.body);
  });

  app.get('/cte/:cte_uuid/ciot', {
    schema: {
      tags: TAGS,
      summary: 'The CT-e\'s CIOT: its latest CIOT operation (pure read)',
      description: '404 `ciot_nao_encontrado` when the CT-e has none. The same operation is at GET /fiscal/ciot/{ciot_uuid}. ' + STATUS_CIOT + SIMULADO,
      params: CteIdParam,
      response: { 200: DataEnvelope(Type.Ref(RespostaCiot)), ...errors(404, 503) },
    },
  }, async (request) => {
    const row = await ciotDoCte(principalOf(request).companyId, request.params.cte_uuid);
    return { data: ciotView(row, env), environment: env };
  });

  app.post('/cte/:cte_uuid/ciot/inicio-viagem', {
    schema: {
      tags: TAGS,
      summary: 'Reports that the trip started: from then on the CIOT cannot be cancelled',
      description:
        'No body. Idempotent: 200 with `viagem_iniciada_em` (the first report\'s time). The start is also known, without a report, ' +
        'when an authorized (or closed) MDF-e carries the CT-e.' + ATOS + SIMULADO,
      params: CteIdParam,
      response: { 200: DataEnvelope(Type.Ref(RespostaCiot)), ...errors(404, 422, 503) },
    },
  }, async (request) => {
    const p = principalOf(request);
    const atual = await ciotDoCte(p.companyId, request.params.cte_uuid);
    await deps.ciot.iniciarViagem(p.companyId, atual.ciot_id, commandContext(request, deps));
    return depois(p.companyId, atual.ciot_id);
  });

  app.post('/cte/:cte_uuid/ciot/cancelamento', {
    schema: {
      tags: TAGS,
      summary: 'Cancels the CT-e\'s CIOT, only before the trip',
      description:
        'Body `{ justificativa }` (15 to 255 characters). The regulator cancels only an operation that has not happened: 422 ' +
        '`ciot_viagem_iniciada` after the trip start was reported (POST .../ciot/inicio-viagem) or once an authorized or closed MDF-e ' +
        'carries the CT-e (`error.details.fonte`: `inicio_viagem` or `mdfe`); 422 `ciot_encerrado` after the closing. A cancelled ' +
        'operation frees the CT-e for a new issue.' + ATOS + SIMULADO,
      params: CteIdParam,
      body: Type.Ref(CiotCancelamentoInput),
      response: { 200: DataEnvelope(Type.Ref(RespostaCiot)), ...errors(400, 404, 422, 503) },
    },
  }, async (request) => {
    const p = principalOf(request);
    const justificativa = (request.body as CiotCancelamentoInput).justificativa.replace(/\s+/g, ' ').trim();
    if (justificativa.length < 15) {
      throw new ApiError('validacao', 'justificativa: at least 15 characters besides blanks', { fields: [{ field: 'justificativa', message: 'at least 15 characters' }] });
    }
    const atual = await ciotDoCte(p.companyId, request.params.cte_uuid);
    const mdfe = await mdfeAutorizadoDoCte(deps.pool, p.companyId, atual.cte_id!);
    await deps.ciot.cancelar(p.companyId, atual.ciot_id, justificativa, mdfe !== null, commandContext(request, deps));
    return depois(p.companyId, atual.ciot_id);
  });

  app.post('/cte/:cte_uuid/ciot/retificacao', {
    schema: {
      tags: TAGS,
      summary: 'Rectifies the CT-e\'s CIOT (not for a full load)',
      description:
        'Body `CiotRetificacaoInput`: at least one of `veiculos`, `motorista`, `valores.frete`, `carga.peso_kg`; the groups given replace ' +
        'the registered ones (the CIOT number stays). The regulator does not rectify a full-load operation: 422 `ciot_retificacao_vedada` ' +
        'for `lotacao` (cancel before the trip and issue again). Allowed after the trip start, not after the closing. Status ' +
        '`retificado`, `retificacoes` counts them.' + ATOS + SIMULADO,
      params: CteIdParam,
      body: Type.Ref(CiotRetificacaoInput),
      response: { 200: DataEnvelope(Type.Ref(RespostaCiot)), ...errors(400, 404, 422, 503) },
    },
  }, async (request) => {
    const p = principalOf(request);
    const alteracoes = normalizarRetificacao(request.body as CiotRetificacaoInput);
    const atual = await ciotDoCte(p.companyId, request.params.cte_uuid);
    await deps.ciot.retificar(p.companyId, atual.ciot_id, alteracoes, commandContext(request, deps));
    return depois(p.companyId, atual.ciot_id);
  });

  app.post('/cte/:cte_uuid/ciot/encerramento', {
    preValidation: corpoOpcional,
    schema: {
      tags: TAGS,
      summary: 'Closes the CT-e\'s CIOT (encerramento) after the trip',
      description:
        'Optional body `{ peso_entregue_kg }`. Status `encerrado`, final: no cancellation, rectification or second closing after it ' +
        '(422 `ciot_encerrado`), and the CT-e\'s CIOT slot stays taken.' + ATOS + SIMULADO,
      params: CteIdParam,
      body: Type.Ref(CiotEncerramentoInput),
      response: { 200: DataEnvelope(Type.Ref(RespostaCiot)), ...errors(400, 404, 422, 503) },
    },
  }, async (request) => {
    const p = principalOf(request);
    const peso = (request.body as CiotEncerramentoInput).peso_entregue_kg;
    const atual = await ciotDoCte(p.companyId, request.params.cte_uuid);
    await deps.ciot.encerrar(p.companyId, atual.ciot_id, peso === undefined ? null : gramasDeKg(peso), commandContext(request, deps));
    return depois(p.companyId, atual.ciot_id);
  });
};
