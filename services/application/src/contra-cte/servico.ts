import { type Pool } from 'pg';
import {
  type CodigoLinhaLote,
  ehCodigoLinhaLote,
  type Environment,
  type ModoSubcontratacao,
  type ParcelaRepasse,
  type RecordedEvent,
} from '@frete/contracts';
import {
  cteDecider,
  type CteEvent,
  cteStream,
  fold,
  planejarContraCte,
  type PedidoContraCte,
  Rejection,
  type ChaveSubcontratadaCommand,
  chaveSubcontratadaDecider,
  type ChaveSubcontratadaState,
  chaveSubcontratadaStream,
} from '@frete/domain';
import { execute, load, MAX_ATTEMPTS, toDomainEvent, type CommandContext, type CommandDeps } from '../commands/execute';
import { StateCache } from '../commands/state-cache';
import { KeyedLock } from '@frete/platform';
import { recordRequestWrite } from '../commands/request-write';
import { Backoff } from '@frete/platform';
import { WrongExpectedRevision } from '@frete/platform';
import { derivedEventId } from '@frete/platform';
import { pendenciasDoCte } from '../cte/preparar';
import { LeiturasDaEmpresa } from '../cte/leituras';

/** One counter-CT-e to make: a batch row, or the single `POST /fiscal/cte/contra`. */
export interface LinhaContraCte {
  company_id: string;
  /** Chosen by the caller (derived from the batch row, or from an idempotency key), so a retry makes the same one. */
  cte_id: string;
  chave: string;
  modo: ModoSubcontratacao;
  pedido: PedidoContraCte;
  lote_id: string | null;
  linha: number | null;
  perna: number | null;
  parcelas: ParcelaRepasse[] | null;
  solicitante_company_id: string | null;
}

export type ResultadoContraCte =
  | { status: 'aceito'; cte_id: string; tipo_servico: number; documento_financeiro: string | null }
  | { status: 'duplicated'; cte_id: string; tipo_servico: number }
  /** `code` is a batch row's code (`CODIGOS_LINHA_LOTE`): the single counter-CT-e answers the same refusals. */
  | { status: 'failed'; code: CodigoLinhaLote; message: string; tipo_servico: number; details?: Record<string, unknown> };

export interface ServicoContraCteDeps extends CommandDeps {
  pool: Pool;
  environment: Environment;
  clock: () => Date;
}

/** A leg's financial document: the contractor's key and the leg's ends, stable across batches. */
export const documentoFinanceiroDaPerna = (chave: string, inicioIbge: string, fimIbge: string) => `ROUTE:${chave}:${inicioIbge}:${fimIbge}`;

/**
 * Makes counter-CT-e: reads the contractor's CT-e from the inbox, plans the document (pure domain), takes the key
 * in its mode (the `subcontratacao` stream serializes competing requests), and creates the CT-e draft with its
 * link. Issuing it is a separate step, so that a batch can record its row before the document leaves.
 */
export class ServicoContraCte {
  /** Requests for one key in this process, one after another: see `preparar`. */
  private readonly porChave = new KeyedLock();
  /** The keys this process took or read lately, as it left them. */
  private readonly reservas = new StateCache<ChaveSubcontratadaState>(5000);

  constructor(private readonly deps: ServicoContraCteDeps) {}

  /**
   * Taking the key and creating the CT-e it names are appends to two streams. Requests for one key in this process
   * take turns through both, so the second finds the first one's counter-CT-e made, not only its reservation; a
   * request in another process that finds only the reservation waits for the CT-e (`reservar`).
   */
  async preparar(
    l: LinhaContraCte,
    ctx: CommandContext,
    leituras = new LeiturasDaEmpresa(this.deps.pool, l.company_id),
  ): Promise<ResultadoContraCte> {
    return this.porChave.run(chaveSubcontratadaStream(l.company_id, l.chave), () => this.prepararNaVez(l, ctx, leituras));
  }

  private async prepararNaVez(l: LinhaContraCte, ctx: CommandContext, leituras: LeiturasDaEmpresa): Promise<ResultadoContraCte> {
    const tipo = l.pedido.tipo_servico;
    const falha = (code: CodigoLinhaLote, message: string, details?: Record<string, unknown>): ResultadoContraCte => ({
      status: 'failed',
      code,
      message,
      tipo_servico: tipo,
      ...(details ? { details } : {}),
    });

    // A retry of a counter-CT-e already made answers it as it is: taking the key again under this id would hold the key
    // for a document the authority refused or that was cancelled (both gave the key back).
    const existente = await this.lerDoLog(l.company_id, l.cte_id, ctx);
    if (existente?.existe)
      return {
        status: 'aceito',
        cte_id: l.cte_id,
        tipo_servico: tipo,
        documento_financeiro: existente.contra_cte?.documento_financeiro ?? null,
      };

    const [company, configuracao, inbox, regras] = await Promise.all([
      leituras.company(),
      leituras.configuracao(),
      leituras.inbox(l.chave),
      leituras.regrasContraCte(),
    ]);
    if (!inbox)
      return falha(
        'cte_nao_recebido',
        `CT-e ${l.chave} is not in your inbox: receive it first (POST /fiscal/cte-subcontratacao, or the contractor's hand-off)`,
      );
    if (!company || !configuracao.endereco) {
      return falha('cte_com_pendencias', 'the fiscal configuration has no address: its UF decides the CFOP (PUT /fiscal/configuracao)', {
        pendencias: [{ campo: 'configuracao.endereco' }],
      });
    }
    const plano = planejarContraCte(
      inbox.cte,
      { cnpj: company.cnpj, uf: configuracao.endereco.uf, environment: this.deps.environment },
      l.pedido,
      regras,
      inbox.cancelamento,
    );
    if (!plano.ok) return falha(plano.code, plano.message);

    // Only what would be missing: the document itself is built when it is issued.
    const { pendencias } = await pendenciasDoCte(plano.dados, ctx.now, leituras);
    if (pendencias.length > 0) {
      return falha('cte_com_pendencias', `the counter-CT-e cannot be issued yet: ${pendencias.map((p) => p.campo).join(', ')}`, {
        pendencias,
      });
    }

    const reserva = await this.reservar(l, plano.inicio.codigo_ibge, plano.fim.codigo_ibge, ctx);
    if (reserva) {
      if (reserva.code === 'duplicated')
        return { status: 'duplicated', cte_id: String(reserva.details?.counter_cte_id), tipo_servico: tipo };
      // The key's decider refuses with row codes only (the other mode, or paid); anything else is a fault, not a row's end.
      if (!ehCodigoLinhaLote(reserva.code)) throw reserva;
      return falha(reserva.code, reserva.message, reserva.details);
    }

    const documento_financeiro =
      l.modo === 'pernas' ? documentoFinanceiroDaPerna(l.chave, plano.inicio.codigo_ibge, plano.fim.codigo_ibge) : null;
    // The stream was found empty above: the draft's append expects it still is, without reading it again.
    const lido = existente === null ? { lido: { state: cteDecider.initialState, revision: null } } : {};
    try {
      await execute(
        this.deps,
        cteStream(l.cte_id),
        cteDecider,
        {
          type: 'CriarContraCte',
          cte_id: l.cte_id,
          company_id: l.company_id,
          environment: this.deps.environment,
          dados: plano.dados,
          vinculo: {
            chave_original: l.chave,
            contratante_cnpj: inbox.cte.emitente.documento ?? '',
            modo: l.modo,
            tipo_servico: tipo,
            inicio_ibge: plano.inicio.codigo_ibge,
            fim_ibge: plano.fim.codigo_ibge,
            lote_id: l.lote_id,
            linha: l.linha,
            perna: l.perna,
            documento_financeiro,
            motorista_cpf: l.pedido.motorista_cpf,
            placa: l.pedido.placa,
            valor_centavos: l.pedido.valor_centavos,
            parcelas: l.parcelas,
            solicitante_company_id: l.solicitante_company_id,
          },
        },
        ctx,
        lido,
      );
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      // The contractor's XML gave data the layout refuses: the key must not stay taken by a document that never existed.
      await execute(
        this.deps,
        chaveSubcontratadaStream(l.company_id, l.chave),
        chaveSubcontratadaDecider,
        {
          type: 'LiberarSubcontratacao',
          company_id: l.company_id,
          chave: l.chave,
          cte_id: l.cte_id,
          motivo: 'rejeitado',
        },
        ctx,
        { cache: this.reservas },
      );
      // What the plan could not foresee of the contractor's data (its parties and route are checked at receipt, by
      // `lerContratante`): the same row code as those, never the draft's 400 `validacao`, which is about a request.
      return falha('cte_original_invalido', `the contractor's CT-e gives data a CT-e cannot carry: ${err.message}`, err.details);
    }
    return { status: 'aceito', cte_id: l.cte_id, tipo_servico: tipo, documento_financeiro };
  }

  /**
   * Takes the key in its mode; the refusal, if any. A `duplicated` names a counter-CT-e that is answered at once, so it
   * must exist: a key reserved by a request still creating its CT-e (in another process), or by one whose CT-e the
   * layout refused and that is giving the key back, is asked again after a jittered pause until either shows.
   */
  private async reservar(l: LinhaContraCte, inicioIbge: string, fimIbge: string, ctx: CommandContext): Promise<Rejection | null> {
    const tentativas = new Backoff({ max: MAX_ATTEMPTS });
    const stream = chaveSubcontratadaStream(l.company_id, l.chave);
    for (;;) {
      // A key is mostly taken for the first time: one this process has not seen is decided on as if its stream were
      // empty, without reading it (its append expects no stream: a key taken before fails it and is read as usual);
      // one it has seen (a batch's next leg of the key) is decided on as this process left it.
      const novo = this.reservas.get(stream) ? {} : { lido: { state: chaveSubcontratadaDecider.initialState, revision: null } };
      try {
        await execute(
          this.deps,
          stream,
          chaveSubcontratadaDecider,
          {
            type: 'ReservarSubcontratacao',
            company_id: l.company_id,
            chave: l.chave,
            modo: l.modo,
            cte_id: l.cte_id,
            inicio_ibge: inicioIbge,
            fim_ibge: fimIbge,
          },
          ctx,
          { cache: this.reservas, ...novo },
        );
        return null;
      } catch (err) {
        if (!(err instanceof Rejection)) throw err;
        if (err.code !== 'duplicated') return err;
        const titular = String(err.details?.counter_cte_id);
        if ((await this.lerDoLog(l.company_id, titular, ctx))?.existe) return err;
        if (!(await tentativas.next())) throw new WrongExpectedRevision(cteStream(titular), 'any', 'no_stream');
      }
    }
  }

  /**
   * A CT-e as the log has it, or null. The answer about it is read from the read models: the company's reads wait
   * until they show what the log showed here (it may be another request's write, which this one did not record).
   */
  private async lerDoLog(companyId: string, cteId: string, ctx: CommandContext) {
    const historico: RecordedEvent[] = await this.deps.store.readStream(cteStream(cteId));
    const ultimo = historico[historico.length - 1];
    if (!ultimo) return null;
    await recordRequestWrite(this.deps.readYourWrites, ctx, companyId, ultimo.position);
    return fold(
      cteDecider,
      historico.map((e) => toDomainEvent<CteEvent>(e)),
    );
  }

  /**
   * The counter-CT-e no longer stands against the key (refused by the authority, or cancelled): the key is free for
   * either mode (batch rule 7). `cause` is the event that says so; a redelivery appends nothing.
   */
  async liberar(cteId: string, motivo: 'rejeitado' | 'cancelado', cause: string): Promise<void> {
    await this.naReserva(cteId, cause, 'subcontratacao-liberada', (reserva) => ({ ...reserva, type: 'LiberarSubcontratacao', motivo }));
  }

  /** An installment of this counter-CT-e was paid: a full one keeps its key from becoming legs (ruling 8). */
  async marcarPaga(cteId: string, cause: string): Promise<void> {
    await this.naReserva(cteId, cause, 'subcontratacao-paga', (reserva, modo) => ({
      ...reserva,
      type: 'MarcarSubcontratacaoPaga',
      modo,
    }));
  }

  /**
   * A command on the reservation of the key the counter-CT-e `cteId` stands against, as the processor's act on `cause`
   * (whose id, with `passo`, is the event's: a redelivery appends nothing); none when the CT-e is not a counter-CT-e.
   */
  private async naReserva(
    cteId: string,
    cause: string,
    passo: string,
    comando: (reserva: { company_id: string; chave: string; cte_id: string }, modo: ModoSubcontratacao) => ChaveSubcontratadaCommand,
  ): Promise<void> {
    const cte = await load(this.deps.store, cteStream(cteId), cteDecider);
    if (!cte.contra_cte || !cte.company_id) return;
    const chave = cte.contra_cte.chave_original;
    await execute(
      this.deps,
      chaveSubcontratadaStream(cte.company_id, chave),
      chaveSubcontratadaDecider,
      comando({ company_id: cte.company_id, chave, cte_id: cteId }, cte.contra_cte.modo),
      this.ctx(cte.company_id, cause),
      { eventId: () => derivedEventId(cause, passo), cache: this.reservas },
    );
  }

  private ctx(companyId: string, cause: string): CommandContext {
    return { companyId, correlationId: cause, causationId: cause, requestId: null, actor: 'processor:emission', now: this.deps.clock() };
  }

  /** The company's reads a run of counter-CT-e shares (a batch block): see `LeiturasDaEmpresa`. */
  leiturasDe(companyId: string): LeiturasDaEmpresa {
    return new LeiturasDaEmpresa(this.deps.pool, companyId);
  }

  /** Hands the counter-CT-e to the emission processor, in the company's CT-e series. */
  async solicitarEmissao(
    companyId: string,
    cteId: string,
    ctx: CommandContext,
    leituras = new LeiturasDaEmpresa(this.deps.pool, companyId),
  ): Promise<void> {
    const { serie_cte } = await leituras.configuracao();
    await execute(
      this.deps,
      cteStream(cteId),
      cteDecider,
      { type: 'SolicitarEmissao', cte_id: cteId, company_id: companyId, serie: serie_cte ?? 0 },
      ctx,
    );
  }
}
