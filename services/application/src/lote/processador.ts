import { EventCatalog, type EventData, type LinhaPlanejada, type RecordedEvent } from '@frete/contracts';
import {
  cteDecider,
  cteStream,
  fold,
  type LoteCommand,
  type LoteEvent,
  loteDecider,
  type LoteState,
  loteStream,
  Rejection,
} from '@frete/domain';
import { type CommandContext, execute, load, toDomainEvent } from '../commands/execute';
import { StateCache } from '../commands/state-cache';
import { type ServicoContraCte, type ResultadoContraCte } from '../contra-cte/servico';
import { type EventStore, WrongExpectedRevision } from '@frete/platform';
import { derivedEventId } from '@frete/platform';
import { type ReadYourWrites } from '@frete/platform';

export interface ProcessadorLoteDeps {
  store: EventStore;
  contraCte: ServicoContraCte;
  clock: () => Date;
  readYourWrites?: ReadYourWrites;
}

/**
 * Rows handled per delivery. A batch is walked in blocks, each started by the event of the block's last row, so
 * that no delivery outlasts a Kafka session and the counter-CT-e of the first rows go to the authority while later
 * rows are still being prepared.
 */
export const BLOCO_DO_LOTE = 25;

/** The counter-CT-e of a batch row: the same id however often the row is processed. */
export const contraCteDaLinha = (batchId: string, linha: number) => derivedEventId(batchId, `linha:${linha}`);

type Processada = Omit<EventData<'lote.linha_processada'>, 'batch_id' | 'company_id' | 'linha' | 'chave' | 'perna' | 'tipo_servico'>;

/** What the batch learns about a row after creation (processing, then its counter-CT-e's outcomes). */
type DesfechoDaLinha = Exclude<LoteCommand, { type: 'CriarLote' }>;

/** The batch's stream as this delivery knows it; a row is appended at the next revision without reading it all again. */
interface Sessao {
  state: LoteState;
  revision: bigint;
}

/**
 * Processes a batch's rows in order (batch rules 1–7): each row becomes a counter-CT-e draft through the same
 * service as `POST /fiscal/cte/contra`, its outcome is recorded on the batch, and only then is the document sent.
 * Safe to repeat: a recorded row is not prepared again, its counter-CT-e id derives from the batch and row, and the
 * row's event id derives from them too.
 */
export class ProcessadorLote {
  /** Batches whose rows' outcomes arrive one by one: each outcome reads only the batch's newer events. */
  private readonly lotes = new StateCache<LoteState>(100);

  constructor(private readonly deps: ProcessadorLoteDeps) {}

  /** `lote.criado`: the first block. */
  async aoCriar(event: RecordedEvent): Promise<void> {
    await this.processarBloco((event.data as EventData<'lote.criado'>).batch_id, 0, event.id);
  }

  /** `lote.linha_processada`: the last row of a block starts the next one. */
  async aoProcessarLinha(event: RecordedEvent): Promise<void> {
    const d = event.data as EventData<'lote.linha_processada'>;
    if ((d.linha + 1) % BLOCO_DO_LOTE === 0) await this.processarBloco(d.batch_id, d.linha + 1, event.id);
  }

  /** `cte.autorizado`: a batch row's counter-CT-e is emitted (it waits for its payout's financial step). */
  async aoAutorizar(event: RecordedEvent): Promise<void> {
    const d = event.data as EventData<'cte.autorizado'>;
    await this.registrarDesfecho(event, d.cte_id, (lote) => ({ type: 'RegistrarLinhaEmitida', ...lote }));
  }

  /** `cte.rejeitado`, `cte.denegado`: a batch row's counter-CT-e was refused; the row fails with `cte_rejeitado`. */
  async aoRejeitar(event: RecordedEvent): Promise<void> {
    let message: string;
    if (event.type === 'cte.denegado') {
      const { protocolo } = event.data as EventData<'cte.denegado'>;
      message = `the authority denied the counter-CT-e: cStat ${protocolo.cstat} ${protocolo.motivo}`;
    } else {
      const { cstat, motivo } = event.data as EventData<'cte.rejeitado'>;
      message = `the authority refused the counter-CT-e: cStat ${cstat} ${motivo}`;
    }
    await this.registrarDesfecho(event, (event.data as { cte_id: string }).cte_id, (lote) => ({
      type: 'RegistrarLinhaRejeitada',
      ...lote,
      error: { code: 'cte_rejeitado', message },
    }));
  }

  /** `repasse.documento_registrado`, `repasse.registro_falhou`: the financial step of a batch row's counter-CT-e. */
  async aoRegistrarFinanceiro(event: RecordedEvent): Promise<void> {
    const d = event.data as EventData<'repasse.documento_registrado'> | EventData<'repasse.registro_falhou'>;
    // A single counter-CT-e's payout is no batch's.
    if (d.lote_id === null) return;
    await this.alimentar(event, {
      type: 'RegistrarFinanceiroDaLinha',
      batch_id: d.lote_id,
      company_id: d.company_id,
      linha: d.posicao,
      counter_cte_id: d.cte_id,
      financeiro: event.type === 'repasse.documento_registrado' ? 'ok' : 'failed',
    });
  }

  /** The authority's outcome of a counter-CT-e, for the batch row that made it; any other CT-e is not a batch's business. */
  private async registrarDesfecho(
    event: RecordedEvent,
    cteId: string,
    command: (linha: { batch_id: string; company_id: string; linha: number; counter_cte_id: string }) => DesfechoDaLinha,
  ): Promise<void> {
    const cte = await load(this.deps.store, cteStream(cteId), cteDecider);
    const vinculo = cte.contra_cte;
    if (!vinculo?.lote_id || vinculo.linha === null || !cte.company_id) return;
    await this.alimentar(
      event,
      command({ batch_id: vinculo.lote_id, company_id: cte.company_id, linha: vinculo.linha, counter_cte_id: cteId }),
    );
  }

  /**
   * Gives the batch an outcome appended to another stream; its decider records it and decides the batch's end. Ids
   * derive from the cause, so a redelivered outcome appends nothing even when two deliveries race.
   */
  private async alimentar(event: RecordedEvent, command: DesfechoDaLinha): Promise<void> {
    const ctx: CommandContext = {
      companyId: command.company_id,
      correlationId: command.batch_id,
      causationId: event.id,
      requestId: null,
      actor: 'emission-processor',
      now: this.deps.clock(),
    };
    await execute(this.deps, loteStream(command.batch_id), loteDecider, command, ctx, {
      eventId: (i, e) => derivedEventId(event.id, `lote:${e.type}:${i}`),
      cache: this.lotes,
    });
  }

  private async carregar(batchId: string): Promise<Sessao | null> {
    const history = await this.deps.store.readStream(loteStream(batchId));
    const last = history[history.length - 1];
    if (!last) return null;
    return {
      state: fold(
        loteDecider,
        history.map((e) => toDomainEvent<LoteEvent>(e)),
      ),
      revision: last.revision,
    };
  }

  private async processarBloco(batchId: string, inicio: number, causa: string): Promise<void> {
    let sessao = await this.carregar(batchId);
    if (!sessao?.state.existe) return;
    const companyId = sessao.state.company_id!;
    const fim = Math.min(inicio + BLOCO_DO_LOTE, sessao.state.linhas.length);
    for (let n = inicio; n < fim; n++) {
      const ctx: CommandContext = {
        companyId,
        correlationId: batchId,
        causationId: causa,
        requestId: null,
        actor: 'emission-processor',
        now: this.deps.clock(),
      };
      const plano = sessao.state.linhas[n]!;
      const cteId = contraCteDaLinha(batchId, n);
      const feita = sessao.state.processadas[n];
      if (feita) {
        // A redelivery may have stopped between recording the row and sending its document.
        if (feita.status === 'pending' && feita.counter_cte_id === cteId) await this.solicitar(companyId, cteId, ctx);
        continue;
      }
      const resultado = await this.deps.contraCte.preparar(
        {
          company_id: companyId,
          cte_id: cteId,
          chave: plano.chave,
          modo: sessao.state.modo,
          pedido: {
            tipo_servico: plano.tipo_servico as 1 | 2 | 3,
            origem: plano.origem,
            destino: plano.destino,
            valor_centavos: plano.valor_centavos,
            motorista_cpf: plano.motorista_cpf,
            placa: plano.placa,
          },
          lote_id: batchId,
          linha: n,
          perna: plano.perna,
          parcelas: sessao.state.parcelas,
          solicitante_company_id: sessao.state.solicitante_company_id,
        },
        ctx,
      );
      sessao = await this.registrar(sessao, batchId, companyId, plano, await this.desfecho(resultado), ctx);
      if (resultado.status === 'aceito') await this.solicitar(companyId, cteId, ctx);
    }
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

  private async registrar(
    sessao: Sessao,
    batchId: string,
    companyId: string,
    plano: LinhaPlanejada,
    p: Processada,
    ctx: CommandContext,
  ): Promise<Sessao> {
    const command: LoteCommand = {
      type: 'RegistrarLinha',
      batch_id: batchId,
      company_id: companyId,
      linha: plano.linha,
      chave: plano.chave,
      perna: plano.perna,
      tipo_servico: plano.tipo_servico,
      ...p,
    };
    // The row's event keeps the id it always had; the batch's end, when this row completes it, has its own.
    const eventId = (i: number, e: LoteEvent) =>
      derivedEventId(batchId, i === 0 ? `linha:${plano.linha}:processada` : `linha:${plano.linha}:${e.type}`);
    const events = loteDecider.decide(command, sessao.state, { now: ctx.now });
    if (events.length === 0) return sessao;
    try {
      const { nextRevision, position } = await this.deps.store.append(
        loteStream(batchId),
        events.map((e, i) => ({
          id: eventId(i, e),
          type: e.type,
          schemaVersion: EventCatalog[e.type].version,
          data: e.data,
          metadata: {
            company_id: companyId,
            correlation_id: ctx.correlationId,
            causation_id: ctx.causationId,
            request_id: null,
            actor: ctx.actor,
          },
        })),
        sessao.revision,
      );
      await this.deps.readYourWrites?.recordWrite(companyId, position);
      return { state: events.reduce(loteDecider.evolve, sessao.state), revision: nextRevision };
    } catch (err) {
      if (!(err instanceof WrongExpectedRevision)) throw err;
      // Another delivery wrote to the batch meanwhile (a Kafka rebalance): decide again on the stream as it is.
      await execute(this.deps, loteStream(batchId), loteDecider, command, ctx, { eventId });
      return (await this.carregar(batchId))!;
    }
  }

  /** Sends a prepared counter-CT-e. One the authority already refused was settled by its own events: nothing to do. */
  private async solicitar(companyId: string, cteId: string, ctx: CommandContext): Promise<void> {
    try {
      await this.deps.contraCte.solicitarEmissao(companyId, cteId, ctx);
    } catch (err) {
      if (err instanceof Rejection && err.code === 'cte_nao_editavel') return;
      throw err;
    }
  }
}
