import { nfeKey } from './cte-xml';

/** The issuable draft the tests and the benchmarks share (no jest, no database: plain node compiles it too). */

const endereco = { logradouro: 'RUA A', numero: '10', bairro: 'CENTRO', municipio: 'Campinas', uf: 'SP', cep: '13010000' };

/** A complete draft SP → RJ without its own ICMS (the SP→RJ tax rule applies). */
export const rascunhoEmitivel = (observacoes = 'ENTREGAR NA DOCA 2') => ({
  tipo_servico: 0,
  inicio: { municipio: 'campinas', uf: 'SP' },
  fim: { municipio: 'Rio de Janeiro', uf: 'RJ' },
  remetente: { documento: '11.222.333/0001-81', ie: '123456789012', nome: 'REMETENTE INDUSTRIA LTDA', endereco },
  destinatario: {
    documento: '529.982.247-25',
    nome: 'JOSE DESTINATARIO',
    endereco: { ...endereco, municipio: 'Rio de Janeiro', uf: 'RJ', cep: '20010000' },
  },
  tomador: { papel: 'remetente' },
  valores: { total: 1500.5, a_receber: 1500.5, componentes: [{ nome: 'FRETE PESO', valor: 1500.5 }] },
  carga: { valor: 25000, produto_predominante: 'PECAS', quantidades: [{ unidade: '01', tipo_medida: 'PESO BRUTO', quantidade: 1000 }] },
  documentos: { nfe: [{ chave: nfeKey() }] },
  observacoes,
});
