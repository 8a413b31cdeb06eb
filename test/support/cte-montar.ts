import { type CteDraftInput } from '@frete/contracts';
import { accessKeyCheckDigit, type MontarCteInput } from '@frete/domain';

/** Inputs of `montarCteXml` for tests: a normalized draft (unmasked documents, IBGE codes) and its emitter. */

export const EMITENTE_CNPJ = '11222333000181';

/** A valid access key of `modelo` by `cnpj`, deterministic in `numero`. */
export function chaveTeste(cnpj: string, numero: number, modelo: '55' | '57' = '55', uf = '43'): string {
  const first43 = `${uf}2611${cnpj}${modelo}001${String(numero).padStart(9, '0')}1${String(40_000_000 + numero * 7919).slice(-8)}`;
  return first43 + accessKeyCheckDigit(first43);
}

const enderecoRem = {
  logradouro: 'RUA DAS FLORES',
  numero: '100',
  bairro: 'CENTRO',
  municipio: 'Porto Alegre',
  uf: 'RS' as const,
  codigo_ibge: '4314902',
  cep: '90010000',
};
const enderecoDest = {
  logradouro: 'RUA FELIPE SCHMIDT',
  numero: '200',
  bairro: 'CENTRO',
  municipio: 'Florianópolis',
  uf: 'SC' as const,
  codigo_ibge: '4205407',
  cep: '88010000',
};

export const rascunhoCompleto = (): CteDraftInput => ({
  tipo_servico: 0,
  inicio: { municipio: 'Porto Alegre', uf: 'RS', codigo_ibge: '4314902' },
  fim: { municipio: 'Florianópolis', uf: 'SC', codigo_ibge: '4205407' },
  remetente: {
    documento: '45997418000153',
    ie: '0960000029',
    nome: 'REMETENTE INDUSTRIA & CIA LTDA',
    fantasia: 'REMETENTE',
    endereco: enderecoRem,
  },
  destinatario: {
    documento: '52998224725',
    nome: 'JOSÉ DESTINATÁRIO',
    email: 'jose@example.com',
    endereco: { ...enderecoDest, complemento: 'APTO 3' },
  },
  tomador: { papel: 'remetente' },
  valores: {
    total: 1500.5,
    a_receber: 1500.5,
    componentes: [
      { nome: 'FRETE PESO', valor: 1400.5 },
      { nome: 'PEDAGIO', valor: 100 },
    ],
  },
  impostos: { icms: { cst: '00', aliquota: 12 } },
  carga: {
    valor: 25000,
    produto_predominante: 'PECAS <AUTOMOTIVAS>',
    quantidades: [{ unidade: '01', tipo_medida: 'PESO BRUTO', quantidade: 1000.1234 }],
  },
  documentos: { nfe: [{ chave: chaveTeste('45997418000153', 123) }] },
  observacoes: '  ENTREGAR   NA DOCA 2  ',
});

export const montarInput = (over: Partial<MontarCteInput> = {}): MontarCteInput => ({
  dados: rascunhoCompleto(),
  emitente: {
    cnpj: EMITENTE_CNPJ,
    razao_social: 'TRANSPORTADORA EXEMPLO LTDA',
    inscricao_estadual: '0960000011',
    crt: 3,
    endereco: {
      logradouro: 'AVENIDA DO TRANSPORTE',
      numero: '1000',
      bairro: 'HUMAITA',
      municipio: 'Porto Alegre',
      uf: 'RS',
      codigo_ibge: '4314902',
      cep: '90250000',
    },
    rntrc: '12345678',
  },
  serie: 1,
  numero: 42,
  cCT: '40308521',
  dhEmi: '2026-11-20T10:00:00-03:00',
  ambiente: 'homologacao',
  icms: { cst: '00', aliquota: 12 },
  ...over,
});
