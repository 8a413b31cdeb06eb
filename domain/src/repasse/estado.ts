import { type DomainEventOf, type ModoLiberacao, type RegraRepasse, type SituacaoParcela } from '@frete/contracts';

export type RepasseEvent =
  | DomainEventOf<'repasse.documento_registrado'>
  | DomainEventOf<'repasse.registro_falhou'>
  | DomainEventOf<'repasse.parcelas_geradas'>
  | DomainEventOf<'repasse.conclusao_registrada'>
  | DomainEventOf<'repasse.prestacao_contas_registrada'>
  | DomainEventOf<'repasse.parcela_liberada'>
  | DomainEventOf<'repasse.pagamento_solicitado'>
  | DomainEventOf<'repasse.parcela_paga'>
  | DomainEventOf<'repasse.documento_cancelado'>;

export interface ParcelaEstado {
  posicao: number;
  percentual: number;
  valor_centavos: number;
  dias: number;
  situacao: SituacaoParcela;
  ordem_id: string | null;
}

export interface DocumentoEstado {
  cte_id: string;
  chave_original: string;
  /** Place in the batch: orders the group at the scan. */
  posicao: number;
  motorista_cpf: string;
  valor_centavos: number;
  regra: RegraRepasse;
  modo: ModoLiberacao;
  cancelado: boolean;
  concluido: boolean;
  prestado_contas: boolean;
  /** Null until the scan: installments exist only after it. */
  parcelas: ParcelaEstado[] | null;
}

/** A driver group: its registered documents by counter-CT-e id, and the counter-CT-e whose financial step failed. */
export interface RepasseState {
  documentos: Record<string, DocumentoEstado>;
  falhas: Record<string, string>;
}

export const repasseInicial: RepasseState = { documentos: {}, falhas: {} };

const comParcela = (doc: DocumentoEstado, posicao: number, muda: (p: ParcelaEstado) => ParcelaEstado): DocumentoEstado => ({
  ...doc,
  parcelas: doc.parcelas?.map((p) => (p.posicao === posicao ? muda(p) : p)) ?? null,
});

function evoluirDocumento(doc: DocumentoEstado, event: RepasseEvent): DocumentoEstado {
  switch (event.type) {
    case 'repasse.parcelas_geradas':
      return { ...doc, parcelas: event.data.parcelas.map((p) => ({ ...p, situacao: 'pendente', ordem_id: null })) };
    case 'repasse.conclusao_registrada':
      return { ...doc, concluido: true };
    case 'repasse.prestacao_contas_registrada':
      return { ...doc, prestado_contas: true };
    case 'repasse.parcela_liberada':
      return comParcela(doc, event.data.posicao, (p) => ({ ...p, situacao: 'liberada' }));
    case 'repasse.pagamento_solicitado':
      return comParcela(doc, event.data.posicao, (p) => ({ ...p, situacao: 'pagamento_solicitado', ordem_id: event.data.ordem_id }));
    case 'repasse.parcela_paga':
      return comParcela(doc, event.data.posicao, (p) => ({ ...p, situacao: 'paga' }));
    case 'repasse.documento_cancelado': {
      const canceladas = new Set(event.data.parcelas_canceladas);
      return {
        ...doc,
        cancelado: true,
        parcelas: doc.parcelas?.map((p) => (canceladas.has(p.posicao) ? { ...p, situacao: 'cancelada' } : p)) ?? null,
      };
    }
    default:
      return doc;
  }
}

/**
 * Applies one event to a state whose two maps the caller owns (documents themselves are replaced, never changed):
 * `evoluirRepasse` copies the maps first, `evoluirHistorico` folds a whole history into fresh maps at linear cost.
 */
function aplicar(draft: RepasseState, event: RepasseEvent): void {
  const d = event.data;
  switch (event.type) {
    case 'repasse.documento_registrado': {
      const e = event.data;
      delete draft.falhas[e.cte_id];
      draft.documentos[e.cte_id] = {
        cte_id: e.cte_id,
        chave_original: e.chave_original,
        posicao: e.posicao,
        motorista_cpf: e.motorista_cpf,
        valor_centavos: e.valor_centavos,
        regra: e.regra,
        modo: e.modo,
        cancelado: false,
        concluido: false,
        prestado_contas: false,
        parcelas: null,
      };
      return;
    }
    case 'repasse.registro_falhou':
      draft.falhas[event.data.cte_id] = event.data.code;
      return;
    default: {
      const doc = draft.documentos[d.cte_id];
      if (doc) draft.documentos[d.cte_id] = evoluirDocumento(doc, event);
    }
  }
}

export function evoluirRepasse(state: RepasseState, event: RepasseEvent): RepasseState {
  const draft = { documentos: { ...state.documentos }, falhas: { ...state.falhas } };
  aplicar(draft, event);
  return draft;
}

export function evoluirHistorico(events: RepasseEvent[]): RepasseState {
  const draft: RepasseState = { documentos: {}, falhas: {} };
  for (const e of events) aplicar(draft, e);
  return draft;
}
