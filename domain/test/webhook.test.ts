import { notificacaoDe, type WebhookEvent, webhookDecider } from '../src';
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
