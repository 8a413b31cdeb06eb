import { type MdfeDados } from '@frete/contracts';
import {
  chaveDeAcesso, exigirCondutorNovo, fold, mdfeDecider, type MdfeEvent, numeracaoMdfeDecider, proximoEventoMdfe, type Rejection, isValidAccessKey,
} from '../src';

const ctx = { now: new Date('2026-11-20T13:00:00Z') };
const C = 'company-1';
const M = 'mdfe-1';
const dados: MdfeDados = {
  ctes: [{ cte_id: 'c1', chave: '3'.repeat(44), valor_carga_centavos: 100, peso_gramas: 1000, descarga: { codigo_ibge: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ' } }],
  veiculo: { placa: 'ABC1D23', renavam: null, tara_kg: 1, capacidade_kg: null, capacidade_m3: null, tipo_rodado: '03', tipo_carroceria: '02', uf: 'SP' },
  reboques: [],
  motoristas: [{ cpf: '52998224725', nome: 'JOAO' }],
  uf_inicio: 'SP', uf_fim: 'RJ', percurso: [], carregamento: [{ codigo_ibge: '3509502', municipio: 'Campinas', uf: 'SP' }], observacoes: null,
};
const criado: MdfeEvent = { type: 'mdfe.criado', data: { mdfe_id: M, company_id: C, ambiente: 'homologacao', dados } };
const solicitado: MdfeEvent = { type: 'mdfe.emissao_solicitada', data: { mdfe_id: M, company_id: C, serie: 1 } };
const assinado: MdfeEvent = { type: 'mdfe.xml_assinado', data: { mdfe_id: M, company_id: C, chave: 'K', serie: 1, numero: 1, data_emissao: 'd', sha256: 's' } };
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
    expect(rejection(() => when([], { type: 'CriarMdfe', mdfe_id: M, company_id: C, environment: 'homologacao', dados: { ...dados, motoristas: [] } })).code).toBe('validacao');
  });

  it('issue: requested once; another company is not found; authorized is not issued again', () => {
    expect(when([criado], { type: 'SolicitarEmissaoMdfe', mdfe_id: M, company_id: C, serie: 1 })).toEqual([solicitado]);
    expect(when([criado, solicitado], { type: 'SolicitarEmissaoMdfe', mdfe_id: M, company_id: C, serie: 1 })).toEqual([]);
    expect(rejection(() => when([criado], { type: 'SolicitarEmissaoMdfe', mdfe_id: M, company_id: 'other', serie: 1 })).code).toBe('nao_encontrado');
    expect(rejection(() => when([criado, solicitado, assinado, autorizado], { type: 'SolicitarEmissaoMdfe', mdfe_id: M, company_id: C, serie: 1 })).code).toBe('mdfe_nao_editavel');
  });

  it('keeps the first signed XML; records the verdict only while processing', () => {
    expect(when([criado, solicitado, assinado], { type: 'RegistrarXmlAssinadoMdfe', data: { ...assinado.data, sha256: 'other' } as never })).toEqual([]);
    expect(when([criado, solicitado, assinado], { type: 'RegistrarAutorizacaoMdfe', data: autorizado.data as never })).toEqual([autorizado]);
    expect(when([criado, solicitado, assinado, autorizado], { type: 'RegistrarAutorizacaoMdfe', data: autorizado.data as never })).toEqual([]);
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
    const cond: MdfeEvent = { type: 'mdfe.evento_registrado', data: { ...base, tipo: 'condutor', tp_evento: '110114', n_seq: 1, dados: { condutor: { cpf: '11144477735', nome: 'MARIA' } } } };
    const s = given(...auth, cond);
    expect(s.condutores.map((x) => x.cpf)).toEqual(['52998224725', '11144477735']);
    expect(proximoEventoMdfe(s, 'condutor').n_seq).toBe(2);
    const pend: MdfeEvent = { type: 'mdfe.evento_pendente', data: { mdfe_id: M, company_id: C, tipo: 'cancelamento', tp_evento: '110111', n_seq: 1, dados: { justificativa: 'J'.repeat(15) }, sha256: 'signed', motivo: '105' } };
    const p = proximoEventoMdfe(given(...auth, pend), 'cancelamento');
    expect(p.pendente).toMatchObject({ sha256: 'signed', dados: { justificativa: 'J'.repeat(15) } });
    expect(rejection(() => proximoEventoMdfe(given(...auth, pend), 'encerramento')).code).toBe('regra_de_negocio');
    const canc: MdfeEvent = { type: 'mdfe.evento_registrado', data: { ...base, tipo: 'cancelamento', tp_evento: '110111', n_seq: 1, dados: {} } };
    expect(given(...auth, pend, canc).situacao).toBe('cancelado');
    expect(when([...auth, pend, canc], { type: 'RegistrarEventoMdfe', data: canc.data as never })).toEqual([]);
    const enc: MdfeEvent = { type: 'mdfe.evento_registrado', data: { ...base, tipo: 'encerramento', tp_evento: '110112', n_seq: 1, dados: {} } };
    expect(given(...auth, enc).situacao).toBe('encerrado');
    expect(rejection(() => proximoEventoMdfe(given(...auth, enc), 'condutor')).code).toBe('mdfe_nao_autorizado');
  });
});

describe('numeracao_mdfe and the model-58 key', () => {
  it('numbers in order, once per MDF-e', () => {
    const first = numeracaoMdfeDecider.decide({ type: 'ReservarNumeroMdfe', company_id: C, serie: 1, mdfe_id: 'a' }, numeracaoMdfeDecider.initialState, ctx);
    expect(first[0]!.data.numero).toBe(1);
    const s = fold(numeracaoMdfeDecider, first);
    expect(numeracaoMdfeDecider.decide({ type: 'ReservarNumeroMdfe', company_id: C, serie: 1, mdfe_id: 'a' }, s, ctx)).toEqual([]);
    expect(numeracaoMdfeDecider.decide({ type: 'ReservarNumeroMdfe', company_id: C, serie: 1, mdfe_id: 'b' }, s, ctx)[0]!.data.numero).toBe(2);
  });

  it('chaveDeAcesso accepts model 58', () => {
    const k = chaveDeAcesso({ cUF: '43', aamm: '2401', cnpj: '86933033000100', modelo: '58', serie: 1, numero: 4518, tpEmis: 1, cCT: '24018154' });
    expect(k).toBe('43240186933033000100580010000045181240181540');
    expect(isValidAccessKey(k)).toBe(true);
  });
});

describe('mdfe: a driver is included once', () => {
  const novo = { cpf: '11144477735', nome: 'MARIA' };
  const evento = { mdfe_id: M, company_id: C, tipo: 'condutor' as const, tp_evento: '110114', n_seq: 1, dados: { condutor: novo } };
  const pendente: MdfeEvent = { type: 'mdfe.evento_pendente', data: { ...evento, sha256: 'signed', motivo: '105' } };
  const registrado: MdfeEvent = { type: 'mdfe.evento_registrado', data: { ...evento, sha256: 'p', protocolo: { ...protocolo, cstat: 135 } } };

  it('a new driver passes; one of the creation or one already included is refused (regra_de_negocio on cpf)', () => {
    expect(() => exigirCondutorNovo(given(criado), novo.cpf)).not.toThrow();
    for (const r of [rejection(() => exigirCondutorNovo(given(criado), '52998224725')), rejection(() => exigirCondutorNovo(given(criado, registrado), novo.cpf))]) {
      expect(r.code).toBe('regra_de_negocio');
      expect(r.details?.fields?.map((f) => f.field)).toEqual(['cpf']);
    }
  });
  it('while a driver inclusion is pending, asking again follows it', () => {
    expect(() => exigirCondutorNovo(given(criado, pendente), '52998224725')).not.toThrow();
  });
});
