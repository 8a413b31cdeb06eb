import { type ContraCteVinculo, type DomainEvent, type DomainEventOf, type EventData } from '@frete/contracts';
import { type OrdemDePagamento, type RailDePagamento, railInterno } from '@frete/adapters';
import { cteStream, motoristasStream, readCte, repasseStream } from '@frete/domain';
import { payoutHandlers } from '@frete/payout-processor';
import { buildCteXml } from '../support/cte-xml';
import { AGORA, EMPRESA, entrega, entregaGravada, especificacaoDeProcessador, naStream } from '../support/especificacao';
import { parcelasGeradasDeUm } from '../support/repasse-eventos';

/**
 * The payout processor's reactions (services/payout-processor), the facts test/api/parcelas-repasse and
 * lote-financeiro assert through HTTP and PostgreSQL, here on the in-memory store: an authorized counter-CT-e enters
 * its driver's group, a cancellation is decided on the group, a payment order is handed to the rail and settled. Each
 * appended id derives from the delivered event, so a redelivery appends nothing.
 */
const CTE = '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const LOTE = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const CPF = '52998224725';
const GRUPO = `lote:${LOTE}:${CPF}`;
const grupo = repasseStream(EMPRESA, GRUPO);
const agora = AGORA.toISOString();
const CONTRATANTE = { cnpj: '45997418000153', nome: 'CONTRATANTE TRANSPORTES SA' };

const { chave, xml } = buildCteXml({
  emitenteCnpj: '11222333000181',
  tpServ: 1,
  toma: 4,
  tomador4: CONTRATANTE,
  vTPrest: '1000.01',
  protocolo: true,
});
const lido = readCte(xml);
const vinculo: ContraCteVinculo = {
  chave_original: 'K'.repeat(44),
  contratante_cnpj: CONTRATANTE.cnpj,
  modo: '1a1',
  tipo_servico: 1,
  inicio_ibge: lido.inicio.codigo_ibge,
  fim_ibge: lido.fim.codigo_ibge,
  lote_id: LOTE,
  linha: 3,
  perna: null,
  documento_financeiro: null,
  motorista_cpf: CPF,
  placa: 'ABC1D23',
  valor_centavos: 100_001,
  parcelas: null,
  solicitante_company_id: null,
};
const alvo = { company_id: EMPRESA, grupo: GRUPO, cte_id: CTE };

const motorista = (repasse: EventData<'motorista.cadastrado'>['dados']['repasse']): DomainEvent => ({
  type: 'motorista.cadastrado',
  data: { company_id: EMPRESA, motorista_id: 1, dados: { cpf: CPF, nome: 'João da Silva', telefone: null, chave_pix: null, repasse } },
});
const regra5050 = [
  { posicao: 1, percentual: 50, dias: 0 },
  { posicao: 2, percentual: 50, dias: 15 },
];
const registro = naStream(motoristasStream(EMPRESA), motorista({ modo: 'manual', parcelas: regra5050 }));
const contraCte = (v: ContraCteVinculo = vinculo) =>
  naStream(cteStream(CTE), {
    type: 'cte.contra_cte_criado',
    data: { cte_id: CTE, company_id: EMPRESA, ambiente: 'homologacao', dados: { tipo_servico: 1 }, vinculo: v },
  });
const autorizado = entrega(cteStream(CTE), {
  type: 'cte.autorizado',
  data: {
    cte_id: CTE,
    company_id: EMPRESA,
    chave,
    sha256: 'b'.repeat(64),
    cte: lido,
    protocolo: { numero: '135260000000001', recebido_em: lido.data_emissao, cstat: 100, motivo: 'Autorizado o uso do CT-e' },
  },
});
const documento = {
  ...alvo,
  chave,
  chave_original: vinculo.chave_original,
  documento_financeiro: null,
  lote_id: LOTE,
  posicao: 3,
  motorista_cpf: CPF,
  valor_centavos: 100_001,
};

/** The group's history up to a payment order of installment 1 (released, ordered), as the operator's acts leave it. */
const ORDEM = '0e1d2c3b-4a59-4867-9564-738291a0b1c2';
const registrado: DomainEventOf<'repasse.documento_registrado'> = {
  type: 'repasse.documento_registrado',
  data: { ...documento, regra: { origem: 'motorista', parcelas: regra5050 }, modo: 'manual', registrado_em: agora },
};
const geradas: DomainEvent = parcelasGeradasDeUm(alvo, agora, [
  { posicao: 1, percentual: 50, valor_centavos: 50_000, dias: 0 },
  { posicao: 2, percentual: 50, valor_centavos: 50_001, dias: 15 },
]);
const liberada: DomainEvent = {
  type: 'repasse.parcela_liberada',
  data: { ...alvo, posicao: 1, gatilho: 'manual', liberada_em: agora, vencimento: '2026-11-22' },
};
const pedido = {
  ...alvo,
  posicao: 1,
  ordem_id: ORDEM,
  motorista_cpf: CPF,
  valor_centavos: 50_000,
  solicitado_em: agora,
};
const solicitado: DomainEvent = { type: 'repasse.pagamento_solicitado', data: pedido };
const ordemDoPedido = entregaGravada(grupo, 'repasse.pagamento_solicitado');

/** The rail the processor hands orders to: the internal one, keeping what it was asked; `falhas` first calls fail. */
let ordens: OrdemDePagamento[] = [];
const railQueGuarda = (falhas = 0): RailDePagamento => ({
  liquidar: async (ordem) => {
    ordens.push(ordem);
    if (ordens.length <= falhas) throw new Error('rail unavailable');
    await railInterno.liquidar(ordem);
  },
});
const processador = (falhas = 0) =>
  especificacaoDeProcessador(({ store, clock }) => {
    ordens = [];
    return payoutHandlers({ store, clock, rail: railQueGuarda(falhas) });
  });

describe('payout processor: an authorized counter-CT-e enters its driver group', () => {
  const spec = processador();

  it("registers the payout in the batch driver's group, the driver's rule and release mode frozen now; a redelivery appends nothing", async () => {
    const quando = spec.given(registro, contraCte()).when(autorizado);
    await quando.then({ stream: grupo, ...registrado });
    await quando.again().thenNothing();
  });

  it("the batch's own rule overrides the driver's; a counter-CT-e outside a batch is a group of its own", async () => {
    const doLote = [{ posicao: 1, percentual: 100, dias: 5 }];
    await spec
      .given(registro, contraCte({ ...vinculo, parcelas: doLote }))
      .when(autorizado)
      .then({ ...registrado, data: { ...registrado.data, regra: { origem: 'lote', parcelas: doLote } } });
    await spec
      .given(registro, contraCte({ ...vinculo, lote_id: null, linha: null }))
      .when(autorizado)
      .then({
        stream: repasseStream(EMPRESA, `cte:${CTE}`),
        type: 'repasse.documento_registrado',
        data: {
          ...documento,
          grupo: `cte:${CTE}`,
          lote_id: null,
          posicao: 0,
          regra: { origem: 'motorista', parcelas: regra5050 },
          modo: 'manual',
          registrado_em: agora,
        },
      });
  });

  it('a driver no longer in the registry makes the financial step fail with motorista_nao_encontrado', () =>
    spec
      .given(
        naStream(motoristasStream(EMPRESA), motorista({ modo: 'automatico', parcelas: [] }), {
          type: 'motorista.removido',
          data: { company_id: EMPRESA, motorista_id: 1, cpf: CPF },
        }),
        contraCte(),
      )
      .when(autorizado)
      .then({
        stream: grupo,
        type: 'repasse.registro_falhou',
        data: {
          ...documento,
          code: 'motorista_nao_encontrado',
          message: `driver ${CPF} is no longer in the company's registry`,
          falhou_em: agora,
        },
      }));

  it('a CT-e that is not a counter-CT-e has no payout', () => spec.given(registro).when(autorizado).thenNothing());
});

describe('payout processor: a payment order is handed to the rail and settled', () => {
  const historia = naStream(grupo, registrado, geradas, liberada, solicitado);

  it('hands the order over, the rail settles it (once), the installment is paid; a redelivery moves no money', async () => {
    const quando = processador().given(historia).when(ordemDoPedido);
    await quando.then(
      { type: 'repasse.pagamento_enviado', data: { ...alvo, posicao: 1, ordem_id: ORDEM, enviado_em: agora } },
      {
        type: 'repasse.parcela_paga',
        data: { ...alvo, chave_original: vinculo.chave_original, posicao: 1, ordem_id: ORDEM, valor_centavos: 50_000, paga_em: agora },
      },
    );
    expect(ordens).toEqual([{ company_id: EMPRESA, ordem_id: ORDEM, motorista_cpf: CPF, valor_centavos: 50_000 }]);
    await quando.again().thenNothing();
    expect(ordens).toHaveLength(1);
  });

  it('a rail that fails leaves the order handed over and unpaid; the redelivery asks the rail again and settles it', async () => {
    const quando = processador(1).given(historia).when(ordemDoPedido);
    await quando.thenFails(/rail unavailable/, {
      type: 'repasse.pagamento_enviado',
      data: { ...alvo, posicao: 1, ordem_id: ORDEM, enviado_em: agora },
    });
    await quando.again().then({ type: 'repasse.parcela_paga', data: expect.objectContaining({ posicao: 1, ordem_id: ORDEM }) });
    expect(ordens).toHaveLength(2);
  });

  it('an order withdrawn by a cancellation is never handed to the rail', async () => {
    const retirada = naStream(
      grupo,
      registrado,
      geradas,
      liberada,
      solicitado,
      {
        type: 'repasse.cancelamento_solicitado',
        data: { ...alvo, event_key: 'ID11011101', solicitado_em: agora },
      },
      {
        type: 'repasse.pagamento_retirado',
        data: { ...alvo, posicao: 1, ordem_id: ORDEM, valor_centavos: 50_000, motivo: 'cancelamento_solicitado', retirado_em: agora },
      },
    );
    await processador().given(retirada).when(ordemDoPedido).thenNothing();
    expect(ordens).toEqual([]);
  });
});

describe("payout processor: a counter-CT-e's cancellation reaches its group", () => {
  const spec = processador();
  const EVENTO = `ID110111${chave}01`;
  const cancelamentoRegistrado = (tp_evento: '110111' | '110110') =>
    entrega(cteStream(CTE), {
      type: 'cte.evento_registrado',
      data: {
        cte_id: CTE,
        company_id: EMPRESA,
        event_key: EVENTO,
        tp_evento,
        protocolo: { numero: '135260000000099', registrado_em: '2026-11-22T10:00:00-03:00', cstat: 135, motivo: 'Evento registrado' },
        sha256: 'c'.repeat(64),
        registrado_em: agora,
      },
    });

  it('registered: the order not yet handed over is withdrawn, unpaid installments cancelled; a redelivery appends nothing', async () => {
    const quando = spec
      .given(contraCte(), naStream(grupo, registrado, geradas, liberada, solicitado))
      .when(cancelamentoRegistrado('110111'));
    await quando.then(
      {
        stream: grupo,
        type: 'repasse.pagamento_retirado',
        data: { ...alvo, posicao: 1, ordem_id: ORDEM, valor_centavos: 50_000, motivo: 'documento_cancelado', retirado_em: agora },
      },
      {
        stream: grupo,
        type: 'repasse.documento_cancelado',
        data: { ...alvo, cancelado_em: agora, parcelas_canceladas: [1, 2], parcelas_pagas: [], event_key: EVENTO },
      },
    );
    await quando.again().thenNothing();
  });

  it('an installment whose money left stays paid, listed as kept', () =>
    spec
      .given(
        contraCte(),
        naStream(grupo, registrado, geradas, liberada, solicitado, {
          type: 'repasse.pagamento_enviado',
          data: { ...alvo, posicao: 1, ordem_id: ORDEM, enviado_em: agora },
        }),
      )
      .when(cancelamentoRegistrado('110111'))
      .then({
        type: 'repasse.documento_cancelado',
        data: {
          ...alvo,
          cancelado_em: agora,
          parcelas_canceladas: [2],
          parcelas_pagas: [{ posicao: 1, ordem_id: ORDEM, valor_centavos: 50_000, situacao: 'pagamento_enviado' }],
          event_key: EVENTO,
        },
      }));

  it('refused: the hold on the group ends; another fiscal event (a correction letter) is not the payout’s business', async () => {
    await spec
      .given(
        contraCte(),
        naStream(grupo, registrado, {
          type: 'repasse.cancelamento_solicitado',
          data: { ...alvo, event_key: EVENTO, solicitado_em: agora },
        }),
      )
      .when(
        entrega(cteStream(CTE), {
          type: 'cte.evento_rejeitado',
          data: {
            cte_id: CTE,
            company_id: EMPRESA,
            event_key: EVENTO,
            tp_evento: '110111',
            cstat: 220,
            motivo: 'prazo de cancelamento superado',
          },
        }),
      )
      .then({ type: 'repasse.cancelamento_recusado', data: { ...alvo, event_key: EVENTO, recusado_em: agora } });
    await spec.given(contraCte(), naStream(grupo, registrado)).when(cancelamentoRegistrado('110110')).thenNothing();
  });
});
