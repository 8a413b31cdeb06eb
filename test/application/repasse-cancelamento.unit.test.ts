import { type ContraCteVinculo, type DomainEvent } from '@frete/contracts';
import { comandoDoCancelamento, type FaseCancelamento, repasseDecider, repasseStream } from '@frete/domain';
import { execute } from '../../services/application/src/commands/execute';
import { decidirRepasseDoCancelamento } from '../../services/application/src/repasse/cancelamento';
import { AGORA, EMPRESA, especificacaoDeFluxo, especificacaoDeHandler, naStream } from '../support/especificacao';
import { parcelasGeradasDeUm } from '../support/repasse-eventos';

/**
 * The workflow from a counter-CT-e's cancellation to its driver's payout (domain `comandoDoCancelamento`), and the
 * application's step that decides it on the group (`decidirRepasseDoCancelamento`, run by the request that cancels
 * and again by the payout processor): the facts of test/api/cte-repasse and repasse-cancelamento at the handler level.
 */
const CTE = '6c5b4a39-2817-4f6e-9d5c-4b3a29180f7e';
const LOTE = 'e1d2c3b4-a596-4877-8695-a4b3c2d1e0f9';
const CPF = '52998224725';
const GRUPO = `lote:${LOTE}:${CPF}`;
const ORDEM = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const CHAVE_EVENTO = 'ID1101113526111222333000181570010000000011000000001';
const agora = AGORA.toISOString();
const alvo = { company_id: EMPRESA, grupo: GRUPO, cte_id: CTE };
const grupo = repasseStream(EMPRESA, GRUPO);
const vinculo: Pick<ContraCteVinculo, 'lote_id' | 'motorista_cpf'> = { lote_id: LOTE, motorista_cpf: CPF };

describe('the cancellation workflow (comandoDoCancelamento)', () => {
  const fluxo = especificacaoDeFluxo(repasseDecider, (_grupo, e: { fase: FaseCancelamento; vinculo: typeof vinculo }) => [
    comandoDoCancelamento(e.fase, { cte_id: CTE, company_id: EMPRESA, vinculo: e.vinculo }, CHAVE_EVENTO),
  ]);

  it("each step at the authority gives its command to the driver's group of the batch", () => {
    fluxo
      .given()
      .when({ fase: 'solicitado', vinculo })
      .then({ type: 'SolicitarCancelamento', ...alvo, event_key: CHAVE_EVENTO });
    fluxo
      .given()
      .when({ fase: 'recusado', vinculo })
      .then({ type: 'RecusarCancelamento', ...alvo, event_key: CHAVE_EVENTO });
    fluxo
      .given()
      .when({ fase: 'registrado', vinculo })
      .then({ type: 'CancelarDocumento', ...alvo, event_key: CHAVE_EVENTO });
  });

  it('a counter-CT-e outside a batch is a group of its own', () =>
    fluxo
      .given()
      .when({ fase: 'registrado', vinculo: { lote_id: null, motorista_cpf: CPF } })
      .then({ type: 'CancelarDocumento', company_id: EMPRESA, grupo: `cte:${CTE}`, cte_id: CTE, event_key: CHAVE_EVENTO }));
});

describe("the cancellation decided on the driver's group (decidirRepasseDoCancelamento)", () => {
  const spec = especificacaoDeHandler(({ store }) => ({
    decidir: (ctx: Parameters<typeof decidirRepasseDoCancelamento>[1], fase: FaseCancelamento, v: ContraCteVinculo | null = null) =>
      decidirRepasseDoCancelamento({ store }, ctx, { cte_id: CTE, company_id: EMPRESA, vinculo: v }, fase, CHAVE_EVENTO),
  }));
  const completo = {
    ...vinculo,
    chave_original: 'K'.repeat(44),
    contratante_cnpj: '45997418000153',
    modo: '1a1' as const,
    tipo_servico: 1,
    inicio_ibge: '3550308',
    fim_ibge: '3304557',
    linha: 0,
    perna: null,
    documento_financeiro: null,
    placa: 'ABC1D23',
    valor_centavos: 100_000,
    parcelas: null,
    solicitante_company_id: null,
  };
  const registrado: DomainEvent = {
    type: 'repasse.documento_registrado',
    data: {
      ...alvo,
      chave: 'C'.repeat(44),
      chave_original: 'K'.repeat(44),
      documento_financeiro: null,
      lote_id: LOTE,
      posicao: 0,
      motorista_cpf: CPF,
      valor_centavos: 100_000,
      regra: { origem: 'padrao', parcelas: [{ posicao: 1, percentual: 100, dias: 0 }] },
      modo: 'manual',
      registrado_em: agora,
    },
  };
  const ordenado = naStream(
    grupo,
    registrado,
    parcelasGeradasDeUm(alvo, agora, [{ posicao: 1, percentual: 100, valor_centavos: 100_000, dias: 0 }]),
    { type: 'repasse.parcela_liberada', data: { ...alvo, posicao: 1, gatilho: 'manual', liberada_em: agora, vencimento: '2026-11-22' } },
    {
      type: 'repasse.pagamento_solicitado',
      data: { ...alvo, posicao: 1, ordem_id: ORDEM, motorista_cpf: CPF, valor_centavos: 100_000, solicitado_em: agora },
    },
  );
  const retirada = (motivo: 'cancelamento_solicitado' | 'documento_cancelado'): DomainEvent => ({
    type: 'repasse.pagamento_retirado',
    data: { ...alvo, posicao: 1, ordem_id: ORDEM, valor_centavos: 100_000, motivo, retirado_em: agora },
  });
  const solicitado: DomainEvent = {
    type: 'repasse.cancelamento_solicitado',
    data: { ...alvo, event_key: CHAVE_EVENTO, solicitado_em: agora },
  };

  it('sent to the authority: the document is held and the order not yet handed to the rail withdrawn; the echo adds nothing', async () => {
    const quando = spec.given(ordenado).when((h, ctx) => h.decidir(ctx, 'solicitado', completo));
    const resposta = await quando.then({ stream: grupo, ...solicitado }, retirada('cancelamento_solicitado'));
    expect(resposta).toEqual({
      cancelado: false,
      em_cancelamento: true,
      parcelas_canceladas: [],
      parcelas_pagas: [],
      ordens_retiradas: [{ posicao: 1, ordem_id: ORDEM, valor_centavos: 100_000 }],
    });
    await quando.again().thenNothing();
  });

  it('registered: the installment is cancelled and the answer names the order taken back', async () => {
    const resposta = await spec
      .given(naStream(grupo, ...ordenado.events, solicitado, retirada('cancelamento_solicitado')))
      .when((h, ctx) => h.decidir(ctx, 'registrado', completo))
      .then({
        type: 'repasse.documento_cancelado',
        data: { ...alvo, cancelado_em: agora, parcelas_canceladas: [1], parcelas_pagas: [], event_key: CHAVE_EVENTO },
      });
    expect(resposta).toMatchObject({ cancelado: true, em_cancelamento: false, parcelas_canceladas: [1] });
  });

  it('refused: the hold ends, the withdrawn order stays withdrawn; a refusal of another request changes nothing', async () => {
    const dado = spec.given(naStream(grupo, ...ordenado.events, solicitado, retirada('cancelamento_solicitado')));
    const resposta = await dado
      .when((h, ctx) => h.decidir(ctx, 'recusado', completo))
      .then({ type: 'repasse.cancelamento_recusado', data: { ...alvo, event_key: CHAVE_EVENTO, recusado_em: agora } });
    expect(resposta).toMatchObject({ cancelado: false, em_cancelamento: false });
    await spec
      .given(ordenado)
      .when((h, ctx) => h.decidir(ctx, 'recusado', completo))
      .thenNothing();
  });

  it('a CT-e that is not a counter-CT-e has no payout: null, nothing appended', async () => {
    expect(
      await spec
        .given(ordenado)
        .when((h, ctx) => h.decidir(ctx, 'registrado'))
        .thenNothing(),
    ).toBeNull();
  });

  it('the operator acts that lead to money wait for the verdict: 422 documento_em_cancelamento', () =>
    especificacaoDeHandler(({ store }) => ({ store }))
      .given(naStream(grupo, registrado, solicitado))
      .when(({ store }, ctx) => execute({ store }, grupo, repasseDecider, { type: 'Liberar', ...alvo, posicao: 1 }, ctx))
      .thenRejects('documento_em_cancelamento'));
});
