import { registroHandler } from '../../services/application/src/cadastros/handler';
import { motoristasStream, registroMotoristas, registroRegrasTributacao, registroVeiculos, veiculosStream } from '@frete/domain';
import { motoristaLinha, regraTributacaoLinha, veiculoLinha } from '@frete/projections';
import { AGORA, EMPRESA, especificacaoDeHandler, naStream } from '../support/especificacao';
import { veiculoDados } from '../../domain/test/veiculo-dados';

/**
 * The registries' handler (`registroHandler`) at the handler level: the same facts as test/api/motoristas,
 * veiculos and regras-tributacao assert over HTTP, without PostgreSQL. The rules of each registry are the domain's
 * (domain/test); these check what the handler adds: the stream it writes, the answer built from the log, the refusals.
 */
const CPF = '52998224725';
const CPF2 = '11144477735';
const motoristas = motoristasStream(EMPRESA);
const padrao = { telefone: null, chave_pix: null, repasse: { modo: 'automatico' as const, parcelas: [] } };
const motorista = (id: number, cpf = CPF, nome = 'João da Silva') => ({
  type: 'motorista.cadastrado' as const,
  data: { company_id: EMPRESA, motorista_id: id, dados: { cpf, nome, ...padrao } },
});

describe('motorista handler (registroHandler over registroMotoristas)', () => {
  const spec = especificacaoDeHandler(({ store }) => registroHandler({ store }, registroMotoristas, motoristaLinha));

  it('registers the smallest body (masked CPF) under id 1, in automatic mode, and answers the row from the log', async () => {
    const row = await spec
      .given()
      .when((h, ctx) => h.cadastrar(ctx, { cpf: '529.982.247-25', nome: ' João  da Silva ' }))
      .then({ stream: motoristas, ...motorista(1) });
    expect(row).toEqual({
      company_id: EMPRESA,
      id: 1,
      cpf: CPF,
      nome: 'João da Silva',
      ...padrao,
      cadastrado_em: AGORA,
      atualizado_em: AGORA,
    });
  });

  it('never reuses an id: after a removal the CPF registers again under the next id', () =>
    spec
      .given(naStream(motoristas, motorista(1), { type: 'motorista.removido', data: { company_id: EMPRESA, motorista_id: 1, cpf: CPF } }))
      .when((h, ctx) => h.cadastrar(ctx, { cpf: CPF, nome: 'João da Silva' }))
      .then(motorista(2)));

  it('422 motorista_duplicado for an active CPF, on a registration and on a change to another entry', async () => {
    const given = spec.given(naStream(motoristas, motorista(1), motorista(2, CPF2, 'Maria Souza')));
    await given.when((h, ctx) => h.cadastrar(ctx, { cpf: '529.982.247-25', nome: 'Outro' })).thenRejects('motorista_duplicado', ['cpf']);
    await given.when((h, ctx) => h.alterar(ctx, 2, { cpf: CPF, nome: 'Maria' })).thenRejects('motorista_duplicado', ['cpf']);
  });

  it('another company may hold the same CPF: its registry is another stream', () =>
    especificacaoDeHandler(({ store }) => registroHandler({ store }, registroMotoristas, motoristaLinha), { companyId: 'outra' })
      .given(naStream(motoristas, motorista(1)))
      .when((h, ctx) => h.cadastrar(ctx, { cpf: CPF, nome: 'João' }))
      .then({
        stream: motoristasStream('outra'),
        type: 'motorista.cadastrado',
        data: { company_id: 'outra', motorista_id: 1, dados: { cpf: CPF, nome: 'João', ...padrao } },
      }));

  it('400 validacao naming every invalid field, appending nothing', () =>
    spec
      .given()
      .when((h, ctx) => h.cadastrar(ctx, { cpf: '529.982.247-24', nome: 'J', telefone: '123' }))
      .thenRejects('validacao', ['cpf', 'nome', 'telefone']));

  it('a change replaces the data (absent fields back to the defaults); the same data again appends nothing', async () => {
    const given = spec.given(
      naStream(motoristas, {
        type: 'motorista.cadastrado',
        data: {
          company_id: EMPRESA,
          motorista_id: 1,
          dados: { cpf: CPF, nome: 'João', telefone: '+5511987654321', chave_pix: null, repasse: { modo: 'manual', parcelas: [] } },
        },
      }),
    );
    const alterar = given.when((h, ctx) => h.alterar(ctx, 1, { cpf: CPF, nome: 'João S.' }));
    const row = await alterar.then({
      type: 'motorista.alterado',
      data: { company_id: EMPRESA, motorista_id: 1, dados: { cpf: CPF, nome: 'João S.', ...padrao } },
    });
    expect(row).toMatchObject({ id: 1, nome: 'João S.', telefone: null, repasse: { modo: 'automatico', parcelas: [] } });
    await alterar.again().thenNothing();
  });

  it('404 nao_encontrado for an unknown or removed id (changed or removed); removing twice is refused the second time', async () => {
    const given = spec.given(naStream(motoristas, motorista(1)));
    await given.when((h, ctx) => h.alterar(ctx, 9, { cpf: CPF2, nome: 'X Y' })).thenRejects('nao_encontrado');
    await given.when((h, ctx) => h.remover(ctx, 9)).thenRejects('nao_encontrado');
    const remover = given.when((h, ctx) => h.remover(ctx, 1));
    await remover.then({ type: 'motorista.removido', data: { company_id: EMPRESA, motorista_id: 1, cpf: CPF } });
    await remover.again().thenRejects('nao_encontrado');
  });
});

describe('veiculo handler (registroHandler over registroVeiculos)', () => {
  const spec = especificacaoDeHandler(({ store }) => registroHandler({ store }, registroVeiculos, veiculoLinha));
  const veiculo = (id: number, placa = 'ABC1D23') => ({
    type: 'veiculo.cadastrado' as const,
    data: { company_id: EMPRESA, veiculo_id: id, dados: veiculoDados({ placa }) },
  });

  it('registers a plate normalized, on the company’s registry stream, and answers the row', async () => {
    const row = await spec
      .given()
      .when((h, ctx) => h.cadastrar(ctx, { placa: 'abc-1d23' }))
      .then({ stream: veiculosStream(EMPRESA), ...veiculo(1) });
    expect(row).toMatchObject({ id: 1, placa: 'ABC1D23', cadastrado_em: AGORA });
  });

  it('422 veiculo_duplicado for an active plate; 400 validacao for a bad plate and RENAVAM', async () => {
    const given = spec.given(naStream(veiculosStream(EMPRESA), veiculo(1)));
    await given.when((h, ctx) => h.cadastrar(ctx, { placa: 'ABC1D23' })).thenRejects('veiculo_duplicado', ['placa']);
    await given.when((h, ctx) => h.cadastrar(ctx, { placa: 'AB-12', renavam: '1234' })).thenRejects('validacao', ['placa', 'renavam']);
  });

  it('the same data again appends nothing and answers the entry unchanged', async () => {
    const row = await spec
      .given(naStream(veiculosStream(EMPRESA), veiculo(1)))
      .when((h, ctx) => h.alterar(ctx, 1, { placa: 'ABC1D23' }))
      .thenNothing();
    expect(row).toMatchObject({ id: 1, placa: 'ABC1D23' });
  });
});

describe('regra de tributação handler (registroHandler over registroRegrasTributacao)', () => {
  const spec = especificacaoDeHandler(({ store }) => registroHandler({ store }, registroRegrasTributacao, regraTributacaoLinha));
  const stream = registroRegrasTributacao.stream(EMPRESA);
  const minima = { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '00' as const, aliquota: 12 } };
  const criada = {
    type: 'regra_tributacao.criada' as const,
    data: {
      company_id: EMPRESA,
      regra_id: 1,
      regra: {
        uf_origem: 'SP',
        uf_destino: 'RJ',
        tp_serv: null,
        cfop: null,
        icms: { cst: '00' as const, aliquota_centesimos: 1200, reducao_base_centesimos: null },
        ibs_cbs: null,
      },
    },
  };

  it('creates the smallest rule, rates in hundredths, and answers it', async () => {
    const row = await spec
      .given()
      .when((h, ctx) => h.cadastrar(ctx, minima))
      .then({ stream, ...criada });
    expect(row).toMatchObject({
      regra_id: 1,
      uf_origem: 'SP',
      uf_destino: 'RJ',
      icms_aliquota: 1200,
      criada_em: AGORA,
      atualizada_em: AGORA,
    });
  });

  it('422 regra_tributacao_duplicada for the same UF pair and service type; removing frees the key', async () => {
    await spec
      .given(naStream(stream, criada))
      .when((h, ctx) => h.cadastrar(ctx, minima))
      .thenRejects('regra_tributacao_duplicada');
    await spec
      .given(naStream(stream, criada))
      .andCalled((h, ctx) => h.remover(ctx, 1))
      .when((h, ctx) => h.cadastrar(ctx, minima))
      .then({ ...criada, data: { ...criada.data, regra_id: 2 } });
  });
});
