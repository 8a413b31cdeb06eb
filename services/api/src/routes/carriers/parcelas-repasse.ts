import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DataEnvelope, DocumentoRepasse, DocumentoRepasseParam, PagamentoRepasse, ParcelaRepasseAcao } from '@frete/contracts';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { documentoRepasseDaEmpresa } from '@frete/application';
import { toDocumentoRepasse } from './repasse-documento';

export const TAG = 'Parcelas';

const DOCUMENTO =
  "The document is a counter-CT-e's `counter_cte_id`, a leg's `documento_financeiro` (`ROUTE:...`) or the access key of " +
  "an authorized counter-CT-e; another company's document is 404 `nao_encontrado`.";

const REGRAS =
  "Installments exist only after the scan (bipagem). At the scan, the driver group's live documents (a batch's counter-CT-e " +
  'of one driver, ordered by batch row; a single counter-CT-e is a group of one) decide them: with N documents and k installments, N ≥ k ' +
  'puts the whole document in one installment at the position its order falls in (60/20/20 with 15 documents: the first 9 at position 1, ' +
  'the next 3 at 2, the last 3 at 3; at least one per installment, largest remainder with ties to the last positions); N < k splits the ' +
  'document by the percentages, exact to the cent (leftover cents by largest remainder, ties to the last positions). The rule is the ' +
  "batch's `repasse.parcelas`, else the driver's, else 100% at position 1 with dias 0 (ruling 14). The due date (`vencimento`) is the " +
  "release day in Brasília plus the installment's `dias`.";

/**
 * The scan is what creates the installments (spec section 3: "the installment exists only after the document is scanned");
 * completion and accountability come after it, so they alone can arrive too early.
 */
const ANTES_DA_BIPAGEM: Record<'Bipar' | 'Concluir' | 'PrestarContas', string> = {
  Bipar:
    "It is the first act: a counter-CT-e's payout exists from its authorization on (404 before), and its installments from this scan. ",
  Concluir: '422 `parcelas_nao_geradas` when it comes before the scan (`bipagem`), which creates the installments. ',
  PrestarContas: '422 `parcelas_nao_geradas` when it comes before the scan (`bipagem`), which creates the installments. ',
};

const ATO = (ato: string, posicao: number, type: keyof typeof ANTES_DA_BIPAGEM) =>
  `The driver app reports ${ato}. In automatic mode it releases installment ${posicao} of this document when the document has one and it is ` +
  'still pending; in manual mode it is only recorded (only `liberar` releases). Idempotent: repeating it answers 200 and changes nothing. ' +
  `${ANTES_DA_BIPAGEM[type]}422 \`documento_cancelado\` for a cancelled counter-CT-e. ${DOCUMENTO}`;

/** The installment area (spec section 4, scope `operacao`): read, driver-app acts, release and payment order. */
export const parcelasRepasseRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;
    const config = { scope: 'operacao' as const };

    app.get(
      '/:documento',
      {
        config,
        schema: {
          operationId: 'obterParcelasRepasse',
          tags: [TAG],
          summary: "The driver's payout of a counter-CT-e and its installments",
          description: `200 with the document, its rule, mode, acts and installments (\`parcelas\` empty before the scan). ${REGRAS} ${DOCUMENTO}`,
          params: DocumentoRepasseParam,
          response: { 200: DataEnvelope(Type.Ref(DocumentoRepasse)), ...errors(404) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const row = await documentoRepasseDaEmpresa(deps, p.companyId, request.params.documento);
        return { data: toDocumentoRepasse(request.params.documento, row), environment: env };
      },
    );

    const atos = [
      {
        path: 'bipagem',
        operationId: 'informarBipagem',
        type: 'Bipar',
        ato: 'the scan (bipagem) of the cargo loaded on the vehicle: it creates the installments of the document',
        posicao: 1,
      },
      { path: 'conclusao', operationId: 'informarConclusao', type: 'Concluir', ato: 'the completion of the service', posicao: 2 },
      {
        path: 'prestacao-contas',
        operationId: 'informarPrestacaoContas',
        type: 'PrestarContas',
        ato: 'the accountability (prestação de contas)',
        posicao: 3,
      },
    ] as const;
    for (const a of atos) {
      app.post(
        `/:documento/${a.path}`,
        {
          config,
          schema: {
            operationId: a.operationId,
            tags: [TAG],
            summary: `Driver app: reports ${a.path}`,
            description: `200 with the document. ${ATO(a.ato, a.posicao, a.type)}${a.type === 'Bipar' ? ` ${REGRAS}` : ''}`,
            params: DocumentoRepasseParam,
            response: {
              200: DataEnvelope(Type.Ref(DocumentoRepasse)),
              ...(a.type === 'Bipar' ? errors(404, 'documento_cancelado') : errors(404, 'parcelas_nao_geradas', 'documento_cancelado')),
            },
          },
        },
        async (request) => {
          const { documento } = await deps.handlers.repasse.agir(commandContext(request, deps), request.params.documento, { type: a.type });
          return { data: toDocumentoRepasse(request.params.documento, documento), environment: env };
        },
      );
    }

    app.post(
      '/liberar',
      {
        config,
        schema: {
          operationId: 'liberarParcela',
          tags: [TAG],
          summary: 'Releases an installment (the act that makes it eligible for payment)',
          description:
            'Body `{ documento, posicao }`. 200 with the document; the installment is `liberada` with its `vencimento`. Works in ' +
            'both modes (in automatic mode for an installment the driver app has not released yet). 422 `parcela_ja_liberada` (released, ordered ' +
            'or paid), `parcela_nao_encontrada` (the document has no installment at that position), `parcelas_nao_geradas` (not scanned yet), ' +
            "`parcela_cancelada`, `documento_em_cancelamento` (the counter-CT-e's cancellation is at the authority). " +
            `400 \`validacao\` for a missing \`documento\` or a \`posicao\` outside 1..3. ${DOCUMENTO}`,
          body: Type.Ref(ParcelaRepasseAcao),
          response: {
            200: DataEnvelope(Type.Ref(DocumentoRepasse)),
            ...errors(
              400,
              404,
              422,
              'parcela_ja_liberada',
              'parcela_nao_encontrada',
              'parcelas_nao_geradas',
              'parcela_cancelada',
              'documento_em_cancelamento',
            ),
          },
        },
      },
      async (request) => {
        const body = request.body as ParcelaRepasseAcao;
        const { documento } = await deps.handlers.repasse.agir(commandContext(request, deps), body.documento, {
          type: 'Liberar',
          posicao: body.posicao,
        });
        return { data: toDocumentoRepasse(body.documento, documento), environment: env };
      },
    );

    app.post(
      '/pagar',
      {
        config,
        schema: {
          operationId: 'pagarParcela',
          tags: [TAG],
          summary: 'Orders payment of a released installment (puts it in the payout queue)',
          description:
            'Body `{ documento, posicao }`. 202 with the payment order: the payout processor settles it, and the installment goes ' +
            'from `pagamento_solicitado` to `paga` (read it again with GET). One order per installment: 422 `parcela_ja_paga` when it already ' +
            'has one (settled or not), `parcela_nao_liberada` when it was not released, `parcela_nao_encontrada`, `parcelas_nao_geradas`, ' +
            "`parcela_cancelada`, `documento_em_cancelamento` while the counter-CT-e's cancellation is at the authority. With an " +
            "`Idempotency-Key` the order's id derives from the key: a retry answers the same order, never a second one. The answer is " +
            'what the command recorded, whether or not the read models caught up. An order is handed to the bank rail only if no ' +
            'cancellation of the document came first; otherwise it is withdrawn (webhook `parcela.pagamento_retirado`). ' +
            `400 \`validacao\` for a missing \`documento\` or a \`posicao\` outside 1..3. ${DOCUMENTO}`,
          body: Type.Ref(ParcelaRepasseAcao),
          response: {
            202: DataEnvelope(Type.Ref(PagamentoRepasse)),
            ...errors(
              400,
              404,
              422,
              'parcela_ja_paga',
              'parcela_nao_liberada',
              'parcela_nao_encontrada',
              'parcelas_nao_geradas',
              'parcela_cancelada',
              'documento_em_cancelamento',
            ),
          },
        },
      },
      async (request, reply) => {
        const body = request.body as ParcelaRepasseAcao;
        const chave = request.headers['idempotency-key'];
        const { ordem_id, documento } = await deps.handlers.repasse.agir(commandContext(request, deps), body.documento, {
          type: 'Pagar',
          posicao: body.posicao,
          ...(typeof chave === 'string' ? { chave } : {}),
        });
        const doc = toDocumentoRepasse(body.documento, documento);
        // The group recorded this order on this installment: the decider answers nothing else for a Pagar that succeeded.
        const parcela = doc.parcelas.find((x) => x.posicao === body.posicao)!;
        const pagamento: PagamentoRepasse = {
          ordem_id: ordem_id!,
          counter_cte_id: doc.counter_cte_id,
          chave: doc.chave,
          documento_financeiro: doc.documento_financeiro,
          posicao: body.posicao,
          motorista_cpf: doc.motorista_cpf,
          valor: parcela.valor,
          situacao: parcela.situacao === 'paga' ? 'paga' : 'pagamento_solicitado',
          solicitado_em: parcela.pagamento_solicitado_em!,
          paga_em: parcela.paga_em,
          consulta: `/v1/carriers/parcelas-repasse/${doc.counter_cte_id}`,
        };
        return reply.status(202).send({ data: pagamento, environment: env });
      },
    );
  };
