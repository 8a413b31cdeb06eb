import { type CteLido } from '@frete/contracts';
import {
  caixaCteDecider,
  type CaixaCteEvent,
  fold,
  idEventoCte,
  montarEventoDesacordo,
  planejarDesacordo,
  situacaoDoDesacordo,
  type SolicitarDesacordo,
} from '../src';
import { scenario } from './given-when-then';
import { CHAVE_CTE_LIDO, cteLido, parteLida } from './cte-lido';

/** The taker's events about a received CT-e (MOC 4.00 Visão Geral §6.5, §6.6): given / when / then. */

const TOMADOR = '44555666000181';
const OUTRA = '99888777000100';
const parte = (documento: string) => parteLida(documento);
const CHAVE = CHAVE_CTE_LIDO;
const cte: CteLido = cteLido({
  cfop: '6353',
  data_emissao: '2026-11-01T10:00:00-03:00',
  remetente: parte('22333444000181'),
  destinatario: parte('33444555000181'),
  tomador: { codigo: 4, papel: 'outros', parte: parte(TOMADOR) },
  protocolo: { numero: '135260000000001', recebido_em: '2026-11-01T10:05:00-03:00', status: 100, motivo: 'Autorizado', chave: CHAVE },
});
const recebido: CaixaCteEvent = {
  type: 'cte_subcontratacao.recebido',
  data: {
    company_id: 'toma',
    chave: CHAVE,
    sha256: 'v1',
    tamanho_bytes: 10,
    canal: 'api',
    repassado_por: null,
    papel_transportadora: 'tomador',
    permite_contra_cte: false,
    bloqueio_contra_cte: null,
    cte,
  },
};
const K1 = idEventoCte('610110', CHAVE, 1);
const K2 = idEventoCte('610110', CHAVE, 2);
const C1 = idEventoCte('610111', CHAVE, 1);
const OBS = 'CARGA ENTREGUE COM AVARIA, VALOR DIVERGENTE';

/** What every record of one of the taker's events carries: whose, which CT-e, which event. */
const doEvento = (event_key: string, tipo: 'desacordo' | 'cancelamento_desacordo') =>
  ({ company_id: 'toma', chave: CHAVE, event_key, tipo, tp_evento: tipo === 'desacordo' ? '610110' : '610111' }) as const;

const solicitado = (event_key: string, tipo: 'desacordo' | 'cancelamento_desacordo', n: number, nProt: string | null = null) =>
  ({
    type: 'cte_subcontratacao.desacordo_solicitado',
    data: {
      ...doEvento(event_key, tipo),
      n_seq_evento: n,
      sha256: `sig-${event_key}`,
      observacao: tipo === 'desacordo' ? OBS : null,
      n_prot_desacordo: nProt,
    },
  }) as const satisfies CaixaCteEvent;
const registrado = (event_key: string, tipo: 'desacordo' | 'cancelamento_desacordo', numero: string) =>
  ({
    type: 'cte_subcontratacao.desacordo_registrado',
    data: {
      ...doEvento(event_key, tipo),
      protocolo: { numero, registrado_em: '2026-11-20T10:00:00-03:00', cstat: 135, motivo: 'Evento registrado e vinculado a CT-e' },
      sha256: `proc-${event_key}`,
      registrado_em: '2026-11-20T13:00:00.000Z',
    },
  }) as const satisfies CaixaCteEvent;
const pedir = (e: ReturnType<typeof solicitado>, cnpj = TOMADOR): SolicitarDesacordo => ({
  type: 'SolicitarDesacordo',
  company_cnpj: cnpj,
  data: e.data,
});

describe('cte_subcontratacao: the taker’s desacordo (610110) and its cancellation (610111)', () => {
  const dentro = scenario(caixaCteDecider, { now: new Date('2026-11-20T12:00:00Z') });
  // 45 days after the authorization (2026-11-01T13:05Z) and one minute.
  const depois = scenario(caixaCteDecider, { now: new Date('2026-12-16T13:06:00Z') });

  it('given a CT-e whose taker is the company, when it asks for a desacordo, then desacordo_solicitado (sequence 1)', () => {
    const e = solicitado(K1, 'desacordo', 1);
    dentro.given(recebido).when(pedir(e)).then(e);
  });

  it('given a CT-e of another taker, the desacordo is refused: desacordo_nao_tomador (755)', () => {
    dentro
      .given(recebido)
      .when(pedir(solicitado(K1, 'desacordo', 1), OUTRA))
      .thenRejects('desacordo_nao_tomador');
  });

  it('45 days after the authorization it is refused: desacordo_fora_do_prazo (787); on the 45th day it is taken', () => {
    depois
      .given(recebido)
      .when(pedir(solicitado(K1, 'desacordo', 1)))
      .thenRejects('desacordo_fora_do_prazo');
    scenario(caixaCteDecider, { now: new Date('2026-12-16T13:04:00Z') })
      .given(recebido)
      .when(pedir(solicitado(K1, 'desacordo', 1)))
      .then(solicitado(K1, 'desacordo', 1));
  });

  it('a cancellation without a registered desacordo is desacordo_inexistente (866)', () => {
    dentro
      .given(recebido)
      .when(pedir(solicitado(C1, 'cancelamento_desacordo', 1, '1')))
      .thenRejects('desacordo_inexistente');
  });

  it('while a desacordo is pending, a cancellation is desacordo_pendente; a second desacordo in force is desacordo_ja_registrado', () => {
    dentro
      .given(recebido, solicitado(K1, 'desacordo', 1))
      .when(pedir(solicitado(C1, 'cancelamento_desacordo', 1, '1')))
      .thenRejects('desacordo_pendente');
    dentro
      .given(recebido, solicitado(K1, 'desacordo', 1), registrado(K1, 'desacordo', '135260000000111'))
      .when(pedir(solicitado(K2, 'desacordo', 2)))
      .thenRejects('desacordo_ja_registrado');
  });

  it('the cancellation names the registered desacordo’s protocol; once registered, the next desacordo takes sequence 2', () => {
    const canc = solicitado(C1, 'cancelamento_desacordo', 1, '135260000000111');
    const historia = [recebido, solicitado(K1, 'desacordo', 1), registrado(K1, 'desacordo', '135260000000111')];
    dentro
      .given(...historia)
      .when(pedir(canc))
      .then(canc);
    const cancelado = [...historia, canc, registrado(C1, 'cancelamento_desacordo', '135260000000112')];
    const state = fold(caixaCteDecider, cancelado);
    expect(state.eventos[K1]!.situacao).toBe('cancelado');
    expect(situacaoDoDesacordo(state)).toBe('cancelado');
    const plano = planejarDesacordo(state, TOMADOR, 'desacordo', new Date('2026-11-21T12:00:00Z'));
    expect(plano).toMatchObject({ tipo: 'novo', n_seq_evento: 2, event_key: K2 });
    dentro
      .given(...cancelado)
      .when(pedir(solicitado(K2, 'desacordo', 2)))
      .then(solicitado(K2, 'desacordo', 2));
  });

  it('a verdict is recorded once: a second verdict for the same key decides nothing', () => {
    const reg = registrado(K1, 'desacordo', '135260000000111');
    dentro
      .given(recebido, solicitado(K1, 'desacordo', 1))
      .when({ type: 'RegistrarDesacordoRegistrado', data: reg.data })
      .then(reg);
    dentro
      .given(recebido, solicitado(K1, 'desacordo', 1), reg)
      .when({ type: 'RegistrarDesacordoRegistrado', data: reg.data })
      .then();
  });

  it('a pending desacordo asked again is reconciled, not a new event (plan: pendente)', () => {
    const state = fold(caixaCteDecider, [recebido, solicitado(K1, 'desacordo', 1)]);
    expect(planejarDesacordo(state, TOMADOR, 'desacordo', new Date('2026-11-20T12:00:00Z'))).toMatchObject({
      tipo: 'pendente',
      evento: { event_key: K1 },
    });
  });

  it('builds the eventoCTe: the taker as author, cOrgao of the key, indDesacordoOper 1, xObs trimmed to the schema', () => {
    const { id, xml } = montarEventoDesacordo({
      chave: CHAVE,
      documentoAutor: TOMADOR,
      tpAmb: 2,
      cOrgao: CHAVE.slice(0, 2),
      nSeqEvento: 1,
      dhEvento: '2026-11-20T09:00:00-03:00',
      detalhe: { tpEvento: '610110', xObs: `  ${OBS}\n  ` },
    });
    expect(id).toBe(K1);
    expect(xml).toContain(`<cOrgao>35</cOrgao><tpAmb>2</tpAmb><CNPJ>${TOMADOR}</CNPJ><chCTe>${CHAVE}</chCTe>`);
    expect(xml).toContain(
      `<evPrestDesacordo><descEvento>Prestacao do Servico em Desacordo</descEvento><indDesacordoOper>1</indDesacordoOper><xObs>${OBS}</xObs></evPrestDesacordo>`,
    );
    const canc = montarEventoDesacordo({
      chave: CHAVE,
      documentoAutor: TOMADOR,
      tpAmb: 2,
      cOrgao: '35',
      nSeqEvento: 1,
      dhEvento: '2026-11-20T09:00:00-03:00',
      detalhe: { tpEvento: '610111', nProtEvPrestDes: '135260000000111' },
    });
    expect(canc.xml).toContain('<nProtEvPrestDes>135260000000111</nProtEvPrestDes>');
    expect(canc.xml).toContain('<tpEvento>610111</tpEvento><nSeqEvento>1</nSeqEvento>');
  });
});
