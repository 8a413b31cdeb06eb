import {
  type DomainEventOf,
  type Environment,
  type EventData,
  type LinhaPlanejada,
  type ModoSubcontratacao,
  type ParcelaRepasse,
} from '@frete/contracts';
import { type Decider, Rejection } from '../decider';

/**
 * A counter-CT-e batch: its plan, fixed at creation, what processing each row gave, the rows' later life (the
 * authority's outcome of their counter-CT-e, the payout's financial step) as the batch processor feeds it, and the
 * batch's end, decided here once every row reached its final state.
 */
export type LoteEvent =
  | DomainEventOf<'lote.criado'>
  | DomainEventOf<'lote.linha_processada'>
  | DomainEventOf<'lote.linha_emitida'>
  | DomainEventOf<'lote.linha_rejeitada'>
  | DomainEventOf<'lote.financeiro_registrado'>
  | DomainEventOf<'lote.concluido'>
  | DomainEventOf<'lote.criacao_transcrita'>;

export interface CriarLote {
  type: 'CriarLote';
  batch_id: string;
  company_id: string;
  solicitante_company_id: string | null;
  ambiente: Environment;
  modo: ModoSubcontratacao;
  parcelas: ParcelaRepasse[] | null;
  linhas: LinhaPlanejada[];
}

export type RegistrarLinha = { type: 'RegistrarLinha' } & EventData<'lote.linha_processada'>;
/** The outcomes of several rows prepared together (a block), recorded at once and in this order. */
export interface RegistrarLinhas {
  type: 'RegistrarLinhas';
  batch_id: string;
  company_id: string;
  linhas: EventData<'lote.linha_processada'>[];
}
/** The authority refused or denied a row's counter-CT-e. */
export type RegistrarLinhaRejeitada = { type: 'RegistrarLinhaRejeitada' } & EventData<'lote.linha_rejeitada'>;
/** The payout of a row's counter-CT-e was registered, or could not be: the row was emitted, and this is its financial step. */
export type RegistrarFinanceiroDaLinha = { type: 'RegistrarFinanceiroDaLinha' } & EventData<'lote.financeiro_registrado'>;

/**
 * Carries a creation recorded in another company's chain (a requested batch before issue 26) into the owner's. The
 * decider sees data, not storage: the edge says which chain the creation was recorded in and what it was.
 */
export interface TranscreverCriacao {
  type: 'TranscreverCriacao';
  batch_id: string;
  /** The chain `lote.criado` was recorded in: its metadata's company_id (null for the operator-wide chain). */
  cadeia: string | null;
  evento: EventData<'lote.criacao_transcrita'>['evento'];
  criado: EventData<'lote.criado'>;
}

export type LoteCommand =
  | CriarLote
  | RegistrarLinha
  | RegistrarLinhas
  | RegistrarLinhaRejeitada
  | RegistrarFinanceiroDaLinha
  | TranscreverCriacao;

/** A row as the report names it: `pending` until the authority's outcome, then `emitted` or `failed`. */
export interface LinhaRegistrada {
  status: 'pending' | 'emitted' | 'duplicated' | 'failed';
  counter_cte_id: string | null;
  /** The financial step of an authorized counter-CT-e; it may be fed before the authorization when deliveries cross. */
  financeiro: 'ok' | 'failed' | null;
}

export interface LoteState {
  existe: boolean;
  batch_id: string | null;
  company_id: string | null;
  solicitante_company_id: string | null;
  modo: ModoSubcontratacao;
  parcelas: ParcelaRepasse[] | null;
  linhas: LinhaPlanejada[];
  /** By row index: what processing gave, and what followed. */
  processadas: Record<number, LinhaRegistrada>;
  /** The batch's end once decided: it is decided once. */
  concluido: 'done' | 'failed' | null;
  /** Whether its creation, recorded in another company's chain, was carried into the owner's. */
  transcrita: boolean;
}

export const loteStream = (batchId: string) => `lote-${batchId}`;

type EventoDoLote = DomainEventOf<'lote.criado'> | DomainEventOf<'lote.concluido'> | DomainEventOf<'lote.criacao_transcrita'>;
type EventoDeLinha = Exclude<LoteEvent, EventoDoLote>;
const doLote = (e: LoteEvent): e is EventoDoLote =>
  e.type === 'lote.criado' || e.type === 'lote.concluido' || e.type === 'lote.criacao_transcrita';

/** A row event's effect on the rows, written into `processadas` (a copy in `evolve`, the owned copy's in `emLugar`). */
function aplicarNaLinha(processadas: LoteState['processadas'], e: EventoDeLinha): void {
  const d = e.data;
  const atual = processadas[d.linha];
  switch (e.type) {
    case 'lote.linha_processada':
      processadas[d.linha] = { status: e.data.status, counter_cte_id: e.data.counter_cte_id, financeiro: null };
      return;
    case 'lote.linha_emitida':
      if (atual) processadas[d.linha] = { ...atual, status: 'emitted' };
      return;
    case 'lote.linha_rejeitada':
      if (atual) processadas[d.linha] = { ...atual, status: 'failed' };
      return;
    case 'lote.financeiro_registrado':
      if (atual) processadas[d.linha] = { ...atual, financeiro: e.data.financeiro };
      return;
  }
}

/**
 * The batch's end, when this state is it: every planned row recorded and final (failed or duplicated at processing,
 * refused by the authority, or emitted with its financial step decided; spec section 3: an emitted row whose payout
 * failed is still emitted). `done` when any row was emitted or duplicated, else `failed`. Null while a row is
 * missing or open, and once the end was recorded.
 */
function conclusao(state: LoteState): DomainEventOf<'lote.concluido'> | null {
  if (!state.existe || state.concluido) return null;
  let emitidas = 0;
  let duplicadas = 0;
  let falhas = 0;
  for (const plano of state.linhas) {
    const l = state.processadas[plano.linha];
    if (!l || l.status === 'pending' || (l.status === 'emitted' && l.financeiro === null)) return null;
    if (l.status === 'emitted') emitidas++;
    else if (l.status === 'duplicated') duplicadas++;
    else falhas++;
  }
  return {
    type: 'lote.concluido',
    data: {
      batch_id: state.batch_id!,
      company_id: state.company_id!,
      status: emitidas + duplicadas > 0 ? 'done' : 'failed',
      total_linhas: state.linhas.length,
      emitidas,
      duplicadas,
      falhas,
    },
  };
}

/** The row an outcome of its counter-CT-e names: the batch's and the plan's, already recorded by processing. */
function linhaRegistrada(state: LoteState, c: { batch_id: string; company_id: string; linha: number }): LinhaRegistrada {
  if (!state.existe || state.company_id !== c.company_id) throw new Rejection('lote_nao_encontrado', `batch ${c.batch_id} not found`);
  const l = state.linhas[c.linha] ? state.processadas[c.linha] : undefined;
  // A counter-CT-e is sent only after its row is recorded: an outcome before it names a row this batch never sent.
  if (!l) throw new Rejection('regra_de_negocio', `row ${c.linha} of batch ${c.batch_id} has no counter-CT-e`);
  return l;
}

/** The event, and the batch's end when this event is what completes it. */
function comConclusao(state: LoteState, e: LoteEvent): LoteEvent[] {
  const fim = conclusao(loteDecider.evolve(state, e));
  return fim ? [e, fim] : [e];
}

export const loteDecider: Decider<LoteCommand, LoteState, LoteEvent> = {
  initialState: {
    existe: false,
    batch_id: null,
    company_id: null,
    solicitante_company_id: null,
    modo: '1a1',
    parcelas: null,
    linhas: [],
    processadas: {},
    concluido: null,
    transcrita: false,
  },
  decide(c, state, ctx) {
    switch (c.type) {
      case 'CriarLote': {
        // The id comes from an idempotency key or is fresh: a second creation is the retry of the first.
        if (state.existe) return [];
        if (c.linhas.length === 0) throw new Rejection('lote_invalido', 'a batch has at least one row');
        return [
          {
            type: 'lote.criado',
            data: {
              batch_id: c.batch_id,
              company_id: c.company_id,
              solicitante_company_id: c.solicitante_company_id,
              ambiente: c.ambiente,
              modo: c.modo,
              parcelas: c.parcelas,
              linhas: c.linhas,
            },
          },
        ];
      }
      case 'RegistrarLinha': {
        if (!state.existe || state.company_id !== c.company_id) throw new Rejection('lote_nao_encontrado', `batch ${c.batch_id} not found`);
        const plano = state.linhas[c.linha];
        if (!plano || plano.chave !== c.chave || plano.perna !== c.perna) {
          throw new Rejection('regra_de_negocio', `row ${c.linha} of batch ${c.batch_id} is not key ${c.chave} leg ${c.perna}`);
        }
        // Redelivery of the processing: the row already has its outcome, and the first one stands.
        if (state.processadas[c.linha]) return [];
        if (c.status !== 'failed' && !c.counter_cte_id) throw new Rejection('regra_de_negocio', `a ${c.status} row names its counter-CT-e`);
        const { type: _type, ...data } = c;
        // A last row that failed or was a duplicate can be what ends the batch.
        return comConclusao(state, { type: 'lote.linha_processada', data });
      }
      case 'RegistrarLinhas': {
        // Each row as if recorded alone, on the state the rows before it left: the same events, in one append.
        const events: LoteEvent[] = [];
        let atual = state;
        for (const linha of c.linhas) {
          if (linha.batch_id !== c.batch_id || linha.company_id !== c.company_id) {
            throw new Rejection('regra_de_negocio', `row ${linha.linha} belongs to another batch than ${c.batch_id}`);
          }
          const novos = loteDecider.decide({ type: 'RegistrarLinha', ...linha }, atual, ctx);
          atual = novos.reduce(loteDecider.evolve, atual);
          events.push(...novos);
        }
        return events;
      }
      case 'RegistrarLinhaRejeitada': {
        const l = linhaRegistrada(state, c);
        // Only the row's own pending document moves it (a duplicated row names another's); the first outcome stands.
        if (l.status !== 'pending' || l.counter_cte_id !== c.counter_cte_id) return [];
        const { type: _type, ...data } = c;
        return comConclusao(state, { type: 'lote.linha_rejeitada', data });
      }
      case 'RegistrarFinanceiroDaLinha': {
        const l = linhaRegistrada(state, c);
        if (l.counter_cte_id !== c.counter_cte_id || (l.status !== 'pending' && l.status !== 'emitted')) return [];
        const { type: _type, ...data } = c;
        const { financeiro: _f, ...linha } = data;
        // The payout enters a group only from an authorization: its outcome is how the batch learns that the row was
        // emitted, both in one append (the batch does not follow `cte.autorizado`: one read and one append less a key).
        // A pending row that already has its financial step is an older history's, whose deliveries crossed.
        const novos: LoteEvent[] = [];
        if (l.status === 'pending') novos.push({ type: 'lote.linha_emitida', data: linha });
        if (l.financeiro === null) novos.push({ type: 'lote.financeiro_registrado', data });
        if (novos.length === 0) return [];
        const fim = conclusao(novos.reduce(loteDecider.evolve, state));
        return fim ? [...novos, fim] : novos;
      }
      case 'TranscreverCriacao': {
        if (!state.existe || c.criado.batch_id !== state.batch_id)
          throw new Rejection('lote_nao_encontrado', `batch ${c.batch_id} not found`);
        // A creation already in its owner's chain has nothing to carry; one carried is not carried twice.
        if (state.transcrita || c.cadeia === state.company_id) return [];
        return [
          {
            type: 'lote.criacao_transcrita',
            data: { batch_id: state.batch_id, company_id: state.company_id!, evento: c.evento, criado: c.criado },
          },
        ];
      }
    }
  },
  evolve(state, e) {
    switch (e.type) {
      case 'lote.criado':
        return {
          existe: true,
          batch_id: e.data.batch_id,
          company_id: e.data.company_id,
          solicitante_company_id: e.data.solicitante_company_id,
          modo: e.data.modo,
          parcelas: e.data.parcelas,
          linhas: e.data.linhas,
          processadas: {},
          concluido: null,
          transcrita: false,
        };
      case 'lote.concluido':
        return { ...state, concluido: e.data.status };
      case 'lote.criacao_transcrita':
        return { ...state, transcrita: true };
      default: {
        const processadas = { ...state.processadas };
        aplicarNaLinha(processadas, e);
        return { ...state, processadas };
      }
    }
  },
  // A batch of a thousand rows is read again at each block, and its outcomes are recorded in groups: one copy of the
  // rows for all the events, not one per row.
  emLugar: {
    copiar: (state) => ({ ...state, processadas: { ...state.processadas } }),
    aplicar(copia, e) {
      if (doLote(e)) Object.assign(copia, loteDecider.evolve(copia, e));
      else aplicarNaLinha(copia.processadas, e);
    },
  },
};
