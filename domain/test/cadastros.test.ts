import {
  documentoDoTitular,
  formatCpf,
  inferirTipoChavePix,
  lerChavePix,
  lerConsultaFrota,
  lerConsultaRntrc,
  lerDocumentoParam,
  mascararCpf,
  mascararNome,
  Rejection,
  situacaoAgregado,
} from '../src';

const rejected = (fn: () => unknown): Rejection => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(Rejection);
    return err as Rejection;
  }
  throw new Error('expected a rejection');
};
const fieldsOf = (r: Rejection) => r.details?.fields?.map((f) => f.field);

describe('masking of a PIX key holder', () => {
  it.each([
    ['JOAO DA SILVA', 'JOAO D* S****'],
    ['JOAO DA SILVA SANTOS', 'JOAO D* S**** S*****'],
    ['  MARIA   E  SOUZA ', 'MARIA E S****'],
    ['ANA', 'ANA'],
    ['JOSÉ ÁLVARES', 'JOSÉ Á******'],
  ])('%s → %s', (nome, mascarado) => expect(mascararNome(nome)).toBe(mascarado));

  it('shows only digits 4 to 9 of a CPF', () => {
    expect(mascararCpf('52998224725')).toBe('***.982.247-**');
    expect(mascararCpf('529.982.247-25')).toBe('***.982.247-**');
    expect(mascararCpf('123')).toBe('***.***.***-**');
    expect(formatCpf('52998224725')).toBe('529.982.247-25');
  });

  it("a holder's CPF is masked, a CNPJ shown in full", () => {
    expect(documentoDoTitular('52998224725')).toBe('***.982.247-**');
    expect(documentoDoTitular('11222333000181')).toBe('11.222.333/0001-81');
  });
});

describe('PIX key of a check', () => {
  it.each([
    ['123e4567-e89b-12d3-a456-426614174000', 'aleatoria'],
    ['joao@example.com', 'email'],
    ['+55 11 98765-4321', 'telefone'],
    ['529.982.247-25', 'cpf'],
    ['52998224725', 'cpf'],
    ['11.222.333/0001-81', 'cnpj'],
    ['12ABC34501DE35', 'cnpj'],
    ['hello', null],
    ['1198765432', null],
  ])('infers %s as %s', (chave, tipo) => expect(inferirTipoChavePix(chave)).toBe(tipo));

  it("validates and normalizes with the registry's rule (validarChavePix)", () => {
    expect(lerChavePix(undefined, ' Joao@Example.COM ')).toEqual({ tipo: 'email', valor: 'joao@example.com' });
    expect(lerChavePix(undefined, '+55 (11) 98765-4321')).toEqual({ tipo: 'telefone', valor: '+5511987654321' });
    expect(lerChavePix('cpf', '529.982.247-25')).toEqual({ tipo: 'cpf', valor: '52998224725' });
    expect(lerChavePix(undefined, '123E4567-E89B-12D3-A456-426614174000')).toEqual({
      tipo: 'aleatoria',
      valor: '123e4567-e89b-12d3-a456-426614174000',
    });
  });

  it('400 validacao on chave: unknown shape, wrong check digits, a phone without +55, a type that does not fit', () => {
    for (const [tipo, chave] of [
      [undefined, 'hello'],
      [undefined, '52998224724'],
      ['telefone', '11987654321'],
      ['cnpj', '52998224725'],
      ['aleatoria', 'x'],
    ] as const) {
      const r = rejected(() => lerChavePix(tipo, chave));
      expect(r.code).toBe('validacao');
      expect(fieldsOf(r)).toEqual(['chave']);
    }
    expect(rejected(() => lerChavePix(undefined, '52998224724')).message).toMatch(/\+55/);
  });
});

describe('regulator query parameters', () => {
  it('RNTRC: CPF or CNPJ (alphanumeric too) and 8 or 9 digits', () => {
    expect(lerConsultaRntrc({ documento: '529.982.247-25', rntrc: '000000000' })).toEqual({
      documento: '52998224725',
      tipo_documento: 'CPF',
      rntrc: '000000000',
    });
    expect(lerConsultaRntrc({ documento: '12.ABC.345/01DE-35', rntrc: '1234-5678' })).toEqual({
      documento: '12ABC34501DE35',
      tipo_documento: 'CNPJ',
      rntrc: '12345678',
    });
    expect(fieldsOf(rejected(() => lerConsultaRntrc({ documento: '52998224724', rntrc: '1234567' })))).toEqual([
      'querystring.documento',
      'querystring.rntrc',
    ]);
    expect(fieldsOf(rejected(() => lerConsultaRntrc({ documento: '11222333000180', rntrc: '1234567890' })))).toEqual([
      'querystring.documento',
      'querystring.rntrc',
    ]);
    expect(rejected(() => lerConsultaRntrc({ documento: 'abc', rntrc: '12345678' })).message).toMatch(/not a CPF/);
  });

  it('fleet: plates normalized, in order; comma-separated or repeated', () => {
    expect(lerConsultaFrota({ documento: '11222333000181', placas: 'abc-1234, zzz0x00,ABC1D23' }).placas).toEqual([
      'ABC1234',
      'ZZZ0X00',
      'ABC1D23',
    ]);
    expect(lerConsultaFrota({ documento: '11222333000181', placas: ['abc1234', 'ZZZ9X99,XYZ9876'] }).placas).toEqual([
      'ABC1234',
      'ZZZ9X99',
      'XYZ9876',
    ]);
    const fifty = Array.from({ length: 50 }, (_, i) => `ABC${String(1000 + i)}`);
    expect(lerConsultaFrota({ documento: '11222333000181', placas: fifty.join(',') }).placas).toHaveLength(50);
  });

  it('fleet: 400 for a bad, empty or repeated plate (0-based), more than 50, a bad document', () => {
    expect(fieldsOf(rejected(() => lerConsultaFrota({ documento: '11222333000181', placas: 'ABC1234,AB12345,,abc-1234' })))).toEqual([
      'querystring.placas.1',
      'querystring.placas.2',
      'querystring.placas.3',
    ]);
    const many = Array.from({ length: 51 }, (_, i) => `ABC${String(1000 + i)}`).join(',');
    expect(fieldsOf(rejected(() => lerConsultaFrota({ documento: 'x', placas: many })))).toEqual([
      'querystring.documento',
      'querystring.placas',
    ]);
  });

  it('a document in a path: 400 on params.documento', () => {
    expect(lerDocumentoParam('11.222.333/0001-81')).toEqual({ documento: '11222333000181', tipo_documento: 'CNPJ' });
    expect(fieldsOf(rejected(() => lerDocumentoParam('11222333000182')))).toEqual(['params.documento']);
  });
});

describe('onboarding of an aggregate driver', () => {
  const pix = { tipo: 'cpf' as const, valor: '52998224725' };
  const base = { tipo_documento: 'CPF' as const, motorista: { chave_pix: pix }, rntrcs: ['12345678'], rntrc: 'ativo' as const };
  const codes = (s: ReturnType<typeof situacaoAgregado>) => s.pendencias.map((p) => p.code);

  it('ativo with nothing pending', () => expect(situacaoAgregado(base)).toEqual({ estado: 'ativo', pendencias: [] }));

  it('cadastro_incompleto without a driver record, without a PIX key, or with different RNTRCs; lists every item', () => {
    const semMotorista = situacaoAgregado({ ...base, motorista: null, rntrc: 'inativo' });
    expect(semMotorista.estado).toBe('cadastro_incompleto');
    expect(codes(semMotorista)).toEqual(['motorista_nao_cadastrado', 'rntrc_inativo']);
    expect(semMotorista.pendencias[0]!.message).toMatch(/CPF/);
    expect(situacaoAgregado({ ...base, tipo_documento: 'CNPJ', motorista: null }).pendencias[0]!.message).toMatch(/PIX key is this CNPJ/);
    expect(codes(situacaoAgregado({ ...base, motorista: { chave_pix: null } }))).toEqual(['chave_pix_ausente']);
    const divergente = situacaoAgregado({ ...base, rntrcs: ['12345678', '87654321'] });
    expect(divergente).toMatchObject({
      estado: 'cadastro_incompleto',
      pendencias: [{ code: 'rntrc_divergente', message: expect.stringContaining('12345678, 87654321') }],
    });
  });

  it('aguardando_rntrc when only the regulator is missing: inactive or not verified', () => {
    expect(situacaoAgregado({ ...base, rntrc: 'inativo' })).toMatchObject({
      estado: 'aguardando_rntrc',
      pendencias: [{ code: 'rntrc_inativo' }],
    });
    expect(situacaoAgregado({ ...base, rntrc: 'nao_verificado' })).toMatchObject({
      estado: 'aguardando_rntrc',
      pendencias: [{ code: 'rntrc_nao_verificado' }],
    });
  });
});
