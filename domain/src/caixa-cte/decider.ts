import { type CanalRecebimento, type CteLido, type DomainEventOf, type Environment, type RepassadoPor } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { papelNoCte } from './papel';
import { type CancelamentoDoContratante, recusaContraCte, recusaDoCancelamento } from '../contra-cte/contratante';
import { type CteParaDesacordo, type EventoDesacordoEstado, planejarDesacordo } from './desacordo';

export type CaixaCteEvent =
  | DomainEventOf<'cte_subcontratacao.recebido'>
  | DomainEventOf<'cte_subcontratacao.reenviado'>
  | DomainEventOf<'cte_subcontratacao.substituido'>
  | DomainEventOf<'cte_subcontratacao.desacordo_solicitado'>
  | DomainEventOf<'cte_subcontratacao.desacordo_registrado'>
  | DomainEventOf<'cte_subcontratacao.desacordo_rejeitado'>
  | DomainEventOf<'cte_subcontratacao.desacordo_pendente'>
  | DomainEventOf<'cte_subcontratacao.cancelado'>;

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
  /** Canal `distribuicao`: the document's NSU (15 digits). */
  nsu?: string;
  cte: CteLido;
}

/**
 * The contractor's cancellation (event 110111) of a CT-e of the inbox, as the national environment distributed it in a
 * `procEventoCTe` (archived before). Only a key of the inbox is cancelled; a second cancellation records nothing.
 */
export interface RegistrarCancelamentoCte {
  type: 'RegistrarCancelamentoCte';
  company_id: string;
  chave: string;
  protocolo: string;
  cancelado_em: string;
  sha256: string;
  nsu?: string;
}

/**
 * The taker asks the authority to register a desacordo (610110) or its cancellation (610111): checked again here on
 * the recorded state (the company is the taker, the 45 days, what is in force), with the signed XML already archived.
 */
export interface SolicitarDesacordo {
  type: 'SolicitarDesacordo';
  company_cnpj: string;
  data: DomainEventOf<'cte_subcontratacao.desacordo_solicitado'>['data'];
}

export type CaixaCteCommand =
  | ReceberCteSubcontratacao
  | RegistrarCancelamentoCte
  | SolicitarDesacordo
  | { type: 'RegistrarDesacordoRegistrado'; data: DomainEventOf<'cte_subcontratacao.desacordo_registrado'>['data'] }
  | { type: 'RegistrarDesacordoRejeitado'; data: DomainEventOf<'cte_subcontratacao.desacordo_rejeitado'>['data'] }
  | { type: 'RegistrarDesacordoPendente'; data: DomainEventOf<'cte_subcontratacao.desacordo_pendente'>['data'] };

export interface CaixaCteState extends CteParaDesacordo {
  recebido: boolean;
  sha256: string | null;
  recebimentos: number;
  /** The contractor cancelled the CT-e (absent from states cached before issue 30: read as null). */
  cancelamento?: CancelamentoDoContratante | null;
}

/** The verdict on a pending event is recorded once: a second one for the same key is a no-op. */
const semVeredito = (state: CaixaCteState, eventKey: string): EventoDesacordoEstado => {
  const e = state.eventos[eventKey];
  if (!e) throw new Rejection('nao_encontrado', `no desacordo event ${eventKey} of this CT-e`, { event_key: eventKey });
  return e;
};

function evoluirDesacordo(state: CaixaCteState, event: CaixaCteEvent): CaixaCteState {
  const eventos = { ...state.eventos };
  switch (event.type) {
    case 'cte_subcontratacao.desacordo_solicitado': {
      const d = event.data;
      eventos[d.event_key] = {
        event_key: d.event_key,
        tipo: d.tipo,
        tp_evento: d.tp_evento,
        n_seq_evento: d.n_seq_evento,
        sha256: d.sha256,
        situacao: 'pendente',
        observacao: d.observacao,
        n_prot_desacordo: d.n_prot_desacordo,
        protocolo: null,
        proc_sha256: null,
        retorno: null,
      };
      break;
    }
    case 'cte_subcontratacao.desacordo_registrado': {
      const d = event.data;
      const e = eventos[d.event_key];
      if (!e) return state;
      eventos[d.event_key] = {
        ...e,
        situacao: 'registrado',
        protocolo: d.protocolo,
        proc_sha256: d.sha256,
        retorno: { cstat: d.protocolo.cstat, motivo: d.protocolo.motivo },
      };
      // A registered cancellation takes the desacordo it names out of force.
      if (e.tipo === 'cancelamento_desacordo') {
        for (const alvo of Object.values(eventos)) {
          if (alvo.tipo === 'desacordo' && alvo.situacao === 'registrado' && alvo.protocolo?.numero === e.n_prot_desacordo) {
            eventos[alvo.event_key] = { ...alvo, situacao: 'cancelado' };
          }
        }
      }
      break;
    }
    case 'cte_subcontratacao.desacordo_rejeitado': {
      const e = eventos[event.data.event_key];
      if (!e) return state;
      eventos[e.event_key] = { ...e, situacao: 'rejeitado', retorno: { cstat: event.data.cstat, motivo: event.data.motivo } };
      break;
    }
    case 'cte_subcontratacao.desacordo_pendente': {
      const e = eventos[event.data.event_key];
      if (!e) return state;
      eventos[e.event_key] = { ...e, situacao: 'pendente', retorno: { cstat: null, motivo: event.data.motivo } };
      break;
    }
    default:
      return state;
  }
  return { ...state, eventos };
}

/** Stream of one key in one company's inbox: the inbox is per company, so two companies may hold the same CT-e. */
// Records `cte_subcontratacao.*` on streams `cte_subcontratacao-…`: recorded names are history.
export const caixaCteStream = (companyId: string, chave: string) => `cte_subcontratacao-${companyId}-${chave}`;

export const caixaCteDecider: Decider<CaixaCteCommand, CaixaCteState, CaixaCteEvent> = {
  initialState: {
    recebido: false,
    sha256: null,
    recebimentos: 0,
    chave: null,
    tomador: null,
    autorizado_em: null,
    eventos: {},
    cancelamento: null,
  },
  decide(c, state, ctx) {
    switch (c.type) {
      case 'SolicitarDesacordo': {
        const plano = planejarDesacordo(state, c.company_cnpj, c.data.tipo, ctx.now);
        if (plano.tipo === 'pendente' || plano.event_key !== c.data.event_key || plano.n_prot_desacordo !== c.data.n_prot_desacordo) {
          // Another request of the same company got there first (its event is now with the authority).
          throw new Rejection(
            'desacordo_pendente',
            `the inbox CT-e ${state.chave} changed while the ${c.data.tipo} was prepared; repeat it`,
          );
        }
        return [{ type: 'cte_subcontratacao.desacordo_solicitado', data: c.data }];
      }
      case 'RegistrarDesacordoRegistrado':
        return semVeredito(state, c.data.event_key).situacao === 'pendente'
          ? [{ type: 'cte_subcontratacao.desacordo_registrado', data: c.data }]
          : [];
      case 'RegistrarDesacordoRejeitado':
        return semVeredito(state, c.data.event_key).situacao === 'pendente'
          ? [{ type: 'cte_subcontratacao.desacordo_rejeitado', data: c.data }]
          : [];
      case 'RegistrarDesacordoPendente':
        return semVeredito(state, c.data.event_key).situacao === 'pendente'
          ? [{ type: 'cte_subcontratacao.desacordo_pendente', data: c.data }]
          : [];
      case 'RegistrarCancelamentoCte': {
        if (!state.recebido) {
          throw new Rejection('cte_nao_recebido', `CT-e ${c.chave} is not in the company's inbox: its cancellation is only kept`);
        }
        if (state.cancelamento) return [];
        const { type: _type, ...data } = c;
        const { code, message } = recusaDoCancelamento(c.chave, c);
        return [{ type: 'cte_subcontratacao.cancelado', data: { ...data, recusa_contra_cte: { code, message } } }];
      }
      case 'ReceberCteSubcontratacao':
        break;
    }
    const recebimento = {
      company_id: c.company_id,
      chave: c.cte.chave,
      sha256: c.sha256,
      tamanho_bytes: c.tamanho_bytes,
      canal: c.canal,
      repassado_por: c.repassado_por,
      ...(c.nsu !== undefined ? { nsu: c.nsu } : {}),
    };
    if (state.recebido && state.sha256 === c.sha256) return [{ type: 'cte_subcontratacao.reenviado', data: recebimento }];
    const papel = papelNoCte(c.cte, c.company_cnpj);
    // The same verdict as every counter-CT-e's plan: the inbox admits only what a batch row would not refuse for the
    // document; a CT-e the contractor cancelled stays refused whatever bytes of it arrive later.
    const recusa = state.cancelamento
      ? recusaDoCancelamento(c.cte.chave, state.cancelamento)
      : recusaContraCte(c.cte, c.company_cnpj, c.environment);
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
    switch (event.type) {
      case 'cte_subcontratacao.recebido':
      case 'cte_subcontratacao.substituido': {
        const cte = event.data.cte;
        return {
          ...state,
          recebido: true,
          sha256: event.data.sha256,
          recebimentos: state.recebimentos + 1,
          chave: cte.chave,
          tomador: cte.tomador.parte?.documento ?? null,
          autorizado_em: cte.protocolo?.recebido_em ?? null,
        };
      }
      case 'cte_subcontratacao.reenviado':
        return { ...state, recebido: true, sha256: event.data.sha256, recebimentos: state.recebimentos + 1 };
      case 'cte_subcontratacao.cancelado':
        return { ...state, cancelamento: { protocolo: event.data.protocolo, cancelado_em: event.data.cancelado_em } };
      default:
        return evoluirDesacordo(state, event);
    }
  },
};
