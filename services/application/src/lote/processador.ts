import { type CodigoLinhaLote, type EventData, type LinhaPlanejada, type RecordedEvent } from '@frete/contracts';
import {
  BLOCO_DO_LOTE,
  type ComandoDoFluxo,
  cteDecider,
  cteStream,
  desfechoDaLinha,
  type EntradaDoLote,
  entradaPedeTrabalho,
  type LoteCommand,
  type LoteEvent,
  loteDecider,
  type LoteState,
  loteStream,
  reagirAoLote,
} from '@frete/domain';
import { type CommandContext, type ContextoEmpresa, execute, load, loadCached } from '../commands/execute';
import { StateCache } from '../commands/state-cache';
import { todas } from '../commands/todas';
import { decisaoEmGrupo, EscritaAgrupada } from '../commands/escrita-agrupada';
import { type ServicoContraCte, type ResultadoContraCte } from '../contra-cte/servico';
import { type EmissorCte } from '../cte/emissor';
import { type LeiturasDaEmpresa } from '../cte/leituras';
import { type EventStore } from '@frete/platform';
import { derivedEventId } from '@frete/platform';
import { type ReadYourWrites } from '@frete/platform';
import { aceitaDoLote, type SolicitacaoLoteHandler, solicitacaoLoteHandler } from '../solicitacao-lote/handler';

export { BLOCO_DO_LOTE };

export interface ProcessadorLoteDeps {
  store: EventStore;
  contraCte: ServicoContraCte;
  /** Issues a block's counter-CT-e together (numbers, signature): see `EmissorCte.solicitarContraCtes`. */
  emissor: EmissorCte;
  clock: () => Date;
  readYourWrites?: ReadYourWrites;
}

/** The counter-CT-e of a batch row: the same id however often the row is processed. */
export const contraCteDaLinha = (batchId: string, linha: number) => derivedEventId(batchId, `linha:${linha}`);

type Processada = Omit<EventData<'lote.linha_processada'>, 'batch_id' | 'company_id' | 'linha' | 'chave' | 'perna' | 'tipo_servico'>;

/**
 * The ids of the batch's events: a row's event keeps the id it always had, whichever block, group or retry records it;
 * the batch's end, recorded once, is the batch's (which row's outcome completes it depends on how outcomes meet).
 */
const idsDasLinhas =
  (batchId: string) =>
  (_i: number, e: LoteEvent): string => {
    if (e.type === 'lote.concluido' || !('linha' in e.data)) return derivedEventId(batchId, e.type);
    const linha = e.data.linha;
    return derivedEventId(batchId, e.type === 'lote.linha_processada' ? `linha:${linha}:processada` : `linha:${linha}:${e.type}`);
  };

/** A row's outcome (refused, or emitted with its payout's step) and the event that told it. */
interface Desfecho {
  comando: Extract<LoteCommand, { type: 'RegistrarLinhaRejeitada' | 'RegistrarFinanceiroDaLinha' }>;
  causa: string;
  ctx: ContextoEmpresa;
}

/** The failure a refused counter-CT-e gives its row (`cte_rejeitado`), in the authority's words. */
function recusa(event: RecordedEvent): { code: CodigoLinhaLote; message: string } {
  if (event.type === 'cte.denegado') {
    const { protocolo } = event.data as EventData<'cte.denegado'>;
    return { code: 'cte_rejeitado', message: `the authority denied the counter-CT-e: cStat ${protocolo.cstat} ${protocolo.motivo}` };
  }
  const { cstat, motivo } = event.data as EventData<'cte.rejeitado'>;
  return { code: 'cte_rejeitado', message: `the authority refused the counter-CT-e: cStat ${cstat} ${motivo}` };
}

/**
 * Drives the batch workflow (`reagirAoLote`, batch rules 1–7): it turns each event it follows into the batch's input,
 * runs the commands the workflow returns and records through the batch's decider. Rows become counter-CT-e drafts
 * through the same service as `POST /fiscal/cte/contra`, are recorded on the batch, and only then issued. Safe to
 * repeat: a recorded row is not prepared again, its counter-CT-e id derives from the batch and row, and every
 * recorded event's id derives from the row or from the event that told it.
 */
export class ProcessadorLote {
  /** Batches whose rows' outcomes arrive one by one: each outcome reads only the batch's newer events. */
  private readonly lotes = new StateCache<LoteState>(100);
  private readonly solicitacoes: SolicitacaoLoteHandler;
  /**
   * The rows' outcomes of one batch that arrive while one is being recorded go in one append together (a thousand
   * rows' payouts would otherwise be a thousand appends to the batch).
   */
  private readonly desfechos = new EscritaAgrupada<Desfecho>((batchId, itens) => this.registrarDesfechos(batchId, itens));

  constructor(private readonly deps: ProcessadorLoteDeps) {
    this.solicitacoes = solicitacaoLoteHandler(deps);
  }

  /**
   * A payout's outcome arrives on its group's stream, one for all of a driver's rows: it waits only for what its own
   * counter-CT-e's stream told, so that different rows' outcomes are handled side by side and meet in one append
   * (`desfechos`).
   */
  static chaveDe(event: RecordedEvent): string {
    if (event.type === 'repasse.documento_registrado' || event.type === 'repasse.registro_falhou')
      return cteStream((event.data as { cte_id: string }).cte_id);
    return event.streamId;
  }

  /** The events the batch follows. */
  static readonly EVENTOS = [
    'lote.criado',
    'lote.linha_processada',
    'cte.rejeitado',
    'cte.denegado',
    'repasse.documento_registrado',
    'repasse.registro_falhou',
    'lote.concluido',
  ] as const;

  /** Whether an event asks for work: a row's record does only when it ends a block (the others must not wait their turn). */
  pedeTrabalho(event: RecordedEvent): boolean {
    return event.type !== 'lote.linha_processada' || entradaPedeTrabalho((event.data as EventData<'lote.linha_processada'>).linha);
  }

  /** One event the batch follows: its input, then what the workflow asks for it. */
  async aoEvento(event: RecordedEvent): Promise<void> {
    const entrada = await this.entradaDo(event);
    if (entrada) await this.conduzir(entrada, event.id);
  }

  /** The batch's input an event is, or null when it is none of a batch's business. */
  private async entradaDo(event: RecordedEvent): Promise<EntradaDoLote | null> {
    switch (event.type) {
      case 'lote.criado':
        return { tipo: 'criado', batch_id: (event.data as EventData<'lote.criado'>).batch_id };
      case 'lote.linha_processada': {
        const d = event.data as EventData<'lote.linha_processada'>;
        return { tipo: 'linha_registrada', batch_id: d.batch_id, linha: d.linha };
      }
      case 'cte.rejeitado':
      case 'cte.denegado': {
        const cteId = (event.data as { cte_id: string }).cte_id;
        // Which batch row made it is in the counter-CT-e's own link; any other CT-e is not a batch's business.
        const cte = await load(this.deps.store, cteStream(cteId), cteDecider);
        const v = cte.contra_cte;
        if (!v?.lote_id || v.linha === null || !cte.company_id) return null;
        const linha = { batch_id: v.lote_id, company_id: cte.company_id, linha: v.linha, counter_cte_id: cteId };
        return { tipo: 'contra_cte_recusado', dados: { ...linha, error: recusa(event) } };
      }
      case 'repasse.documento_registrado':
      case 'repasse.registro_falhou': {
        const d = event.data as EventData<'repasse.documento_registrado'> | EventData<'repasse.registro_falhou'>;
        // A single counter-CT-e's payout is no batch's.
        if (d.lote_id === null) return null;
        const financeiro = event.type === 'repasse.documento_registrado' ? 'ok' : 'failed';
        return {
          tipo: 'repasse_decidido',
          dados: { batch_id: d.lote_id, company_id: d.company_id, linha: d.posicao, counter_cte_id: d.cte_id, financeiro },
        };
      }
      case 'lote.concluido':
        return { tipo: 'concluido', dados: event.data as EventData<'lote.concluido'> };
      default:
        return null;
    }
  }

  /**
   * Runs what the workflow returns for `entrada`, in order; a preparation's outcome is fed back to it. `causa` is the
   * event delivered: the ids of outcomes recorded for it derive from it.
   */
  private async conduzir(entrada: EntradaDoLote, causa: string): Promise<void> {
    const batchId = entrada.tipo === 'criado' || entrada.tipo === 'linha_registrada' ? entrada.batch_id : batchDe(entrada);
    // A row's outcome is recorded by the batch's decider on the stream as its append finds it (the expected revision
    // guards it): the workflow routes it without the batch's state, so nothing is read for it here.
    const desfecho = desfechoDaLinha(entrada);
    const lote = desfecho ? loteDecider.initialState : await this.carregar(batchId);
    if (!desfecho && !lote.existe) return;
    const companyId = desfecho ? entrada.dados.company_id : lote.company_id!;
    const ctx: ContextoEmpresa = {
      companyId,
      correlationId: batchId,
      causationId: causa,
      requestId: null,
      actor: 'processor:emission',
      now: this.deps.clock(),
    };
    // The company's configuration, certificate and rules, read once for a block's rows.
    const leituras = this.deps.contraCte.leiturasDe(companyId);
    const fila = reagirAoLote(lote, entrada);
    for (let i = 0; i < fila.length; i++) {
      const c: ComandoDoFluxo = fila[i]!;
      switch (c.tipo) {
        case 'PrepararLinhas': {
          leituras.inboxDoBloco(c.linhas.map((plano) => plano.chave));
          // Called in row order, without waiting: the order in which rows of one key take it.
          const linhas = await todas(c.linhas.map((plano) => this.preparar(lote, plano, ctx, leituras)));
          fila.push(...reagirAoLote(lote, { tipo: 'linhas_preparadas', batch_id: batchId, company_id: companyId, linhas }));
          break;
        }
        case 'RegistrarNoLote':
          if (c.comando.type === 'RegistrarLinhaRejeitada' || c.comando.type === 'RegistrarFinanceiroDaLinha') {
            await this.desfechos.escrever(batchId, { comando: c.comando, causa, ctx });
            break;
          }
          await execute(this.deps, loteStream(batchId), loteDecider, c.comando, ctx, {
            eventId: idsDasLinhas(batchId),
            cache: this.lotes,
          });
          break;
        case 'EmitirContraCtes': {
          const { serie_cte } = await leituras.configuracao();
          await this.deps.emissor.solicitarContraCtes(companyId, serie_cte ?? 0, c.ctes, ctx, leituras);
          break;
        }
        case 'AvisarSolicitante':
          await this.avisarSolicitante(lote, c.solicitante_company_id, c.fim, causa);
          break;
      }
    }
  }

  /** Records rows' outcomes in one append, each event with its row's cause. */
  private async registrarDesfechos(batchId: string, itens: Desfecho[]): Promise<void> {
    const grupo = decisaoEmGrupo(loteDecider);
    await execute(
      this.deps,
      loteStream(batchId),
      grupo.decider,
      itens.map((d) => d.comando),
      { ...itens[0]!.ctx, now: this.deps.clock() },
      {
        eventId: idsDasLinhas(batchId),
        metadata: (i, _e, base) => ({ ...base, causation_id: itens[grupo.item(i)]!.causa }),
        cache: this.lotes,
      },
    );
  }

  /** A batch requested under a grant tells its requester how it ended, in the requester's own log (the batch's events are its owner's). */
  private async avisarSolicitante(lote: LoteState, solicitante: string, fim: EventData<'lote.concluido'>, causa: string): Promise<void> {
    const ctx: CommandContext = {
      companyId: solicitante,
      correlationId: fim.batch_id,
      causationId: causa,
      requestId: null,
      actor: 'processor:emission',
      now: this.deps.clock(),
    };
    const { company_id: _dona, ...contagem } = fim;
    await this.solicitacoes.concluir(ctx, { ...contagem, company_id: solicitante }, async () => {
      const sub = await this.deps.contraCte.leiturasDe(fim.company_id).company();
      if (!sub) throw new Error(`company ${fim.company_id} of batch ${fim.batch_id} is not in the read models`);
      return aceitaDoLote(lote, { cnpj: sub.cnpj, nome: sub.razao_social });
    });
  }

  /** The batch as its stream stands, reading only what this process has not folded yet. */
  private carregar(batchId: string): Promise<LoteState> {
    return loadCached(this.deps.store, loteStream(batchId), loteDecider, this.lotes);
  }

  /** A row's counter-CT-e draft, and what the row records of it. */
  private async preparar(
    lote: LoteState,
    plano: LinhaPlanejada,
    ctx: ContextoEmpresa,
    leituras: LeiturasDaEmpresa,
  ): Promise<EventData<'lote.linha_processada'>> {
    const batchId = lote.batch_id!;
    const cteId = contraCteDaLinha(batchId, plano.linha);
    const resultado = await this.deps.contraCte.preparar(
      {
        company_id: ctx.companyId,
        cte_id: cteId,
        chave: plano.chave,
        modo: lote.modo,
        pedido: {
          tipo_servico: plano.tipo_servico as 1 | 2 | 3,
          origem: plano.origem,
          destino: plano.destino,
          valor_centavos: plano.valor_centavos,
          motorista_cpf: plano.motorista_cpf,
          placa: plano.placa,
        },
        lote_id: batchId,
        linha: plano.linha,
        perna: plano.perna,
        parcelas: lote.parcelas,
        solicitante_company_id: lote.solicitante_company_id,
      },
      ctx,
      leituras,
    );
    return {
      batch_id: batchId,
      company_id: ctx.companyId,
      linha: plano.linha,
      chave: plano.chave,
      perna: plano.perna,
      tipo_servico: plano.tipo_servico,
      ...(await this.desfecho(resultado)),
    };
  }

  private async desfecho(r: ResultadoContraCte): Promise<Processada> {
    switch (r.status) {
      case 'aceito':
        return { status: 'pending', counter_cte_id: r.cte_id, documento_financeiro: r.documento_financeiro, error: null };
      case 'duplicated': {
        // The existing counter-CT-e's leg document, so that a resubmitted legs batch still points at the installments.
        const existente = await load(this.deps.store, cteStream(r.cte_id), cteDecider);
        return {
          status: 'duplicated',
          counter_cte_id: r.cte_id,
          documento_financeiro: existente.contra_cte?.documento_financeiro ?? null,
          error: null,
        };
      }
      case 'failed':
        return { status: 'failed', counter_cte_id: null, documento_financeiro: null, error: { code: r.code, message: r.message } };
    }
  }
}

/** The batch an outcome names. */
function batchDe(entrada: Exclude<EntradaDoLote, { tipo: 'criado' | 'linha_registrada' }>): string {
  return entrada.tipo === 'linhas_preparadas' ? entrada.batch_id : entrada.dados.batch_id;
}
