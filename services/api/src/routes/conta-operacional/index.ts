import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ContaOperacional,
  ContaOperacionalCredito,
  ContaOperacionalCreditoInput,
  ContaOperacionalMovimento,
  DataEnvelope,
  ExtratoQuery,
  ListEnvelope,
} from '@frete/contracts';
import { centavosDeReais, decimalDeCentavos, reaisDeCentavos } from '@frete/domain';
import { type MovimentoContaRow, extratoContaOperacional, resumoContaOperacional } from '@frete/projections';
import { commandContext, principalOf } from '../../command-context';
import { checkDateRange, listOf, pageOf } from '../../paging';
import { errors } from '../../schemas';
import { type ApiDeps } from '../../deps';

export const TAG = 'Conta operacional';

const brl = (centavos: number) => decimalDeCentavos(centavos, ',');

function descricao(m: MovimentoContaRow): string {
  switch (m.tipo) {
    case 'credito':
      return `Depósito${m.origem_credito === 'deposito_simulado' ? ' simulado (homologação)' : ''}, referência ${m.referencia}`;
    case 'debito':
      return `Compra de vale-pedágio ${m.vale_pedagio_id}: pedágio ${brl(m.valor_pedagio_centavos ?? 0)} + taxa ${brl(m.taxa_centavos ?? 0)}`;
    case 'estorno':
      return (
        `Estorno do vale-pedágio ${m.vale_pedagio_id} (${m.motivo_estorno === 'cancelamento' ? 'cancelamento' : 'compra não concluída'}): ` +
        `pedágio ${brl(m.valor_pedagio_centavos ?? 0)} + taxa ${brl(m.taxa_centavos ?? 0)}`
      );
  }
}

export const toMovimento = (m: MovimentoContaRow): ContaOperacionalMovimento => ({
  sequencia: m.sequencia,
  tipo: m.tipo,
  valor: reaisDeCentavos(m.valor_centavos),
  valor_pedagio: m.valor_pedagio_centavos === null ? null : reaisDeCentavos(m.valor_pedagio_centavos),
  taxa: m.taxa_centavos === null ? null : reaisDeCentavos(m.taxa_centavos),
  saldo_apos: reaisDeCentavos(m.saldo_apos_centavos),
  referencia: m.referencia,
  vale_pedagio_id: m.vale_pedagio_id,
  motivo: m.motivo_estorno,
  descricao: descricao(m),
  registrado_em: m.registrado_em.toISOString(),
});

/**
 * The company's operational account (scope `operacao`): balance, statement and deposits. A ledger of events
 * (`conta_operacional.*`): every credit, debit and refund is one movement, the balance is their sum and never negative.
 */
export const contaOperacionalRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;
    const config = { scope: 'operacao' as const };

    app.get(
      '',
      {
        config,
        schema: {
          operationId: 'obterContaOperacional',
          tags: [TAG],
          summary: 'Balance of the operational account',
          description:
            'The balance available for toll passes, and the totals it comes from: saldo = total_creditos − total_debitos + total_estornos ' +
            '(an account with no movement has 0.00). Works in both environments.',
          response: { 200: DataEnvelope(Type.Ref(ContaOperacional)), ...errors() },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const r = await resumoContaOperacional(deps.pool, p.companyId);
        const data: ContaOperacional = {
          saldo: reaisDeCentavos(r.saldo_centavos),
          moeda: 'BRL',
          total_creditos: reaisDeCentavos(r.creditos_centavos),
          total_debitos: reaisDeCentavos(r.debitos_centavos),
          total_estornos: reaisDeCentavos(r.estornos_centavos),
          quantidade_movimentos: r.movimentos,
          atualizado_em: r.atualizado_em?.toISOString() ?? null,
        };
        return { data, environment: env };
      },
    );

    app.get(
      '/extrato',
      {
        config,
        schema: {
          operationId: 'listarExtratoContaOperacional',
          tags: [TAG],
          summary: 'Statement: the movements of the operational account',
          description:
            'One item per movement in ledger order (`sequencia` 1, 2, 3…; `ordem=desc` for the latest first): credits (deposits), ' +
            'debits (a toll pass: toll + fee, negative `valor`) and refunds (a cancelled toll pass, toll + fee in full), each with the balance ' +
            'after it. Filters: `tipo`, `from`/`to` (day, Brasília). Paging as ruling 9.',
          querystring: ExtratoQuery,
          response: { 200: ListEnvelope(Type.Ref(ContaOperacionalMovimento)), ...errors(400) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const q = request.query;
        checkDateRange(q.from, q.to);
        const paging = pageOf(q);
        const { rows, total, next_cursor } = await extratoContaOperacional(deps.pool, p.companyId, {
          ...paging,
          tipo: q.tipo,
          from: q.from,
          to: q.to,
          ordem: q.ordem,
        });
        return listOf(rows.map(toMovimento), paging, total, env, next_cursor);
      },
    );

    app.post(
      '/creditos',
      {
        config,
        schema: {
          operationId: 'creditarContaOperacional',
          tags: [TAG],
          summary: 'Credits a deposit to the operational account',
          description:
            'Body `{ valor, referencia }`. In the sandbox a simulated deposit, credited at once (no money moves). 201 with the ' +
            'movement and the balance; idempotent by `referencia`: the same `referencia` and `valor` again answer 200 with the same movement ' +
            '(credited once); another `valor` is 422 `referencia_em_uso`. In production deposits come from the bank integration, which is not ' +
            'contracted yet: 503 `provedor_indisponivel`, nothing credited.',
          body: Type.Ref(ContaOperacionalCreditoInput),
          response: {
            200: DataEnvelope(Type.Ref(ContaOperacionalCredito)),
            201: DataEnvelope(Type.Ref(ContaOperacionalCredito)),
            ...errors(400, 422, 503, 'referencia_em_uso', 'provedor_indisponivel'),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const body = request.body as ContaOperacionalCreditoInput;
        const r = await deps.handlers.valePedagio.creditar(commandContext(request, deps), {
          referencia: body.referencia,
          valor_centavos: centavosDeReais(body.valor),
        });
        // The reads after the answer see the credit as usual; the answer itself is what the command recorded.
        await deps.readYourWrites.waitFor(p.companyId);
        return reply
          .status(r.criado ? 201 : 200)
          .send({ data: { movimento: toMovimento(r.movimento), saldo: reaisDeCentavos(r.saldo_centavos) }, environment: env });
      },
    );
  };
