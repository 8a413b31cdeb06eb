import {
  type ContaOperacionalCommand,
  type ContaOperacionalEvent,
  contaOperacionalDecider,
  contaOperacionalStream,
  efeitoNoSaldo,
  fold,
} from '../src';
import { scenario } from './given-when-then';

const NOW = new Date('2026-11-22T12:00:00Z');
const AT = NOW.toISOString();
const { given } = scenario(contaOperacionalDecider, { now: NOW });
const C = 'company-1';

const credito = (sequencia: number, referencia: string, valor: number, saldo: number): ContaOperacionalEvent => ({
  type: 'conta_operacional.credito_registrado',
  data: {
    company_id: C,
    sequencia,
    referencia,
    origem: 'deposito_simulado',
    valor_centavos: valor,
    saldo_apos_centavos: saldo,
    registrado_em: AT,
  },
});
const debito = (sequencia: number, vale: string, pedagio: number, taxa: number, saldo: number): ContaOperacionalEvent => ({
  type: 'conta_operacional.debito_registrado',
  data: {
    company_id: C,
    sequencia,
    vale_pedagio_id: vale,
    valor_pedagio_centavos: pedagio,
    taxa_centavos: taxa,
    valor_centavos: pedagio + taxa,
    saldo_apos_centavos: saldo,
    registrado_em: AT,
  },
});
const estorno = (sequencia: number, vale: string, pedagio: number, taxa: number, saldo: number): ContaOperacionalEvent => ({
  type: 'conta_operacional.estorno_registrado',
  data: {
    company_id: C,
    sequencia,
    vale_pedagio_id: vale,
    motivo: 'cancelamento',
    valor_pedagio_centavos: pedagio,
    taxa_centavos: taxa,
    valor_centavos: pedagio + taxa,
    saldo_apos_centavos: saldo,
    registrado_em: AT,
  },
});
const creditar = (referencia: string, valor: number): ContaOperacionalCommand => ({
  type: 'Creditar',
  company_id: C,
  referencia,
  valor_centavos: valor,
  origem: 'deposito_simulado',
});
const debitar = (vale: string, pedagio: number, taxa: number): ContaOperacionalCommand => ({
  type: 'Debitar',
  company_id: C,
  vale_pedagio_id: vale,
  valor_pedagio_centavos: pedagio,
  taxa_centavos: taxa,
});
const estornar = (vale: string): ContaOperacionalCommand => ({
  type: 'Estornar',
  company_id: C,
  vale_pedagio_id: vale,
  motivo: 'cancelamento',
});

describe('operational account decider (ledger)', () => {
  it('uses one stream per company', () => expect(contaOperacionalStream(C)).toBe('conta-operacional-company-1'));

  it('credits a deposit: movement 1, balance after it', () =>
    given()
      .when(creditar('DEP-1', 10_000))
      .then(credito(1, 'DEP-1', 10_000, 10_000)));

  it('a referencia credits once: the same again appends nothing, another amount is referencia_em_uso', () => {
    given(credito(1, 'DEP-1', 10_000, 10_000))
      .when(creditar('DEP-1', 10_000))
      .then();
    given(credito(1, 'DEP-1', 10_000, 10_000))
      .when(creditar('DEP-1', 9_999))
      .thenRejects('referencia_em_uso');
  });

  it('refuses a credit that is not a positive integer number of cents', () => {
    given().when(creditar('X', 0)).thenRejects('validacao', ['valor']);
    given().when(creditar('X', 10.5)).thenRejects('validacao', ['valor']);
  });

  it('debits toll + fee when the balance covers it, down to exactly zero', () =>
    given(credito(1, 'DEP-1', 10_150, 10_150))
      .when(debitar('v1', 10_000, 150))
      .then(debito(2, 'v1', 10_000, 150, 0)));

  it('refuses a debit larger than the balance: saldo_insuficiente, nothing appended', () => {
    given(credito(1, 'DEP-1', 10_149, 10_149))
      .when(debitar('v1', 10_000, 150))
      .thenRejects('saldo_insuficiente');
    given()
      .when(debitar('v1', 1, 100))
      .thenRejects('saldo_insuficiente');
  });

  it('debits a toll pass once: the same toll pass again appends nothing', () =>
    given(credito(1, 'DEP-1', 50_000, 50_000), debito(2, 'v1', 10_000, 150, 39_850))
      .when(debitar('v1', 10_000, 150))
      .then());

  it('refunds toll and fee in full, once', () => {
    const history = [credito(1, 'DEP-1', 50_000, 50_000), debito(2, 'v1', 10_000, 150, 39_850)];
    given(...history)
      .when(estornar('v1'))
      .then(estorno(3, 'v1', 10_000, 150, 50_000));
    given(...history, estorno(3, 'v1', 10_000, 150, 50_000))
      .when(estornar('v1'))
      .then();
  });

  it('refuses to refund a toll pass it never debited, and to debit again a refunded one', () => {
    given(credito(1, 'DEP-1', 50_000, 50_000))
      .when(estornar('v9'))
      .thenRejects('regra_de_negocio');
    given(credito(1, 'DEP-1', 50_000, 50_000), debito(2, 'v1', 100, 100, 49_800), estorno(3, 'v1', 100, 100, 50_000))
      .when(debitar('v1', 100, 100))
      .thenRejects('referencia_em_uso');
  });

  it('the balance is the sum of the ledger; folding twice gives the same state (fresh initial state)', () => {
    const events = [
      credito(1, 'A', 1_000, 1_000),
      debito(2, 'v1', 500, 100, 400),
      credito(3, 'B', 250, 650),
      estorno(4, 'v1', 500, 100, 1_250),
    ];
    const a = fold(contaOperacionalDecider, events);
    const b = fold(contaOperacionalDecider, events);
    expect(a.saldo_centavos).toBe(events.reduce((s, e) => s + efeitoNoSaldo(e), 0));
    expect(a).toEqual(b);
    expect(fold(contaOperacionalDecider, []).debitos).toEqual({});
    expect(a.movimentos).toBe(4);
  });
});
