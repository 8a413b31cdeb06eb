import { type ConviteCommand, type ConviteEvent, conviteDecider, conviteStream, estadoConvite, CONVITE_VALIDADE_DIAS } from '../src';
import { scenario } from './given-when-then';

const NOW = new Date('2026-11-22T12:00:00Z');
const C = 'company-1';
const OWN = '11222333000181';
const CNPJ = '11444777000161';
const DIA = 24 * 3_600_000;
const { given } = scenario(conviteDecider, { now: NOW });

const enviar = (over: Partial<Extract<ConviteCommand, { type: 'EnviarConvite' }>> = {}): ConviteCommand => ({
  type: 'EnviarConvite',
  company_id: C,
  company_cnpj: OWN,
  convite_id: 'c0000000-0000-4000-8000-000000000002',
  dados: {
    cnpj: '11.444.777/0001-61',
    razao_social: '  TRANSPORTES   NOVOS LTDA ',
    contato: { nome: ' Maria  Souza ', email: ' Maria@Example.COM', telefone: '(11) 98765-4321' },
  },
  transportadora_cadastrada: false,
  ...over,
});

const enviado = (id: string, at: Date): ConviteEvent => ({
  type: 'convite.enviado',
  data: {
    company_id: C,
    convite_id: id,
    cnpj: CNPJ,
    razao_social: 'TRANSPORTES NOVOS LTDA',
    contato: { nome: 'Maria Souza', email: 'maria@example.com', telefone: '+5511987654321' },
    enviado_em: at.toISOString(),
    expira_em: new Date(at.getTime() + CONVITE_VALIDADE_DIAS * DIA).toISOString(),
  },
});

describe('convite decider', () => {
  it('uses one stream per company and invited CNPJ (normalized)', () =>
    expect(conviteStream(C, '11.444.777/0001-61')).toBe(`convite-${C}-${CNPJ}`));

  it('sends a new invitation, normalized, pending for 7 days', () =>
    given().when(enviar()).then(enviado('c0000000-0000-4000-8000-000000000002', NOW)));

  it('is idempotent while pending: nothing appended (the caller answers the same invitation)', () => {
    const sent = new Date(NOW.getTime() - 7 * DIA + 1000);
    given(enviado('c1', sent))
      .when(enviar({ dados: { cnpj: CNPJ, contato: { nome: 'Outro', email: 'outro@example.com' } } }))
      .then();
  });

  it('after the validity, records the expiry and sends a new one', () => {
    const sent = new Date(NOW.getTime() - 7 * DIA);
    given(enviado('c1', sent))
      .when(enviar())
      .then(
        { type: 'convite.expirado', data: { company_id: C, convite_id: 'c1', cnpj: CNPJ, expirado_em: NOW.toISOString() } },
        enviado('c0000000-0000-4000-8000-000000000002', NOW),
      );
  });

  it('an expired-then-renewed history keeps only the new one pending', () => {
    const state = [
      enviado('c1', new Date(0)),
      {
        type: 'convite.expirado',
        data: { company_id: C, convite_id: 'c1', cnpj: CNPJ, expirado_em: new Date(7 * DIA).toISOString() },
      } as ConviteEvent,
      enviado('c2', NOW),
    ].reduce(conviteDecider.evolve, conviteDecider.initialState);
    expect(state.atual?.convite_id).toBe('c2');
  });

  it("422 convite_invalido for the company's own CNPJ (any punctuation)", () =>
    given()
      .when(enviar({ dados: { cnpj: '11.222.333/0001-81', contato: { nome: 'Eu', email: 'eu@example.com' } } }))
      .thenRejects('convite_invalido', ['cnpj']));

  it('422 transportadora_ja_cadastrada for a carrier customer, even with a pending invitation', () => {
    given()
      .when(enviar({ transportadora_cadastrada: true }))
      .thenRejects('transportadora_ja_cadastrada', ['cnpj']);
    given(enviado('c1', NOW))
      .when(enviar({ transportadora_cadastrada: true }))
      .thenRejects('transportadora_ja_cadastrada', ['cnpj']);
  });

  it('400 validacao names every bad field', () =>
    given()
      .when(enviar({ dados: { cnpj: '11444777000162', razao_social: ' x ', contato: { nome: ' J ', email: 'joao@', telefone: '123' } } }))
      .thenRejects('validacao', ['cnpj', 'razao_social', 'contato.nome', 'contato.email', 'contato.telefone']));

  it('accepts an alphanumeric CNPJ', () => {
    const events = conviteDecider.decide(
      enviar({ dados: { cnpj: '12.ABC.345/01DE-35', contato: { nome: 'Ana', email: 'ana@example.com' } } }),
      conviteDecider.initialState,
      { now: NOW },
    );
    expect(events[0]).toMatchObject({
      type: 'convite.enviado',
      data: { cnpj: '12ABC34501DE35', razao_social: null, contato: { telefone: null } },
    });
  });

  it('reads a pending invitation past expira_em as expired; accepted and expired stay', () => {
    const exp = new Date(NOW.getTime() + 1000);
    expect(estadoConvite('pendente', exp, NOW)).toBe('pendente');
    expect(estadoConvite('pendente', exp, new Date(exp.getTime()))).toBe('expirado');
    expect(estadoConvite('aceito', exp, new Date(exp.getTime() + DIA))).toBe('aceito');
    expect(estadoConvite('expirado', exp, NOW)).toBe('expirado');
  });
});
