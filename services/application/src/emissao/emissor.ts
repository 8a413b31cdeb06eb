import { type DomainEvent, type RecordedEvent } from '@frete/contracts';
import {
  documentoReservado,
  type EspecieDocumento,
  emSequencia,
  numeracaoDecider,
  type NumeracaoState,
  numeracaoStream,
  numeroReservado,
  type ReservarNumero,
} from '@frete/domain';
import { type DocumentStore, type EventStore, type ReadYourWrites, derivedEventId } from '@frete/platform';
import {
  type AutoridadeFiscal,
  CertificadoRecusadoPelaAutoridade,
  type ProtocoloDocumento,
  type ProtocoloEvento,
  type RetornoAutorizacao,
} from '@frete/adapters';
import { execute, loadCached, type CommandContext } from '../commands/execute';
import { type LeiturasDaEmpresa } from '../cte/leituras';
import { StateCache } from '../commands/state-cache';
import { todasEmVoltas } from '../commands/todas';
import { type DocumentoEmitido } from './documento';
import { type MontarXmlDeps } from './montar-xml';

/** The signed XML the issue sends, or why it cannot be made (a refusal before anything is sent). */
export type XmlDaEmissao =
  | { tipo: 'assinado'; chave: string; xml: string; data_emissao: string }
  | { tipo: 'recusado'; cstat: number; motivo: string };

/** Signed documents of batch blocks kept for their send (a few blocks of 100 rows, a few KB each). */
const MAX_ASSINADOS_EM_ESPERA = 1000;

/** Local refusals use the authority's generic code: nothing was sent, the document can be corrected. */
export const CSTAT_ERRO_NAO_CATALOGADO = 999;

/** How a refused client certificate is recorded as a local refusal (999: the authority never read the document). */
export const motivoDaRecusa = (error: CertificadoRecusadoPelaAutoridade): string =>
  `certificado_recusado_pela_autoridade: ${error.detalhe}`.slice(0, 255);

/** A protocol of the authority as the events record it. */
export const protocoloDe = (p: ProtocoloDocumento | ProtocoloEvento) => ({
  numero: p.nProt,
  recebido_em: 'dhRecbto' in p ? p.dhRecbto : p.dhRegEvento,
  cstat: p.cStat,
  motivo: p.xMotivo,
});

/** What the emission processor learned, in words every kind of document shares; each kind makes its command of it. */
export type PassoDaEmissao =
  | { tipo: 'xml_assinado'; chave: string; serie: number; numero: number; data_emissao: string; sha256: string }
  /** `proc` is the archived document with its protocol (`cteProc`, `mdfeProc`), `sha256` its hash. */
  | { tipo: 'autorizado'; protocolo: ProtocoloDocumento; proc: string; sha256: string }
  | { tipo: 'rejeitado'; cstat: number; motivo: string }
  | { tipo: 'denegado'; chave: string; protocolo: ProtocoloDocumento }
  | { tipo: 'pendente'; chave: string; motivo: string };

/** The part of a document's state the issue reads. */
export interface EstadoEmitido {
  situacao: string | null;
  /** The document's data as created or last changed (a draft's, a manifest's). */
  dados: unknown;
  emissao: { chave: string; sha256: string } | null;
}

/** What the XML engine of a kind is given to build one document's XML with its number. */
export interface PedidoDeXml<S> {
  companyId: string;
  id: string;
  state: S;
  serie: number;
  numero: number;
  /** The company's reads a batch block's documents share; fresh ones when absent. */
  leituras?: LeiturasDaEmpresa;
}

export interface EmissaoDeps {
  store: EventStore;
  documents: DocumentStore;
  autoridade: AutoridadeFiscal;
  readYourWrites?: ReadYourWrites;
  clock: () => Date;
  /** What the kind's XML engine (`DocumentoEmitido.montarXml`) builds and signs with. */
  xml: MontarXmlDeps;
}

/**
 * Issues a fiscal document: reserve its number (once), build and sign its XML (once: every later attempt sends the
 * same bytes, so an authorization that happened during a timeout comes back as a duplicate, never as a second
 * document), archive it, send it, and record the verdict or the silence; while the result is unknown, `consultar`
 * asks the authority and sends the same bytes again if it never got them. Safe to run again at any step: each step's
 * events have ids derived from the cause, and the decider ignores what is already known.
 */
export class EmissorDocumento<C, S extends EstadoEmitido, E extends DomainEvent> {
  /** The company series this process numbers: each reservation reads only the numbers given since its last. */
  private readonly series = new StateCache<NumeracaoState>();
  /** The documents this process issues: each step of an issue reads only what happened since the last one. */
  protected readonly documentos = new StateCache<S>();
  /**
   * Bytes signed by `solicitarEmBloco` and not sent yet, by their hash: the processor that sends them is this one, and
   * reads them here instead of from the archive. Bounded: a document missing here is read from the archive.
   */
  private readonly assinadosEmEspera = new Map<string, string>();

  constructor(
    protected readonly deps: EmissaoDeps,
    private readonly doc: DocumentoEmitido<C, S, E>,
  ) {}

  /** `requestId`: the API request this step serves (a consultation, an MDF-e event), whose caller's next reads wait for it. */
  protected ctx(companyId: string, cause: string, requestId: string | null = null): CommandContext {
    return { companyId, correlationId: cause, causationId: cause, requestId, actor: 'processor:emission', now: this.deps.clock() };
  }

  protected estado(id: string): Promise<S> {
    return loadCached(this.deps.store, this.doc.fiscal.stream(id), this.doc.decider, this.documentos);
  }

  protected record(companyId: string, id: string, cause: string, command: C, requestId: string | null = null) {
    return execute(this.deps, this.doc.fiscal.stream(id), this.doc.decider, command, this.ctx(companyId, cause, requestId), {
      eventId: (i, e) => derivedEventId(cause, `${e.type}:${i}`),
      cache: this.documentos,
    });
  }

  private passo(companyId: string, id: string, cause: string, passo: PassoDaEmissao, requestId: string | null = null) {
    return this.record(companyId, id, cause, this.doc.comando({ id, companyId }, passo), requestId);
  }

  /** The event the emission processor hands to `aoSolicitar`: the kind's `<recurso>.emissao_solicitada`. */
  get solicitacao(): string {
    return `${this.doc.fiscal.recurso}.emissao_solicitada`;
  }

  /** The emission processor's reaction to `solicitacao`: the document its data names, in the series it asks for. */
  aoSolicitar(e: RecordedEvent): Promise<void> {
    const d = e.data as { company_id: string; serie: number } & { [K in EspecieDocumento['campoId']]?: string };
    return this.emitir(d.company_id, d[this.doc.fiscal.campoId] ?? '', d.serie, e.id, e.revision);
  }

  /**
   * Reacts to the document's `emissao_solicitada` (`cause` is that event's id, `revisao` its place in the document's
   * stream). A state this process already folded up to that place is used without reading the stream again (a batch
   * block's requests were recorded here): anything newer is another process's, and the append that follows would see
   * it (its expected revision) and decide again.
   */
  async emitir(companyId: string, id: string, serie: number, cause: string, revisao?: bigint): Promise<void> {
    const guardado = this.documentos.get(this.doc.fiscal.stream(id));
    const state = guardado && revisao !== undefined && guardado.revision >= revisao ? guardado.state : await this.estado(id);
    if (state.situacao !== 'em_processamento') return;
    let emissao = state.emissao;
    // The bytes just signed, when this call signed them: sent and archived without reading them back.
    let assinado: string | undefined;
    if (!emissao) {
      const reservado = await execute(
        this.deps,
        numeracaoStream(this.doc.fiscal, companyId, serie),
        numeracaoDecider,
        this.reservar(companyId, serie, id),
        this.ctx(companyId, cause),
        { eventId: () => derivedEventId(cause, 'numero'), cache: this.series },
      );
      const numero = numeroReservado(reservado.state.reservas, id)!;
      const made = await this.doc.montarXml(this.deps.xml, { companyId, id, state, serie, numero });
      if (made.tipo === 'recusado') {
        await this.passo(companyId, id, cause, { tipo: 'rejeitado', cstat: made.cstat, motivo: made.motivo });
        return;
      }
      const sha256 = await this.deps.documents.put(Buffer.from(made.xml, 'utf8'), 'application/xml');
      const after = await this.passo(companyId, id, cause, {
        tipo: 'xml_assinado',
        chave: made.chave,
        serie,
        numero,
        data_emissao: made.data_emissao,
        sha256,
      });
      emissao = after.state.emissao;
      if (!emissao) return;
      if (emissao.sha256 === sha256) assinado = made.xml;
    }
    await this.enviar(companyId, id, cause, emissao, assinado);
  }

  /** A reservation of the next number of this kind's series for one document. */
  private reservar(companyId: string, serie: number, id: string): ReservarNumero {
    return { type: 'ReservarNumero', documento: this.doc.fiscal, company_id: companyId, serie, documento_id: id };
  }

  /**
   * A batch block's drafts, asked for together: their numbers reserved in one append, in the order given, then each
   * document's request with its signed XML (or the local refusal) in one append of its stream. The processor reacting
   * to the request then only sends the bytes. A document no longer a draft (a redelivered block) is left as it is; ids
   * derive from `cause`, so a repeat appends nothing.
   */
  async solicitarEmBloco(
    companyId: string,
    serie: number,
    ids: readonly string[],
    ctx: CommandContext,
    leituras?: LeiturasDaEmpresa,
  ): Promise<void> {
    const cause = ctx.causationId ?? ctx.correlationId;
    const estados = await Promise.all(ids.map((id) => this.estado(id)));
    const rascunhos = ids.filter((_, i) => estados[i]!.situacao === 'rascunho');
    if (rascunhos.length === 0) return;
    const reservado = await execute(
      this.deps,
      numeracaoStream(this.doc.fiscal, companyId, serie),
      emSequencia(numeracaoDecider),
      rascunhos.map((id) => this.reservar(companyId, serie, id)),
      ctx,
      { eventId: (_i, e) => derivedEventId(cause, `numero:${documentoReservado(e)}`), cache: this.series },
    );
    // Each document is built and signed on its own turn of the event loop: a block's are not one long turn that
    // requests wait behind (a GET of the batch's report waited 250 ms).
    await todasEmVoltas(rascunhos, async (id) => {
      const state = estados[ids.indexOf(id)]!;
      const numero = numeroReservado(reservado.state.reservas, id)!;
      const made = await this.doc.montarXml(this.deps.xml, { companyId, id, state, serie, numero, ...(leituras ? { leituras } : {}) });
      const documento = { id, companyId };
      let passo: C;
      if (made.tipo === 'recusado') {
        passo = this.doc.comando(documento, { tipo: 'rejeitado', cstat: made.cstat, motivo: made.motivo });
      } else {
        const sha256 = await this.deps.documents.put(Buffer.from(made.xml, 'utf8'), 'application/xml');
        const { chave, data_emissao } = made;
        passo = this.doc.comando(documento, { tipo: 'xml_assinado', chave, serie, numero, data_emissao, sha256 });
        this.guardarAssinado(sha256, made.xml);
      }
      await execute(
        this.deps,
        this.doc.fiscal.stream(id),
        emSequencia(this.doc.decider),
        [this.doc.solicitar(documento, serie), passo],
        ctx,
        {
          eventId: (_i, e) => derivedEventId(cause, `${id}:${e.type}`),
          cache: this.documentos,
        },
      );
    });
  }

  private guardarAssinado(sha256: string, xml: string): void {
    if (this.assinadosEmEspera.size >= MAX_ASSINADOS_EM_ESPERA) {
      this.assinadosEmEspera.delete(this.assinadosEmEspera.keys().next().value!);
    }
    this.assinadosEmEspera.set(sha256, xml);
  }

  /**
   * `POST .../consulta`: when the result is unknown, ask the authority; if it never got the document, send the same
   * signed XML again. Returns nothing: the caller reads the document's state afterwards.
   */
  async consultar(companyId: string, id: string, cause: string, requestId: string | null = null): Promise<void> {
    const passo = (p: PassoDaEmissao) => this.passo(companyId, id, cause, p, requestId);
    const state = await this.estado(id);
    const emissao = state.emissao;
    if (state.situacao !== 'em_processamento' || !emissao) return;
    const r = await this.doc.consultar(this.deps.autoridade, emissao.chave, { companyId });
    switch (r.tipo) {
      case 'encontrado':
        if (this.doc.fiscal.denegacao && r.situacao === 'denegado') {
          await passo({ tipo: 'denegado', chave: r.protocolo.chave, protocolo: r.protocolo });
          return;
        }
        await this.autorizado(companyId, id, cause, emissao.sha256, r.protocolo, undefined, requestId);
        return;
      case 'nao_encontrado':
        await this.enviar(companyId, id, cause, emissao, undefined, requestId);
        return;
      case 'rejeitado':
      case 'em_processamento':
      case 'sem_resposta':
        await passo({
          tipo: 'pendente',
          chave: emissao.chave,
          motivo: r.tipo === 'sem_resposta' ? 'the authority did not answer the query' : `${r.cStat} ${r.xMotivo}`,
        });
    }
  }

  /** The archived bytes of a signed document (or event) of this kind. */
  protected async assinado(sha256: string, id: string): Promise<string> {
    const doc = await this.deps.documents.get(sha256);
    if (!doc)
      throw new Error(`signed XML ${sha256} of ${this.doc.fiscal.nome} ${id} is not readable; the issue retries from its checkpoint`);
    return doc.content.toString('utf8');
  }

  private async enviar(
    companyId: string,
    id: string,
    cause: string,
    emissao: { chave: string; sha256: string },
    xml?: string,
    requestId: string | null = null,
  ): Promise<void> {
    const passo = (p: PassoDaEmissao) => this.passo(companyId, id, cause, p, requestId);
    const { chave, sha256 } = emissao;
    const emEspera = this.assinadosEmEspera.get(sha256);
    this.assinadosEmEspera.delete(sha256);
    const signed = xml ?? emEspera ?? (await this.assinado(sha256, id));
    let r: RetornoAutorizacao;
    try {
      r = await this.doc.autorizar(this.deps.autoridade, signed, { companyId });
    } catch (error) {
      // The channel refused the company's certificate before reading anything: the document was not sent, and can be
      // issued again (same number) once the certificate is replaced. Any other failure is retried from the checkpoint.
      if (!(error instanceof CertificadoRecusadoPelaAutoridade)) throw error;
      await passo({ tipo: 'rejeitado', cstat: CSTAT_ERRO_NAO_CATALOGADO, motivo: motivoDaRecusa(error) });
      return;
    }
    const denegado = this.doc.fiscal.denegacao;
    switch (r.tipo) {
      case 'autorizado':
        await this.autorizado(companyId, id, cause, sha256, r.protocolo, signed, requestId);
        return;
      case 'duplicidade':
        // The authority already has this number: the same document (a lost answer) is our authorization.
        if (r.mesmoConteudo && !(denegado && r.situacao === 'denegado')) {
          await this.autorizado(companyId, id, cause, sha256, r.protocolo, signed, requestId);
          return;
        }
        await passo({ tipo: 'rejeitado', cstat: r.cStat, motivo: r.xMotivo });
        return;
      case 'denegado':
        await passo(
          denegado ? { tipo: 'denegado', chave, protocolo: r.protocolo } : { tipo: 'rejeitado', cstat: r.cStat, motivo: r.xMotivo },
        );
        return;
      case 'rejeitado':
        await passo({ tipo: 'rejeitado', cstat: r.cStat, motivo: r.xMotivo });
        return;
      case 'em_processamento':
        await passo({ tipo: 'pendente', chave, motivo: `${r.cStat} ${r.xMotivo}` });
        return;
      case 'sem_resposta':
        await passo({ tipo: 'pendente', chave, motivo: 'the authority did not answer; poll consulta' });
    }
  }

  private async autorizado(
    companyId: string,
    id: string,
    cause: string,
    sha256: string,
    protocolo: ProtocoloDocumento,
    signed?: string,
    requestId: string | null = null,
  ): Promise<void> {
    const proc = this.doc.proc(signed ?? (await this.assinado(sha256, id)), protocolo);
    const procSha = await this.deps.documents.put(Buffer.from(proc, 'utf8'), 'application/xml');
    await this.passo(companyId, id, cause, { tipo: 'autorizado', protocolo, proc, sha256: procSha }, requestId);
  }
}
