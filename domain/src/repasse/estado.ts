import { type DomainEventOf, type GatilhoLiberacao, type ModoLiberacao, type RegraRepasse, type SituacaoParcela } from '@frete/contracts';

export type RepasseEvent =
  | DomainEventOf<'repasse.documento_registrado'>
  | DomainEventOf<'repasse.registro_falhou'>
  | DomainEventOf<'repasse.parcelas_geradas'>
  | DomainEventOf<'repasse.conclusao_registrada'>
  | DomainEventOf<'repasse.prestacao_contas_registrada'>
  | DomainEventOf<'repasse.parcela_liberada'>
  | DomainEventOf<'repasse.pagamento_solicitado'>
  | DomainEventOf<'repasse.pagamento_retirado'>
  | DomainEventOf<'repasse.pagamento_enviado'>
  | DomainEventOf<'repasse.parcela_paga'>
  | DomainEventOf<'repasse.cancelamento_solicitado'>
  | DomainEventOf<'repasse.cancelamento_recusado'>
  | DomainEventOf<'repasse.documento_cancelado'>;

export interface ParcelaEstado {
  posicao: number;
  percentual: number;
  valor_centavos: number;
  dias: number;
  situacao: SituacaoParcela;
  ordem_id: string | null;
  /** The order was handed to the bank rail: its money is leaving, and no cancellation takes it back. */
  enviada: boolean;
  liberada_por: GatilhoLiberacao | null;
  liberada_em: string | null;
  vencimento: string | null;
  pagamento_solicitado_em: string | null;
  paga_em: string | null;
  cancelada_em: string | null;
}

export interface DocumentoEstado {
  cte_id: string;
  chave: string;
  chave_original: string;
  documento_financeiro: string | null;
  lote_id: string | null;
  /** Place in the batch: orders the group at the scan. */
  posicao: number;
  motorista_cpf: string;
  valor_centavos: number;
  regra: RegraRepasse;
  modo: ModoLiberacao;
  cancelado: boolean;
  concluido: boolean;
  prestado_contas: boolean;
  bipado_em: string | null;
  concluido_em: string | null;
  prestado_contas_em: string | null;
  cancelado_em: string | null;
  /** Null until the scan: installments exist only after it. */
  parcelas: ParcelaEstado[] | null;
}

/**
 * What the group knows of a counter-CT-e's cancellation, kept apart from its document: the cancellation can be decided
 * before the payout processor registered the document, which then enters the group already held or cancelled.
 */
export interface CancelamentoEstado {
  /** The event_key of the cancellation the authority is deciding now. */
  pendente: string | null;
  registrado: boolean;
  /** Cancellations the authority refused: a late echo of their request must not hold the document again. */
  recusados: string[];
  /** Payment orders the cancellation took back before they reached the bank rail. */
  retiradas: { posicao: number; ordem_id: string; valor_centavos: number }[];
}

/** A driver group: its registered documents by counter-CT-e id, and the counter-CT-e whose financial step failed. */
export interface RepasseState {
  documentos: Record<string, DocumentoEstado>;
  falhas: Record<string, string>;
  cancelamentos: Record<string, CancelamentoEstado>;
}

export const repasseInicial: RepasseState = { documentos: {}, falhas: {}, cancelamentos: {} };

const SEM_CANCELAMENTO: CancelamentoEstado = { pendente: null, registrado: false, recusados: [], retiradas: [] };
export const cancelamentoDe = (state: RepasseState, cteId: string): CancelamentoEstado => state.cancelamentos[cteId] ?? SEM_CANCELAMENTO;

const comParcela = (doc: DocumentoEstado, posicao: number, muda: (p: ParcelaEstado) => ParcelaEstado): DocumentoEstado => ({
  ...doc,
  parcelas: doc.parcelas?.map((p) => (p.posicao === posicao ? muda(p) : p)) ?? null,
});

function evoluirDocumento(doc: DocumentoEstado, event: RepasseEvent): DocumentoEstado {
  switch (event.type) {
    case 'repasse.parcelas_geradas':
      return {
        ...doc,
        bipado_em: event.data.bipado_em,
        parcelas: event.data.parcelas.map((p) => ({
          ...p,
          situacao: 'pendente',
          ordem_id: null,
          enviada: false,
          liberada_por: null,
          liberada_em: null,
          vencimento: null,
          pagamento_solicitado_em: null,
          paga_em: null,
          cancelada_em: null,
        })),
      };
    case 'repasse.conclusao_registrada':
      return { ...doc, concluido: true, concluido_em: event.data.concluido_em };
    case 'repasse.prestacao_contas_registrada':
      return { ...doc, prestado_contas: true, prestado_contas_em: event.data.prestado_contas_em };
    case 'repasse.parcela_liberada': {
      const d = event.data;
      return comParcela(doc, d.posicao, (p) => ({
        ...p,
        situacao: 'liberada',
        liberada_por: d.gatilho,
        liberada_em: d.liberada_em,
        vencimento: d.vencimento,
      }));
    }
    case 'repasse.pagamento_solicitado': {
      const d = event.data;
      return comParcela(doc, d.posicao, (p) => ({
        ...p,
        situacao: 'pagamento_solicitado',
        ordem_id: d.ordem_id,
        pagamento_solicitado_em: d.solicitado_em,
      }));
    }
    case 'repasse.pagamento_retirado':
      return comParcela(doc, event.data.posicao, (p) => ({
        ...p,
        situacao: 'liberada',
        ordem_id: null,
        enviada: false,
        pagamento_solicitado_em: null,
      }));
    case 'repasse.pagamento_enviado':
      return comParcela(doc, event.data.posicao, (p) => ({ ...p, enviada: true }));
    case 'repasse.parcela_paga':
      return comParcela(doc, event.data.posicao, (p) => ({ ...p, situacao: 'paga', paga_em: event.data.paga_em }));
    case 'repasse.documento_cancelado': {
      const canceladas = new Set(event.data.parcelas_canceladas);
      const em = event.data.cancelado_em;
      return {
        ...doc,
        cancelado: true,
        cancelado_em: em,
        parcelas: doc.parcelas?.map((p) => (canceladas.has(p.posicao) ? { ...p, situacao: 'cancelada', cancelada_em: em } : p)) ?? null,
      };
    }
    default:
      return doc;
  }
}

function evoluirCancelamento(c: CancelamentoEstado, event: RepasseEvent): CancelamentoEstado {
  switch (event.type) {
    case 'repasse.cancelamento_solicitado':
      return { ...c, pendente: event.data.event_key };
    case 'repasse.cancelamento_recusado':
      return { ...c, pendente: c.pendente === event.data.event_key ? null : c.pendente, recusados: [...c.recusados, event.data.event_key] };
    case 'repasse.documento_cancelado':
      return { ...c, pendente: null, registrado: true };
    case 'repasse.pagamento_retirado': {
      const d = event.data;
      return { ...c, retiradas: [...c.retiradas, { posicao: d.posicao, ordem_id: d.ordem_id, valor_centavos: d.valor_centavos }] };
    }
    default:
      return c;
  }
}

/**
 * Applies one event to a state whose maps the caller owns (documents themselves are replaced, never changed):
 * `evoluirRepasse` copies the maps first; `repasseEmLugar` folds many events into one copy at linear cost.
 */
function aplicar(draft: RepasseState, event: RepasseEvent): void {
  const d = event.data;
  switch (event.type) {
    case 'repasse.documento_registrado': {
      const e = event.data;
      delete draft.falhas[e.cte_id];
      draft.documentos[e.cte_id] = {
        cte_id: e.cte_id,
        chave: e.chave,
        chave_original: e.chave_original,
        documento_financeiro: e.documento_financeiro,
        lote_id: e.lote_id,
        posicao: e.posicao,
        motorista_cpf: e.motorista_cpf,
        valor_centavos: e.valor_centavos,
        regra: e.regra,
        modo: e.modo,
        cancelado: false,
        concluido: false,
        prestado_contas: false,
        bipado_em: null,
        concluido_em: null,
        prestado_contas_em: null,
        cancelado_em: null,
        parcelas: null,
      };
      return;
    }
    case 'repasse.registro_falhou':
      draft.falhas[event.data.cte_id] = event.data.code;
      return;
    case 'repasse.cancelamento_solicitado':
    case 'repasse.cancelamento_recusado':
      draft.cancelamentos[d.cte_id] = evoluirCancelamento(cancelamentoDe(draft, d.cte_id), event);
      return;
    case 'repasse.documento_cancelado':
    case 'repasse.pagamento_retirado':
      draft.cancelamentos[d.cte_id] = evoluirCancelamento(cancelamentoDe(draft, d.cte_id), event);
      break;
  }
  const doc = draft.documentos[d.cte_id];
  if (doc) draft.documentos[d.cte_id] = evoluirDocumento(doc, event);
}

/** A copy of the state whose maps the caller owns (`aplicar` writes into them). */
const copiarRepasse = (state: RepasseState): RepasseState => ({
  documentos: { ...state.documentos },
  falhas: { ...state.falhas },
  cancelamentos: { ...state.cancelamentos },
});

export function evoluirRepasse(state: RepasseState, event: RepasseEvent): RepasseState {
  const draft = copiarRepasse(state);
  aplicar(draft, event);
  return draft;
}

/** A driver's group holds a thousand documents: a history or a group write's events are folded on one copy. */
export const repasseEmLugar = { copiar: copiarRepasse, aplicar };
