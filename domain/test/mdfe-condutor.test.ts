import { type MdfeDados } from '@frete/contracts';
import { exigirCondutorNovo, fold, mdfeDecider, type MdfeEvent, Rejection } from '../src';

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
const given = (...events: MdfeEvent[]) => fold(mdfeDecider, events);
const novo = { cpf: '11144477735', nome: 'MARIA' };
const pendente: MdfeEvent = {
  type: 'mdfe.evento_pendente',
  data: { mdfe_id: M, company_id: C, tipo: 'condutor', tp_evento: '110114', n_seq: 1, dados: { condutor: novo }, sha256: 'signed', motivo: '105' },
};
const registrado: MdfeEvent = {
  type: 'mdfe.evento_registrado',
  data: { mdfe_id: M, company_id: C, tipo: 'condutor', tp_evento: '110114', n_seq: 1, dados: { condutor: novo }, sha256: 'p', protocolo: { numero: '1', recebido_em: 'x', cstat: 135, motivo: 'ok' } },
};

describe('mdfe: a driver is included once', () => {
  it('a new driver passes; one of the creation or one already included is refused (regra_de_negocio on cpf)', () => {
    expect(() => exigirCondutorNovo(given(criado), novo.cpf)).not.toThrow();
    for (const [state, cpf] of [[given(criado), '52998224725'], [given(criado, registrado), novo.cpf]] as const) {
      let caught: unknown;
      try {
        exigirCondutorNovo(state, cpf);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(Rejection);
      expect((caught as Rejection).code).toBe('regra_de_negocio');
      expect((caught as Rejection).details?.fields?.map((f) => f.field)).toEqual(['cpf']);
    }
  });
  it('while a driver inclusion is pending, asking again follows it', () => {
    expect(() => exigirCondutorNovo(given(criado, pendente), '52998224725')).not.toThrow();
  });
});
