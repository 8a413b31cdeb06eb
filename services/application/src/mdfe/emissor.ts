import { type Pool } from 'pg';
import { type DadosEventoMdfe, type Environment, type TipoEventoMdfe } from '@frete/contracts';
import {
  type DetalheEventoMdfe, mdfeDecider, type MdfeState, mdfeStream, montarEventoMdfeXml, numeracaoMdfeDecider, numeracaoMdfeStream,
  proximoEventoMdfe, ufBySigla,
} from '@frete/domain';
import { companyOf } from '@frete/projections';
import { execute, load, type CommandContext } from '../commands/execute';
import { StateCache } from '../commands/state-cache';
import { type EventStore } from '@frete/platform';
import { type ReadYourWrites } from '@frete/platform';
import { type DocumentStore } from '@frete/platform';
import { type AutoridadeFiscal, type ProtocoloDocumento, type ProtocoloEvento } from '@frete/adapters';
import { montarMdfeProc, montarProcEventoMdfe } from '@frete/adapters';
import { derivedEventId } from '@frete/platform';
import { type XmlDaEmissao } from '../cte/emissor';
import { dhSaoPaulo, type NumeracaoMdfeState, numeroReservado } from '@frete/domain';
import { type Assinado } from './montar-xml';

export type MontarXmlDaEmissaoMdfe = (input: { companyId: string; mdfeId: string; state: MdfeState; serie: number; numero: number }) => Promise<XmlDaEmissao>;
export type AssinarEventoMdfe = (companyId: string, xml: string) => Promise<Assinado>;

export interface EmissorMdfeDeps {
  store: EventStore;
  pool: Pool;
  documents: DocumentStore;
  autoridade: AutoridadeFiscal;
  montarXml: MontarXmlDaEmissaoMdfe;
  assinarEvento: AssinarEventoMdfe;
  environment: Environment;
  readYourWrites?: ReadYourWrites;
  clock: () => Date;
}

/** What an event request gave: registered (200), pending (202) or refused by the authority (422 with cStat). */
export type ResultadoEventoMdfe =
  | { situacao: 'registrado'; n_seq: number; tp_evento: string; cstat: number; motivo: string }
  | { situacao: 'pendente'; n_seq: number; tp_evento: string; motivo: string }
  | { situacao: 'rejeitado'; n_seq: number; tp_evento: string; cstat: number; motivo: string };

const protocoloDe = (p: ProtocoloDocumento | ProtocoloEvento) => ({
  numero: p.nProt,
  recebido_em: 'dhRecbto' in p ? p.dhRecbto : p.dhRegEvento,
  cstat: p.cStat,
  motivo: p.xMotivo,
});

/**
 * Issues MDF-e (the emission processor reacts to `mdfe.emissao_solicitada`) and registers their events, the same way
 * as CT-e: number reserved once, XML signed once and archived before it is sent, the same bytes sent again while the
 * result is unknown, every step's events with ids derived from the cause.
 */
export class EmissorMdfe {
  /** The company series this process numbers: each reservation reads only the numbers given since its last. */
  private readonly series = new StateCache<NumeracaoMdfeState>();

  constructor(private readonly deps: EmissorMdfeDeps) {}

  private ctx(companyId: string, cause: string, actor = 'emission-processor'): CommandContext {
    return { companyId, correlationId: cause, causationId: cause, requestId: null, actor, now: this.deps.clock() };
  }

  private record(companyId: string, mdfeId: string, cause: string, command: Parameters<typeof mdfeDecider.decide>[0]) {
    return execute(this.deps, mdfeStream(mdfeId), mdfeDecider, command, this.ctx(companyId, cause), {
      eventId: (i, e) => derivedEventId(cause, `${e.type}:${i}`),
    });
  }

  async emitir(companyId: string, mdfeId: string, serie: number, cause: string): Promise<void> {
    const state = await load(this.deps.store, mdfeStream(mdfeId), mdfeDecider);
    if (state.situacao !== 'em_processamento') return;
    let emissao = state.emissao;
    if (!emissao) {
      const reservado = await execute(this.deps, numeracaoMdfeStream(companyId, serie), numeracaoMdfeDecider,
        { type: 'ReservarNumeroMdfe', company_id: companyId, serie, mdfe_id: mdfeId }, this.ctx(companyId, cause),
        { eventId: () => derivedEventId(cause, 'numero'), cache: this.series });
      const numero = numeroReservado(reservado.state.reservas, mdfeId)!;
      const made = await this.deps.montarXml({ companyId, mdfeId, state, serie, numero });
      if (made.tipo === 'recusado') {
        await this.record(companyId, mdfeId, cause, { type: 'RegistrarRejeicaoMdfe', data: { mdfe_id: mdfeId, company_id: companyId, cstat: made.cstat, motivo: made.motivo } });
        return;
      }
      const sha256 = await this.deps.documents.put(Buffer.from(made.xml, 'utf8'), 'application/xml');
      const after = await this.record(companyId, mdfeId, cause, {
        type: 'RegistrarXmlAssinadoMdfe',
        data: { mdfe_id: mdfeId, company_id: companyId, chave: made.chave, serie, numero, data_emissao: made.data_emissao, sha256 },
      });
      emissao = after.state.emissao;
      if (!emissao) return;
    }
    await this.enviar(companyId, mdfeId, cause, emissao.sha256, emissao.chave);
  }

  /** `POST .../consulta`: while the result is unknown, ask the authority; if it never got the MDF-e, send the same bytes. */
  async consultar(companyId: string, mdfeId: string, cause: string): Promise<void> {
    const state = await load(this.deps.store, mdfeStream(mdfeId), mdfeDecider);
    if (state.situacao !== 'em_processamento' || !state.emissao) return;
    const r = await this.deps.autoridade.consultarMdfe(state.emissao.chave);
    switch (r.tipo) {
      case 'encontrado':
        await this.autorizado(companyId, mdfeId, cause, state.emissao.sha256, r.protocolo);
        return;
      case 'nao_encontrado':
        await this.enviar(companyId, mdfeId, cause, state.emissao.sha256, state.emissao.chave);
        return;
      default:
        await this.record(companyId, mdfeId, cause, {
          type: 'RegistrarPendenciaMdfe',
          data: { mdfe_id: mdfeId, company_id: companyId, chave: state.emissao.chave, motivo: r.tipo === 'sem_resposta' ? 'the authority did not answer the query' : `${r.cStat} ${r.xMotivo}` },
        });
    }
  }

  private async signed(sha256: string, mdfeId: string): Promise<string> {
    const doc = await this.deps.documents.get(sha256);
    if (!doc) throw new Error(`signed XML ${sha256} of MDF-e ${mdfeId} is not readable; the issue retries from its checkpoint`);
    return doc.content.toString('utf8');
  }

  private async enviar(companyId: string, mdfeId: string, cause: string, sha256: string, chave: string): Promise<void> {
    const r = await this.deps.autoridade.autorizarMdfe(await this.signed(sha256, mdfeId));
    const base = { mdfe_id: mdfeId, company_id: companyId };
    switch (r.tipo) {
      case 'autorizado':
        await this.autorizado(companyId, mdfeId, cause, sha256, r.protocolo);
        return;
      case 'duplicidade':
        if (r.mesmoConteudo) {
          await this.autorizado(companyId, mdfeId, cause, sha256, r.protocolo);
          return;
        }
        await this.record(companyId, mdfeId, cause, { type: 'RegistrarRejeicaoMdfe', data: { ...base, cstat: r.cStat, motivo: r.xMotivo } });
        return;
      case 'denegado':
      case 'rejeitado':
        await this.record(companyId, mdfeId, cause, { type: 'RegistrarRejeicaoMdfe', data: { ...base, cstat: r.cStat, motivo: r.xMotivo } });
        return;
      case 'em_processamento':
        await this.record(companyId, mdfeId, cause, { type: 'RegistrarPendenciaMdfe', data: { ...base, chave, motivo: `${r.cStat} ${r.xMotivo}` } });
        return;
      case 'sem_resposta':
        await this.record(companyId, mdfeId, cause, { type: 'RegistrarPendenciaMdfe', data: { ...base, chave, motivo: 'the authority did not answer; poll consulta' } });
    }
  }

  private async autorizado(companyId: string, mdfeId: string, cause: string, sha256: string, protocolo: ProtocoloDocumento): Promise<void> {
    const proc = montarMdfeProc(await this.signed(sha256, mdfeId), protocolo);
    const procSha = await this.deps.documents.put(Buffer.from(proc, 'utf8'), 'application/xml');
    await this.record(companyId, mdfeId, cause, {
      type: 'RegistrarAutorizacaoMdfe',
      data: { mdfe_id: mdfeId, company_id: companyId, chave: protocolo.chave, protocolo: protocoloDe(protocolo), sha256: procSha },
    });
  }

  /**
   * Registers an event (cancelamento, encerramento, inclusão de condutor) synchronously: builds and signs the
   * `eventoMDFe` (or takes the pending one's signed bytes), sends it and records the answer. Rules of the MDF-e's own
   * state are `Rejection`s (thrown by `proximoEventoMdfe`).
   */
  async registrarEvento(
    companyId: string, mdfeId: string, tipo: TipoEventoMdfe, dados: DadosEventoMdfe, cause: string,
  ): Promise<ResultadoEventoMdfe> {
    const state = await load(this.deps.store, mdfeStream(mdfeId), mdfeDecider);
    if (!state.existe || state.company_id !== companyId) throw new Error(`MDF-e ${mdfeId} is not of company ${companyId}`);
    const prox = proximoEventoMdfe(state, tipo);
    const { tp_evento, n_seq } = prox;
    const evDados = prox.pendente ? prox.pendente.dados : dados;
    const base = { mdfe_id: mdfeId, company_id: companyId, tipo, tp_evento, n_seq, dados: evDados };
    let signedXml: string;
    if (prox.pendente?.sha256) {
      signedXml = await this.signed(prox.pendente.sha256, mdfeId);
    } else {
      const company = await companyOf(this.deps.pool, companyId, '');
      const detalhe = detalheDe(tipo, evDados, state.n_prot ?? '');
      const built = montarEventoMdfeXml({
        chave: state.chave!, cnpj: company?.cnpj ?? '', nSeq: n_seq, dhEvento: dhSaoPaulo(this.deps.clock()), ambiente: this.deps.environment, detalhe,
      });
      const s = await this.deps.assinarEvento(companyId, built.xml);
      if (s.tipo === 'recusado') {
        await this.record(companyId, mdfeId, cause, { type: 'RegistrarEventoRejeitadoMdfe', data: { ...base, cstat: s.cstat, motivo: s.motivo } });
        return { situacao: 'rejeitado', tp_evento, n_seq, cstat: s.cstat, motivo: s.motivo };
      }
      signedXml = s.xml;
    }
    const sha = await this.deps.documents.put(Buffer.from(signedXml, 'utf8'), 'application/xml');
    const r = await this.deps.autoridade.registrarEventoMdfe(signedXml);
    switch (r.tipo) {
      case 'registrado':
      case 'duplicidade': {
        const proc = montarProcEventoMdfe(signedXml, r.protocolo);
        const procSha = await this.deps.documents.put(Buffer.from(proc, 'utf8'), 'application/xml');
        await this.record(companyId, mdfeId, cause, { type: 'RegistrarEventoMdfe', data: { ...base, protocolo: protocoloDe(r.protocolo), sha256: procSha } });
        return { situacao: 'registrado', tp_evento, n_seq, cstat: r.protocolo.cStat, motivo: r.protocolo.xMotivo };
      }
      case 'rejeitado':
        await this.record(companyId, mdfeId, cause, { type: 'RegistrarEventoRejeitadoMdfe', data: { ...base, cstat: r.cStat, motivo: r.xMotivo } });
        return { situacao: 'rejeitado', tp_evento, n_seq, cstat: r.cStat, motivo: r.xMotivo };
      case 'em_processamento':
      case 'sem_resposta': {
        const motivo = r.tipo === 'sem_resposta' ? 'the authority did not answer; send the same request again' : `${r.cStat} ${r.xMotivo}`;
        await this.record(companyId, mdfeId, cause, { type: 'RegistrarEventoPendenteMdfe', data: { ...base, sha256: sha, motivo } });
        return { situacao: 'pendente', tp_evento, n_seq, motivo };
      }
    }
  }
}

function detalheDe(tipo: TipoEventoMdfe, d: DadosEventoMdfe, nProt: string): DetalheEventoMdfe {
  switch (tipo) {
    case 'cancelamento':
      return { tipo, nProt, justificativa: d.justificativa ?? '' };
    case 'encerramento':
      return { tipo, nProt, data: d.data ?? '', cUF: ufBySigla(d.municipio?.uf ?? '')?.codigo_ibge ?? '', cMun: d.municipio?.codigo_ibge ?? '' };
    case 'condutor':
      return { tipo, nome: d.condutor?.nome ?? '', cpf: d.condutor?.cpf ?? '' };
  }
}
