import { type FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DataEnvelope, ParcelaRepasseMdfeAcao, ResultadoMdfeRepasseLote } from '@frete/contracts';
import { errors } from '../../schemas';
import { commandContext } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { TAG } from './parcelas-repasse';

const DESCRIPTION = (ato: string) =>
  `Body \`{ mdfe_id, posicao }\`. ${ato} the installment at \`posicao\` of every CT-e the MDF-e carries, and answers 200 with one result per ` +
  "CT-e, in the manifest's order: `ok`; `ignorado` with `motivo` when there is nothing to act on (`sem_repasse`: not a counter-CT-e " +
  "with a payout; `motorista_fora_do_mdfe`: the payout's driver is not one of the MDF-e's drivers, including those added by the " +
  '`condutor` event; `documento_cancelado`; `parcelas_nao_geradas`: not scanned; `parcela_nao_encontrada`: no installment at that ' +
  "position), since only existing installments of the MDF-e's drivers are touched; `erro` with the code the single operation would " +
  'answer (`documento_em_cancelamento` while its cancellation is at the authority). Any MDF-e of the company, whatever its ' +
  "situation. With an `Idempotency-Key`, each order's id derives from the key and the CT-e: a retry answers the same orders. 404 `nao_encontrado` for an unknown MDF-e or another company's.";

/** `liberar-por-mdfe` and `pagar-por-mdfe`: the same act on every CT-e of a manifest (spec section 4). */
export const parcelasRepasseMdfeRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    const porMdfe = async (request: FastifyRequest, tipo: 'Liberar' | 'Pagar') => {
      const body = request.body as ParcelaRepasseMdfeAcao;
      const chave = request.headers['idempotency-key'];
      const resultados = await deps.handlers.repasse.agirPorMdfe(
        commandContext(request, deps),
        body.mdfe_id,
        tipo === 'Pagar'
          ? { type: tipo, posicao: body.posicao, ...(typeof chave === 'string' ? { chave } : {}) }
          : { type: tipo, posicao: body.posicao },
      );
      return { data: { mdfe_id: body.mdfe_id, posicao: body.posicao, resultados }, environment: env };
    };

    app.post(
      '/liberar-por-mdfe',
      {
        config: { scope: 'operacao' },
        schema: {
          operationId: 'liberarParcelasPorMdfe',
          tags: [TAG],
          summary: 'Releases one position of the installments of every CT-e of an MDF-e',
          description: DESCRIPTION('Releases'),
          body: Type.Ref(ParcelaRepasseMdfeAcao),
          response: {
            200: DataEnvelope(Type.Ref(ResultadoMdfeRepasseLote)),
            ...errors(400, 404, 'documento_cancelado', 'parcelas_nao_geradas', 'parcela_nao_encontrada'),
          },
        },
      },
      (request) => porMdfe(request, 'Liberar'),
    );

    app.post(
      '/pagar-por-mdfe',
      {
        config: { scope: 'operacao' },
        schema: {
          operationId: 'pagarParcelasPorMdfe',
          tags: [TAG],
          summary: 'Orders payment of one position of the installments of every CT-e of an MDF-e',
          description: `${DESCRIPTION('Orders payment of')} An \`ok\` result carries its \`ordem_id\`; the payout processor settles each order.`,
          body: Type.Ref(ParcelaRepasseMdfeAcao),
          response: {
            200: DataEnvelope(Type.Ref(ResultadoMdfeRepasseLote)),
            ...errors(400, 404, 'documento_cancelado', 'parcelas_nao_geradas', 'parcela_nao_encontrada'),
          },
        },
      },
      (request) => porMdfe(request, 'Pagar'),
    );
  };
