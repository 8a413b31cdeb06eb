import { Type, type Static } from '@sinclair/typebox';
import { ModoSubcontratacao } from './contra-cte';

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
  status: Type.Union([Type.Literal('done'), Type.Literal('failed')]),
  total_linhas: Type.Integer({ minimum: 1 }),
  emitidas: Type.Integer({ minimum: 0 }),
  duplicadas: Type.Integer({ minimum: 0 }),
  falhas: Type.Integer({ minimum: 0 }),
});
export type SolicitacaoLoteConcluida = Static<typeof SolicitacaoLoteConcluida>;
