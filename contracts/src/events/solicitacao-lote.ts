import { Type, type Static } from '@sinclair/typebox';
import { ModoSubcontratacao } from './contra-cte';
import { CONTAGEM_DO_LOTE } from './lote';

/**
 * The contractor's own record of a batch it requested on a subcontractor's account under an emission grant
 * (aggregate `solicitacao_lote`, stream `solicitacao-lote-<batch_id>`, in the contractor's chain). The batch and its
 * rows are the subcontractor's and live in its chain; this names them by what the contractor's API answers showed it
 * (the batch id, the subcontractor's CNPJ and name), never by the subcontractor's internal ids.
 */
export const SolicitacaoLoteAceita = Type.Object({
  batch_id: Type.String(),
  /** The contractor: the requester, whose record this is. */
  company_id: Type.String(),
  subcontratada: Type.Object({ cnpj: Type.String(), nome: Type.String() }),
  modo: ModoSubcontratacao,
  total_linhas: Type.Integer({ minimum: 1 }),
});
export type SolicitacaoLoteAceita = Static<typeof SolicitacaoLoteAceita>;

/** The batch the contractor requested ended, as its `lote.concluido` counts it. Once per request. */
export const SolicitacaoLoteConcluida = Type.Object({
  batch_id: Type.String(),
  company_id: Type.String(),
  ...CONTAGEM_DO_LOTE,
});
export type SolicitacaoLoteConcluida = Static<typeof SolicitacaoLoteConcluida>;
