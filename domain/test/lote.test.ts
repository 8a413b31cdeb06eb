import { type ContraCteLoteInput, type EventData, type LinhaPlanejada } from '@frete/contracts';
import {
  fold,
  accessKeyCheckDigit,
  centavosExatos,
  type LoteCommand,
  loteDecider,
  type LoteEvent,
  ratearCentavos,
  Rejection,
  resolverLote,
  type RegistroDaSubcontratada,
} from '../src';
import { scenario } from './given-when-then';
import { linhaPlanejada } from './lote-planejado';

const chave = (n: number) => {
  const first43 = `352611${'11222333000181'}57001${String(n).padStart(9, '0')}1${'12345678'}`;
  return first43 + accessKeyCheckDigit(first43);
};
const CPF = '52998224725';
const CPF_2 = '11144477735';
const PLACA = 'ABC1D23';
const REGISTRO: RegistroDaSubcontratada = { motoristas: new Set([CPF, CPF_2]), placas: new Set([PLACA, 'XYZ9876']) };
const CAMPINAS = { municipio: 'campinas', uf: 'SP' as const };
const RIO = { municipio: 'Rio de Janeiro', uf: 'RJ' as const };
const CURITIBA = { municipio: 'Curitiba', uf: 'PR' as const };

const lote = (over: Partial<ContraCteLoteInput> = {}): ContraCteLoteInput => ({
  subcontratada: { cnpj: '45723174000110' },
  motorista: { cpf: CPF },
  placa: PLACA,
  ctes: [
    { chave: chave(1), valor: 100 },
    { chave: chave(2), valor: 200.5 },
  ],
  ...over,
});

/** The refusal's code and fields, or a failure when it resolves. */
function recusa(input: ContraCteLoteInput, registro = REGISTRO): { code: string; fields: string[]; message: string } {
  try {
    resolverLote(input, registro);
  } catch (err) {
    if (!(err instanceof Rejection)) throw err;
    return { code: err.code, fields: (err.details?.fields ?? []).map((f) => f.field), message: err.message };
  }
  throw new Error('the batch was accepted');
}

describe('cents of a batch (batch rule 3, ruling 10)', () => {
  it('splits frete_bruto in cents with the remainder on the LAST rows, summing exactly', () => {
    expect(ratearCentavos(100_00, 3)).toEqual([33_33, 33_33, 33_34]);
    expect(ratearCentavos(5, 3)).toEqual([1, 2, 2]);
    expect(ratearCentavos(10_00, 4)).toEqual([2_50, 2_50, 2_50, 2_50]);
    expect(ratearCentavos(7, 7)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    const parts = ratearCentavos(1_234_567_89, 7);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(1_234_567_89);
    expect(Math.max(...parts) - Math.min(...parts)).toBeLessThanOrEqual(1);
  });

  it('reads a value as written, never rounding: more than two decimals is no value', () => {
    expect(centavosExatos(19.99)).toBe(1999);
    expect(centavosExatos(0.07)).toBe(7);
    expect(centavosExatos(1500)).toBe(150000);
    expect(centavosExatos(1500.5)).toBe(150050);
    expect(centavosExatos(9_999_999_999.99)).toBe(999_999_999_999);
    expect(centavosExatos(10.005)).toBeNull();
    expect(centavosExatos(-1)).toBeNull();
  });
});

describe('resolverLote', () => {
  it("1:1: one row per key, values frozen per key, the batch driver and plate, type 1 and the contractor's route by default", () => {
    const plano = resolverLote(lote({ placa: 'abc-1d23', motorista: { cpf: CPF } }), REGISTRO);
    expect(plano.modo).toBe('1a1');
    expect(plano.parcelas).toBeNull();
    expect(plano.linhas).toEqual<LinhaPlanejada[]>([
      {
        linha: 0,
        chave: chave(1),
        perna: null,
        tipo_servico: 1,
        origem: null,
        destino: null,
        valor_centavos: 100_00,
        motorista_cpf: CPF,
        placa: PLACA,
      },
      {
        linha: 1,
        chave: chave(2),
        perna: null,
        tipo_servico: 1,
        origem: null,
        destino: null,
        valor_centavos: 200_50,
        motorista_cpf: CPF,
        placa: PLACA,
      },
    ]);
  });

  it('splits frete_bruto over the rows (legs counted one by one)', () => {
    const plano = resolverLote(
      lote({
        valores: { frete_bruto: 100 },
        ctes: [
          { chave: chave(1), pernas: [{}, { origem: CAMPINAS, destino: RIO }] },
          { chave: chave(2), pernas: [{ origem: CURITIBA, destino: RIO }] },
        ],
      }),
      REGISTRO,
    );
    expect(plano.modo).toBe('pernas');
    expect(plano.linhas.map((l) => [l.chave, l.perna, l.valor_centavos])).toEqual([
      [chave(1), 0, 33_33],
      [chave(1), 1, 33_33],
      [chave(2), 0, 33_34],
    ]);
  });

  it('tipo_servico: leg, then key, then batch, then 1', () => {
    const plano = resolverLote(
      lote({
        tipo_servico: 2,
        origem: CAMPINAS,
        destino: RIO,
        ctes: [
          { chave: chave(1), tipo_servico: 3, pernas: [{ valor: 1 }, { valor: 1, tipo_servico: 1 }] },
          { chave: chave(2), pernas: [{ valor: 1 }] },
        ],
      }),
      REGISTRO,
    );
    expect(plano.linhas.map((l) => l.tipo_servico)).toEqual([3, 1, 2]);
    expect(resolverLote(lote(), REGISTRO).linhas.map((l) => l.tipo_servico)).toEqual([1, 1]);
  });

  it('route ends: leg, then key, then batch, as the IBGE table names them; driver and plate: leg, then batch', () => {
    const plano = resolverLote(
      lote({
        origem: CAMPINAS,
        destino: RIO,
        ctes: [
          {
            chave: chave(1),
            destino: CURITIBA,
            pernas: [{ valor: 1, origem: { municipio: 'SAO PAULO', uf: 'SP' }, motorista: { cpf: CPF_2 }, placa: 'XYZ9876' }, { valor: 2 }],
          },
          { chave: chave(2), pernas: [{ valor: 3 }] },
        ],
      }),
      REGISTRO,
    );
    const [a, b, c] = plano.linhas;
    expect(a).toMatchObject({
      origem: { codigo_ibge: '3550308', municipio: 'São Paulo', uf: 'SP' },
      destino: { codigo_ibge: '4106902' },
      motorista_cpf: CPF_2,
      placa: 'XYZ9876',
    });
    expect(b).toMatchObject({
      origem: { codigo_ibge: '3509502', municipio: 'Campinas' },
      destino: { codigo_ibge: '4106902' },
      motorista_cpf: CPF,
      placa: PLACA,
    });
    expect(c).toMatchObject({ origem: { codigo_ibge: '3509502' }, destino: { codigo_ibge: '3304557' } });
  });

  it("keeps the batch's installment rule, ordered by position", () => {
    const parcelas = [
      { posicao: 2, percentual: 40, dias: 10 },
      { posicao: 1, percentual: 60, dias: 0 },
    ];
    expect(resolverLote(lote({ repasse: { parcelas } }), REGISTRO).parcelas).toEqual([parcelas[1], parcelas[0]]);
  });

  describe('400 validacao (shape the schema cannot see)', () => {
    it('names each field: key check digit, IBGE pair, CPF digits, plate, installments, money', () => {
      const bad = chave(1).slice(0, 43) + ((Number(chave(1)[43]) + 1) % 10);
      const r = recusa(
        lote({
          motorista: { cpf: '52998224724' },
          origem: { municipio: 'Cidade Inexistente', uf: 'SP' },
          destino: RIO,
          repasse: { parcelas: [{ posicao: 1, percentual: 50, dias: 0 }] },
          ctes: [{ chave: bad, pernas: [{ valor: 10.001 }, { placa: 'AB12345', valor: 1 }] }],
        }),
      );
      expect(r.code).toBe('validacao');
      expect(r.fields).toEqual([
        'motorista.cpf',
        'origem.municipio',
        'ctes.0.chave',
        'ctes.0.pernas.0.valor',
        'ctes.0.pernas.1.placa',
        'repasse.parcelas',
      ]);
    });
  });

  describe('422 lote_invalido (rules 2, 3, 5)', () => {
    it('refuses keys with and without pernas in one batch', () => {
      const r = recusa(
        lote({
          ctes: [
            { chave: chave(1), valor: 1 },
            { chave: chave(2), pernas: [{ valor: 1 }] },
          ],
        }),
      );
      expect(r).toMatchObject({ code: 'lote_invalido', fields: ['ctes'] });
    });

    it('refuses valor together with frete_bruto, naming both', () => {
      const r = recusa(lote({ valores: { frete_bruto: 300 } }));
      expect(r).toMatchObject({ code: 'lote_invalido', fields: ['valores.frete_bruto', 'ctes.0.valor', 'ctes.1.valor'] });
    });

    it('refuses a batch with no value for some rows and no frete_bruto', () => {
      const r = recusa(lote({ ctes: [{ chave: chave(1), valor: 1 }, { chave: chave(2) }] }));
      expect(r).toMatchObject({ code: 'lote_invalido', fields: ['ctes.1.valor'] });
      expect(recusa(lote({ ctes: [{ chave: chave(1), pernas: [{ valor: 1 }, {}] }] })).fields).toEqual(['ctes.0.pernas.1.valor']);
    });

    it('refuses a key-level valor on a key with legs', () => {
      expect(recusa(lote({ ctes: [{ chave: chave(1), valor: 5, pernas: [{ valor: 1 }] }] })).fields).toEqual(['ctes.0.valor']);
    });

    it('refuses a frete_bruto that cannot give each row a cent', () => {
      expect(
        recusa(lote({ ctes: [{ chave: chave(1) }, { chave: chave(2) }, { chave: chave(3) }], valores: { frete_bruto: 0.02 } })).fields,
      ).toEqual(['valores.frete_bruto']);
    });

    it('refuses tipo_servico 2 or 3 without both ends after precedence, and a half-declared leg', () => {
      const r = recusa(
        lote({
          tipo_servico: 2,
          ctes: [
            { chave: chave(1), valor: 1 },
            { chave: chave(2), valor: 1, origem: CAMPINAS },
          ],
        }),
      );
      expect(r).toMatchObject({ code: 'lote_invalido', fields: ['ctes.0.origem', 'ctes.1.destino'] });
      expect(recusa(lote({ ctes: [{ chave: chave(1), pernas: [{ valor: 1, tipo_servico: 3, destino: RIO }] }] })).fields).toEqual([
        'ctes.0.pernas.0.origem',
      ]);
      expect(recusa(lote({ ctes: [{ chave: chave(1), valor: 1, destino: RIO }] })).fields).toEqual(['ctes.0.origem']);
      // The batch's ends complete the key's type 2.
      expect(
        resolverLote(lote({ origem: CAMPINAS, destino: RIO, ctes: [{ chave: chave(1), valor: 1, tipo_servico: 2 }] }), REGISTRO).linhas[0]!
          .tipo_servico,
      ).toBe(2);
    });
  });

  describe('422 registry (rule 8)', () => {
    it('names the leg of a driver or a plate the subcontractor does not have', () => {
      const semCpf2 = { ...REGISTRO, motoristas: new Set([CPF]) };
      const r = recusa(lote({ ctes: [{ chave: chave(1), pernas: [{ valor: 1 }, { valor: 1, motorista: { cpf: CPF_2 } }] }] }), semCpf2);
      expect(r).toMatchObject({ code: 'motorista_nao_encontrado', fields: ['ctes.0.pernas.1.motorista.cpf'] });
      expect(r.message).toMatch(/^ctes\.0\.pernas\.1: driver 11144477735 /);

      const v = recusa(lote({ ctes: [{ chave: chave(1), pernas: [{ valor: 1 }, { valor: 1, placa: 'QWE1234' }] }] }));
      expect(v).toMatchObject({ code: 'veiculo_nao_encontrado', fields: ['ctes.0.pernas.1.placa'] });
      expect(v.message).toMatch(/^ctes\.0\.pernas\.1: vehicle QWE1234 /);
    });

    it("names the batch's own driver and plate once", () => {
      const r = recusa(lote(), { motoristas: new Set(), placas: new Set() });
      expect(r).toMatchObject({ code: 'motorista_nao_encontrado', fields: ['motorista.cpf'] });
      expect(recusa(lote(), { motoristas: REGISTRO.motoristas, placas: new Set() })).toMatchObject({
        code: 'veiculo_nao_encontrado',
        fields: ['placa'],
      });
    });
  });
});

describe('lote decider', () => {
  const { given } = scenario(loteDecider);
  const linhas: LinhaPlanejada[] = [linhaPlanejada(0, chave(1)), { ...linhaPlanejada(1, chave(2)), valor_centavos: 200 }];
  /** The batch asked for by the contractor: what the command says and the creation records alike. */
  const pedido = {
    batch_id: 'b-1',
    company_id: 'sub',
    solicitante_company_id: 'con',
    ambiente: 'homologacao' as const,
    modo: '1a1' as const,
    parcelas: null,
    linhas,
  };
  const criar: LoteCommand = { type: 'CriarLote', ...pedido };
  const criado: LoteEvent = { type: 'lote.criado', data: pedido };
  type Linha = EventData<'lote.linha_processada'>;
  const pendente: Linha = {
    batch_id: 'b-1',
    company_id: 'sub',
    linha: 0,
    chave: chave(1),
    perna: null,
    tipo_servico: 1,
    documento_financeiro: null,
    status: 'pending',
    counter_cte_id: 'cte-0',
    error: null,
  };
  const registrar = (over: Partial<Linha> = {}): LoteCommand => ({ type: 'RegistrarLinha', ...pendente, ...over });
  const processada = (over: Partial<Linha> = {}): LoteEvent => ({ type: 'lote.linha_processada', data: { ...pendente, ...over } });

  it('creates the batch with its plan', () => given().when(criar).then(criado));
  it('creates nothing again (an idempotent retry)', () => given(criado).when(criar).then());
  it('refuses a batch without rows', () =>
    given()
      .when({ ...criar, linhas: [] })
      .thenRejects('lote_invalido'));

  it("records a row's outcome once: the first stands", () => {
    given(criado).when(registrar()).then(processada());
    given(criado, processada())
      .when(registrar({ status: 'failed', counter_cte_id: null, error: { code: 'x', message: 'y' } }))
      .then();
  });

  it('records duplicated and failed rows', () => {
    given(criado)
      .when(registrar({ status: 'duplicated', counter_cte_id: 'other' }))
      .then(processada({ status: 'duplicated', counter_cte_id: 'other' }));
    const erro = { code: 'cte_proprio', message: 'own' };
    given(criado)
      .when(registrar({ status: 'failed', counter_cte_id: null, error: erro }))
      .then(processada({ status: 'failed', counter_cte_id: null, error: erro }));
  });

  describe('a block of rows recorded at once (RegistrarLinhas)', () => {
    const linha1 = { linha: 1, chave: chave(2), counter_cte_id: 'cte-1' };
    const bloco = (...linhas: Linha[]): LoteCommand => ({ type: 'RegistrarLinhas', batch_id: 'b-1', company_id: 'sub', linhas });
    const falha = { status: 'failed' as const, counter_cte_id: null, error: { code: 'cte_proprio', message: 'own' } };

    it('gives each row its event, in order, as the rows recorded one by one would', () =>
      given(criado)
        .when(bloco({ ...pendente }, { ...pendente, ...linha1 }))
        .then(processada(), processada(linha1)));

    it('skips the rows already recorded (a redelivered block): the first outcome stands', () =>
      given(criado, processada())
        .when(bloco({ ...pendente, ...falha }, { ...pendente, ...linha1 }))
        .then(processada(linha1)));

    it('ends the batch after the row that completes it', () =>
      given(criado)
        .when(bloco({ ...pendente, ...falha }, { ...pendente, ...linha1, ...falha }))
        .then(processada(falha), processada({ ...linha1, ...falha }), {
          type: 'lote.concluido',
          data: { batch_id: 'b-1', company_id: 'sub', status: 'failed', total_linhas: 2, emitidas: 0, duplicadas: 0, falhas: 2 },
        }));

    it("refuses the whole block when a row is another batch's or not the plan's: nothing is recorded", () => {
      given(criado)
        .when(bloco({ ...pendente }, { ...pendente, ...linha1, batch_id: 'b-2' }))
        .thenRejects('regra_de_negocio');
      given(criado)
        .when(bloco({ ...pendente }, { ...pendente, linha: 1, chave: chave(9) }))
        .thenRejects('regra_de_negocio');
      given()
        .when(bloco({ ...pendente }))
        .thenRejects('lote_nao_encontrado');
    });
  });

  it("refuses a row of a missing batch, of another company, or that is not the plan's", () => {
    given().when(registrar()).thenRejects('lote_nao_encontrado');
    given(criado)
      .when(registrar({ company_id: 'other' }))
      .thenRejects('lote_nao_encontrado');
    given(criado)
      .when(registrar({ linha: 1 }))
      .thenRejects('regra_de_negocio');
    given(criado)
      .when(registrar({ linha: 7 }))
      .thenRejects('regra_de_negocio');
    given(criado)
      .when(registrar({ counter_cte_id: null }))
      .thenRejects('regra_de_negocio');
  });

  it('fold (on one copy: emLugar) gives the same state as evolving event by event', () => {
    const history = [criado, processada(), processada({ linha: 1, chave: chave(2), status: 'duplicated', counter_cte_id: 'other' })];
    expect(fold(loteDecider, history)).toEqual(history.reduce(loteDecider.evolve, loteDecider.initialState));
    expect(fold(loteDecider, [])).toEqual(loteDecider.initialState);
  });

  describe("a creation recorded in the requester's chain, carried into the owner's (issue 26)", () => {
    const evento = { id: 'ev-1', recorded_at: '2026-11-20T10:00:00.000Z', hash: 'a'.repeat(64) };
    const transcrever = (cadeia: string | null, over: Partial<EventData<'lote.criado'>> = {}): LoteCommand => ({
      type: 'TranscreverCriacao',
      batch_id: 'b-1',
      cadeia,
      evento,
      criado: { ...(criado.data as EventData<'lote.criado'>), ...over },
    });
    const transcrita: LoteEvent = {
      type: 'lote.criacao_transcrita',
      data: { batch_id: 'b-1', company_id: 'sub', evento, criado: criado.data as EventData<'lote.criado'> },
    };

    it('transcribes a creation recorded in another chain, naming the original and its data as recorded', () =>
      given(criado, processada()).when(transcrever('con')).then(transcrita));
    it("carries nothing already in the owner's chain, nor twice", () => {
      given(criado).when(transcrever('sub')).then();
      given(criado, transcrita).when(transcrever('con')).then();
    });
    it('refuses a missing batch, or a creation of another batch', () => {
      given().when(transcrever('con')).thenRejects('lote_nao_encontrado');
      given(criado)
        .when(transcrever('con', { batch_id: 'b-2' }))
        .thenRejects('lote_nao_encontrado');
    });
    it('fold and evolve agree, and the rows keep their state', () => {
      const history = [criado, processada(), transcrita];
      const state = fold(loteDecider, history);
      expect(state).toEqual(history.reduce(loteDecider.evolve, loteDecider.initialState));
      expect(state.transcrita).toBe(true);
      expect(state.processadas[0]).toEqual({ status: 'pending', counter_cte_id: 'cte-0', financeiro: null });
    });
  });

  describe("the batch's end (lote.concluido)", () => {
    const linha1 = { linha: 1, chave: chave(2) };
    const base = { batch_id: 'b-1', company_id: 'sub' };
    const emitida = (linha: number, cte = `cte-${linha}`): LoteEvent => ({
      type: 'lote.linha_emitida',
      data: { ...base, linha, counter_cte_id: cte },
    });
    const erro = { code: 'cte_rejeitado', message: 'the authority refused the counter-CT-e: cStat 539 x' };
    const rejeitar = (linha: number): LoteCommand => ({
      type: 'RegistrarLinhaRejeitada',
      ...base,
      linha,
      counter_cte_id: `cte-${linha}`,
      error: erro,
    });
    const rejeitada = (linha: number): LoteEvent => ({
      type: 'lote.linha_rejeitada',
      data: { ...base, linha, counter_cte_id: `cte-${linha}`, error: erro },
    });
    const financeiro = (linha: number, f: 'ok' | 'failed' = 'ok', cte = `cte-${linha}`): LoteCommand => ({
      type: 'RegistrarFinanceiroDaLinha',
      ...base,
      linha,
      counter_cte_id: cte,
      financeiro: f,
    });
    const registrado = (linha: number, f: 'ok' | 'failed' = 'ok'): LoteEvent => ({
      type: 'lote.financeiro_registrado',
      data: { ...base, linha, counter_cte_id: `cte-${linha}`, financeiro: f },
    });
    const concluido = (status: 'done' | 'failed', emitidas: number, duplicadas: number, falhas: number): LoteEvent => ({
      type: 'lote.concluido',
      data: { ...base, status, total_linhas: 2, emitidas, duplicadas, falhas },
    });
    const duasPendentes = [criado, processada(), processada({ ...linha1, counter_cte_id: 'cte-1' })];

    it("an emitted row's financial step, when it is the last open one, ends the batch done", () => {
      given(...duasPendentes, emitida(0), registrado(0), emitida(1))
        .when(financeiro(1))
        .then(registrado(1), concluido('done', 2, 0, 0));
    });

    it('a failed financial step still ends the row emitted, and the batch done', () => {
      given(...duasPendentes, emitida(0), registrado(0), emitida(1))
        .when(financeiro(1, 'failed'))
        .then(registrado(1, 'failed'), concluido('done', 2, 0, 0));
    });

    it("a pending row's payout outcome records its emission with it, in one append, and may end the batch", () => {
      given(...duasPendentes)
        .when(financeiro(0))
        .then(emitida(0), registrado(0));
      given(...duasPendentes, emitida(0), registrado(0))
        .when(financeiro(1, 'failed'))
        .then(emitida(1), registrado(1, 'failed'), concluido('done', 2, 0, 0));
      given(...duasPendentes, rejeitada(0))
        .when(financeiro(1))
        .then(emitida(1), registrado(1), concluido('done', 1, 0, 1));
    });

    it('an older history whose financial step came first (deliveries crossed) is emitted by its outcome told again', () => {
      given(...duasPendentes, emitida(0), registrado(0), registrado(1))
        .when(financeiro(1))
        .then(emitida(1), concluido('done', 2, 0, 0));
    });

    it('every row refused or failed ends the batch failed', () => {
      given(...duasPendentes, rejeitada(0))
        .when(rejeitar(1))
        .then(rejeitada(1), concluido('failed', 0, 0, 2));
      const falha = { status: 'failed' as const, counter_cte_id: null, error: { code: 'cte_proprio', message: 'own' } };
      given(criado, processada(falha))
        .when(registrar({ ...linha1, ...falha }))
        .then(processada({ ...linha1, ...falha }), concluido('failed', 0, 0, 2));
    });

    it('a duplicated or emitted row among failed ones ends it done, counted by final state', () => {
      const dup = { ...linha1, status: 'duplicated' as const, counter_cte_id: 'other' };
      given(criado, processada(), rejeitada(0))
        .when(registrar(dup))
        .then(processada(dup), concluido('done', 0, 1, 1));
      given(...duasPendentes, rejeitada(0), emitida(1))
        .when(financeiro(1))
        .then(registrado(1), concluido('done', 1, 0, 1));
    });

    it('nothing ends while a row is missing, pending, or emitted without its financial step', () => {
      given(criado)
        .when(registrar({ status: 'failed', counter_cte_id: null, error: { code: 'x', message: 'y' } }))
        .then(processada({ status: 'failed', counter_cte_id: null, error: { code: 'x', message: 'y' } }));
      given(...duasPendentes)
        .when(financeiro(0))
        .then(emitida(0), registrado(0));
      given(...duasPendentes, emitida(0))
        .when(financeiro(0))
        .then(registrado(0));
    });

    it('a redelivered outcome appends nothing, and the end is not decided twice', () => {
      const fim = [...duasPendentes, emitida(0), registrado(0), emitida(1), registrado(1), concluido('done', 2, 0, 0)];
      given(...fim)
        .when(financeiro(1))
        .then();
      given(...fim)
        .when(financeiro(1, 'failed'))
        .then();
      given(...fim)
        .when(rejeitar(1))
        .then();
      given(...fim)
        .when(registrar({ ...linha1, counter_cte_id: 'cte-1' }))
        .then();
      // The first outcome stands: a refusal after the authorization (or the reverse) changes nothing.
      given(...duasPendentes, emitida(0))
        .when(rejeitar(0))
        .then();
      given(...duasPendentes, rejeitada(0))
        .when(financeiro(0))
        .then();
    });

    it("only the row's own document moves it: a duplicated row names another batch's", () => {
      const dup = processada({ status: 'duplicated', counter_cte_id: 'other' });
      given(criado, dup)
        .when(financeiro(0, 'ok', 'other'))
        .then();
      given(...duasPendentes)
        .when(financeiro(0, 'ok', 'cte-x'))
        .then();
    });

    it('refuses an outcome for a missing batch, another company, or a row never sent', () => {
      given().when(financeiro(0)).thenRejects('lote_nao_encontrado');
      given(...duasPendentes)
        .when({ ...financeiro(0), company_id: 'other' } as LoteCommand)
        .thenRejects('lote_nao_encontrado');
      given(criado).when(rejeitar(0)).thenRejects('regra_de_negocio');
      given(criado).when(financeiro(5)).thenRejects('regra_de_negocio');
    });

    it("fold and evolve agree over the rows' later life and the end", () => {
      const history = [...duasPendentes, emitida(0), registrado(0, 'failed'), rejeitada(1), concluido('done', 1, 0, 1)];
      const state = fold(loteDecider, history);
      expect(state).toEqual(history.reduce(loteDecider.evolve, loteDecider.initialState));
      expect(state.concluido).toBe('done');
      expect(state.processadas).toEqual({
        0: { status: 'emitted', counter_cte_id: 'cte-0', financeiro: 'failed' },
        1: { status: 'failed', counter_cte_id: 'cte-1', financeiro: null },
      });
    });
  });
});
