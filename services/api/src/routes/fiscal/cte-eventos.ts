import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import {
  CteCancelamentoInput,
  CteCartaCorrecaoInput,
  CteEntregaInput,
  CteEventoKeyParam,
  CteEventoResultado,
  CteIdParam,
  DataEnvelope,
  type RepasseNoCancelamento as RepasseNoCancelamentoView,
} from '@frete/contracts';
import { type EventoCteEstado, reaisDeCentavos, tipoDoTpEvento } from '@frete/domain';
import { type PedidoEventoCte, type RepasseNoCancelamento, type ResultadoEventoCte } from '@frete/application';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { ownCte } from './cte';

const TAGS = ['CT-e'];

const repasseView = (r: RepasseNoCancelamento): RepasseNoCancelamentoView => ({
  cancelado: r.cancelado,
  em_cancelamento: r.em_cancelamento,
  parcelas_canceladas: r.parcelas_canceladas,
  parcelas_pagas: r.parcelas_pagas.map((p) => ({
    posicao: p.posicao,
    ordem_pagamento_id: p.ordem_id,
    valor: reaisDeCentavos(p.valor_centavos),
    situacao: p.situacao,
  })),
  ordens_retiradas: r.ordens_retiradas.map((o) => ({
    posicao: o.posicao,
    ordem_pagamento_id: o.ordem_id,
    valor: reaisDeCentavos(o.valor_centavos),
  })),
});

const viewOf = (cteId: string, e: EventoCteEstado, situacaoCte: string | null, repasse: RepasseNoCancelamento | null = null) => ({
  event_key: e.event_key,
  tipo: tipoDoTpEvento(e.tp_evento)!,
  situacao: e.situacao === 'pendente' ? ('pendente' as const) : ('registrado' as const),
  sequencia: e.n_seq_evento,
  protocolo: e.protocolo,
  retorno: e.retorno,
  reconciliacao: `/v1/fiscal/cte/${cteId}/eventos/${e.event_key}/reconciliacao`,
  cte: { id: cteId, situacao: situacaoCte ?? 'autorizado' },
  ...(repasse ? { repasse: repasseView(repasse) } : {}),
});

const RESPOSTAS = {
  200: DataEnvelope(Type.Ref(CteEventoResultado), 'The authority registered the event'),
  202: DataEnvelope(Type.Ref(CteEventoResultado), 'No verdict yet (105 or no answer): reconcile with the `event_key`'),
};

const AUTORIDADE =
  "The event's XML (eventoCTe 4.00) is built, signed with the company's A1 certificate, validated against eventoCTe_v4.00.xsd, archived and " +
  'sent. 200 when registered (cStat 135/136), 202 with `situacao: pendente` and the `event_key` when the authority answered 105 or nothing ' +
  '(POST .../eventos/{event_key}/reconciliacao later; never send the event again). 422 `cte_nao_autorizado` when the CT-e is not authorized; ' +
  "any refusal of the authority (or of the same rule checked here first) is 422 `regra_de_negocio` with the manual's `error.details.cstat` " +
  "and `error.details.motivo`. 404 for a CT-e that is not yours. In the sandbox, the event's text may carry the simulated authority's sentinels.";

/** The fiscal events of an own CT-e (spec sections 4 "CT-e" and 6). */
export const cteEventosRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    /** 200 registered, 202 pending; a refusal is the 422 with the authority's code. */
    const resultado = async (companyId: string, cteId: string, r: ResultadoEventoCte) => {
      const e = r.evento;
      if (e.situacao === 'rejeitado') {
        const cstat = e.retorno?.cstat ?? null;
        const motivo = e.retorno?.motivo ?? 'refused by the authority';
        throw new ApiError('regra_de_negocio', motivo, { cstat, motivo, event_key: e.event_key });
      }
      await deps.readYourWrites.waitFor(companyId);
      return {
        status: e.situacao === 'pendente' ? 202 : 200,
        body: { data: viewOf(cteId, e, r.cte.situacao, r.repasse), environment: env },
      };
    };

    /** Requests an event of an own CT-e and answers it: 200 registered, 202 pending, 422 refused. */
    const solicitar = async (request: FastifyRequest, reply: FastifyReply, cteUuid: string, pedido: PedidoEventoCte) => {
      const p = principalOf(request);
      await deps.readYourWrites.waitFor(p.companyId);
      const row = await ownCte(deps, p.companyId, cteUuid);
      const r = await deps.handlers.cte.solicitarEvento(commandContext(request, deps), row.cte_id, pedido);
      const out = await resultado(p.companyId, row.cte_id, r);
      return reply.status(out.status).send(out.body);
    };

    app.post(
      '/cte/:cte_uuid/eventos/cancelamento',
      {
        schema: {
          operationId: 'cancelarCte',
          tags: TAGS,
          summary: 'Cancels an authorized CT-e (event 110111)',
          description:
            'Justification of 15 to 255 characters (400 `validacao` otherwise). Refused (422 `regra_de_negocio`) after 168 hours from the ' +
            'authorization (cstat 220), after a registered delivery proof (862), a correction letter (523) or an authorized MDF-e (528). ' +
            "Once registered the CT-e is `cancelado` and its DACTE prints CANCELADO. A counter-CT-e's driver payout is decided in the same " +
            'request (`repasse`): while the authority decides, the payout is held (no release, no payment order: 422 ' +
            '`documento_em_cancelamento`) and orders not yet handed to the bank rail are withdrawn (`ordens_retiradas`); once registered, ' +
            'every installment not paid is `cancelada`, and those whose money had already left are listed in `repasse.parcelas_pagas` and ' +
            'stay paid; a refusal lets the payout go on. ' +
            AUTORIDADE,
          params: CteIdParam,
          body: CteCancelamentoInput,
          response: {
            ...RESPOSTAS,
            ...errors(400, 404, 422, 503, 'regra_de_negocio', 'cte_nao_autorizado', 'provedor_indisponivel', 'autoridade_indisponivel'),
          },
        },
      },
      async (request, reply) => {
        const justificativa = request.body.justificativa.replace(/\s+/g, ' ').trim();
        if (justificativa.length < 15) {
          throw new ApiError('validacao', 'justificativa: at least 15 characters besides blanks', {
            fields: [{ field: 'justificativa', message: 'at least 15 characters' }],
          });
        }
        return solicitar(request, reply, request.params.cte_uuid, { tipo: 'cancelamento', justificativa });
      },
    );

    app.post(
      '/cte/:cte_uuid/eventos/carta-correcao',
      {
        schema: {
          operationId: 'registrarCartaCorrecao',
          tags: TAGS,
          summary: 'Registers a correction letter (CC-e, event 110110)',
          description:
            'Each item names the group, the field and the corrected value (and the item index for a list). Each letter takes the next sequence ' +
            '(1 to 20; beyond, 422 `regra_de_negocio` cstat 636) and replaces the previous ones, so the letter sent repeats every correction ' +
            "in force: the earlier letters' corrections, a new value of the same group, field and item replacing the old one in place, the " +
            'new ones after (GET of the CT-e lists them in `correcoes_em_vigor`). A letter that would carry more than 50 corrections, or a ' +
            "field over the schema's length, is 422 `carta_correcao_excede_limite`. A field the manual forbids correcting is refused " +
            'before sending with 422 `carta_correcao_campo_vedado` (`error.details.grupo`, `error.details.campo`). ' +
            AUTORIDADE,
          params: CteIdParam,
          body: CteCartaCorrecaoInput,
          response: {
            ...RESPOSTAS,
            ...errors(
              400,
              404,
              422,
              503,
              'regra_de_negocio',
              'carta_correcao_campo_vedado',
              'carta_correcao_excede_limite',
              'cte_nao_autorizado',
              'provedor_indisponivel',
              'autoridade_indisponivel',
            ),
          },
        },
      },
      async (request, reply) => {
        const correcoes = request.body.correcoes.map((c) => ({
          grupoAlterado: c.grupo,
          campoAlterado: c.campo,
          valorAlterado: c.valor,
          ...(c.item !== undefined ? { nroItemAlterado: c.item } : {}),
        }));
        return solicitar(request, reply, request.params.cte_uuid, { tipo: 'carta_correcao', correcoes });
      },
    );

    app.post(
      '/cte/:cte_uuid/eventos/entrega',
      {
        schema: {
          operationId: 'registrarComprovanteEntrega',
          tags: TAGS,
          summary: 'Confirms the delivery: comprovante de entrega (event 110180)',
          description:
            'Date of the delivery, who received it (document and name), optional position, and the base64 SHA-1 of the delivery image. ' +
            'Once registered the delivery is `confirmada`. One delivery proof at a time (422 `regra_de_negocio` cstat 870). ' +
            AUTORIDADE,
          params: CteIdParam,
          body: CteEntregaInput,
          response: {
            ...RESPOSTAS,
            ...errors(400, 404, 422, 503, 'regra_de_negocio', 'cte_nao_autorizado', 'provedor_indisponivel', 'autoridade_indisponivel'),
          },
        },
      },
      async (request, reply) => {
        const b = request.body;
        const hash = Buffer.from(b.hash_imagem, 'base64');
        if (hash.length !== 20) {
          throw new ApiError('validacao', 'hash_imagem: a base64 SHA-1 digest (20 bytes)', {
            fields: [{ field: 'hash_imagem', message: 'a base64 SHA-1 digest (20 bytes)' }],
          });
        }
        const pedido: PedidoEventoCte = {
          tipo: 'entrega',
          entregue_em: new Date(b.entregue_em),
          documento_recebedor: b.recebedor.documento,
          nome_recebedor: b.recebedor.nome,
          latitude: b.latitude ?? null,
          longitude: b.longitude ?? null,
          hash_imagem: b.hash_imagem,
          ...(b.hash_em ? { hash_em: new Date(b.hash_em) } : {}),
          ...(b.nfe_chaves ? { nfe_chaves: b.nfe_chaves } : {}),
        };
        return solicitar(request, reply, request.params.cte_uuid, pedido);
      },
    );

    app.post(
      '/cte/:cte_uuid/eventos/entrega/cancelamento',
      {
        schema: {
          operationId: 'cancelarComprovanteEntrega',
          tags: TAGS,
          summary: 'Cancels the delivery proof (event 110181)',
          description:
            'Cancels the registered delivery proof (its protocol is sent as `nProtCE`); the delivery goes back to `a_confirmar`. Without a ' +
            'registered delivery proof, 422 `regra_de_negocio` cstat 866. No body. ' +
            AUTORIDADE,
          params: CteIdParam,
          response: {
            ...RESPOSTAS,
            ...errors(404, 422, 503, 'regra_de_negocio', 'cte_nao_autorizado', 'provedor_indisponivel', 'autoridade_indisponivel'),
          },
        },
      },
      async (request, reply) => {
        return solicitar(request, reply, request.params.cte_uuid, { tipo: 'entrega_cancelamento' });
      },
    );

    app.post(
      '/cte/:cte_uuid/eventos/:event_key/reconciliacao',
      {
        schema: {
          operationId: 'reconciliarEventoCte',
          tags: TAGS,
          summary: 'Reconciles a pending event: 200 once registered, 202 while pending',
          description:
            "No body. Asks the authority about the CT-e's events; if it never got this one, the same signed event XML is sent again (never a new " +
            'one). 200 with the protocol once registered (also for an event already registered), 202 while pending, 422 `regra_de_negocio` with ' +
            '`error.details.cstat` when the authority refused it, 404 `nao_encontrado` for an `event_key` this CT-e never requested ' +
            '(or of another CT-e), and for a CT-e that is not yours.',
          params: CteEventoKeyParam,
          response: { ...RESPOSTAS, ...errors(404, 422, 503, 'regra_de_negocio', 'provedor_indisponivel', 'autoridade_indisponivel') },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        await deps.readYourWrites.waitFor(p.companyId);
        const row = await ownCte(deps, p.companyId, request.params.cte_uuid);
        const r = await deps.handlers.cte.reconciliarEvento(commandContext(request, deps), row.cte_id, request.params.event_key);
        const out = await resultado(p.companyId, row.cte_id, r);
        return reply.status(out.status).send(out.body);
      },
    );
  };
