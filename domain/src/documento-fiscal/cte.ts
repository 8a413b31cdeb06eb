import { SITUACOES_CTE } from '@frete/contracts';
import { cteStream } from '../cte/decider';
import { type EspecieDocumento } from './especie';

/** The CT-e (model 57): denied use exists, and a CT-e without protocol is a known answer. */
export const CTE: EspecieDocumento = {
  nome: 'CT-e',
  modelo: '57',
  recurso: 'cte',
  parametro: 'cte_uuid',
  campoId: 'cte_id',
  stream: cteStream,
  numeracao: { evento: 'numeracao_cte.reservada', campo: 'cte_id', prefixo: 'numeracao_cte' },
  campoSerie: 'serie_cte',
  situacoes: SITUACOES_CTE,
  denegacao: true,
  conclusivas: ['autorizado', 'rejeitado', 'denegado', 'cancelado'],
  conhecidas: ['sem_protocolo'],
  erros: { pendencias: 'cte_com_pendencias', naoEditavel: 'cte_nao_editavel', naoAutorizado: 'cte_nao_autorizado' },
  xml: { raiz: 'CTe', inf: 'infCte', numero: 'nCT', esquema: 'cte_v4.00.xsd' },
  comPrevia: ['rascunho'],
  impresso: { nome: 'DACTE', proc: 'cteProc', situacoes: ['autorizado', 'cancelado'] },
};
