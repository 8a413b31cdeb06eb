import { type Pool } from 'pg';
import { type CteLido } from '@frete/contracts';
import { cteDecider, type CteState, cteStream, numeracaoCteDecider, type NumeracaoCteState, numeracaoCteStream, numeroReservado, readCte } from '@frete/domain';
import { execute, load, type CommandContext } from '../commands/execute';
import { StateCache } from '../commands/state-cache';
import { type EventStore } from '@frete/platform';
import { type ReadYourWrites } from '@frete/platform';
import { type DocumentStore } from '@frete/platform';
import { type AutoridadeFiscal, type ProtocoloDocumento, type RetornoAutorizacao } from '@frete/adapters';
import { montarCteProc } from '@frete/adapters';
import { derivedEventId } from '@frete/platform';

/** The signed XML the issue sends, or why it cannot be made (a refusal before anything is sent). */
export type XmlDaEmissao =
  | { tipo: 'assinado'; chave: string; xml: string; data_emissao: string }
  | { tipo: 'recusado'; cstat: number; motivo: string };

/**
 * Builds, signs and validates the CT-e of a draft with a given number (the document engine: builder, certificate,
 * official schema). Kept behind a function so that issuing depends on the engine's result, not on its parts.
 */
export type MontarXmlDaEmissao = (input: { companyId: string; cteId: string; state: CteState; serie: number; numero: number }) => Promise<XmlDaEmissao>;

export interface EmissorDeps {
  store: EventStore;
  pool: Pool;
  documents: DocumentStore;
  autoridade: AutoridadeFiscal;
  montarXml: MontarXmlDaEmissao;
  readYourWrites?: ReadYourWrites;
  clock: () => Date;
}

/** Local refusals use the authority's generic code: nothing was sent, the draft can be corrected. */
export const CSTAT_ERRO_NAO_CATALOGADO = 999;

const protocoloDe = (p: ProtocoloDocumento) => ({ numero: p.nProt, recebido_em: p.dhRecbto, cstat: p.cStat, motivo: p.xMotivo });

/**
 * Issues a CT-e: reserve its number (once), build and sign its XML (once: every later attempt sends the same bytes,
 * so an authorization that happened during a timeout comes back as a duplicate, never as a second document), send
 * it, and record the verdict or the silence. Safe to run again at any step: each step's events have ids derived
 * from the cause, and the decider ignores what is already known.
 */
export class EmissorCte {
  /** The company series this process numbers: each reservation reads only the numbers given since its last. */
  private readonly series = new StateCache<NumeracaoCteState>();

  constructor(private readonly deps: EmissorDeps) {}

  /** Whether the authority can be reached at all (see `AutoridadeFiscal.disponivel`). */
  get disponivel(): boolean {
    return this.deps.autoridade.disponivel;
  }

  private ctx(companyId: string, cause: string): CommandContext {
    return { companyId, correlationId: cause, causationId: cause, requestId: null, actor: 'emission-processor', now: this.deps.clock() };
  }

  private record(companyId: string, cteId: string, cause: string, command: Parameters<typeof cteDecider.decide>[0]) {
    return execute(this.deps, cteStream(cteId), cteDecider, command, this.ctx(companyId, cause), {
      eventId: (i, e) => derivedEventId(cause, `${e.type}:${i}`),
    });
  }

  /** Reacts to `cte.emissao_solicitada` (`cause` is that event's id). */
  async emitir(companyId: string, cteId: string, serie: number, cause: string): Promise<void> {
    const state = await load(this.deps.store, cteStream(cteId), cteDecider);
    if (state.situacao !== 'em_processamento') return;
    let emissao = state.emissao;
    if (!emissao) {
      const reservado = await execute(this.deps, numeracaoCteStream(companyId, serie), numeracaoCteDecider,
        { type: 'ReservarNumeroCte', company_id: companyId, serie, cte_id: cteId }, this.ctx(companyId, cause),
        { eventId: () => derivedEventId(cause, 'numero'), cache: this.series });
      const numero = numeroReservado(reservado.state.reservas, cteId)!;
      const made = await this.deps.montarXml({ companyId, cteId, state, serie, numero });
      if (made.tipo === 'recusado') {
        await this.record(companyId, cteId, cause, { type: 'RegistrarRejeicao', data: { cte_id: cteId, company_id: companyId, cstat: made.cstat, motivo: made.motivo } });
        return;
      }
      const sha256 = await this.deps.documents.put(Buffer.from(made.xml, 'utf8'), 'application/xml');
      const after = await this.record(companyId, cteId, cause, {
        type: 'RegistrarXmlAssinado',
        data: { cte_id: cteId, company_id: companyId, chave: made.chave, serie, numero, data_emissao: made.data_emissao, sha256 },
      });
      emissao = after.state.emissao;
      if (!emissao) return;
    }
    await this.enviar(companyId, cteId, cause, emissao.sha256);
  }

  /**
   * `POST .../consulta`: when the result is unknown, ask the authority; if it never got the document, send the same
   * signed XML again. Returns nothing: the caller reads the CT-e's state afterwards.
   */
  async consultar(companyId: string, cteId: string, cause: string): Promise<void> {
    const state = await load(this.deps.store, cteStream(cteId), cteDecider);
    if (state.situacao !== 'em_processamento' || !state.emissao) return;
    const r = await this.deps.autoridade.consultarCte(state.emissao.chave);
    switch (r.tipo) {
      case 'encontrado':
        if (r.situacao === 'denegado') {
          await this.record(companyId, cteId, cause, { type: 'RegistrarDenegacao', data: { cte_id: cteId, company_id: companyId, chave: r.protocolo.chave, protocolo: protocoloDe(r.protocolo) } });
          return;
        }
        await this.autorizado(companyId, cteId, cause, state.emissao.sha256, r.protocolo);
        return;
      case 'nao_encontrado':
        await this.enviar(companyId, cteId, cause, state.emissao.sha256);
        return;
      case 'rejeitado':
      case 'em_processamento':
      case 'sem_resposta':
        await this.record(companyId, cteId, cause, {
          type: 'RegistrarPendencia',
          data: { cte_id: cteId, company_id: companyId, chave: state.emissao.chave, motivo: r.tipo === 'sem_resposta' ? 'the authority did not answer the query' : `${r.cStat} ${r.xMotivo}` },
        });
    }
  }

  private async enviar(companyId: string, cteId: string, cause: string, sha256: string): Promise<void> {
    const doc = await this.deps.documents.get(sha256);
    if (!doc) throw new Error(`signed XML ${sha256} of CT-e ${cteId} is not readable; the issue retries from its checkpoint`);
    const signed = doc.content.toString('utf8');
    const r: RetornoAutorizacao = await this.deps.autoridade.autorizarCte(signed);
    const chave = /Id="CTe([0-9A-Z]{44})"/.exec(signed)?.[1] ?? '';
    switch (r.tipo) {
      case 'autorizado':
        await this.autorizado(companyId, cteId, cause, sha256, r.protocolo);
        return;
      case 'duplicidade':
        // The authority already has this number: the same document (a lost answer) is our authorization.
        if (r.mesmoConteudo && r.situacao !== 'denegado') {
          await this.autorizado(companyId, cteId, cause, sha256, r.protocolo);
          return;
        }
        await this.record(companyId, cteId, cause, { type: 'RegistrarRejeicao', data: { cte_id: cteId, company_id: companyId, cstat: r.cStat, motivo: r.xMotivo } });
        return;
      case 'denegado':
        await this.record(companyId, cteId, cause, { type: 'RegistrarDenegacao', data: { cte_id: cteId, company_id: companyId, chave, protocolo: protocoloDe(r.protocolo) } });
        return;
      case 'rejeitado':
        await this.record(companyId, cteId, cause, { type: 'RegistrarRejeicao', data: { cte_id: cteId, company_id: companyId, cstat: r.cStat, motivo: r.xMotivo } });
        return;
      case 'em_processamento':
        await this.record(companyId, cteId, cause, { type: 'RegistrarPendencia', data: { cte_id: cteId, company_id: companyId, chave, motivo: `${r.cStat} ${r.xMotivo}` } });
        return;
      case 'sem_resposta':
        await this.record(companyId, cteId, cause, { type: 'RegistrarPendencia', data: { cte_id: cteId, company_id: companyId, chave, motivo: 'the authority did not answer; poll consulta' } });
    }
  }

  private async autorizado(companyId: string, cteId: string, cause: string, sha256: string, protocolo: ProtocoloDocumento): Promise<void> {
    const doc = await this.deps.documents.get(sha256);
    if (!doc) throw new Error(`signed XML ${sha256} of CT-e ${cteId} is not readable; the issue retries from its checkpoint`);
    const proc = montarCteProc(doc.content.toString('utf8'), protocolo);
    const procSha = await this.deps.documents.put(Buffer.from(proc, 'utf8'), 'application/xml');
    const cte: CteLido = readCte(proc);
    await this.record(companyId, cteId, cause, {
      type: 'RegistrarAutorizacao',
      data: { cte_id: cteId, company_id: companyId, chave: protocolo.chave, protocolo: protocoloDe(protocolo), sha256: procSha, cte },
    });
  }
}
