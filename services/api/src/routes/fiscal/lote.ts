import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ContraCteLoteInput,
  DataEnvelope,
  ListEnvelope,
  LoteAceito,
  LoteIdParam,
  LoteListQuery,
  LoteRelatorio,
  LoteRelatorioQuery,
  LoteResumo,
} from '@frete/contracts';
import { loteDe, loteRelatorioView, loteResumoView, lotesList } from '@frete/projections';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { checkDateRange, listOf, pageOf } from '../../paging';

const TAGS = ['Lotes'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const naoEncontrado = () => new ApiError('lote_nao_encontrado', 'batch not found');

/** Counter-CT-e in batch (spec section 4, "Inbox of third-party CT-e and subcontracting", batch rules 1–8). */
export const loteRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;
    const aceito = (batchId: string) => ({
      data: { batch_id: batchId, status: 'processing' as const, report: `/v1/fiscal/cte-subcontratacao/lote/${batchId}` },
      environment: env,
    });

    app.post(
      '/cte-subcontratacao/lote',
      {
        schema: {
          operationId: 'criarLote',
          tags: TAGS,
          summary: 'Creates a batch of counter-CT-e; emission runs in the background, read the report',
          description:
            'On the account of `subcontratada.cnpj` (its certificate, numbering, inbox, drivers and vehicles): the caller itself, or a carrier that ' +
            'granted the caller emission (the caller is then recorded as requester). 202 `{ batch_id, status: processing, report }`. ' +
            'Before anything is created: 400 `validacao` (shape, access-key check digits, IBGE pairs, CPF digits, money with more than two ' +
            'decimals, `repasse.parcelas`); 403 `emissao_nao_autorizada` (no active grant, or an unknown CNPJ); 422 `lote_invalido` with ' +
            '`error.details.fields` (keys with and without `pernas` mixed, `valor` together with `valores.frete_bruto` or neither, tipo_servico 2/3 ' +
            "without both ends); 422 `motorista_nao_encontrado` / `veiculo_nao_encontrado` (not in the subcontractor's registry; for a leg the " +
            'message names `ctes.<n>.pernas.<n>`). Each row then ends `emitted`, `duplicated` (key already subcontracted the same way: the existing ' +
            '`counter_cte_id`) or `failed` with `cte_nao_recebido`, `cte_proprio`, `origem_incompativel_com_tipo`, `redespacho_exige_rota`, ' +
            '`sem_regra_tributacao`, `origem_ja_subcontratada_1a1`, `origem_ja_subcontratada_em_pernas`, `origem_ja_paga`, `cte_com_pendencias` or ' +
            '`cte_rejeitado`. An `Idempotency-Key` header makes a retry answer the same batch and create nothing. 503 `provedor_indisponivel` ' +
            'where no fiscal provider is contracted (ruling 7).',
          headers: Type.Object({
            'idempotency-key': Type.Optional(Type.String({ minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' })),
          }),
          body: Type.Ref(ContraCteLoteInput),
          response: {
            202: DataEnvelope(Type.Ref(LoteAceito)),
            ...errors(
              400,
              403,
              422,
              503,
              'emissao_nao_autorizada',
              'lote_invalido',
              'motorista_nao_encontrado',
              'veiculo_nao_encontrado',
              'provedor_indisponivel',
            ),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const body = request.body as ContraCteLoteInput;
        const batchId = await deps.handlers.lote.criar(
          commandContext(request, deps),
          p.company.cnpj,
          body,
          request.headers['idempotency-key'],
        );
        return reply.status(202).send(aceito(batchId));
      },
    );

    app.get(
      '/cte-subcontratacao/lote',
      {
        schema: {
          operationId: 'listarLotes',
          tags: TAGS,
          summary: 'The batches the company owns or requested, newest first, each with its progress',
          description:
            'Filters: `status`, `from`/`to` (creation day, Brasília). Paging as ruling 9, or by `cursor` (`meta.next_cursor`). ' +
            'Each item is the report without its rows.',
          querystring: LoteListQuery,
          response: { 200: ListEnvelope(Type.Ref(LoteResumo)), ...errors(400) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const q = request.query;
        checkDateRange(q.from, q.to);
        const paging = pageOf(q);
        const { rows, total, next_cursor } = await lotesList(deps.pool, p.companyId, {
          status: q.status,
          from: q.from,
          to: q.to,
          ...paging,
        });
        return listOf(rows.map(loteResumoView), paging, total, env, next_cursor);
      },
    );

    app.get(
      '/cte-subcontratacao/lote/:batch_id',
      {
        schema: {
          operationId: 'obterLote',
          tags: TAGS,
          summary: 'The batch report: its status and one row per key (or per leg), written as each is processed',
          description:
            'Read by the subcontractor that owns the batch and by the contractor that requested it. 404 `lote_nao_encontrado` for a ' +
            "missing batch, another carrier's, or a malformed id.",
          params: LoteIdParam,
          querystring: LoteRelatorioQuery,
          response: { 200: DataEnvelope(Type.Ref(LoteRelatorio)), ...errors(400, 404, 'lote_nao_encontrado') },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const id = request.params.batch_id;
        if (!UUID.test(id)) throw naoEncontrado();
        const { rows_from: desde = 0, rows_limit: limite = null } = request.query;
        const found = await loteDe(deps.pool, id.toLowerCase(), p.companyId, { desde, limite });
        if (!found) throw naoEncontrado();
        return { data: loteRelatorioView(found.lote, found.linhas), environment: env };
      },
    );
  };
