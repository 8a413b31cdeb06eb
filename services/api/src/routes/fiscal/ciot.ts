import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CiotIdParam, DataEnvelope, DeclaracaoCiot, type DeclaracaoCiotDados, type Environment, RespostaCiot } from '@frete/contracts';
import { type CiotState, kgDeGramas, reaisDeCentavos } from '@frete/domain';
import { ciotOf, type CiotRow } from '@frete/projections';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';

const TAGS = ['CIOT'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One CIOT operation of the caller; a malformed id or another company's operation is `ciot_nao_encontrado` (spec, on purpose). */
export async function ownCiot(deps: ApiDeps, companyId: string, ciotId: string): Promise<CiotRow> {
  const row = UUID.test(ciotId) ? await ciotOf(deps.pool, companyId, ciotId.toLowerCase()) : null;
  if (!row) throw new ApiError('ciot_nao_encontrado', 'CIOT operation not found');
  return row;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export const declaracaoView = (d: DeclaracaoCiotDados) => ({
  contratado: d.contratado,
  carga: { tipo: d.carga.tipo, peso_kg: kgDeGramas(d.carga.peso_gramas), contratantes: d.carga.contratantes },
  rota: d.rota,
  veiculos: d.veiculos,
  documentos_fiscais: d.documentos_fiscais,
  valores: {
    frete: reaisDeCentavos(d.valores.frete_centavos),
    parcelas: d.valores.parcelas.map((p) => ({ valor: reaisDeCentavos(p.valor_centavos), vencimento: p.vencimento })),
  },
  motorista: d.motorista,
  vale_pedagio: d.vale_pedagio
    ? {
        valor: d.vale_pedagio.valor_centavos === null ? null : reaisDeCentavos(d.vale_pedagio.valor_centavos),
        pracas: d.vale_pedagio.pracas,
      }
    : null,
  observacoes: d.observacoes ?? null,
});

/** `RespostaCiot` of a row of rm.ciots. */
export const ciotView = (r: CiotRow, env: Environment) => ({
  id: r.ciot_id,
  environment: env,
  status: r.status,
  ciot: r.ciot,
  codigo_verificacao: r.codigo_verificacao,
  motivo: r.motivo,
  motivo_codigo: r.motivo_codigo,
  referencia_externa: r.referencia_externa,
  origem: r.origem,
  cte: r.cte_id && r.cte_chave ? { id: r.cte_id, access_key: r.cte_chave } : null,
  protocolo: r.protocolo,
  declaracao: declaracaoView(r.declaracao),
  registrado_em: iso(r.registrado_em),
  viagem_iniciada_em: iso(r.viagem_iniciada_em),
  retificacoes: Number(r.retificacoes),
  cancelamento: r.cancelado_em ? { justificativa: r.justificativa_cancelamento ?? '', cancelado_em: iso(r.cancelado_em)! } : null,
  encerramento: r.encerrado_em
    ? {
        peso_entregue_kg: r.peso_entregue_gramas === null ? null : kgDeGramas(Number(r.peso_entregue_gramas)),
        encerrado_em: iso(r.encerrado_em)!,
      }
    : null,
  historico: r.historico.map((h) => ({ evento: h.evento, em: iso(h.em)!, protocolo: h.protocolo, motivo: h.motivo })),
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
});

/**
 * The answer of a declaration (alone or anchored): 201 registered, 202 `sent`, or the 422 of a blocked or refused one,
 * whose operation stays readable (`error.details.ciot.id`). It tells what the provider answered to this request: the
 * emission processor may already have followed a `sent` one up when the read model is read, so a `sent` answer shows
 * the operation as it stood then (the reread shows what came after).
 */
export async function respostaDaDeclaracao(deps: ApiDeps, companyId: string, state: CiotState, env: Environment) {
  await deps.readYourWrites.waitFor(companyId);
  const row = await ownCiot(deps, companyId, state.ciot_id!);
  const ciot = { id: row.ciot_id, status: state.status, motivo_codigo: row.motivo_codigo, motivo: row.motivo };
  if (state.status === 'bloqueado') {
    throw new ApiError('declaracao_bloqueada', `the declaration was recorded but not transmitted: ${row.motivo ?? ''}`, {
      ciot,
      motivo: row.motivo,
    });
  }
  if (state.status === 'recusado') {
    throw new ApiError('declaracao_recusada', `the CIOT provider refused the declaration: ${row.motivo ?? ''}`, {
      ciot,
      motivo: row.motivo,
    });
  }
  const view = ciotView(row, env);
  if (state.status !== 'sent') return { status: 201 as const, body: { data: view, environment: env } };
  const historico = view.historico.slice(0, state.versao);
  const sent = {
    ...view,
    status: 'sent' as const,
    ciot: null,
    codigo_verificacao: null,
    protocolo: state.protocolo,
    motivo: state.motivo,
    motivo_codigo: null,
    registrado_em: null,
    historico,
    updated_at: historico[historico.length - 1]?.em ?? view.updated_at,
  };
  return { status: 202 as const, body: { data: sent, environment: env } };
}

export const STATUS_CIOT =
  'Statuses (`CiotStatus`): `sent` (declared, no verdict yet: do not proceed with the trip; reread by id until it leaves `sent`), ' +
  '`registrado` (CIOT and verification code known), `retificado` (registered and rectified; still in force), `recusado` (the provider ' +
  'refused; `motivo`), `bloqueado` (never transmitted; `motivo`), `cancelado`, `encerrado`. A `sent` operation leaves `sent` by ' +
  'itself: the emission processor asks the provider again about every declaration left without verdict (in the sandbox the first ' +
  'follow-up registers it, within moments).';

/** CIOT without CT-e (spec section 4): declaration and pure read. Simulated in the sandbox; blocked in production (ruling 7). */
export const ciotRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    app.post(
      '/ciot',
      {
        schema: {
          operationId: 'declararCiot',
          tags: TAGS,
          summary: "Declares a transport operation and obtains its CIOT (`DeclaracaoCiot`), in the company's own name",
          description:
            'The operation is recorded before the provider is called, and stays readable at GET /fiscal/ciot/{ciot_uuid} whatever happens. ' +
            'Answers: 201 registered (`ciot`, 12 digits, and `codigo_verificacao`, 4 digits: the trip may proceed); 202 `sent` (delivered ' +
            'without verdict: must not proceed; reread by `id`); 422 `declaracao_bloqueada` (not transmitted: `contratado.documento` is not ' +
            "the authenticated company's CNPJ, reason `contratado_divergente`; the profile is not covered by this route, reason " +
            '`perfil_nao_coberto`: `carga.tipo` `tac_agregado`, `valores.parcelas` or `vale_pedagio.pracas`; or no provider is contracted, ' +
            'reason `provedor_indisponivel`, which is every declaration in production) or 422 `declaracao_recusada` (the provider refused); ' +
            'both carry `error.details.ciot.id` and the stored `error.details.motivo`. 400 `validacao`: a missing or malformed field, a ' +
            'route end that is not an IBGE municipality (ruling 19; the field is named), `carga.contratantes` missing for `fracionada`, ' +
            'or `referencia_externa` already used by the company (`error.details.ciot.id` names the operation that has it). ' +
            'Sandbox (simulated, no legal value; the same declaration always gets the same CIOT): `referencia_externa` `CIOT-PENDENTE` ' +
            'gives 202, `CIOT-RECUSAR` 422 `declaracao_recusada`, anything else 201; these two sentinels may be repeated. ' +
            STATUS_CIOT,
          body: Type.Ref(DeclaracaoCiot),
          response: {
            201: DataEnvelope(Type.Ref(RespostaCiot), 'Registered: the trip may proceed'),
            202: DataEnvelope(Type.Ref(RespostaCiot), 'Sent without verdict: do not proceed; reread GET /fiscal/ciot/{ciot_uuid}'),
            ...errors(400, 422, 'declaracao_bloqueada', 'provedor_indisponivel', 'declaracao_recusada'),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const state = await deps.handlers.ciot.declarar(commandContext(request, deps), p.company.cnpj, request.body as DeclaracaoCiot);
        const out = await respostaDaDeclaracao(deps, p.companyId, state, env);
        return reply.status(out.status).send(out.body);
      },
    );

    app.get(
      '/ciot/:ciot_uuid',
      {
        schema: {
          operationId: 'obterCiot',
          tags: TAGS,
          summary: 'One CIOT operation (pure read: the provider is not called)',
          description:
            'Works for every operation, refused and blocked ones included (with the stored `motivo`), and for those anchored on a CT-e. ' +
            "404 `ciot_nao_encontrado` for an unknown id, a malformed one, and another company's operation (on purpose). " +
            STATUS_CIOT,
          params: CiotIdParam,
          response: { 200: DataEnvelope(Type.Ref(RespostaCiot)), ...errors(404, 'ciot_nao_encontrado') },
        },
      },
      async (request) => {
        const row = await ownCiot(deps, principalOf(request).companyId, request.params.ciot_uuid);
        return { data: ciotView(row, env), environment: env };
      },
    );
  };
