import { WEBHOOK_EVENT_TYPES } from '@frete/contracts';
import { notificacaoDe, TIPOS_NOTIFICADOS, type WebhookEvent, webhookDecider } from '../src';
import { scenario } from './given-when-then';

const { given } = scenario(webhookDecider);
const ids = { webhook_id: 'w1', company_id: 'c1' };
const criado: WebhookEvent = {
  type: 'webhook.criado',
  data: {
    ...ids,
    url: 'https://hooks.example.com/frete',
    eventos: ['cte.autorizado'],
    descricao: null,
    segredo_versao: 1,
    segredo_impressao: 'abc',
  },
};
const criar = {
  type: 'CriarWebhook' as const,
  ...ids,
  url: 'https://hooks.example.com/frete',
  eventos: ['cte.autorizado', 'cte.autorizado'],
  descricao: null,
  segredo_impressao: 'abc',
};
const desativado: WebhookEvent = { type: 'webhook.desativado', data: { ...ids, motivo: 'falhou' } };

describe('webhook decider', () => {
  describe('creation', () => {
    it('creates with version 1 of the secret, each event type once', () => given().when(criar).then(criado));
    it('names every unknown event type', () =>
      given()
        .when({ ...criar, eventos: ['cte.autorizado', 'cte.voou', 'x'] })
        .thenRejects('validacao', ['eventos.1', 'eventos.2']));
    it('refuses a URL that is not absolute http(s)', () =>
      given()
        .when({ ...criar, url: 'ftp://x/y' })
        .thenRejects('validacao', ['url']));
    it('refuses credentials in the URL', () =>
      given()
        .when({ ...criar, url: 'https://a:b@x.com/' })
        .thenRejects('validacao', ['url']));
    it('refuses a fragment', () =>
      given()
        .when({ ...criar, url: 'https://x.com/#a' })
        .thenRejects('validacao', ['url']));
    it('appends nothing for an endpoint that exists', () => given(criado).when(criar).then());
  });

  describe('changes', () => {
    it('replaces what the update names', () =>
      given(criado)
        .when({ type: 'AtualizarWebhook', ...ids, eventos: ['lote.concluido'] })
        .then({ type: 'webhook.atualizado', data: { ...ids, url: criado.data.url, eventos: ['lote.concluido'], descricao: null } }));
    it('appends nothing for an update that changes nothing', () =>
      given(criado)
        .when({ type: 'AtualizarWebhook', ...ids, url: 'https://hooks.example.com/frete' })
        .then());
    it('rotates to the next version', () =>
      given(criado)
        .when({ type: 'RotacionarSegredo', ...ids, segredo_versao: 2, segredo_impressao: 'def' })
        .then({ type: 'webhook.segredo_rotacionado', data: { ...ids, segredo_versao: 2, segredo_impressao: 'def' } }));
    it('refuses a rotation that skips a version (a concurrent one)', () =>
      given(criado)
        .when({ type: 'RotacionarSegredo', ...ids, segredo_versao: 3, segredo_impressao: 'x' })
        .thenRejects('consulta_indisponivel'));
  });

  describe('disabling and re-enabling', () => {
    it('disables an active endpoint', () =>
      given(criado)
        .when({ type: 'DesativarWebhook', ...ids, motivo: 'falhou' })
        .then(desativado));
    it('disables once', () =>
      given(criado, desativado)
        .when({ type: 'DesativarWebhook', ...ids, motivo: 'again' })
        .then());
    it('re-enables a disabled endpoint', () =>
      given(criado, desativado)
        .when({ type: 'ReativarWebhook', ...ids })
        .then({ type: 'webhook.reativado', data: ids }));
    it('re-enabling an active endpoint appends nothing', () =>
      given(criado)
        .when({ type: 'ReativarWebhook', ...ids })
        .then());
  });

  describe('not found', () => {
    const removido: WebhookEvent = { type: 'webhook.removido', data: ids };
    it('removes', () =>
      given(criado)
        .when({ type: 'RemoverWebhook', ...ids })
        .then(removido));
    it('a removed endpoint is not found', () =>
      given(criado, removido)
        .when({ type: 'ReativarWebhook', ...ids })
        .thenRejects('nao_encontrado'));
    it('an endpoint that never existed is not found', () =>
      given()
        .when({ type: 'RemoverWebhook', ...ids })
        .thenRejects('nao_encontrado'));
    it("another company's endpoint is not found", () =>
      given(criado).when({ type: 'AtualizarWebhook', webhook_id: 'w1', company_id: 'c2', descricao: 'x' }).thenRejects('nao_encontrado'));
  });
});

describe('notifications from domain events', () => {
  const registrado = (tp_evento: '110111' | '110110') => ({
    type: 'cte.evento_registrado',
    data: {
      cte_id: 'k1',
      company_id: 'c1',
      event_key: 'ID',
      tp_evento,
      protocolo: { numero: '1', registrado_em: 'x', cstat: 135, motivo: 'ok' },
      sha256: 's',
      registrado_em: 'x',
    },
  });
  it('a registered cancellation is cte.cancelado; another CT-e event is cte.evento_registrado', () => {
    expect(notificacaoDe(registrado('110111'))).toMatchObject({ tipo: 'cte.cancelado', id: 'k1', caminho: '/v1/fiscal/cte/k1' });
    expect(notificacaoDe(registrado('110110'))).toMatchObject({ tipo: 'cte.evento_registrado', campos: { evento: 'carta_correcao' } });
  });
  it('an MDF-e encerramento is mdfe.encerrado', () => {
    const n = notificacaoDe({
      type: 'mdfe.evento_registrado',
      data: {
        mdfe_id: 'm1',
        company_id: 'c1',
        tipo: 'encerramento',
        tp_evento: '110112',
        n_seq: 1,
        dados: {},
        protocolo: { numero: '9' },
        sha256: 's',
      },
    });
    expect(n).toMatchObject({ tipo: 'mdfe.encerrado', id: 'm1', caminho: '/v1/fiscal/mdfe/m1' });
  });
  it('a finished batch carries its counts', () => {
    const n = notificacaoDe({
      type: 'lote.concluido',
      data: { batch_id: 'b1', company_id: 'c1', status: 'done', total_linhas: 3, emitidas: 2, duplicadas: 0, falhas: 1 },
    });
    expect(n).toEqual({
      tipo: 'lote.concluido',
      company_id: 'c1',
      id: 'b1',
      caminho: '/v1/fiscal/cte-subcontratacao/lote/b1',
      campos: { status: 'done', total_linhas: 3, emitidas: 2, duplicadas: 0, falhas: 1 },
    });
  });
  it('a CIOT without verdict is ciot.pendente, still sent', () => {
    expect(
      notificacaoDe({
        type: 'ciot.pendente',
        data: { ciot_id: 'i1', company_id: 'c1', protocolo: null, motivo: 'sem resposta', tentativa: 1 },
      }),
    ).toMatchObject({ tipo: 'ciot.pendente', campos: { status: 'sent' } });
  });
  it('an event integrators are not told about gives nothing', () => {
    expect(notificacaoDe({ type: 'veiculo.cadastrado', data: {} })).toBeNull();
  });
});

describe('every subscribable type comes from the log', () => {
  const protocolo = { numero: '135260000000001', recebido_em: '2026-11-24T12:00:00Z', cstat: 100, motivo: 'Autorizado' };
  const cte = { cte_id: 'k1', company_id: 'c1' };
  const mdfe = { mdfe_id: 'm1', company_id: 'c1', tp_evento: '110111', n_seq: 1, dados: {}, sha256: 's' };
  const eventoCte = { ...cte, event_key: 'ID', tp_evento: '110110' };
  const parcela = { company_id: 'c1', grupo: 'cte:k9', cte_id: 'k9', posicao: 1 };
  const desacordo = { company_id: 'c1', chave: 'k9', event_key: 'ID610110k9001', tipo: 'desacordo', tp_evento: '610110' };
  const amostras: { type: string; data: unknown }[] = [
    { type: 'cte.autorizado', data: { ...cte, chave: 'x', protocolo, sha256: 's', cte: {} } },
    { type: 'cte.rejeitado', data: { ...cte, cstat: 539, motivo: 'Duplicidade' } },
    { type: 'cte.denegado', data: { ...cte, chave: 'x', protocolo } },
    { type: 'cte.evento_registrado', data: { ...eventoCte, tp_evento: '110111', protocolo, sha256: 's', registrado_em: 'x' } },
    { type: 'cte.evento_registrado', data: { ...eventoCte, protocolo, sha256: 's', registrado_em: 'x' } },
    { type: 'cte.evento_pendente', data: { ...eventoCte, motivo: 'sem resposta' } },
    { type: 'cte.evento_rejeitado', data: { ...eventoCte, cstat: 580, motivo: 'x' } },
    { type: 'mdfe.autorizado', data: { mdfe_id: 'm1', company_id: 'c1', chave: 'x', protocolo, sha256: 's' } },
    { type: 'mdfe.rejeitado', data: { mdfe_id: 'm1', company_id: 'c1', cstat: 539, motivo: 'x' } },
    ...(['cancelamento', 'encerramento', 'condutor'] as const).map((tipo) => ({
      type: 'mdfe.evento_registrado',
      data: { ...mdfe, tipo, protocolo },
    })),
    { type: 'mdfe.evento_pendente', data: { ...mdfe, tipo: 'encerramento', motivo: 'x' } },
    {
      type: 'lote.linha_processada',
      data: {
        batch_id: 'b1',
        company_id: 'c1',
        linha: 0,
        chave: 'x',
        perna: null,
        status: 'pending',
        tipo_servico: 1,
        counter_cte_id: 'k2',
        documento_financeiro: null,
        error: null,
      },
    },
    {
      type: 'lote.concluido',
      data: { batch_id: 'b1', company_id: 'c1', status: 'done', total_linhas: 1, emitidas: 1, duplicadas: 0, falhas: 0 },
    },
    {
      type: 'ciot.registrada',
      data: { ciot_id: 'i1', company_id: 'c1', ciot: '123456789012', codigo_verificacao: '1234', protocolo: 'p', registrada_em: 'x' },
    },
    { type: 'ciot.recusada', data: { ciot_id: 'i1', company_id: 'c1', codigo: '99', motivo: 'x' } },
    { type: 'ciot.pendente', data: { ciot_id: 'i1', company_id: 'c1', protocolo: null, motivo: 'x', tentativa: 2 } },
    { type: 'repasse.parcela_liberada', data: { ...parcela, gatilho: 'manual', liberada_em: 'x', vencimento: '2026-11-30' } },
    { type: 'repasse.parcela_paga', data: { ...parcela, chave_original: 'x', ordem_id: 'o1', valor_centavos: 1000, paga_em: 'x' } },
    {
      type: 'repasse.pagamento_retirado',
      data: { ...parcela, ordem_id: 'o1', valor_centavos: 1000, motivo: 'cancelamento_solicitado', retirado_em: 'x' },
    },
    {
      type: 'vale_pedagio.emitido',
      data: { company_id: 'c1', vale_pedagio_id: 'v1', numero: '1', valor_total_centavos: 500, cancelavel_ate: 'x' },
    },
    { type: 'vale_pedagio.cancelado', data: { company_id: 'c1', vale_pedagio_id: 'v1', cancelado_em: 'x' } },
    // The taker's desacordo (610110) and its cancellation (610111) about a received CT-e: the resource is the inbox key.
    ...(['desacordo', 'cancelamento_desacordo'] as const).map((tipo) => ({
      type: 'cte_subcontratacao.desacordo_registrado',
      data: { ...desacordo, tipo, tp_evento: tipo === 'desacordo' ? '610110' : '610111', protocolo, sha256: 's', registrado_em: 'x' },
    })),
    { type: 'cte_subcontratacao.desacordo_pendente', data: { ...desacordo, motivo: '105' } },
    { type: 'cte_subcontratacao.desacordo_rejeitado', data: { ...desacordo, cstat: 755, motivo: 'Rejeição' } },
    {
      type: 'cte_subcontratacao.recebido',
      data: { company_id: 'c1', chave: 'k7', canal: 'api', papel_transportadora: 'tomador', permite_contra_cte: true },
    },
    { type: 'nfe.importada', data: { company_id: 'c1', chave: 'n1', completou_chave: false } },
  ];

  it('each type integrators can subscribe to is given by some domain event, with the resource it is about', () => {
    const notificacoes = amostras.map((e) => notificacaoDe(e)!);
    expect(new Set(notificacoes.map((n) => n.tipo))).toEqual(new Set(WEBHOOK_EVENT_TYPES));
    for (const n of notificacoes) expect(n.caminho.endsWith(`/${n.id}`)).toBe(true);
    expect(TIPOS_NOTIFICADOS).toEqual(expect.arrayContaining([...new Set(amostras.map((e) => e.type))]));
  });

  it('links each resource to the route that reads it', () => {
    const caminhos = Object.fromEntries(amostras.map((e) => [notificacaoDe(e)!.tipo, notificacaoDe(e)!.caminho]));
    expect(caminhos).toMatchObject({
      'cte.autorizado': '/v1/fiscal/cte/k1',
      'cte_subcontratacao.desacordo_registrado': '/v1/fiscal/cte-subcontratacao/k9',
      'mdfe.autorizado': '/v1/fiscal/mdfe/m1',
      'lote.concluido': '/v1/fiscal/cte-subcontratacao/lote/b1',
      'ciot.registrado': '/v1/fiscal/ciot/i1',
      'parcela.paga': '/v1/carriers/parcelas-repasse/k9',
      'vale_pedagio.emitido': '/v1/vale-pedagio/v1',
      'inbox.cte_recebido': '/v1/fiscal/cte-subcontratacao/k7',
      'nfe.recebida': '/v1/fiscal/nfe/n1',
    });
  });
});

describe('documents that arrive: inbox.cte_recebido and nfe.recebida', () => {
  const chave = '43261145997418000153570010000007771400000017';
  const recebido = (canal: string) => ({
    type: 'cte_subcontratacao.recebido',
    data: {
      company_id: 'c1',
      chave,
      sha256: 's',
      tamanho_bytes: 10,
      canal,
      repassado_por: null,
      papel_transportadora: 'tomador',
      permite_contra_cte: true,
      bloqueio_contra_cte: null,
      cte: {},
    },
  });
  it("a key's first receipt in the inbox, by any channel, is inbox.cte_recebido about the inbox key, saying the channel", () => {
    for (const canal of ['api', 'repasse']) {
      expect(notificacaoDe(recebido(canal))).toEqual({
        tipo: 'inbox.cte_recebido',
        company_id: 'c1',
        id: chave,
        caminho: `/v1/fiscal/cte-subcontratacao/${chave}`,
        campos: { chave, origem: 'envio', canal, nsu: null, papel_transportadora: 'tomador', permite_contra_cte: true },
      });
    }
  });
  it('one the national distribution brought says so, with its NSU: origem distribuicao, as the inbox row', () => {
    const distribuido = recebido('distribuicao');
    (distribuido.data as Record<string, unknown>).nsu = '000000000000007';
    expect(notificacaoDe(distribuido)).toMatchObject({
      tipo: 'inbox.cte_recebido',
      id: chave,
      campos: { chave, origem: 'distribuicao', canal: 'distribuicao', nsu: '000000000000007' },
    });
  });
  it('a later receipt of the same key (the same bytes, or new content) tells nothing', () => {
    const recebimento = { company_id: 'c1', chave, sha256: 's', tamanho_bytes: 10, canal: 'api', repassado_por: null };
    expect(notificacaoDe({ type: 'cte_subcontratacao.reenviado', data: recebimento })).toBeNull();
    expect(notificacaoDe({ type: 'cte_subcontratacao.substituido', data: { ...recebimento, sha256_anterior: 'r' } })).toBeNull();
  });
  it("an NF-e's XML arriving first is nfe.recebida, a PDF's key completed included; the PDF's key alone and a re-import are not", () => {
    const arquivo = { nome: 'a.xml', zip: null, sha256: 's' };
    const importada = (completou_chave: boolean, distribuicao?: { canal: string; nsu: string }) => ({
      type: 'nfe.importada',
      data: { company_id: 'c1', chave, arquivo, completou_chave, nfe: {}, ...distribuicao },
    });
    expect(notificacaoDe(importada(false))).toEqual({
      tipo: 'nfe.recebida',
      company_id: 'c1',
      id: chave,
      caminho: `/v1/fiscal/nfe/${chave}`,
      campos: { chave, origem: 'importacao', canal: 'importacao', nsu: null, completou_chave: false },
    });
    expect(notificacaoDe(importada(true))).toMatchObject({ tipo: 'nfe.recebida', campos: { completou_chave: true } });
    // Brought by the national distribution: its NSU; the list's origem is the key's first arrival, a PDF's if there was one.
    const nsu = '000000000000003';
    expect(notificacaoDe(importada(false, { canal: 'distribuicao', nsu }))!.campos).toEqual({
      chave,
      origem: 'distribuicao',
      canal: 'distribuicao',
      nsu,
      completou_chave: false,
    });
    expect(notificacaoDe(importada(true, { canal: 'distribuicao', nsu }))!.campos).toMatchObject({
      origem: 'importacao',
      canal: 'distribuicao',
      nsu,
    });
    expect(notificacaoDe({ type: 'nfe.chave_importada', data: { company_id: 'c1', chave, arquivo } })).toBeNull();
    expect(
      notificacaoDe({
        type: 'nfe.reimportada',
        data: { company_id: 'c1', chave, origem: 'xml', arquivo, substituiu_xml: true, nfe: {} },
      }),
    ).toBeNull();
  });
});
