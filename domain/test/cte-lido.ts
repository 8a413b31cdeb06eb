import { type CteLido } from '@frete/contracts';

/** A party of a read CT-e by its CNPJ, named `X`, with no contact and no address. */
export const parteLida = (documento: string | null) => ({
  documento,
  tipo_documento: 'CNPJ' as const,
  ie: null,
  nome: 'X',
  fantasia: null,
  telefone: null,
  email: null,
  endereco: null,
});

export const LOCAL_SAO_PAULO = { codigo_ibge: '3550308', municipio: 'SAO PAULO', uf: 'SP' };

export const CHAVE_CTE_LIDO = '35261111222333000181570010000000011000000010';

/**
 * A read CT-e: a normal service of R$ 1.00 by road within São Paulo, issued by 11.222.333/0001-81 in homologação
 * (`over` gives what the test is about: the parties, the taker, the protocol…).
 */
export const cteLido = (over: Partial<CteLido> = {}): CteLido => ({
  chave: CHAVE_CTE_LIDO,
  versao: '4.00',
  modelo: '57',
  serie: 1,
  numero: 1,
  codigo_numerico: '00000001',
  cfop: '5353',
  natureza_operacao: 'FRETE',
  data_emissao: '2026-11-20T10:00:00-03:00',
  ambiente: 'homologacao',
  tipo_cte: 0,
  tipo_servico: 0,
  modal: '01',
  emitente: parteLida('11222333000181'),
  remetente: null,
  expedidor: null,
  recebedor: null,
  destinatario: parteLida('44555666000100'),
  tomador: { codigo: 3, papel: 'destinatario', parte: parteLida('44555666000100') },
  inicio: LOCAL_SAO_PAULO,
  fim: LOCAL_SAO_PAULO,
  valor_prestacao_centavos: 100,
  valor_receber_centavos: 100,
  componentes: [],
  icms: null,
  nfe_chaves: [],
  cte_anteriores: [],
  protocolo: null,
  ...over,
});
