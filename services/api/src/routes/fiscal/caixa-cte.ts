import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AccessKeyParam,
  DataEnvelope,
  DesacordoInput,
  DesacordoResultado,
  InboundCte,
  InboundCteQuery,
  InboundCteSummary,
  ListEnvelope,
} from '@frete/contracts';
import { type PedidoDesacordo, type ResultadoDesacordo } from '@frete/application';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { isValidAccessKey } from '@frete/domain';
import { caixaCteList, caixaCteOf } from '@frete/projections';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { enviarXmlArquivado, respostasXmlArquivado } from './xml-arquivado';
import { checkDateRange, listOf, pageOf } from '../../paging';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { CteUploadBody, readCteUpload } from './xml-upload';
import { inboundView } from './cte-views';

const TAGS = ['Subcontratação'];

const notFound = () => new ApiError('nao_encontrado', "CT-e not found in this company's inbox");

const DESACORDO_RESPOSTAS = {
  200: DataEnvelope(Type.Ref(DesacordoResultado), 'The authority registered the event'),
  202: DataEnvelope(Type.Ref(DesacordoResultado), 'No verdict yet (105 or no answer): repeat the same request to reconcile'),
};

/** What both requests to the authority may answer besides their own refusals. */
const DESACORDO_ERROS = [
  404,
  409,
  422,
  503,
  'regra_de_negocio',
  'desacordo_nao_tomador',
  'desacordo_pendente',
  'provedor_indisponivel',
  'autoridade_indisponivel',
] as const;

const DESACORDO_AUTORIDADE =
  "Only the CT-e's taker (`toma3` party or `toma4`: the company's CNPJ) may ask: otherwise 422 `desacordo_nao_tomador` (the authority's " +
  '755). The eventoCTe 4.00 is built with the company as author, signed with its A1, validated against eventoCTe_v4.00.xsd and its ' +
  "detail schema, archived, recorded in the received CT-e's history (GET /auditoria/historico/cte-subcontratacao/{access_key}) and sent " +
  "to the CT-e's own authorizer (MOC 4.00 Visão Geral §3.7.1: \"SEFAZ Autoriz.\", `cOrgao` the key's UF — not the taker's UF). 200 " +
  'when registered (cStat 135), 202 with `situacao: pendente` when the authority answered 105 or nothing (repeat the same request: it ' +
  'reconciles, never sends a second event); 409 `desacordo_pendente` while an event of the other type is pending. A refusal of the ' +
  "authority is 422 `regra_de_negocio` with the manual's `error.details.cstat` and `error.details.motivo` (217 when the authority does " +
  'not know the CT-e, 218 cancelled, 664 substituted). 404 `nao_encontrado` for a key not in the inbox. Webhooks: ' +
  '`cte_subcontratacao.desacordo_registrado`, `.desacordo_cancelado`, `.desacordo_pendente`, `.desacordo_rejeitado`.';

const desacordoView = (r: ResultadoDesacordo) => ({
  event_key: r.evento.event_key,
  tipo: r.evento.tipo,
  situacao: r.evento.situacao === 'pendente' ? ('pendente' as const) : ('registrado' as const),
  sequencia: r.evento.n_seq_evento,
  protocolo: r.evento.protocolo,
  retorno: r.evento.retorno,
  access_key: r.chave,
  desacordo: r.desacordo,
});

/** The inbox of CT-e issued by other companies (spec section 4, "Inbox of third-party CT-e and subcontracting"). */
export const caixaCteRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    app.post(
      '/cte-subcontratacao',
      {
        // JSON or multipart: readCteUpload validates both and names the field; the schema documents them.
        validatorCompiler: () => () => true,
        schema: {
          operationId: 'receberCteSubcontratacao',
          tags: TAGS,
          summary: 'Receives a CT-e issued by another company (cteProc or CTe, layouts 4.00 and 3.00, up to 2 MB)',
          description:
            'JSON `{ "xml": ... }` (raw XML or base64, told apart by the content) or multipart part `arquivo`. The bytes are archived as received. ' +
            '201 on the first receipt of the key; 200 on a resubmission, with `received_count` incremented and `content_updated` true when the XML ' +
            'differs (the new XML replaces the archived one; every version stays named in the event log). Receiving issues no fiscal document; a ' +
            'CT-e that admits no counter-CT-e (your own, linked to multimodal) is still received with `allows_counter_cte` false. ' +
            '400 `validacao`, `xml_hostil` (DOCTYPE/entities, absurd nesting), `xml_malformado`; 413 over 2 MB; 422 `documento_nao_e_cte`, ' +
            '`layout_nao_suportado`, `chave_invalida` (wrong check digit).',
          consumes: ['application/json', 'multipart/form-data'],
          body: CteUploadBody,
          response: {
            200: DataEnvelope(Type.Ref(InboundCte)),
            201: DataEnvelope(Type.Ref(InboundCte)),
            ...errors(400, 413, 415, 422, 'xml_hostil', 'xml_malformado', 'documento_nao_e_cte', 'layout_nao_suportado', 'chave_invalida'),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const { bytes, cte } = await readCteUpload(request);
        const { novo, recebimento } = await deps.handlers.caixaCte.receber(commandContext(request, deps), p.company.cnpj, {
          bytes,
          cte,
        });
        // The reads after the answer see the receipt as usual; the answer itself is what the command recorded.
        await deps.readYourWrites.waitFor(p.companyId);
        return reply.status(novo ? 201 : 200).send({ data: inboundView(recebimento, true), environment: env });
      },
    );

    /** 200 registered, 202 pending; a refusal of the authority is the 422 with its code. */
    const desacordo = async (request: FastifyRequest, reply: FastifyReply, key: string, pedido: PedidoDesacordo) => {
      const p = principalOf(request);
      if (!isValidAccessKey(key)) throw notFound();
      const r = await deps.handlers.caixaCte.desacordo(commandContext(request, deps), key, pedido);
      const e = r.evento;
      if (e.situacao === 'rejeitado') {
        const motivo = e.retorno?.motivo ?? 'refused by the authority';
        throw new ApiError('regra_de_negocio', motivo, { cstat: e.retorno?.cstat ?? null, motivo, event_key: e.event_key });
      }
      await deps.readYourWrites.waitFor(p.companyId);
      return reply.status(e.situacao === 'pendente' ? 202 : 200).send({ data: desacordoView(r), environment: env });
    };

    app.post(
      '/cte-subcontratacao/:access_key/desacordo',
      {
        schema: {
          operationId: 'registrarDesacordoCte',
          tags: TAGS,
          summary: 'The taker registers that the service was not provided as the CT-e says (prestação em desacordo, event 610110)',
          description:
            "`observacao` of 15 to 255 characters besides blanks (`xObs`; 400 `validacao` otherwise). Within 45 days of the CT-e's " +
            "authorization (422 `desacordo_fora_do_prazo`, the authority's 787); one in force at a time (409 `desacordo_ja_registrado`: " +
            'cancel it first). ' +
            DESACORDO_AUTORIDADE,
          params: AccessKeyParam,
          body: DesacordoInput,
          response: {
            ...DESACORDO_RESPOSTAS,
            ...errors(400, 'desacordo_fora_do_prazo', 'desacordo_ja_registrado', ...DESACORDO_ERROS),
          },
        },
      },
      async (request, reply) => {
        const observacao = request.body.observacao.replace(/\s+/g, ' ').trim();
        if (observacao.length < 15) {
          throw new ApiError('validacao', 'observacao: at least 15 characters besides blanks', {
            fields: [{ field: 'observacao', message: 'at least 15 characters' }],
          });
        }
        return desacordo(request, reply, request.params.access_key, { tipo: 'desacordo', observacao });
      },
    );

    app.post(
      '/cte-subcontratacao/:access_key/desacordo/cancelamento',
      {
        schema: {
          operationId: 'cancelarDesacordoCte',
          tags: TAGS,
          summary: 'The taker cancels its prestação em desacordo (event 610111)',
          description:
            'No body. Cancels the desacordo in force (its protocol is sent as `nProtEvPrestDes`); without one, 422 `desacordo_inexistente` ' +
            "(the authority's 866). No time limit in the manual. " +
            DESACORDO_AUTORIDADE,
          params: AccessKeyParam,
          response: {
            ...DESACORDO_RESPOSTAS,
            ...errors('desacordo_inexistente', ...DESACORDO_ERROS),
          },
        },
      },
      async (request, reply) => desacordo(request, reply, request.params.access_key, { tipo: 'cancelamento_desacordo' }),
    );

    app.get(
      '/cte-subcontratacao',
      {
        schema: {
          operationId: 'listarCteRecebidos',
          tags: TAGS,
          summary: 'Lists CT-e other companies issued (not own issues: those are GET /fiscal/cte)',
          description: '`from`/`to` refer to the first RECEIPT date. Parties come without addresses; read one CT-e for them.',
          querystring: InboundCteQuery,
          response: { 200: ListEnvelope(Type.Ref(InboundCteSummary)), ...errors(400) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const q = request.query;
        checkDateRange(q.from, q.to);
        const paging = pageOf(q);
        const { rows, total, next_cursor } = await caixaCteList(deps.pool, p.companyId, {
          search: q.search,
          carrier_role: q.carrier_role,
          status: q.status,
          from: q.from,
          to: q.to,
          ...paging,
        });
        return listOf(
          rows.map((r) => inboundView(r, false)),
          paging,
          total,
          env,
          next_cursor,
        );
      },
    );

    app.get(
      '/cte-subcontratacao/:access_key',
      {
        schema: {
          operationId: 'obterCteRecebido',
          tags: TAGS,
          summary: "One received CT-e, with the parties' full addresses",
          params: AccessKeyParam,
          response: { 200: DataEnvelope(Type.Ref(InboundCte)), ...errors(404) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const key = request.params.access_key;
        const row = isValidAccessKey(key) ? await caixaCteOf(deps.pool, p.companyId, key) : null;
        if (!row) throw notFound();
        return { data: inboundView(row, true), environment: env };
      },
    );

    app.get(
      '/cte-subcontratacao/:access_key/xml',
      {
        schema: {
          operationId: 'baixarXmlCteRecebido',
          tags: TAGS,
          summary: 'The archived XML, byte for byte as received (not reserialized)',
          description:
            '`application/xml`; the encoding is the one the XML declares. 503 `xml_indisponivel` when the archive cannot be read (retry).',
          params: AccessKeyParam,
          produces: ['application/xml'],
          response: respostasXmlArquivado(),
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const key = request.params.access_key;
        const row = isValidAccessKey(key) ? await caixaCteOf(deps.pool, p.companyId, key) : null;
        if (!row) throw notFound();
        return enviarXmlArquivado(deps, reply, row.xml_sha256, 'inline', `${key}.xml`);
      },
    );
  };
