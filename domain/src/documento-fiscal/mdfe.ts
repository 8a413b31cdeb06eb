import { SITUACOES_MDFE } from '@frete/contracts';
import { mdfeStream } from '../mdfe/decider';
import { type EspecieDocumento } from './especie';

/** The MDF-e (model 58): no denied use (a denial answer is a rejection); closing one is a conclusive situation. */
export const MDFE: EspecieDocumento = {
  nome: 'MDF-e',
  modelo: '58',
  recurso: 'mdfe',
  parametro: 'mdfe_uuid',
  campoId: 'mdfe_id',
  stream: mdfeStream,
  numeracao: { evento: 'numeracao_mdfe.reservada', campo: 'mdfe_id', prefixo: 'numeracao_mdfe' },
  campoSerie: 'serie_mdfe',
  situacoes: SITUACOES_MDFE,
  denegacao: false,
  conclusivas: ['autorizado', 'rejeitado', 'encerrado', 'cancelado'],
  conhecidas: [],
  erros: { pendencias: 'regra_de_negocio', naoEditavel: 'mdfe_nao_editavel', naoAutorizado: 'mdfe_nao_autorizado' },
  xml: { raiz: 'MDFe', inf: 'infMDFe', numero: 'nMDF', esquema: 'mdfe_v3.00.xsd' },
  comPrevia: ['rascunho', 'rejeitado'],
  impresso: { nome: 'DAMDFE', proc: 'mdfeProc', situacoes: ['autorizado', 'encerrado', 'cancelado'] },
};
