import { type CanalRecebimento, type CteLido, type DomainEventOf, type Environment, type RepassadoPor } from '@frete/contracts';
import { type Decider } from '../decider';
import { papelNoCte } from './papel';
import { recusaContraCte } from '../contra-cte/contratante';

export type CteSubcontratacaoEvent =
  | DomainEventOf<'cte_subcontratacao.recebido'>
  | DomainEventOf<'cte_subcontratacao.reenviado'>
  | DomainEventOf<'cte_subcontratacao.substituido'>;

/** One receipt of a CT-e in a company's inbox: the bytes are archived by the edge, the decider judges what they are. */
export interface ReceberCteSubcontratacao {
  type: 'ReceberCteSubcontratacao';
  company_id: string;
  company_cnpj: string;
  /** The deployment's environment. */
  environment: Environment;
  sha256: string;
  tamanho_bytes: number;
  canal: CanalRecebimento;
  repassado_por: RepassadoPor | null;
  cte: CteLido;
}

export type CteSubcontratacaoCommand = ReceberCteSubcontratacao;

export interface CteSubcontratacaoState {
  recebido: boolean;
  sha256: string | null;
  recebimentos: number;
}

/** Stream of one key in one company's inbox: the inbox is per company, so two companies may hold the same CT-e. */
export const cteSubcontratacaoStream = (companyId: string, chave: string) => `cte_subcontratacao-${companyId}-${chave}`;

export const cteSubcontratacaoDecider: Decider<CteSubcontratacaoCommand, CteSubcontratacaoState, CteSubcontratacaoEvent> = {
  initialState: { recebido: false, sha256: null, recebimentos: 0 },
  decide(c, state) {
    const recebimento = {
      company_id: c.company_id,
      chave: c.cte.chave,
      sha256: c.sha256,
      tamanho_bytes: c.tamanho_bytes,
      canal: c.canal,
      repassado_por: c.repassado_por,
    };
    if (state.recebido && state.sha256 === c.sha256) return [{ type: 'cte_subcontratacao.reenviado', data: recebimento }];
    const papel = papelNoCte(c.cte, c.company_cnpj);
    // The same verdict as every counter-CT-e's plan: the inbox admits only what a batch row would not refuse for the document.
    const recusa = recusaContraCte(c.cte, c.company_cnpj, c.environment);
    const leitura = {
      papel_transportadora: papel,
      permite_contra_cte: recusa === null,
      bloqueio_contra_cte: recusa?.bloqueio ?? null,
      recusa_contra_cte: recusa ? { code: recusa.code, message: recusa.message } : null,
      cte: c.cte,
    };
    if (!state.recebido) return [{ type: 'cte_subcontratacao.recebido', data: { ...recebimento, ...leitura } }];
    return [{ type: 'cte_subcontratacao.substituido', data: { ...recebimento, ...leitura, sha256_anterior: state.sha256! } }];
  },
  evolve(state, event) {
    return { recebido: true, sha256: event.data.sha256, recebimentos: state.recebimentos + 1 };
  },
};
