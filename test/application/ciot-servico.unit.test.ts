import { type DeclaracaoCiotDados } from '@frete/contracts';
import { type PedidoDeclaracaoCiot, type ProvedorCiot, type RetornoDeclaracaoCiot, type RetornoOperacaoCiot } from '@frete/adapters';
import { ciotStream, normalizarDeclaracaoCiot } from '@frete/domain';
import { type DeclaracaoCiotPedida, ServicoCiot } from '../../services/application/src/ciot/servico';
import { AGORA, EMPRESA, especificacaoDeHandler, naStream } from '../support/especificacao';
import { declaracaoCiot } from '../../domain/test/declaracao-ciot';

/**
 * CIOT operations through the provider port (test/api/ciot asserts the same over HTTP with the simulated provider):
 * the operation is recorded before the provider is called and its answer after; a blocked declaration never reaches
 * the provider. The provider here answers what each specification scripts and keeps what it was asked.
 */
const CNPJ = '11222333000181';
const ID = '0b7c4c35-8f5e-4d1e-9a43-0d3a4f1b2c3d';
const declaracao: DeclaracaoCiotDados = normalizarDeclaracaoCiot(declaracaoCiot());
const pedido: DeclaracaoCiotPedida = {
  ciot_id: ID,
  company_id: EMPRESA,
  cnpj_empresa: CNPJ,
  referencia_externa: 'viagem-1',
  ancora: null,
  declaracao,
};
const base = { ciot_id: ID, company_id: EMPRESA };
const declarada = {
  type: 'ciot.declarada' as const,
  data: { ...base, ambiente: 'homologacao' as const, referencia_externa: 'viagem-1', ancora: null, declaracao },
};
const registrado: RetornoDeclaracaoCiot = {
  tipo: 'registrado',
  ciot: '123456789012',
  codigo_verificacao: '1234',
  protocolo: 'P-1',
  registrado_em: AGORA,
};
const registrada = {
  type: 'ciot.registrada' as const,
  data: { ...base, ciot: '123456789012', codigo_verificacao: '1234', protocolo: 'P-1', registrada_em: AGORA.toISOString() },
};

/** The provider port, scripted: what `declarar` (and `consultarDeclaracao`) answer, or throw. */
let pedidos: PedidoDeclaracaoCiot[] = [];
const provedor = (resposta: RetornoDeclaracaoCiot | Error, disponivel = true, operacao?: RetornoOperacaoCiot): ProvedorCiot => {
  const responder = async (p: PedidoDeclaracaoCiot) => {
    pedidos.push(p);
    if (resposta instanceof Error) throw resposta;
    return resposta;
  };
  const operar = () => Promise.resolve(operacao ?? { tipo: 'sem_resposta' as const, motivo: 'not scripted' });
  return { disponivel, declarar: responder, consultarDeclaracao: responder, cancelar: operar, retificar: operar, encerrar: operar };
};
const servico = (resposta: RetornoDeclaracaoCiot | Error, disponivel = true, operacao?: RetornoOperacaoCiot) =>
  especificacaoDeHandler(({ store, clock }) => {
    pedidos = [];
    return new ServicoCiot({ store, provedor: provedor(resposta, disponivel, operacao), environment: 'homologacao', clock });
  });

describe('CIOT service: a declaration', () => {
  it('is recorded, then declared to the provider, whose registration is recorded; the same reference again is refused', async () => {
    const declarar = servico(registrado)
      .given()
      .when((s, ctx) => s.declarar(pedido, ctx));
    const estado = await declarar.then({ stream: ciotStream(ID), ...declarada }, registrada);
    expect(estado).toMatchObject({ status: 'registrado', ciot: '123456789012' });
    expect(pedidos).toEqual([{ operacao_id: ID, referencia_externa: 'viagem-1', ancora: null, declaracao }]);
    await declarar.again().thenRejects('validacao', ['referencia_externa']);
  });

  it("the provider's refusal is recorded; a provider that throws leaves the operation pending, told not to travel", async () => {
    await servico({ tipo: 'recusado', codigo: '99', motivo: 'RNTRC irregular' })
      .given()
      .when((s, ctx) => s.declarar(pedido, ctx))
      .then(declarada, { type: 'ciot.recusada', data: { ...base, codigo: '99', motivo: 'RNTRC irregular' } });
    await servico(new Error('socket hang up'))
      .given()
      .when((s, ctx) => s.declarar(pedido, ctx))
      .then(declarada, {
        type: 'ciot.pendente',
        data: {
          ...base,
          protocolo: null,
          motivo: 'o provedor não respondeu à declaração: não prossiga com a viagem; releia a operação',
          tentativa: 1,
        },
      });
  });

  it('a declaration in the name of another company, or without a provider, is blocked and never sent', async () => {
    await servico(registrado)
      .given()
      .when((s, ctx) => s.declarar({ ...pedido, cnpj_empresa: '45997418000153' }, ctx))
      .then(declarada, { type: 'ciot.bloqueada', data: expect.objectContaining({ ...base, codigo: 'contratado_divergente' }) });
    expect(pedidos).toEqual([]);
    await servico(registrado, false)
      .given()
      .when((s, ctx) => s.declarar(pedido, ctx))
      .then(declarada, { type: 'ciot.bloqueada', data: expect.objectContaining({ codigo: 'provedor_indisponivel' }) });
    expect(pedidos).toEqual([]);
  });
});

describe("CIOT service: the emission processor's follow-up of a pending declaration", () => {
  const pendente = naStream(ciotStream(ID), declarada, {
    type: 'ciot.pendente',
    data: { ...base, protocolo: 'P-0', motivo: 'em processamento', tentativa: 1 },
  });

  it('asks the provider again and records its registration; the redelivered cause finds nothing left to ask', async () => {
    const acompanhar = servico(registrado)
      .given(pendente)
      .when((s) => s.acompanhar(EMPRESA, ID, 'causa-1'));
    await acompanhar.then(registrada);
    await acompanhar.again().thenNothing();
    expect(pedidos).toHaveLength(1);
  });

  it("another company's operation is not followed up", async () => {
    await servico(registrado)
      .given(pendente)
      .when((s) => s.acompanhar('outra', ID, 'causa-1'))
      .thenNothing();
    expect(pedidos).toEqual([]);
  });
});

describe('CIOT service: acts on a registered CIOT', () => {
  const emVigor = naStream(ciotStream(ID), declarada, registrada);

  it("the provider's refusal of a cancellation is 422 ciot_operacao_recusada, nothing recorded; no answer is consulta_indisponivel", async () => {
    await servico(registrado, true, { tipo: 'recusado', codigo: '12', motivo: 'prazo encerrado' })
      .given(emVigor)
      .when((s, ctx) => s.cancelar(EMPRESA, ID, 'desistência do contratante', false, ctx))
      .thenRejects('ciot_operacao_recusada');
    await servico(registrado)
      .given(emVigor)
      .when((s, ctx) => s.cancelar(EMPRESA, ID, 'desistência do contratante', false, ctx))
      .thenRejects('consulta_indisponivel');
  });

  it('the trip starts once: a second start appends nothing', async () => {
    const iniciar = servico(registrado)
      .given(emVigor)
      .when((s, ctx) => s.iniciarViagem(EMPRESA, ID, ctx));
    await iniciar.then({ type: 'ciot.viagem_iniciada', data: { ...base, iniciada_em: AGORA.toISOString() } });
    await iniciar.again().thenNothing();
  });
});
