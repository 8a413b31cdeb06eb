import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type ConviteTransportadora,
  ConviteTransportadora as ConviteSchema,
  ConviteListQuery,
  ConviteParams,
  ConviteTransportadoraInput,
  DataEnvelope,
  ListEnvelope,
} from '@frete/contracts';
import { CONVITE_VALIDADE_DIAS, normalizeCnpj } from '@frete/domain';
import { type ConviteRow, conviteDaEmpresa, convitesList } from '@frete/projections';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { listOf, pageOf } from '../../paging';

export const TAG = 'Cadastros';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const toConvite = (r: ConviteRow): ConviteTransportadora => ({
  id: r.convite_id,
  cnpj: r.cnpj,
  razao_social: r.razao_social,
  contato: { nome: r.contato_nome, email: r.contato_email, telefone: r.contato_telefone },
  estado: r.estado,
  enviado_em: r.enviado_em.toISOString(),
  expira_em: r.expira_em.toISOString(),
  aceito_em: r.aceito_em ? r.aceito_em.toISOString() : null,
  expirado_em: r.expirado_em ? r.expirado_em.toISOString() : null,
});

const ESTADOS =
  `An invitation is \`pendente\` for ${CONVITE_VALIDADE_DIAS} days (\`expira_em\`, on the service clock); it becomes \`aceito\` ` +
  'when the invited CNPJ becomes a carrier customer of the product while pending (its company is registered as a carrier), and ' +
  '`expirado` when its validity ends first.';

/** Invitations of carriers to onboarding (scope `cadastros`); the inviting company is the credential's. */
export const convitesRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;
    const config = { scope: 'cadastros' as const };

    app.post(
      '/convites/transportadoras',
      {
        config,
        schema: {
          operationId: 'convidarTransportadora',
          tags: [TAG],
          summary: 'Invites a carrier to onboarding',
          description:
            'Body `{ cnpj, razao_social?, contato: { nome, email, telefone? } }`. 201 with the new invitation; 200 with the same ' +
            'pending invitation (same `id`, nothing changed, the first contact kept) when the company invites a CNPJ it already invited and ' +
            `the invitation is still pending; after it expired, 201 with a new one. ${ESTADOS} 400 \`validacao\` names each bad field ` +
            '(CNPJ with or without punctuation, alphanumeric allowed, check digits validated; e-mail; phone 10–11 digits, optionally after +55). ' +
            "422 `convite_invalido` for the company's own CNPJ; 422 `transportadora_ja_cadastrada` for a CNPJ that is already a carrier " +
            'customer. Works alike in both environments: the invitation is recorded (`convite.enviado`, read model `rm.convites`); delivering ' +
            "it to the contact is the onboarding team's, from `rm.convites` (no mail provider is part of this service).",
          body: Type.Ref(ConviteTransportadoraInput),
          response: {
            200: DataEnvelope(Type.Ref(ConviteSchema)),
            201: DataEnvelope(Type.Ref(ConviteSchema)),
            ...errors(400, 422, 'convite_invalido', 'transportadora_ja_cadastrada'),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const body = request.body as ConviteTransportadoraInput;
        const { convite, novo } = await deps.handlers.convite.enviar(commandContext(request, deps), p.company.cnpj, body);
        // The reads after the answer see the invitation as usual; the answer itself is what the command recorded.
        await deps.readYourWrites.waitFor(p.companyId);
        return reply.status(novo ? 201 : 200).send({ data: toConvite(convite), environment: env });
      },
    );

    app.get(
      '/convites/transportadoras',
      {
        config,
        schema: {
          operationId: 'listarConvitesTransportadora',
          tags: [TAG],
          summary: "Lists the company's invitations, newest first",
          description: `Filters \`estado\` and \`cnpj\` (punctuation ignored); paging per ruling 9. ${ESTADOS}`,
          querystring: ConviteListQuery,
          response: { 200: ListEnvelope(Type.Ref(ConviteSchema)), ...errors(400) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const paging = pageOf(request.query);
        const cnpj = request.query.cnpj ? normalizeCnpj(request.query.cnpj.trim()) : undefined;
        const { rows, total, next_cursor } = await convitesList(deps.pool, p.companyId, {
          estado: request.query.estado,
          cnpj,
          now: deps.clock(),
          ...paging,
        });
        return listOf(rows.map(toConvite), paging, total, env, next_cursor);
      },
    );

    app.get(
      '/convites/transportadoras/:id',
      {
        config,
        schema: {
          operationId: 'obterConviteTransportadora',
          tags: [TAG],
          summary: 'One invitation of the company',
          description: `200 with the invitation; 404 \`nao_encontrado\` for an unknown id or another company's invitation. ${ESTADOS}`,
          params: ConviteParams,
          response: { 200: DataEnvelope(Type.Ref(ConviteSchema)), ...errors(404) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const id = request.params.id.trim().toLowerCase();
        const row = UUID.test(id) ? await conviteDaEmpresa(deps.pool, p.companyId, id, deps.clock()) : null;
        if (!row) throw new ApiError('nao_encontrado', `invitation ${request.params.id} not found`);
        return { data: toConvite(row), environment: env };
      },
    );
  };
