import { type EventData, type LinhaPlanejada, type RecordedEvent } from '@frete/contracts';
import { cteDecider, cteStream, type LoteCommand, type LoteEvent, loteDecider, type LoteState, loteStream } from '@frete/domain';
import { type CommandContext, type ContextoEmpresa, execute, load, loadCached } from '../commands/execute';
import { StateCache } from '../commands/state-cache';
import { type ServicoContraCte, type ResultadoContraCte } from '../contra-cte/servico';
import { type EmissorCte } from '../cte/emissor';
import { type LeiturasDaEmpresa } from '../cte/leituras';
import { type EventStore } from '@frete/platform';
import { derivedEventId } from '@frete/platform';
import { type ReadYourWrites } from '@frete/platform';
import { aceitaDoLote, type SolicitacaoLoteHandler, solicitacaoLoteHandler } from '../solicitacao-lote/handler';

export interface ProcessadorLoteDeps {
  store: EventStore;
  contraCte: ServicoContraCte;
  /** Issues a block's counter-CT-e together (numbers, signature): see `EmissorCte.solicitarContraCtes`. */
  emissor: EmissorCte;
  clock: () => Date;
  readYourWrites?: ReadYourWrites;
}

/**
 * Rows handled per delivery. A batch is walked in blocks, each started by the event of the block's last row, so
 * that no delivery outlasts a Kafka session and the counter-CT-e of the first rows go to the authority while later
 * rows are still being prepared. A block's rows are prepared side by side: one batch's pace is about a block's
 * preparation, so a block of 100 (a second or two) went from 50 to 80 keys/s over 25 (`bench/lote`).
 */
export const BLOCO_DO_LOTE = 100;

/** The counter-CT-e of a batch row: the same id however often the row is processed. */
export const contraCteDaLinha = (batchId: string, linha: number) => derivedEventId(batchId, `linha:${linha}`);

type Processada = Omit<EventData<'lote.linha_processada'>, 'batch_id' | 'company_id' | 'linha' | 'chave' | 'perna' | 'tipo_servico'>;

/** Waits for every task, then fails with the first failure: no work of a failed block is left running behind it. */
async function todas<T>(tasks: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(tasks);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/**
 * The ids of a block's events: a row's event keeps the id it always had, whichever block or retry records it; the
 * batch's end, when a row completes it, is named after that row.
 */
const idsDasLinhas = (batchId: string) => {
  let linha = -1;
  return (_i: number, e: LoteEvent): string => {
    if (e.type === 'lote.linha_processada') {
      linha = e.data.linha;
      return derivedEventId(batchId, `linha:${linha}:processada`);
    }
    return derivedEventId(batchId, `linha:${linha}:${e.type}`);
  };
};

/** What the batch learns about a row after creation (processing, then its counter-CT-e's outcomes). */
type DesfechoDaLinha = Exclude<LoteCommand, { type: 'CriarLote' | 'TranscreverCriacao' }>;

/**
 * Processes a batch's rows in order (batch rules 1–7): each row becomes a counter-CT-e draft through the same
 * service as `POST /fiscal/cte/contra`, its outcome is recorded on the batch, and only then is the document sent.
 * Safe to repeat: a recorded row is not prepared again, its counter-CT-e id derives from the batch and row, and the
 * row's event id derives from them too.
 */
export class ProcessadorLote {
  /** Batches whose rows' outcomes arrive one by one: each outcome reads only the batch's newer events. */
  private readonly lotes = new StateCache<LoteState>(100);
  private readonly solicitacoes: SolicitacaoLoteHandler;

  constructor(private readonly deps: ProcessadorLoteDeps) {
    this.solicitacoes = solicitacaoLoteHandler(deps);
  }

  /** `lote.criado`: the first block. */
  async aoCriar(event: RecordedEvent): Promise<void> {
    await this.processarBloco((event.data as EventData<'lote.criado'>).batch_id, 0, event.id);
  }

  /** Whether a `lote.linha_processada` starts a block: only a block's last row does; the others ask nothing. */
  iniciaBloco(event: RecordedEvent): boolean {
    return ((event.data as EventData<'lote.linha_processada'>).linha + 1) % BLOCO_DO_LOTE === 0;
  }

  /** `lote.linha_processada`: the last row of a block starts the next one. */
  async aoProcessarLinha(event: RecordedEvent): Promise<void> {
    const d = event.data as EventData<'lote.linha_processada'>;
    if (this.iniciaBloco(event)) await this.processarBloco(d.batch_id, d.linha + 1, event.id);
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

  /**
   * `repasse.documento_registrado`, `repasse.registro_falhou`: the financial step of a batch row's counter-CT-e, and
   * with it the row's emission (a payout enters its group only from an authorization).
   */
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

  /**
   * `lote.concluido`: a batch requested under a grant tells its requester how it ended, in the requester's own log
   * (the batch's events are its owner's).
   */
  async aoConcluir(event: RecordedEvent): Promise<void> {
    const fim = event.data as EventData<'lote.concluido'>;
    const lote = await this.carregar(fim.batch_id);
    const solicitante = lote.solicitante_company_id;
    if (!solicitante) return;
    const ctx: CommandContext = {
      companyId: solicitante,
      correlationId: fim.batch_id,
      causationId: event.id,
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
      actor: 'processor:emission',
      now: this.deps.clock(),
    };
    await execute(this.deps, loteStream(command.batch_id), loteDecider, command, ctx, {
      eventId: (i, e) => derivedEventId(event.id, `lote:${e.type}:${i}`),
      cache: this.lotes,
    });
  }

  /** The batch as its stream stands, reading only what this process has not folded yet. */
  private carregar(batchId: string): Promise<LoteState> {
    return loadCached(this.deps.store, loteStream(batchId), loteDecider, this.lotes);
  }

  /**
   * One block: its rows are prepared side by side (rows of one contractor key still take turns, in row order, in
   * `preparar`), recorded on the batch together in row order, and only then sent, side by side. A redelivery finds
   * the rows recorded and sends those whose document may not have left.
   */
  private async processarBloco(batchId: string, inicio: number, causa: string): Promise<void> {
    const lote = await this.carregar(batchId);
    if (!lote.existe) return;
    const companyId = lote.company_id!;
    const ctx: ContextoEmpresa = {
      companyId,
      correlationId: batchId,
      causationId: causa,
      requestId: null,
      actor: 'processor:emission',
      now: this.deps.clock(),
    };
    const fim = Math.min(inicio + BLOCO_DO_LOTE, lote.linhas.length);
    // The company's configuration, certificate and rules, read once for the block's rows.
    const leituras = this.deps.contraCte.leiturasDe(companyId);
    const aEnviar: string[] = [];
    const preparadas: Promise<EventData<'lote.linha_processada'>>[] = [];
    for (let n = inicio; n < fim; n++) {
      const plano = lote.linhas[n]!;
      const cteId = contraCteDaLinha(batchId, n);
      const feita = lote.processadas[n];
      if (feita) {
        // A redelivery may have stopped between recording the row and sending its document.
        if (feita.status === 'pending' && feita.counter_cte_id === cteId) aEnviar.push(cteId);
        continue;
      }
      // Called in row order, without waiting: the order in which rows of one key take it.
      preparadas.push(this.preparar(lote, batchId, plano, cteId, ctx, leituras));
    }
    const linhas = await todas(preparadas);
    if (linhas.length > 0) {
      await execute(
        this.deps,
        loteStream(batchId),
        loteDecider,
        { type: 'RegistrarLinhas', batch_id: batchId, company_id: companyId, linhas },
        ctx,
        { eventId: idsDasLinhas(batchId), cache: this.lotes },
      );
      for (const l of linhas) if (l.status === 'pending') aEnviar.push(l.counter_cte_id!);
    }
    if (aEnviar.length === 0) return;
    const { serie_cte } = await leituras.configuracao();
    await this.deps.emissor.solicitarContraCtes(companyId, serie_cte ?? 0, aEnviar, ctx, leituras);
  }

  /** A row's counter-CT-e draft, and what the row records of it. */
  private async preparar(
    lote: LoteState,
    batchId: string,
    plano: LinhaPlanejada,
    cteId: string,
    ctx: ContextoEmpresa,
    leituras: LeiturasDaEmpresa,
  ): Promise<EventData<'lote.linha_processada'>> {
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
