import { Rejection } from '../../decider';
import { type CorrecaoCte, idEventoCte, type TipoEventoCte, TP_EVENTO_CTE, type TpEventoCte } from './montar';

/** Where one fiscal event of the CT-e stands in the aggregate. */
export interface EventoCteEstado {
  event_key: string;
  tp_evento: TpEventoCte;
  n_seq_evento: number;
  /** The signed eventoCTe (archived): the only bytes ever sent for this key. */
  sha256: string;
  /** `cancelado`: a delivery proof cancelled by a registered 110181. */
  situacao: 'pendente' | 'registrado' | 'rejeitado' | 'cancelado';
  protocolo: { numero: string; registrado_em: string; cstat: number; motivo: string } | null;
  /** sha256 of the procEventoCTe once registered. */
  proc_sha256: string | null;
  retorno: { cstat: number | null; motivo: string } | null;
  n_prot_ce: string | null;
  /** A CC-e (110110): every `infCorrecao` the letter carries, as signed (see `cartaCumulativa`); absent for other events. */
  correcoes?: CorrecaoCte[];
}

/** What the rules need of the CT-e. */
export interface CteParaEvento {
  existe: boolean;
  company_id: string | null;
  chave: string | null;
  situacao: string | null;
  autorizacao: { numero: string; recebido_em: string } | null;
  eventos: Record<string, EventoCteEstado>;
}

/** The manual's codes and texts the service applies itself before sending (MOC 4.00 Visão Geral §6). */
export const REJEICOES_EVENTO_CTE = {
  220: 'Rejeição: CT-e autorizado há mais de 7 dias (168 horas)',
  523: 'Rejeição: Vedado cancelamento quando existir evento Carta de Correção',
  636: 'Rejeição: O número sequencial do evento é maior que o permitido',
  862: 'Rejeição: Vedado o cancelamento quando houver evento de Comprovante de Entrega associado',
  866: 'Rejeição: Protocolo do evento a ser cancelado não existe, não está associado ao CT-e ou já está cancelado',
  870: 'Rejeição: Não é permitido mais de um comprovante de entrega para CT-e (exceto CT-e Globalizado)',
} as const;

const recusa = (cstat: keyof typeof REJEICOES_EVENTO_CTE): Rejection =>
  new Rejection('regra_de_negocio', REJEICOES_EVENTO_CTE[cstat], { cstat, motivo: REJEICOES_EVENTO_CTE[cstat] });

/** Cancellation window of a CT-e modelo 57 (rule O06). */
export const PRAZO_CANCELAMENTO_HORAS = 168;
export const CCE_SEQ_MAXIMA = 20;

export type PlanoEventoCte =
  /** An event of this type is already with the authority without a verdict: reconcile it, do not send another. */
  | { tipo: 'pendente'; evento: EventoCteEstado }
  | { tipo: 'novo'; tp_evento: TpEventoCte; n_seq_evento: number; event_key: string; nProt: string; n_prot_ce: string | null };

const doTipo = (s: CteParaEvento, tp: string) => Object.values(s.eventos).filter((e) => e.tp_evento === tp);

/**
 * The rules a fiscal event must pass before it is built (and again when it is recorded): an authorized CT-e of
 * the company, the cancellation window (O06) and its blockers (O14, Q16), the CC-e sequence (1–20), one delivery
 * proof at a time (870), a registered delivery proof to cancel (866). Returns the next sequence number and key.
 */
export function planejarEventoCte(s: CteParaEvento, companyId: string, tipo: TipoEventoCte, now: Date): PlanoEventoCte {
  if (!s.existe || s.company_id !== companyId) throw new Rejection('nao_encontrado', 'CT-e not found');
  if (s.situacao !== 'autorizado' || !s.chave || !s.autorizacao) {
    throw new Rejection('cte_nao_autorizado', `fiscal events need an authorized CT-e; this one is ${s.situacao ?? 'unknown'}`);
  }
  const tp = TP_EVENTO_CTE[tipo];
  const doMesmoTipo = doTipo(s, tp);
  const pendente = doMesmoTipo.find((e) => e.situacao === 'pendente');
  if (pendente) return { tipo: 'pendente', evento: pendente };
  const entregaRegistrada = doTipo(s, TP_EVENTO_CTE.entrega).find((e) => e.situacao === 'registrado');
  let nSeq = 1 + Math.max(0, ...doMesmoTipo.filter((e) => e.situacao !== 'rejeitado').map((e) => e.n_seq_evento));
  let nProtCe: string | null = null;
  switch (tipo) {
    case 'cancelamento': {
      nSeq = 1;
      if (entregaRegistrada) throw recusa(862);
      if (doTipo(s, TP_EVENTO_CTE.carta_correcao).some((e) => e.situacao === 'registrado')) throw recusa(523);
      const autorizadoEm = new Date(s.autorizacao.recebido_em).getTime();
      if (!Number.isNaN(autorizadoEm) && now.getTime() - autorizadoEm > PRAZO_CANCELAMENTO_HORAS * 3_600_000) throw recusa(220);
      break;
    }
    case 'carta_correcao':
      if (nSeq > CCE_SEQ_MAXIMA) throw recusa(636);
      break;
    case 'entrega':
      if (entregaRegistrada) throw recusa(870);
      break;
    case 'entrega_cancelamento':
      if (!entregaRegistrada?.protocolo) throw recusa(866);
      nProtCe = entregaRegistrada.protocolo.numero;
      break;
  }
  if (nSeq > 999) throw recusa(636);
  return {
    tipo: 'novo',
    tp_evento: tp,
    n_seq_evento: nSeq,
    event_key: idEventoCte(tp, s.chave, nSeq),
    nProt: s.autorizacao.numero,
    n_prot_ce: nProtCe,
  };
}
