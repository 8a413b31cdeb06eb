import { randomUUID } from 'node:crypto';
import { type FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DataEnvelope, ParcelaRepasseMdfeAcao, type ResultadoMdfeRepasse, ResultadoMdfeRepasseLote } from '@frete/contracts';
import { Rejection } from '@frete/domain';
import { mdfeParaRepasse, type RepasseDocumentoRow, repasseDocumentosDosCtes } from '@frete/projections';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { agir } from './repasse-documento';
import { TAG } from './parcelas-repasse';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ignorado = (cte: { cte_id: string; chave: string }, code: string, message: string): ResultadoMdfeRepasse =>
  ({ cte_id: cte.cte_id, chave: cte.chave, status: 'ignorado', motivo: { code, message } });

/**
 * The document to act on, or why this CT-e of the manifest is left alone: the operations touch only installments
 * that already exist, and only those of the MDF-e's drivers (spec section 4).
 */
function alvoOuMotivo(cte: { cte_id: string; chave: string }, doc: RepasseDocumentoRow | undefined, motoristas: string[], posicao: number):
  { doc: RepasseDocumentoRow } | { ignorado: ResultadoMdfeRepasse } {
  if (!doc || doc.financeiro === 'failed') return { ignorado: ignorado(cte, 'sem_repasse', 'not a counter-CT-e with a registered payout') };
  if (!motoristas.includes(doc.motorista_cpf)) {
    return { ignorado: ignorado(cte, 'motorista_fora_do_mdfe', `the payout's driver ${doc.motorista_cpf} is not a driver of this MDF-e`) };
  }
  if (doc.cancelado) return { ignorado: ignorado(cte, 'documento_cancelado', 'the counter-CT-e was cancelled') };
  if (doc.parcelas.length === 0) return { ignorado: ignorado(cte, 'parcelas_nao_geradas', 'not scanned yet: no installment exists') };
  if (!doc.parcelas.some((p) => p.posicao === posicao)) {
    return { ignorado: ignorado(cte, 'parcela_nao_encontrada', `the document has no installment at position ${posicao}`) };
  }
  return { doc };
}

const DESCRIPTION = (ato: string) =>
  `Body \`{ mdfe_id, posicao }\`. ${ato} the installment at \`posicao\` of every CT-e the MDF-e carries, and answers 200 with one result per ` +
  'CT-e, in the manifest\'s order: `ok`; `ignorado` with `motivo` when there is nothing to act on (`sem_repasse`: not a counter-CT-e ' +
  'with a payout; `motorista_fora_do_mdfe`: the payout\'s driver is not one of the MDF-e\'s drivers, including those added by the ' +
  '`condutor` event; `documento_cancelado`; `parcelas_nao_geradas`: not scanned; `parcela_nao_encontrada`: no installment at that ' +
  'position), since only existing installments of the MDF-e\'s drivers are touched; `erro` with the code the single operation would ' +
  'answer. Any MDF-e of the company, whatever its situation. 404 `nao_encontrado` for an unknown MDF-e or another company\'s.';

/** `liberar-por-mdfe` and `pagar-por-mdfe`: the same act on every CT-e of a manifest (spec section 4). */
export const parcelasRepasseMdfeRoutes = (deps: ApiDeps): FastifyPluginAsyncTypebox => async (app) => {
  const env = deps.config.environment;

  const porMdfe = async (request: FastifyRequest, tipo: 'Liberar' | 'Pagar') => {
    const p = principalOf(request);
    const body = request.body as ParcelaRepasseMdfeAcao;
    await deps.readYourWrites.waitFor(p.companyId);
    const mdfe = UUID.test(body.mdfe_id) ? await mdfeParaRepasse(deps.pool, p.companyId, body.mdfe_id.toLowerCase()) : null;
    if (!mdfe) throw new ApiError('nao_encontrado', `MDF-e ${body.mdfe_id} not found`);
    const docs = await repasseDocumentosDosCtes(deps.pool, p.companyId, mdfe.ctes.map((c) => c.cte_id));
    const resultados: ResultadoMdfeRepasse[] = [];
    for (const cte of mdfe.ctes) {
      const alvo = alvoOuMotivo(cte, docs.get(cte.cte_id), mdfe.motoristas, body.posicao);
      if ('ignorado' in alvo) {
        resultados.push(alvo.ignorado);
        continue;
      }
      const ordemId = randomUUID();
      try {
        await agir(deps, request, alvo.doc, tipo === 'Pagar' ? { type: 'Pagar', posicao: body.posicao, ordem_id: ordemId } : { type: 'Liberar', posicao: body.posicao });
        resultados.push({ cte_id: cte.cte_id, chave: cte.chave, status: 'ok', ...(tipo === 'Pagar' ? { ordem_id: ordemId } : {}) });
      } catch (err) {
        if (!(err instanceof Rejection) && !(err instanceof ApiError)) throw err;
        resultados.push({ cte_id: cte.cte_id, chave: cte.chave, status: 'erro', error: { code: err.code, message: err.message } });
      }
    }
    return { data: { mdfe_id: body.mdfe_id, posicao: body.posicao, resultados }, environment: env };
  };

  app.post('/liberar-por-mdfe', {
    config: { scope: 'operacao' },
    schema: {
      tags: [TAG],
      summary: 'Releases one position of the installments of every CT-e of an MDF-e',
      description: DESCRIPTION('Releases'),
      body: Type.Ref(ParcelaRepasseMdfeAcao),
      response: { 200: DataEnvelope(Type.Ref(ResultadoMdfeRepasseLote)), ...errors(400, 404) },
    },
  }, (request) => porMdfe(request, 'Liberar'));

  app.post('/pagar-por-mdfe', {
    config: { scope: 'operacao' },
    schema: {
      tags: [TAG],
      summary: 'Orders payment of one position of the installments of every CT-e of an MDF-e',
      description: `${DESCRIPTION('Orders payment of')} An \`ok\` result carries its \`ordem_id\`; the payout processor settles each order.`,
      body: Type.Ref(ParcelaRepasseMdfeAcao),
      response: { 200: DataEnvelope(Type.Ref(ResultadoMdfeRepasseLote)), ...errors(400, 404) },
    },
  }, (request) => porMdfe(request, 'Pagar'));
};
