import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ParcelaLista, ParcelaListQuery, type ParcelaListada, type SituacaoParcela } from '@frete/contracts';
import { reaisDeCentavos } from '@frete/domain';
import { listarParcelas, type ParcelaListadaRow } from '@frete/projections';
import { errors } from '../../schemas';
import { principalOf } from '../../command-context';
import { listOf, pageOf } from '../../paging';
import { type ApiDeps } from '../../deps';
import { TAG } from './parcelas-repasse';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

const toParcelaListada = (r: ParcelaListadaRow): ParcelaListada => ({
  counter_cte_id: r.cte_id,
  chave: r.chave,
  documento_financeiro: r.documento_financeiro,
  lote_id: r.lote_id,
  motorista_cpf: r.motorista_cpf,
  posicao: r.posicao,
  percentual: r.percentual,
  valor: reaisDeCentavos(r.valor_centavos),
  dias: r.dias,
  situacao: r.situacao,
  vencimento: r.vencimento,
  liberada_em: iso(r.liberada_em),
  pagamento_solicitado_em: iso(r.pagamento_solicitado_em),
  paga_em: iso(r.paga_em),
  cancelada_em: iso(r.cancelada_em),
});

/** `GET /carriers/parcelas-repasse`: the company's installments across documents, by due date. */
export const parcelasRepasseListaRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '',
      {
        config: { scope: 'operacao' as const },
        schema: {
          operationId: 'listarParcelasRepasse',
          tags: [TAG],
          summary: "The company's installments by due date",
          description:
            'Earliest due date (`vencimento`) first; an installment not released yet has no due date and comes after every dated one. ' +
            'Installments exist from the scan (bipagem) on. Filters: `situacao` (`pendente`, `liberada`, `pagamento_solicitado`, `paga`, ' +
            '`cancelada`) and `vencimento_ate` (due on or before that day: with today and `situacao=liberada`, what is due and not ordered yet). ' +
            'Paging as ruling 9, with `cursor` (`meta.next_cursor`). 400 `validacao` for an unknown `situacao`, a malformed day or a cursor ' +
            'this list did not give.',
          querystring: ParcelaListQuery,
          response: { 200: Type.Ref(ParcelaLista), ...errors(400) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const q = request.query;
        const paging = pageOf(q);
        const { rows, total, next_cursor } = await listarParcelas(deps.pool, p.companyId, {
          ...paging,
          // The schema admitted only the domain's situations (SituacaoParcela's literals).
          ...(q.situacao ? { situacao: q.situacao as SituacaoParcela } : {}),
          ...(q.vencimento_ate ? { vencimento_ate: q.vencimento_ate } : {}),
        });
        return listOf(rows.map(toParcelaListada), paging, total, deps.config.environment, next_cursor);
      },
    );
  };
