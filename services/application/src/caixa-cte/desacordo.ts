import { type TipoDesacordo } from '@frete/contracts';
import {
  caixaCteDecider,
  type CaixaCteState,
  caixaCteStream,
  type DetalheDesacordo,
  envioEventoCte,
  type EventoDesacordoEstado,
  montarEventoDesacordo,
  observacaoDesacordo,
  planejarDesacordo,
  Rejection,
  situacaoDoDesacordo,
  TP_EVENTO_DESACORDO,
} from '@frete/domain';
import { certificadoOf, companyOf } from '@frete/projections';
import { montarProcEventoCte, type ProtocoloEvento } from '@frete/adapters';
import { execute, load, type CommandContext } from '../commands/execute';
import { contextoDoSolicitante, type EventoFiscalDeps, instante, type Solicitante } from '../commands/evento-fiscal';
import { arquivarProcEvento, assinarEventoCte, enviarEvento, estadoDoEventoPendente } from '../emissao/evento';

export type DesacordoDeps = EventoFiscalDeps;

/** What the taker asks for (already shape-checked at the edge). */
export type PedidoDesacordo = { tipo: 'desacordo'; observacao: string } | { tipo: 'cancelamento_desacordo' };

export interface ResultadoDesacordo {
  evento: EventoDesacordoEstado;
  chave: string;
  /** The CT-e's disagreement after this request. */
  desacordo: ReturnType<typeof situacaoDoDesacordo>;
}

export type SolicitanteDesacordo = Solicitante;

/** cStat 215 "Rejeição: Falha no schema XML": what the authority would answer, said before sending. */

/**
 * The taker's events about a CT-e in its inbox (610110 desacordo, 610111 its cancellation), in the inbox key's stream:
 * check the rules, build the `eventoCTe`, sign it with the taker's A1, validate it (eventoCTe_v4.00.xsd with
 * evPrestDesacordo / evCancPrestDesacordo), archive and record it, and only then send it through the authority port —
 * which routes it by the CT-e's key to the authorizer of the CT-e (MOC 4.00 Visão Geral §3.7.1: "SEFAZ Autoriz.").
 * A pending event is reconciled by asking the authority, and if it never got it, by sending the same bytes again.
 */
export class DesacordoCte {
  constructor(private readonly deps: DesacordoDeps) {}

  private ctx(companyId: string, quem: SolicitanteDesacordo): CommandContext {
    return contextoDoSolicitante(companyId, quem, this.deps.clock());
  }

  private stream = (companyId: string, chave: string) => caixaCteStream(companyId, chave);

  private async record(
    companyId: string,
    chave: string,
    cause: SolicitanteDesacordo,
    command: Parameters<typeof caixaCteDecider.decide>[0],
  ): Promise<CaixaCteState> {
    return (await execute(this.deps, this.stream(companyId, chave), caixaCteDecider, command, this.ctx(companyId, cause))).state;
  }

  private resultado(chave: string, state: CaixaCteState, eventKey: string): ResultadoDesacordo {
    return { evento: state.eventos[eventKey]!, chave, desacordo: situacaoDoDesacordo(state) };
  }

  /** `POST .../desacordo` and `.../desacordo/cancelamento`. */
  async solicitar(companyId: string, chave: string, pedido: PedidoDesacordo, cause: SolicitanteDesacordo): Promise<ResultadoDesacordo> {
    const now = this.deps.clock();
    const state = await load(this.deps.store, this.stream(companyId, chave), caixaCteDecider);
    if (!state.recebido) throw new Rejection('nao_encontrado', "CT-e not found in this company's inbox");
    const [company, certificado] = await Promise.all([companyOf(this.deps.pool, companyId, ''), certificadoOf(this.deps.pool, companyId)]);
    const cnpj = company?.cnpj ?? '';
    const plano = planejarDesacordo(state, cnpj, pedido.tipo, now);
    if (plano.tipo === 'pendente') return this.reconciliar(companyId, chave, plano.evento.event_key, cause);

    const detalhe: DetalheDesacordo =
      pedido.tipo === 'desacordo'
        ? { tpEvento: TP_EVENTO_DESACORDO.desacordo, xObs: pedido.observacao }
        : { tpEvento: TP_EVENTO_DESACORDO.cancelamento_desacordo, nProtEvPrestDes: plano.n_prot_desacordo ?? '' };
    // §5.1.1 IP05 / N02: the receiving authority's code is the key's cUF (the CT-e's authorizer), not the taker's UF.
    const envio = envioEventoCte(this.deps.environment, chave, plano.n_seq_evento, now);
    const { xml } = montarEventoDesacordo({ ...envio, documentoAutor: cnpj, detalhe });
    const assinado = await assinarEventoCte(this.deps, {
      companyId,
      certificadoBlobId: company && certificado ? certificado.blob_id : null,
      xml,
    });
    if (assinado.tipo === 'recusado') {
      throw new Rejection('regra_de_negocio', assinado.motivo, { cstat: assinado.cstat, motivo: assinado.motivo });
    }
    const { sha256 } = assinado;
    await this.record(companyId, chave, cause, {
      type: 'SolicitarDesacordo',
      company_cnpj: cnpj,
      data: {
        company_id: companyId,
        chave,
        event_key: plano.event_key,
        tipo: pedido.tipo,
        tp_evento: plano.tp_evento,
        n_seq_evento: plano.n_seq_evento,
        sha256,
        observacao: detalhe.tpEvento === '610110' ? observacaoDesacordo(detalhe.xObs) : null,
        n_prot_desacordo: plano.n_prot_desacordo,
      },
    });
    return this.enviar(companyId, chave, plano.event_key, cause);
  }

  /** A pending event: ask the authority; if it has no trace of it, send the same signed XML again. */
  async reconciliar(companyId: string, chave: string, eventKey: string, cause: SolicitanteDesacordo): Promise<ResultadoDesacordo> {
    const state = await load(this.deps.store, this.stream(companyId, chave), caixaCteDecider);
    const evento = state.eventos[eventKey];
    if (!evento) throw new Rejection('nao_encontrado', `no desacordo event ${eventKey} of this CT-e`, { event_key: eventKey });
    if (evento.situacao !== 'pendente') return this.resultado(chave, state, eventKey);
    const estado = estadoDoEventoPendente(await this.deps.autoridade.consultarCte(chave, { companyId }), eventKey);
    if (estado.tipo === 'registrado') return this.registrado(companyId, chave, evento, estado.protocolo, cause);
    if (estado.tipo === 'reenviar') return this.enviar(companyId, chave, eventKey, cause);
    const { motivo } = estado;
    const after = await this.record(companyId, chave, cause, {
      type: 'RegistrarDesacordoPendente',
      data: this.base(companyId, chave, evento, { motivo }),
    });
    return this.resultado(chave, after, eventKey);
  }

  private base<T extends object>(companyId: string, chave: string, e: EventoDesacordoEstado, extra: T) {
    return { company_id: companyId, chave, event_key: e.event_key, tipo: e.tipo as TipoDesacordo, tp_evento: e.tp_evento, ...extra };
  }

  private async assinado(evento: EventoDesacordoEstado): Promise<string> {
    const doc = await this.deps.documents.get(evento.sha256);
    if (!doc) throw new Error(`signed event ${evento.event_key} (${evento.sha256}) is not readable`);
    return doc.content.toString('utf8');
  }

  private async enviar(companyId: string, chave: string, eventKey: string, cause: SolicitanteDesacordo): Promise<ResultadoDesacordo> {
    const state = await load(this.deps.store, this.stream(companyId, chave), caixaCteDecider);
    const evento = state.eventos[eventKey]!;
    const signed = await this.assinado(evento);
    const r = await enviarEvento(
      this.deps.documents,
      signed,
      (xml) => this.deps.autoridade.registrarEventoCte(xml, { companyId }),
      montarProcEventoCte,
    );
    switch (r.tipo) {
      case 'registrado':
        return this.registrado(companyId, chave, evento, r.protocolo, cause, r.sha256);
      case 'rejeitado': {
        const after = await this.record(companyId, chave, cause, {
          type: 'RegistrarDesacordoRejeitado',
          data: this.base(companyId, chave, evento, { cstat: r.cstat, motivo: r.motivo }),
        });
        if (r.recusa) throw r.recusa;
        return this.resultado(chave, after, eventKey);
      }
      case 'pendente': {
        const after = await this.record(companyId, chave, cause, {
          type: 'RegistrarDesacordoPendente',
          data: this.base(companyId, chave, evento, {
            motivo: r.motivo ?? 'the authority did not answer; repeat the request to reconcile',
          }),
        });
        return this.resultado(chave, after, eventKey);
      }
    }
  }

  private async registrado(
    companyId: string,
    chave: string,
    evento: EventoDesacordoEstado,
    p: ProtocoloEvento,
    cause: SolicitanteDesacordo,
    procSha?: string,
  ): Promise<ResultadoDesacordo> {
    const sha256 = procSha ?? (await arquivarProcEvento(this.deps.documents, montarProcEventoCte(await this.assinado(evento), p)));
    const after = await this.record(companyId, chave, cause, {
      type: 'RegistrarDesacordoRegistrado',
      data: this.base(companyId, chave, evento, {
        protocolo: { numero: p.nProt, registrado_em: p.dhRegEvento, cstat: p.cStat, motivo: p.xMotivo },
        sha256,
        registrado_em: instante(p.dhRegEvento),
      }),
    });
    return this.resultado(chave, after, evento.event_key);
  }
}
