import {
  campoVedadoNaCce,
  cartaCumulativa,
  comoInfCorrecao,
  type CorrecaoCte,
  cartasSemLista,
  correcoesDaCartaAssinada,
  correcoesEmVigorDoCte,
  cteDecider,
  type CteState,
  cteStream,
  type DetalheEventoCte,
  type EventoCteEstado,
  dhSaoPaulo,
  envioEventoCte,
  montarEventoCte,
  planejarEventoCte,
  Rejection,
  TP_EVENTO_CTE,
} from '@frete/domain';
import { certificadoOf, companyOf } from '@frete/projections';
import { execute, load, type CommandContext } from '../commands/execute';
import { contextoDoSolicitante, type EventoFiscalDeps, instante, type Solicitante } from '../commands/evento-fiscal';
import { type ProtocoloEvento } from '@frete/adapters';
import { montarProcEventoCte } from '@frete/adapters';
import { decidirRepasseDoCancelamento, type RepasseNoCancelamento, TP_CANCELAMENTO } from '../repasse/cancelamento';
import { arquivarProcEvento, assinarEventoCte, enviarEvento, estadoDoEventoPendente } from '../emissao/evento';

/** What the carrier asks for, per event type (already shape-checked at the edge). */
export type PedidoEventoCte =
  | { tipo: 'cancelamento'; justificativa: string }
  | { tipo: 'carta_correcao'; correcoes: CorrecaoCte[] }
  | {
      tipo: 'entrega';
      /** Instant of the delivery. */
      entregue_em: Date;
      documento_recebedor: string;
      nome_recebedor: string;
      latitude?: number | null;
      longitude?: number | null;
      /** Base64 SHA-1 (20 bytes) of the delivery image. */
      hash_imagem: string;
      /** When the image digest was taken (default: the delivery). */
      hash_em?: Date;
      /** NF-e delivered (default: those the CT-e carries, for a normal service). */
      nfe_chaves?: string[];
    }
  | { tipo: 'entrega_cancelamento' };

export interface ResultadoEventoCte {
  evento: EventoCteEstado;
  cte: { id: string; situacao: string | null };
  /** A counter-CT-e's cancellation: what it did to the driver's payout (null for any other event or CT-e). */
  repasse: RepasseNoCancelamento | null;
}

export type EventosCteDeps = EventoFiscalDeps;

export type { Solicitante };

const recusaLocal = (cstat: number, motivo: string) => new Rejection('regra_de_negocio', motivo, { cstat, motivo });

/**
 * The fiscal events of an own CT-e: check the rules, build the `eventoCTe`, sign it with the company's A1, validate it
 * against eventoCTe_v4.00.xsd (with its detEvento schema), archive it, record it, and only then send it; record the
 * verdict or the silence. A pending event is reconciled by asking the authority and, if it never got the event, by
 * sending the same signed bytes again — never a new event for the same key.
 */
export class EventosCte {
  constructor(private readonly deps: EventosCteDeps) {}

  private ctx(companyId: string, quem: Solicitante): CommandContext {
    return contextoDoSolicitante(companyId, quem, this.deps.clock());
  }

  private async record(
    companyId: string,
    cteId: string,
    cause: Solicitante,
    command: Parameters<typeof cteDecider.decide>[0],
  ): Promise<CteState> {
    return (await execute(this.deps, cteStream(cteId), cteDecider, command, this.ctx(companyId, cause))).state;
  }

  private resultado(cteId: string, state: CteState, eventKey: string, repasse: RepasseNoCancelamento | null = null): ResultadoEventoCte {
    return { evento: state.eventos[eventKey]!, cte: { id: cteId, situacao: state.situacao }, repasse };
  }

  /**
   * The payout's side of a counter-CT-e's cancellation, decided in the same request as each step of the event: held
   * before the authority can register it, cancelled once it did, let go if it refused. The payout processor repeats the
   * last two from the CT-e's events, so a crash between the two records loses nothing.
   */
  private async repasse(
    companyId: string,
    cteId: string,
    state: CteState,
    evento: Pick<EventoCteEstado, 'tp_evento' | 'event_key'>,
    fase: 'solicitado' | 'registrado' | 'recusado',
    cause: Solicitante,
  ): Promise<RepasseNoCancelamento | null> {
    if (evento.tp_evento !== TP_CANCELAMENTO || !state.contra_cte) return null;
    return decidirRepasseDoCancelamento(
      this.deps,
      this.ctx(companyId, cause),
      { cte_id: cteId, company_id: companyId, vinculo: state.contra_cte },
      fase,
      evento.event_key,
    );
  }

  /** `POST .../eventos/<tipo>`: `cause` is the request that asks it. */
  async solicitar(companyId: string, cteId: string, pedido: PedidoEventoCte, cause: Solicitante): Promise<ResultadoEventoCte> {
    if (pedido.tipo === 'carta_correcao') {
      const vedado = pedido.correcoes.find((c) => campoVedadoNaCce(c.grupoAlterado, c.campoAlterado));
      if (vedado) {
        throw new Rejection(
          'carta_correcao_campo_vedado',
          `${vedado.grupoAlterado}/${vedado.campoAlterado} cannot be changed by a correction letter (MOC 4.00 Visão Geral §13.1)`,
          {
            grupo: vedado.grupoAlterado,
            campo: vedado.campoAlterado,
            cstat: 681,
            motivo: 'Rejeição: Informação não pode ser alterada por carta de correção',
          },
        );
      }
    }
    const now = this.deps.clock();
    const state = await load(this.deps.store, cteStream(cteId), cteDecider);
    const plano = planejarEventoCte(state, companyId, pedido.tipo, now);
    if (plano.tipo === 'pendente') return this.reconciliar(companyId, cteId, plano.evento.event_key, cause);

    // A CC-e carries every correction in force and the new ones (the decider checks the same list when it is recorded).
    const legadas = pedido.tipo === 'carta_correcao' ? await this.cartasLegadas(state) : {};
    const carta =
      pedido.tipo === 'carta_correcao'
        ? cartaCumulativa(comoInfCorrecao(correcoesEmVigorDoCte(state.eventos, legadas)), pedido.correcoes)
        : null;
    const detalhe = await this.detalhe(cteId, carta ? { tipo: 'carta_correcao', correcoes: carta } : pedido, plano.nProt, plano.n_prot_ce);
    const [company, certificado] = await Promise.all([companyOf(this.deps.pool, companyId, ''), certificadoOf(this.deps.pool, companyId)]);
    const chave = state.chave!;
    const envio = envioEventoCte(this.deps.environment, chave, plano.n_seq_evento, now);
    const { xml } = montarEventoCte({ ...envio, cnpjAutor: company?.cnpj ?? '', detalhe });
    const assinado = await assinarEventoCte(this.deps, {
      companyId,
      certificadoBlobId: company && certificado ? certificado.blob_id : null,
      xml,
    });
    if (assinado.tipo === 'recusado') throw recusaLocal(assinado.cstat, assinado.motivo);
    const { sha256 } = assinado;
    await this.record(companyId, cteId, cause, {
      type: 'SolicitarEventoCte',
      tipo: pedido.tipo,
      data: {
        cte_id: cteId,
        company_id: companyId,
        chave,
        event_key: plano.event_key,
        tp_evento: plano.tp_evento,
        n_seq_evento: plano.n_seq_evento,
        sha256,
        ...(plano.n_prot_ce ? { n_prot_ce: plano.n_prot_ce } : {}),
        ...(carta ? { correcoes: carta } : {}),
      },
      ...(pedido.tipo === 'carta_correcao' ? { correcoes: pedido.correcoes, correcoes_legadas: legadas } : {}),
    });
    return this.enviar(companyId, cteId, plano.event_key, cause);
  }

  /**
   * `POST .../eventos/{event_key}/reconciliacao`: for a pending event, ask the authority; if it has no trace of the
   * event, send the same signed XML again. A known verdict is answered as recorded.
   */
  async reconciliar(companyId: string, cteId: string, eventKey: string, cause: Solicitante): Promise<ResultadoEventoCte> {
    const state = await load(this.deps.store, cteStream(cteId), cteDecider);
    const evento = state.company_id === companyId ? state.eventos[eventKey] : undefined;
    // The event_key is a resource of the path: one this CT-e never requested does not exist (404, like any unknown id).
    if (!evento) throw new Rejection('nao_encontrado', `no fiscal event ${eventKey} of this CT-e`, { event_key: eventKey });
    if (evento.situacao !== 'pendente') {
      const fase = evento.situacao === 'registrado' ? 'registrado' : 'recusado';
      return this.resultado(cteId, state, eventKey, await this.repasse(companyId, cteId, state, evento, fase, cause));
    }
    const estado = estadoDoEventoPendente(await this.deps.autoridade.consultarCte(state.chave!, { companyId }), eventKey);
    if (estado.tipo === 'registrado') return this.registrado(companyId, cteId, evento, estado.protocolo, cause);
    if (estado.tipo === 'reenviar') return this.enviar(companyId, cteId, eventKey, cause);
    const { motivo } = estado;
    const after = await this.record(companyId, cteId, cause, {
      type: 'RegistrarEventoPendente',
      data: { cte_id: cteId, company_id: companyId, event_key: eventKey, tp_evento: evento.tp_evento, motivo },
    });
    return this.resultado(cteId, after, eventKey, await this.repasse(companyId, cteId, after, evento, 'solicitado', cause));
  }

  private async detalhe(cteId: string, pedido: PedidoEventoCte, nProt: string, nProtCe: string | null): Promise<DetalheEventoCte> {
    switch (pedido.tipo) {
      case 'cancelamento':
        return { tpEvento: TP_EVENTO_CTE.cancelamento, nProt, xJust: pedido.justificativa };
      case 'carta_correcao':
        return { tpEvento: TP_EVENTO_CTE.carta_correcao, correcoes: pedido.correcoes };
      case 'entrega': {
        let nfes = pedido.nfe_chaves;
        if (!nfes) {
          const { rows } = await this.deps.pool.query<{ nfe_chave: string; service_type: number }>(
            `SELECT n.nfe_chave, c.service_type FROM rm.cte_nfe n JOIN rm.ctes c ON c.cte_id = n.cte_id WHERE n.cte_id = $1 ORDER BY n.nfe_chave`,
            [cteId],
          );
          nfes = rows.filter((r) => Number(r.service_type) === 0).map((r) => r.nfe_chave);
        }
        return {
          tpEvento: TP_EVENTO_CTE.entrega,
          nProt,
          dhEntrega: dhSaoPaulo(pedido.entregue_em),
          nDoc: pedido.documento_recebedor,
          xNome: pedido.nome_recebedor,
          latitude: pedido.latitude ?? null,
          longitude: pedido.longitude ?? null,
          hashEntrega: pedido.hash_imagem,
          dhHashEntrega: dhSaoPaulo(pedido.hash_em ?? pedido.entregue_em),
          nfes,
        };
      }
      case 'entrega_cancelamento':
        return { tpEvento: TP_EVENTO_CTE.entrega_cancelamento, nProt, nProtCE: nProtCe ?? '' };
    }
  }

  /**
   * Letters registered before their events carried their list: what each archived signed letter carries, so the next
   * letter repeats it too (by event key; empty once every registered letter's event has its list).
   */
  private async cartasLegadas(state: CteState): Promise<Record<string, CorrecaoCte[]>> {
    const legadas: Record<string, CorrecaoCte[]> = {};
    for (const e of cartasSemLista(state.eventos)) legadas[e.event_key] = correcoesDaCartaAssinada(await this.assinado(e));
    return legadas;
  }

  private async assinado(evento: EventoCteEstado): Promise<string> {
    const doc = await this.deps.documents.get(evento.sha256);
    if (!doc) throw new Error(`signed event ${evento.event_key} (${evento.sha256}) is not readable`);
    return doc.content.toString('utf8');
  }

  private async enviar(companyId: string, cteId: string, eventKey: string, cause: Solicitante): Promise<ResultadoEventoCte> {
    const state = await load(this.deps.store, cteStream(cteId), cteDecider);
    const evento = state.eventos[eventKey]!;
    const signed = await this.assinado(evento);
    // Held before the authority can register the cancellation: no order is recorded or handed over meanwhile.
    const retido = await this.repasse(companyId, cteId, state, evento, 'solicitado', cause);
    const r = await enviarEvento(
      this.deps.documents,
      signed,
      (xml) => this.deps.autoridade.registrarEventoCte(xml, { companyId }),
      montarProcEventoCte,
    );
    const base = { cte_id: cteId, company_id: companyId, event_key: eventKey, tp_evento: evento.tp_evento };
    let after: CteState;
    switch (r.tipo) {
      case 'registrado':
        return this.registrado(companyId, cteId, evento, r.protocolo, cause, r.sha256);
      case 'rejeitado':
        after = await this.record(companyId, cteId, cause, {
          type: 'RegistrarEventoRejeitado',
          data: { ...base, cstat: r.cstat, motivo: r.motivo },
        });
        await this.repasse(companyId, cteId, after, evento, 'recusado', cause);
        if (r.recusa) throw r.recusa;
        return this.resultado(cteId, after, eventKey);
      case 'pendente':
        after = await this.record(companyId, cteId, cause, {
          type: 'RegistrarEventoPendente',
          data: { ...base, motivo: r.motivo ?? 'the authority did not answer; reconcile' },
        });
        return this.resultado(cteId, after, eventKey, retido);
    }
  }

  /** `procSha` names the archived procEventoCTe when the send just made it; a reconciliation makes it here. */
  private async registrado(
    companyId: string,
    cteId: string,
    evento: EventoCteEstado,
    p: ProtocoloEvento,
    cause: Solicitante,
    procSha?: string,
  ): Promise<ResultadoEventoCte> {
    const sha256 = procSha ?? (await arquivarProcEvento(this.deps.documents, montarProcEventoCte(await this.assinado(evento), p)));
    const after = await this.record(companyId, cteId, cause, {
      type: 'RegistrarEventoRegistrado',
      data: {
        cte_id: cteId,
        company_id: companyId,
        event_key: evento.event_key,
        tp_evento: evento.tp_evento,
        protocolo: { numero: p.nProt, registrado_em: p.dhRegEvento, cstat: p.cStat, motivo: p.xMotivo },
        sha256,
        registrado_em: instante(p.dhRegEvento),
      },
    });
    return this.resultado(cteId, after, evento.event_key, await this.repasse(companyId, cteId, after, evento, 'registrado', cause));
  }
}
