import {
  type VeiculoCommand,
  type VeiculoEvent,
  isValidPlaca,
  isValidRenavam,
  normalizePlaca,
  normalizeRenavam,
  renavamCheckDigit,
  veiculoDecider,
  veiculosStream,
} from '../src';
import { type VeiculoDados } from '@frete/contracts';
import { scenario } from './given-when-then';
import { veiculoDados } from './veiculo-dados';

const { given } = scenario(veiculoDecider);
const C = 'company-1';

const dados = veiculoDados;
const cadastrado = (id: number, over: Partial<VeiculoDados> = {}): VeiculoEvent => ({
  type: 'veiculo.cadastrado',
  data: { company_id: C, veiculo_id: id, dados: dados(over) },
});
const removido = (id: number, placa = 'ABC1D23'): VeiculoEvent => ({
  type: 'veiculo.removido',
  data: { company_id: C, veiculo_id: id, placa },
});
const cadastrar = (dadosInput: Extract<VeiculoCommand, { type: 'CadastrarVeiculo' }>['dados']): VeiculoCommand => ({
  type: 'CadastrarVeiculo',
  company_id: C,
  dados: dadosInput,
});

describe('plate', () => {
  it.each(['ABC1234', 'ABC1D23', 'abc-1234', 'abc1d23', ' ABC 1D23 '])('accepts %s', (p) => expect(isValidPlaca(p)).toBe(true));
  it.each(['AB1234', 'ABCD123', 'ABC12345', 'ABC1DD3', '1BC1234', 'ABÇ1234', ''])('refuses %s', (p) => expect(isValidPlaca(p)).toBe(false));
  it('normalizes to upper case without hyphen', () => expect(normalizePlaca('abc-1d23')).toBe('ABC1D23'));
});

describe('RENAVAM', () => {
  it('pads to 11 digits and checks the digit with weights 3,2,9,8,7,6,5,4,3,2', () => {
    expect(renavamCheckDigit('0063960054')).toBe(9);
    expect(isValidRenavam('00639600549')).toBe(true);
    expect(isValidRenavam('639600549')).toBe(true); // 9 digits, padded
    expect(normalizeRenavam('639600549')).toBe('00639600549');
    expect(isValidRenavam('12345678900')).toBe(true); // (sum*10) % 11 = 10 → 0
  });
  it('refuses a wrong check digit, a wrong length and all zeros', () => {
    expect(isValidRenavam('00639600548')).toBe(false);
    expect(isValidRenavam('12345678')).toBe(false);
    expect(isValidRenavam('123456789012')).toBe(false);
    expect(isValidRenavam('00000000000')).toBe(false);
    expect(isValidRenavam('0063960054A')).toBe(false);
  });
});

describe('veiculo decider', () => {
  it('uses one stream per company', () => expect(veiculosStream(C)).toBe('veiculos-company-1'));

  it('registers the smallest body with id 1, plate normalized, tipo tracao', () =>
    given()
      .when(cadastrar({ placa: 'abc-1d23' }))
      .then(cadastrado(1)));

  it('registers a full body normalized (RENAVAM padded, owner CPF unpunctuated)', () =>
    given()
      .when(
        cadastrar({
          placa: 'XYZ9876',
          renavam: '639600549',
          rntrc: '12345678',
          uf: 'SP',
          tara_kg: 7000,
          capacidade_kg: 23000,
          capacidade_m3: 90,
          tipo_rodado: '03',
          tipo_carroceria: '02',
          tipo: 'reboque',
          proprietario: { documento: '529.982.247-25', nome: ' JOAO DA SILVA ', rntrc: '87654321', tipo_proprietario: 0 },
        }),
      )
      .then(
        cadastrado(1, {
          placa: 'XYZ9876',
          renavam: '00639600549',
          rntrc: '12345678',
          uf: 'SP',
          tara_kg: 7000,
          capacidade_kg: 23000,
          capacidade_m3: 90,
          tipo_rodado: '03',
          tipo_carroceria: '02',
          tipo: 'reboque',
          proprietario: {
            documento: '52998224725',
            tipo_documento: 'CPF',
            nome: 'JOAO DA SILVA',
            rntrc: '87654321',
            ie: null,
            uf: null,
            tipo_proprietario: 0,
          },
        }),
      ));

  it('accepts an owner CNPJ', () =>
    given()
      .when(
        cadastrar({
          placa: 'ABC1D23',
          proprietario: { documento: '11.222.333/0001-81', nome: 'ACME', rntrc: '12345678', ie: 'ISENTO', uf: 'MG', tipo_proprietario: 2 },
        }),
      )
      .then(
        cadastrado(1, {
          proprietario: {
            documento: '11222333000181',
            tipo_documento: 'CNPJ',
            nome: 'ACME',
            rntrc: '12345678',
            ie: 'ISENTO',
            uf: 'MG',
            tipo_proprietario: 2,
          },
        }),
      ));

  it('draws the next id', () =>
    given(cadastrado(1), cadastrado(2, { placa: 'XYZ1234' }))
      .when(cadastrar({ placa: 'QWE1234' }))
      .then(cadastrado(3, { placa: 'QWE1234' })));

  it('400 validacao names every invalid field', () =>
    given()
      .when(
        cadastrar({
          placa: 'AB-12',
          renavam: '00639600548',
          proprietario: { documento: '52998224724', nome: 'X Y', rntrc: '12345678', tipo_proprietario: 1 },
        }),
      )
      .thenRejects('validacao', ['placa', 'renavam', 'proprietario.documento']));

  it('refuses a RENAVAM of the wrong length', () =>
    given()
      .when(cadastrar({ placa: 'ABC1234', renavam: '1234' }))
      .thenRejects('validacao', ['renavam']));

  it('422 veiculo_duplicado for an active plate, in any form', () =>
    given(cadastrado(1))
      .when(cadastrar({ placa: 'abc-1d23' }))
      .thenRejects('veiculo_duplicado', ['placa']));

  it('a removed plate registers again under a new id', () =>
    given(cadastrado(1), removido(1))
      .when(cadastrar({ placa: 'ABC1D23' }))
      .then(cadastrado(2)));

  it('replaces the data; the same data appends nothing', () => {
    given(cadastrado(1))
      .when({ type: 'AlterarVeiculo', company_id: C, veiculo_id: 1, dados: { placa: 'ABC1D24', uf: 'PR' } })
      .then({ type: 'veiculo.alterado', data: { company_id: C, veiculo_id: 1, dados: dados({ placa: 'ABC1D24', uf: 'PR' }) } });
    given(cadastrado(1))
      .when({ type: 'AlterarVeiculo', company_id: C, veiculo_id: 1, dados: { placa: 'ABC-1D23' } })
      .then();
  });

  it('a change to another active plate is veiculo_duplicado; a plate freed by a change is free', () => {
    const two = [cadastrado(1), cadastrado(2, { placa: 'XYZ1234' })];
    given(...two)
      .when({ type: 'AlterarVeiculo', company_id: C, veiculo_id: 2, dados: { placa: 'ABC1D23' } })
      .thenRejects('veiculo_duplicado');
    const moved: VeiculoEvent = { type: 'veiculo.alterado', data: { company_id: C, veiculo_id: 1, dados: dados({ placa: 'QQQ1111' }) } };
    given(...two, moved)
      .when(cadastrar({ placa: 'ABC1D23' }))
      .then(cadastrado(3));
  });

  it('nao_encontrado to change or remove an unknown or removed id', () => {
    given(cadastrado(1))
      .when({ type: 'AlterarVeiculo', company_id: C, veiculo_id: 2, dados: { placa: 'ABC1234' } })
      .thenRejects('nao_encontrado');
    given(cadastrado(1), removido(1)).when({ type: 'RemoverVeiculo', company_id: C, veiculo_id: 1 }).thenRejects('nao_encontrado');
  });

  it('removes', () => given(cadastrado(1)).when({ type: 'RemoverVeiculo', company_id: C, veiculo_id: 1 }).then(removido(1)));
});
