import { type CteLido, type MdfeDados } from '@frete/contracts';
import {
  chaveDeAcesso,
  cpfsDosCondutores,
  type CteDoMdfeComInicio,
  cteDoMdfe,
  exigirCondutorNovo,
  faltasDoVeiculo,
  fold,
  mdfeDecider,
  type MdfeEvent,
  MDFE,
  numeracaoDecider,
  proximoEventoMdfe,
  type Rejection,
  isValidAccessKey,
  rotaDoMdfe,
  type VeiculoCadastrado,
  veiculoDoMdfe,
} from '../src';

const ctx = { now: new Date('2026-11-20T13:00:00Z') };
const C = 'company-1';
const M = 'mdfe-1';
const dados: MdfeDados = {
  ctes: [
    {
      cte_id: 'c1',
      chave: '3'.repeat(44),
      valor_carga_centavos: 100,
      peso_gramas: 1000,
      descarga: { codigo_ibge: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ' },
    },
  ],
  veiculo: {
    placa: 'ABC1D23',
    renavam: null,
    tara_kg: 1,
    capacidade_kg: null,
    capacidade_m3: null,
    tipo_rodado: '03',
    tipo_carroceria: '02',
    uf: 'SP',
  },
  reboques: [],
  motoristas: [{ cpf: '52998224725', nome: 'JOAO' }],
  uf_inicio: 'SP',
  uf_fim: 'RJ',
  percurso: [],
  carregamento: [{ codigo_ibge: '3509502', municipio: 'Campinas', uf: 'SP' }],
  observacoes: null,
  // One CT-e is a carga lotação (NT 2025.001 v1.03, F55a/F55b): NCM and payment.
  produto_predominante: { tipo_carga: '05', descricao: 'PECAS', ncm: '87089990' },
  pagamentos: [
    {
      responsavel: { nome: null, documento: '45997418000153' },
      componentes: [{ tipo: '04', valor_centavos: 100, descricao: null }],
      valor_contrato_centavos: 100,
      indicador_pagamento: '0',
      valor_adiantamento_centavos: null,
      parcelas: [],
      banco: { codigo_banco: '001', codigo_agencia: '1234' },
    },
  ],
};
const criado: MdfeEvent = { type: 'mdfe.criado', data: { mdfe_id: M, company_id: C, ambiente: 'homologacao', dados } };
const solicitado: MdfeEvent = { type: 'mdfe.emissao_solicitada', data: { mdfe_id: M, company_id: C, serie: 1 } };
const assinado: MdfeEvent = {
  type: 'mdfe.xml_assinado',
  data: { mdfe_id: M, company_id: C, chave: 'K', serie: 1, numero: 1, data_emissao: 'd', sha256: 's' },
};
const protocolo = { numero: '935260000000001', recebido_em: 'x', cstat: 100, motivo: 'ok' };
const autorizado: MdfeEvent = { type: 'mdfe.autorizado', data: { mdfe_id: M, company_id: C, chave: 'K', protocolo, sha256: 'p' } };
const given = (...events: MdfeEvent[]) => fold(mdfeDecider, events);
const when = (events: MdfeEvent[], c: Parameters<typeof mdfeDecider.decide>[0]) => mdfeDecider.decide(c, given(...events), ctx);
const rejection = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e as Rejection;
  }
  throw new Error('no rejection');
};

describe('mdfe decider', () => {
  it('creates once', () => {
    expect(when([], { type: 'CriarMdfe', mdfe_id: M, company_id: C, environment: 'homologacao', dados })).toEqual([criado]);
    expect(when([criado], { type: 'CriarMdfe', mdfe_id: M, company_id: C, environment: 'homologacao', dados })).toEqual([]);
    expect(
      rejection(() =>
        when([], { type: 'CriarMdfe', mdfe_id: M, company_id: C, environment: 'homologacao', dados: { ...dados, motoristas: [] } }),
      ).code,
    ).toBe('validacao');
  });

  it('refuses an MDF-e the authority would reject by the ANTT rules of NT 2025.001 v1.03 (422 mdfe_regra_antt naming the rule)', () => {
    const criar = (d: MdfeDados) => () => when([], { type: 'CriarMdfe', mdfe_id: M, company_id: C, environment: 'homologacao', dados: d });
    const semNcm = rejection(criar({ ...dados, produto_predominante: { tipo_carga: '05', descricao: 'PECAS', ncm: null } }));
    expect(semNcm.code).toBe('mdfe_regra_antt');
    expect(semNcm.message).toContain('301 (F55a)');
    expect(semNcm.details).toMatchObject({ cStat: '301', fields: [{ field: 'produto_predominante.ncm' }] });
    const semNada = rejection(criar({ ...dados, produto_predominante: null, pagamentos: [] }));
    expect((semNada.details?.rejeicoes as { cStat: string }[]).map((r) => r.cStat)).toEqual(['301', '302']);
    const tac = rejection(criar({ ...dados, rntrc_tac: true }));
    expect(tac.details).toMatchObject({ cStat: '304', fields: [{ field: 'ciot' }] });
    expect(criar({ ...dados, rntrc_tac: true, ciot: [{ codigo: '123456789012', responsavel: '52998224725' }] })()).toHaveLength(1);
    // Two CT-e are not a carga lotação: no group is required.
    const dois = { ...dados, ctes: [...dados.ctes, { ...dados.ctes[0]!, cte_id: 'c2' }], produto_predominante: null, pagamentos: [] };
    expect(criar(dois)()).toHaveLength(1);
  });

  it('issue: requested once; another company is not found; authorized is not issued again', () => {
    expect(when([criado], { type: 'SolicitarEmissaoMdfe', mdfe_id: M, company_id: C, serie: 1 })).toEqual([solicitado]);
    expect(when([criado, solicitado], { type: 'SolicitarEmissaoMdfe', mdfe_id: M, company_id: C, serie: 1 })).toEqual([]);
    expect(rejection(() => when([criado], { type: 'SolicitarEmissaoMdfe', mdfe_id: M, company_id: 'other', serie: 1 })).code).toBe(
      'nao_encontrado',
    );
    expect(
      rejection(() =>
        when([criado, solicitado, assinado, autorizado], { type: 'SolicitarEmissaoMdfe', mdfe_id: M, company_id: C, serie: 1 }),
      ).code,
    ).toBe('mdfe_nao_editavel');
  });

  it('keeps the first signed XML; records the verdict only while processing', () => {
    expect(
      when([criado, solicitado, assinado], { type: 'RegistrarXmlAssinadoMdfe', data: { ...assinado.data, sha256: 'other' } as never }),
    ).toEqual([]);
    expect(when([criado, solicitado, assinado], { type: 'RegistrarAutorizacaoMdfe', data: autorizado.data as never })).toEqual([
      autorizado,
    ]);
    expect(when([criado, solicitado, assinado, autorizado], { type: 'RegistrarAutorizacaoMdfe', data: autorizado.data as never })).toEqual(
      [],
    );
    const s = given(criado, solicitado, assinado, autorizado);
    expect(s).toMatchObject({ situacao: 'autorizado', n_prot: '935260000000001', chave: 'K' });
    const rej: MdfeEvent = { type: 'mdfe.rejeitado', data: { mdfe_id: M, company_id: C, cstat: 611, motivo: 'x' } };
    expect(given(criado, solicitado, assinado, rej)).toMatchObject({ situacao: 'rejeitado', emissao: null, chave: null });
  });

  it('events: need an authorized MDF-e; drivers take the next sequence; cancel and close change the situation', () => {
    expect(rejection(() => proximoEventoMdfe(given(criado), 'cancelamento')).code).toBe('mdfe_nao_autorizado');
    const auth = [criado, solicitado, assinado, autorizado];
    expect(proximoEventoMdfe(given(...auth), 'condutor')).toMatchObject({ tp_evento: '110114', n_seq: 1, pendente: null });
    const base = { mdfe_id: M, company_id: C, protocolo, sha256: 'e' };
    const cond: MdfeEvent = {
      type: 'mdfe.evento_registrado',
      data: { ...base, tipo: 'condutor', tp_evento: '110114', n_seq: 1, dados: { condutor: { cpf: '11144477735', nome: 'MARIA' } } },
    };
    const s = given(...auth, cond);
    expect(s.condutores.map((x) => x.cpf)).toEqual(['52998224725', '11144477735']);
    expect(proximoEventoMdfe(s, 'condutor').n_seq).toBe(2);
    const pend: MdfeEvent = {
      type: 'mdfe.evento_pendente',
      data: {
        mdfe_id: M,
        company_id: C,
        tipo: 'cancelamento',
        tp_evento: '110111',
        n_seq: 1,
        dados: { justificativa: 'J'.repeat(15) },
        sha256: 'signed',
        motivo: '105',
      },
    };
    const p = proximoEventoMdfe(given(...auth, pend), 'cancelamento');
    expect(p.pendente).toMatchObject({ sha256: 'signed', dados: { justificativa: 'J'.repeat(15) } });
    expect(rejection(() => proximoEventoMdfe(given(...auth, pend), 'encerramento')).code).toBe('regra_de_negocio');
    const canc: MdfeEvent = {
      type: 'mdfe.evento_registrado',
      data: { ...base, tipo: 'cancelamento', tp_evento: '110111', n_seq: 1, dados: {} },
    };
    expect(given(...auth, pend, canc).situacao).toBe('cancelado');
    expect(when([...auth, pend, canc], { type: 'RegistrarEventoMdfe', data: canc.data as never })).toEqual([]);
    const enc: MdfeEvent = {
      type: 'mdfe.evento_registrado',
      data: { ...base, tipo: 'encerramento', tp_evento: '110112', n_seq: 1, dados: {} },
    };
    expect(given(...auth, enc).situacao).toBe('encerrado');
    expect(rejection(() => proximoEventoMdfe(given(...auth, enc), 'condutor')).code).toBe('mdfe_nao_autorizado');
  });
});

describe('numeracao_mdfe and the model-58 key', () => {
  it('numbers in order, once per MDF-e', () => {
    const first = numeracaoDecider.decide(
      { type: 'ReservarNumero', documento: MDFE, company_id: C, serie: 1, documento_id: 'a' },
      numeracaoDecider.initialState,
      ctx,
    );
    expect(first[0]!.data.numero).toBe(1);
    const s = fold(numeracaoDecider, first);
    expect(
      numeracaoDecider.decide({ type: 'ReservarNumero', documento: MDFE, company_id: C, serie: 1, documento_id: 'a' }, s, ctx),
    ).toEqual([]);
    expect(
      numeracaoDecider.decide({ type: 'ReservarNumero', documento: MDFE, company_id: C, serie: 1, documento_id: 'b' }, s, ctx)[0]!.data
        .numero,
    ).toBe(2);
  });

  it('chaveDeAcesso accepts model 58', () => {
    const k = chaveDeAcesso({
      cUF: '43',
      aamm: '2401',
      cnpj: '86933033000100',
      modelo: '58',
      serie: 1,
      numero: 4518,
      tpEmis: 1,
      cCT: '24018154',
    });
    expect(k).toBe('43240186933033000100580010000045181240181540');
    expect(isValidAccessKey(k)).toBe(true);
  });
});

describe('mdfe: a driver is included once', () => {
  const novo = { cpf: '11144477735', nome: 'MARIA' };
  const evento = { mdfe_id: M, company_id: C, tipo: 'condutor' as const, tp_evento: '110114', n_seq: 1, dados: { condutor: novo } };
  const pendente: MdfeEvent = { type: 'mdfe.evento_pendente', data: { ...evento, sha256: 'signed', motivo: '105' } };
  const registrado: MdfeEvent = {
    type: 'mdfe.evento_registrado',
    data: { ...evento, sha256: 'p', protocolo: { ...protocolo, cstat: 135 } },
  };

  it('a new driver passes; one of the creation or one already included is refused (regra_de_negocio on cpf)', () => {
    expect(() => exigirCondutorNovo(given(criado), novo.cpf)).not.toThrow();
    for (const r of [
      rejection(() => exigirCondutorNovo(given(criado), '52998224725')),
      rejection(() => exigirCondutorNovo(given(criado, registrado), novo.cpf)),
    ]) {
      expect(r.code).toBe('regra_de_negocio');
      expect(r.details?.fields?.map((f) => f.field)).toEqual(['cpf']);
    }
  });
  it('while a driver inclusion is pending, asking again follows it', () => {
    expect(() => exigirCondutorNovo(given(criado, pendente), '52998224725')).not.toThrow();
  });
});

describe('mdfe: creation rules (vehicles, drivers, route)', () => {
  const tracao: VeiculoCadastrado = {
    id: 7,
    placa: 'ABC1D23',
    renavam: null,
    rntrc: null,
    uf: 'SP',
    tara_kg: 8000,
    capacidade_kg: null,
    capacidade_m3: null,
    tipo_rodado: '03',
    tipo_carroceria: '02',
    tipo: 'tracao',
    proprietario: null,
  };
  const reboque: VeiculoCadastrado = { ...tracao, id: 8, placa: 'REB1A23', tipo: 'reboque', capacidade_kg: 30000 };

  it('a traction vehicle needs tara, body type and UF; a trailer its capacity too; each registered as its kind', () => {
    expect(faltasDoVeiculo(tracao, 'veiculo.placa', 'tracao')).toEqual([]);
    expect(faltasDoVeiculo(reboque, 'veiculo.reboques.0', 'reboque')).toEqual([]);
    expect(faltasDoVeiculo(reboque, 'veiculo.placa', 'tracao').map((f) => f.message)).toEqual([
      'vehicle REB1A23 is registered as reboque, not tracao',
    ]);
    const vazio = { ...reboque, tara_kg: null, tipo_carroceria: null, uf: null, capacidade_kg: null };
    expect(faltasDoVeiculo(vazio, 'veiculo.reboques.1', 'reboque')).toEqual([
      { field: 'veiculo.reboques.1', message: 'vehicle REB1A23 has no tara_kg' },
      { field: 'veiculo.reboques.1', message: 'vehicle REB1A23 has no tipo_carroceria' },
      { field: 'veiculo.reboques.1', message: 'vehicle REB1A23 has no uf' },
      { field: 'veiculo.reboques.1', message: 'trailer REB1A23 has no capacidade_kg' },
    ]);
  });
  it('an incomplete vehicle is veiculo_incompleto naming where to complete it; a complete one is what the MDF-e carries', () => {
    expect(veiculoDoMdfe(tracao, 'veiculo.placa', 'tracao')).toEqual({
      placa: 'ABC1D23',
      renavam: null,
      tara_kg: 8000,
      capacidade_kg: null,
      capacidade_m3: null,
      tipo_rodado: '03',
      tipo_carroceria: '02',
      uf: 'SP',
    });
    const r = rejection(() => veiculoDoMdfe({ ...tracao, uf: null }, 'veiculo.placa', 'tracao'));
    expect(r.code).toBe('veiculo_incompleto');
    expect(r.message).toBe('vehicle ABC1D23 has no uf: complete it at PUT /fiscal/veiculos/7');
    expect(r.details).toEqual({ fields: [{ field: 'veiculo.placa', message: 'vehicle ABC1D23 has no uf' }], veiculo_id: 7 });
  });
  it('drivers: CPFs normalized; invalid or repeated ones are validacao naming each', () => {
    expect(cpfsDosCondutores([{ cpf: '529.982.247-25' }, { cpf: '11144477735' }])).toEqual(['52998224725', '11144477735']);
    const r = rejection(() => cpfsDosCondutores([{ cpf: '52998224725' }, { cpf: '11111111112' }, { cpf: '529.982.247-25' }]));
    expect(r.code).toBe('validacao');
    expect(r.details?.fields).toEqual([
      { field: 'motoristas.1.cpf', message: 'not a valid CPF' },
      { field: 'motoristas.2.cpf', message: 'repeated driver' },
    ]);
  });

  const lido = {
    inicio: { codigo_ibge: '3509502', municipio: 'Campinas', uf: 'SP' },
    fim: { codigo_ibge: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ' },
    carga: {
      valor_centavos: 150050,
      produto_predominante: 'X',
      outras_caracteristicas: null,
      quantidades: [{ unidade: '01', tipo_medida: 'PESO BRUTO', quantidade: '1500.0000' }],
    },
  } as unknown as CteLido;
  const c1: CteDoMdfeComInicio = cteDoMdfe('c1', 'K1', lido);

  it('a CT-e gives its cargo value, weight, start and end', () => {
    expect(c1).toEqual({
      cte_id: 'c1',
      chave: 'K1',
      valor_carga_centavos: 150050,
      peso_gramas: 1_500_000,
      descarga: { codigo_ibge: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ' },
      inicio: { codigo_ibge: '3509502', municipio: 'Campinas', uf: 'SP' },
    });
  });
  it('the route defaults from the CT-e: start UF and loading from its start (once per municipality), end UF from its end', () => {
    expect(rotaDoMdfe({}, [c1, { ...c1, cte_id: 'c2' }])).toEqual({
      ctes: [
        { cte_id: 'c1', chave: 'K1', valor_carga_centavos: 150050, peso_gramas: 1_500_000, descarga: c1.descarga },
        { cte_id: 'c2', chave: 'K1', valor_carga_centavos: 150050, peso_gramas: 1_500_000, descarga: c1.descarga },
      ],
      uf_inicio: 'SP',
      uf_fim: 'RJ',
      percurso: [],
      carregamento: [c1.inicio],
    });
  });
  it("an unloading municipality replaces each CT-e's end; an unknown municipality is validacao", () => {
    const rota = rotaDoMdfe({ uf_fim: 'MG', descarregamento: { municipio: 'Belo Horizonte', uf: 'MG' } }, [c1]);
    expect(rota.ctes[0]!.descarga).toMatchObject({ municipio: 'Belo Horizonte', uf: 'MG' });
    const r = rejection(() => rotaDoMdfe({ carregamento: [{ municipio: 'Nowhere', uf: 'SP' }] }, [c1]));
    expect(r.code).toBe('validacao');
    expect(r.details?.fields).toEqual([{ field: 'carregamento.0', message: 'Nowhere/SP is not a municipality of the IBGE table' }]);
  });
  it('loading outside uf_inicio, unloading outside uf_fim and percurso naming either end are validacao, all named at once', () => {
    const r = rejection(() => rotaDoMdfe({ uf_inicio: 'PR', uf_fim: 'MG', percurso: ['PR', 'SP'] }, [c1]));
    expect(r.code).toBe('validacao');
    expect(r.details?.fields?.map((f) => f.field)).toEqual(['uf_inicio', 'uf_fim', 'percurso.0']);
    expect(
      rejection(() => rotaDoMdfe({}, [c1, { ...c1, descarga: { codigo_ibge: '3106200', municipio: 'Belo Horizonte', uf: 'MG' } }])).details
        ?.fields,
    ).toEqual([{ field: 'ctes.1', message: 'unloading in Belo Horizonte/MG is outside uf_fim RJ' }]);
  });
});
