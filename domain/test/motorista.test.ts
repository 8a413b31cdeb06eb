import {
  fold,
  type MotoristaCommand,
  type MotoristaEvent,
  motoristaAtivoPorCpf,
  motoristaDecider,
  motoristasStream,
  problemasParcelas,
  validarChavePix,
} from '../src';
import { type MotoristaDados } from '@frete/contracts';
import { scenario } from './given-when-then';

const { given } = scenario(motoristaDecider);
const C = 'company-1';
const CPF = '52998224725';

const dados = (over: Partial<MotoristaDados> = {}): MotoristaDados => ({
  cpf: CPF,
  nome: 'JOAO DA SILVA',
  telefone: null,
  chave_pix: null,
  repasse: { modo: 'automatico', parcelas: [] },
  ...over,
});
const cadastrado = (id: number, over: Partial<MotoristaDados> = {}): MotoristaEvent => ({
  type: 'motorista.cadastrado',
  data: { company_id: C, motorista_id: id, dados: dados(over) },
});
const cadastrar = (d: Extract<MotoristaCommand, { type: 'CadastrarMotorista' }>['dados']): MotoristaCommand => ({
  type: 'CadastrarMotorista',
  company_id: C,
  dados: d,
});

describe('PIX key', () => {
  it.each([
    ['cpf', '529.982.247-25', '52998224725'],
    ['cnpj', '11.222.333/0001-81', '11222333000181'],
    ['email', ' Joao@Example.COM ', 'joao@example.com'],
    ['telefone', '+55 (11) 98765-4321', '+5511987654321'],
    ['telefone', '+551133334444', '+551133334444'],
    ['aleatoria', '123E4567-E89B-12D3-A456-426614174000', '123e4567-e89b-12d3-a456-426614174000'],
  ] as const)('%s %s → %s', (tipo, valor, normalized) => expect(validarChavePix(tipo, valor)).toEqual({ ok: true, valor: normalized }));

  it.each([
    ['cpf', '52998224724'],
    ['cpf', '11111111111'],
    ['cnpj', '11222333000180'],
    ['email', 'joao@'],
    ['email', 'joao example.com'],
    ['telefone', '11987654321'],
    ['telefone', '+55119876543210'],
    ['telefone', '+1 2025550123'],
    ['aleatoria', 'not-a-uuid'],
  ] as const)('refuses %s %s', (tipo, valor) => expect(validarChavePix(tipo, valor).ok).toBe(false));
});

describe('installment rule', () => {
  it('accepts none, one of 100, and 33.33/33.33/33.34 in any order', () => {
    expect(problemasParcelas([])).toEqual([]);
    expect(problemasParcelas([{ posicao: 1, percentual: 100, dias: 0 }])).toEqual([]);
    expect(
      problemasParcelas([
        { posicao: 3, percentual: 33.34, dias: 30 },
        { posicao: 1, percentual: 33.33, dias: 0 },
        { posicao: 2, percentual: 33.33, dias: 15 },
      ]),
    ).toEqual([]);
  });
  it('refuses a sum other than 100, repeated or gapped positions, dias 31, three decimals, more than 3', () => {
    expect(
      problemasParcelas([
        { posicao: 1, percentual: 60, dias: 0 },
        { posicao: 2, percentual: 30, dias: 0 },
      ]).map((p) => p.path),
    ).toEqual(['']);
    expect(
      problemasParcelas([
        { posicao: 1, percentual: 50, dias: 0 },
        { posicao: 1, percentual: 50, dias: 0 },
      ]).map((p) => p.path),
    ).toEqual(['1.posicao']);
    expect(
      problemasParcelas([
        { posicao: 1, percentual: 50, dias: 0 },
        { posicao: 3, percentual: 50, dias: 0 },
      ])[0]!.message,
    ).toMatch(/consecutive/);
    expect(problemasParcelas([{ posicao: 1, percentual: 100, dias: 31 }]).map((p) => p.path)).toEqual(['0.dias']);
    expect(
      problemasParcelas([
        { posicao: 1, percentual: 99.999, dias: 0 },
        { posicao: 2, percentual: 0.001, dias: 0 },
      ]).map((p) => p.path),
    ).toEqual(['0.percentual', '1.percentual']);
    expect(problemasParcelas([1, 2, 3, 4].map((posicao) => ({ posicao, percentual: 25, dias: 0 }))).map((p) => p.path)).toContain('');
  });
});

describe('motorista decider', () => {
  it('uses one stream per company', () => expect(motoristasStream(C)).toBe('motoristas-company-1'));

  it('registers the smallest body: automatic mode, no own rule', () =>
    given()
      .when(cadastrar({ cpf: '529.982.247-25', nome: '  JOAO  DA SILVA ' }))
      .then(cadastrado(1)));

  it('registers a full body normalized', () =>
    given()
      .when(
        cadastrar({
          cpf: CPF,
          nome: 'JOAO DA SILVA',
          telefone: '(11) 98765-4321',
          chave_pix: { tipo: 'email', valor: 'JOAO@EXAMPLE.COM' },
          repasse: {
            modo: 'manual',
            parcelas: [
              { posicao: 2, percentual: 40, dias: 10 },
              { posicao: 1, percentual: 60, dias: 0 },
            ],
          },
        }),
      )
      .then(
        cadastrado(1, {
          telefone: '+5511987654321',
          chave_pix: { tipo: 'email', valor: 'joao@example.com' },
          repasse: {
            modo: 'manual',
            parcelas: [
              { posicao: 1, percentual: 60, dias: 0 },
              { posicao: 2, percentual: 40, dias: 10 },
            ],
          },
        }),
      ));

  it('400 validacao names every invalid field', () =>
    given()
      .when(
        cadastrar({
          cpf: '52998224724',
          nome: 'JOAO',
          telefone: '123',
          chave_pix: { tipo: 'aleatoria', valor: 'x' },
          repasse: {
            parcelas: [
              { posicao: 1, percentual: 50, dias: 0 },
              { posicao: 2, percentual: 40, dias: 31 },
            ],
          },
        }),
      )
      .thenRejects('validacao', ['cpf', 'telefone', 'chave_pix.valor', 'repasse.parcelas.1.dias', 'repasse.parcelas']));

  it('422 motorista_duplicado for an active CPF; a removed CPF registers again under a new id', () => {
    given(cadastrado(1))
      .when(cadastrar({ cpf: '529.982.247-25', nome: 'OUTRO' }))
      .thenRejects('motorista_duplicado', ['cpf']);
    given(cadastrado(1), { type: 'motorista.removido', data: { company_id: C, motorista_id: 1, cpf: CPF } })
      .when(cadastrar({ cpf: CPF, nome: 'JOAO DA SILVA' }))
      .then(cadastrado(2));
  });

  it("replaces, refuses another driver's CPF, and appends nothing for the same data", () => {
    const other = cadastrado(2, { cpf: '11144477735', nome: 'MARIA' });
    given(cadastrado(1), other)
      .when({ type: 'AlterarMotorista', company_id: C, motorista_id: 1, dados: { cpf: CPF, nome: 'JOAO S', repasse: { modo: 'manual' } } })
      .then({
        type: 'motorista.alterado',
        data: { company_id: C, motorista_id: 1, dados: dados({ nome: 'JOAO S', repasse: { modo: 'manual', parcelas: [] } }) },
      });
    given(cadastrado(1), other)
      .when({ type: 'AlterarMotorista', company_id: C, motorista_id: 1, dados: { cpf: '111.444.777-35', nome: 'X Y' } })
      .thenRejects('motorista_duplicado');
    given(cadastrado(1))
      .when({ type: 'AlterarMotorista', company_id: C, motorista_id: 1, dados: { cpf: CPF, nome: 'JOAO DA SILVA' } })
      .then();
  });

  it('nao_encontrado for an unknown id; removes', () => {
    given().when({ type: 'RemoverMotorista', company_id: C, motorista_id: 1 }).thenRejects('nao_encontrado');
    given(cadastrado(1))
      .when({ type: 'RemoverMotorista', company_id: C, motorista_id: 1 })
      .then({ type: 'motorista.removido', data: { company_id: C, motorista_id: 1, cpf: CPF } });
  });
});

describe('motorista registry state', () => {
  const history: MotoristaEvent[] = [
    cadastrado(1),
    cadastrado(2, { cpf: '11144477735', nome: 'MARIA' }),
    { type: 'motorista.alterado', data: { company_id: C, motorista_id: 1, dados: dados({ nome: 'JOAO S' }) } },
    { type: 'motorista.removido', data: { company_id: C, motorista_id: 2, cpf: '11144477735' } },
  ];

  it('folds the whole history as evolving event by event does', () =>
    expect(fold(motoristaDecider, history)).toEqual(history.reduce(motoristaDecider.evolve, motoristaDecider.initialState)));

  it('finds the active driver by CPF; a removed one is gone, and ids stay spent', () => {
    const state = fold(motoristaDecider, history);
    expect(motoristaAtivoPorCpf(state, CPF)).toEqual(dados({ nome: 'JOAO S' }));
    expect(motoristaAtivoPorCpf(state, '11144477735')).toBeUndefined();
    expect(state.proximo_id).toBe(3);
  });

  it('evolving never changes the state it was given', () => {
    const before = fold(motoristaDecider, history.slice(0, 2));
    const copy = JSON.parse(JSON.stringify(before));
    motoristaDecider.evolve(before, history[3]!);
    expect(before).toEqual(copy);
  });
});
