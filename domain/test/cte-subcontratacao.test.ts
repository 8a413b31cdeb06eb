import { type CteLido } from '@frete/contracts';
import {
  bloqueioContraCte,
  cteSubcontratacaoDecider,
  type CteSubcontratacaoEvent,
  papelNoCte,
  type ReceberCteSubcontratacao,
} from '../src';
import { scenario } from './given-when-then';

const parte = (documento: string | null) => ({
  documento,
  tipo_documento: 'CNPJ' as const,
  ie: null,
  nome: 'X',
  fantasia: null,
  telefone: null,
  email: null,
  endereco: null,
});
const local = { codigo_ibge: '3550308', municipio: 'SAO PAULO', uf: 'SP' };
const cte: CteLido = {
  chave: '35261111222333000181570010000000011000000010',
  versao: '4.00',
  modelo: '57',
  serie: 1,
  numero: 1,
  codigo_numerico: '00000001',
  cfop: '6353',
  natureza_operacao: 'FRETE',
  data_emissao: '2026-11-20T10:00:00-03:00',
  ambiente: 'homologacao',
  tipo_cte: 0,
  tipo_servico: 0,
  modal: '01',
  emitente: parte('11222333000181'),
  remetente: parte('22333444000100'),
  expedidor: null,
  recebedor: parte('33444555000100'),
  destinatario: parte('44555666000100'),
  tomador: { codigo: 3, papel: 'destinatario', parte: parte('44555666000100') },
  inicio: local,
  fim: local,
  valor_prestacao_centavos: 100,
  valor_receber_centavos: 100,
  componentes: [],
  icms: null,
  nfe_chaves: [],
  cte_anteriores: [],
  protocolo: null,
};
const receber: ReceberCteSubcontratacao = {
  type: 'ReceberCteSubcontratacao',
  company_id: 'sub',
  company_cnpj: '99888777000100',
  environment: 'homologacao',
  sha256: 'v1',
  tamanho_bytes: 10,
  canal: 'api',
  repassado_por: null,
  cte,
};
const recebimento = { company_id: 'sub', chave: cte.chave, sha256: 'v1', tamanho_bytes: 10, canal: 'api' as const, repassado_por: null };
const recebido: CteSubcontratacaoEvent = {
  type: 'cte_subcontratacao.recebido',
  data: { ...recebimento, papel_transportadora: 'terceiro', permite_contra_cte: true, bloqueio_contra_cte: null, cte },
};

describe('cte_subcontratacao decider (the inbox)', () => {
  const { given } = scenario(cteSubcontratacaoDecider);
  it('records the first receipt with the role and whether a counter-CT-e is possible', () => given().when(receber).then(recebido));
  it('the same bytes again are a resubmission only', () =>
    given(recebido).when(receber).then({ type: 'cte_subcontratacao.reenviado', data: recebimento }));
  it('different bytes replace the archived version, naming the previous one', () =>
    given(recebido)
      .when({ ...receber, sha256: 'v2', tamanho_bytes: 11 })
      .then({
        type: 'cte_subcontratacao.substituido',
        data: {
          ...recebimento,
          sha256: 'v2',
          tamanho_bytes: 11,
          papel_transportadora: 'terceiro',
          permite_contra_cte: true,
          bloqueio_contra_cte: null,
          cte,
          sha256_anterior: 'v1',
        },
      }));
  it('a later version compares with the latest one', () =>
    given(recebido, { type: 'cte_subcontratacao.substituido', data: { ...recebido.data, sha256: 'v2', sha256_anterior: 'v1' } })
      .when({ ...receber, sha256: 'v2' })
      .then({ type: 'cte_subcontratacao.reenviado', data: { ...recebimento, sha256: 'v2' } }));
});

describe('role of the company in a CT-e', () => {
  it('by where its CNPJ appears, issuer first, then taker', () => {
    expect(papelNoCte(cte, '11.222.333/0001-81')).toBe('emitente');
    expect(papelNoCte(cte, '44555666000100')).toBe('tomador');
    expect(papelNoCte(cte, '33444555000100')).toBe('recebedor');
    expect(papelNoCte(cte, '22333444000100')).toBe('remetente');
    expect(papelNoCte({ ...cte, tomador: { codigo: 0, papel: 'remetente', parte: cte.remetente } }, '44555666000100')).toBe('destinatario');
    expect(papelNoCte(cte, '99888777000100')).toBe('terceiro');
  });

  it('no counter-CT-e against an own CT-e, a multimodal-linked one, a CT-e OS, a complementary one, or a sandbox document in production', () => {
    expect(bloqueioContraCte(cte, 'emitente', 'homologacao')).toBe('cte_proprio');
    expect(bloqueioContraCte({ ...cte, tipo_servico: 4 }, 'terceiro', 'homologacao')).toBe('vinculado_multimodal');
    expect(bloqueioContraCte({ ...cte, modelo: '67' }, 'terceiro', 'homologacao')).toBe('nao_e_cte_de_carga');
    expect(bloqueioContraCte({ ...cte, tipo_cte: 1 }, 'terceiro', 'homologacao')).toBe('cte_nao_normal');
    expect(bloqueioContraCte(cte, 'terceiro', 'producao')).toBe('ambiente_homologacao');
    expect(bloqueioContraCte({ ...cte, ambiente: 'producao' }, 'terceiro', 'homologacao')).toBeNull();
    expect(bloqueioContraCte({ ...cte, tipo_servico: 1, tipo_cte: 3 }, 'tomador', 'homologacao')).toBeNull();
  });
});
