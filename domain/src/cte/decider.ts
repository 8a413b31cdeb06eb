import { isDeepStrictEqual } from 'node:util';
import {
  type ContraCteVinculo,
  type CteDraftInput,
  type CteLido,
  type CteRascunho,
  type CteSituation,
  type DomainEventOf,
  type Environment,
} from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { normalizeCnpj } from '../fiscal/documents';
import { validarRascunho } from './rascunho';
import { type EventoCteEstado, planejarEventoCte } from './eventos/regras';
import { type CorrecaoCte, type TipoEventoCte, TP_EVENTO_CTE, tipoDoTpEvento } from './eventos/montar';
import {
  cartaCumulativa,
  cartasRegistradas,
  comoInfCorrecao,
  correcoesEmVigor,
  correcoesEmVigorDoCte,
  CSTAT_EVENTO_REGISTRADO,
} from './eventos/correcoes';
import { EMISSAO_REJEITADA, EMISSAO_SOLICITADA, emissaoAssinada, passoDaEmissao } from '../emissao/decider';

export type CteEvent =
  | DomainEventOf<'cte.emitido_recebido'>
  | DomainEventOf<'cte.emitido_reenviado'>
  | DomainEventOf<'cte.repassado'>
  | DomainEventOf<'cte.rascunho_criado'>
  | DomainEventOf<'cte.contra_cte_criado'>
  | DomainEventOf<'cte.rascunho_alterado'>
  | DomainEventOf<'cte.emissao_solicitada'>
  | DomainEventOf<'cte.xml_assinado'>
  | DomainEventOf<'cte.autorizado'>
  | DomainEventOf<'cte.rejeitado'>
  | DomainEventOf<'cte.denegado'>
  | DomainEventOf<'cte.resultado_pendente'>
  | DomainEventOf<'cte.evento_solicitado'>
  | DomainEventOf<'cte.evento_registrado'>
  | DomainEventOf<'cte.evento_rejeitado'>
  | DomainEventOf<'cte.evento_pendente'>;

/** `POST .../emissao`: a draft (or a rejected CT-e, corrected) goes to the emission processor. */
export interface SolicitarEmissao {
  type: 'SolicitarEmissao';
  cte_id: string;
  company_id: string;
  serie: number;
}

/** What the emission processor learned: the signed XML, then the authority's verdict (or its silence). */
export type RegistrarEmissao =
  | { type: 'RegistrarXmlAssinado'; data: DomainEventOf<'cte.xml_assinado'>['data'] }
  | { type: 'RegistrarAutorizacao'; data: DomainEventOf<'cte.autorizado'>['data'] }
  | { type: 'RegistrarRejeicao'; data: DomainEventOf<'cte.rejeitado'>['data'] }
  | { type: 'RegistrarDenegacao'; data: DomainEventOf<'cte.denegado'>['data'] }
  | { type: 'RegistrarPendencia'; data: DomainEventOf<'cte.resultado_pendente'>['data'] };

/** A new draft (`POST /fiscal/cte`); the id is chosen by the edge. */
export interface CriarRascunho {
  type: 'CriarRascunho';
  cte_id: string;
  company_id: string;
  environment: Environment;
  dados: CteDraftInput;
}

/**
 * A counter-CT-e (`POST /fiscal/cte/contra` or a batch row): a draft made of the contractor's CT-e, with its link
 * to the key, the batch and the driver. It is not editable: its data come from the contractor's XML and the request.
 */
export interface CriarContraCte {
  type: 'CriarContraCte';
  cte_id: string;
  company_id: string;
  environment: Environment;
  dados: CteRascunho;
  vinculo: ContraCteVinculo;
}

/** Replaces a draft's editable data (`PUT /fiscal/cte/{cte_uuid}`). */
export interface AlterarRascunho {
  type: 'AlterarRascunho';
  cte_id: string;
  company_id: string;
  dados: CteDraftInput;
}

/** An own CT-e issued elsewhere and delivered by the carrier (`POST /fiscal/cte-emitidos`). */
export interface ReceberCteEmitido {
  type: 'ReceberCteEmitido';
  cte_id: string;
  company_id: string;
  company_cnpj: string;
  environment: Environment;
  sha256: string;
  tamanho_bytes: number;
  cte: CteLido;
}

/** The contractor hands its authorized CT-e to a subcontractor (`POST /fiscal/cte/{cte_uuid}/subcontratacao`). */
export interface RepassarCte {
  type: 'RepassarCte';
  cte_id: string;
  company_id: string;
  subcontratada_id: string;
  subcontratada_cnpj: string;
  observacao: string | null;
}

/**
 * A fiscal event of the CT-e, signed and archived, about to be sent (`POST .../eventos/...`). A CC-e names the
 * corrections asked (`correcoes`) and, in `data.correcoes`, the full list the signed letter carries (`cartaCumulativa`
 * of the corrections in force and those): the decider checks the one against the other.
 */
export interface SolicitarEventoCte {
  type: 'SolicitarEventoCte';
  tipo: TipoEventoCte;
  data: DomainEventOf<'cte.evento_solicitado'>['data'];
  correcoes?: CorrecaoCte[];
  /** Letters registered before their events carried their list: the list each signed letter carries, by event key. */
  correcoes_legadas?: Record<string, CorrecaoCte[]>;
}

/** What the authority answered about a fiscal event (or its silence). */
export type RegistrarEventoCte =
  | { type: 'RegistrarEventoRegistrado'; data: DomainEventOf<'cte.evento_registrado'>['data'] }
  | { type: 'RegistrarEventoRejeitado'; data: DomainEventOf<'cte.evento_rejeitado'>['data'] }
  | { type: 'RegistrarEventoPendente'; data: DomainEventOf<'cte.evento_pendente'>['data'] };

export type CteCommand =
  | ReceberCteEmitido
  | RepassarCte
  | CriarRascunho
  | CriarContraCte
  | AlterarRascunho
  | SolicitarEmissao
  | RegistrarEmissao
  | SolicitarEventoCte
  | RegistrarEventoCte;

export interface CteState {
  existe: boolean;
  company_id: string | null;
  chave: string | null;
  situacao: CteSituation | null;
  sha256: string | null;
  dados: CteRascunho | null;
  /** The signed XML being issued (kept through retries until a verdict). */
  emissao: { chave: string; numero: number; serie: number; sha256: string } | null;
  /** The authorization protocol (number and dhRecbto), which the events cite. */
  autorizacao: { numero: string; recebido_em: string } | null;
  /** Fiscal events by `event_key`. */
  eventos: Record<string, EventoCteEstado>;
  /** Set for a counter-CT-e. */
  contra_cte: ContraCteVinculo | null;
}

/** The event each step of the issue becomes. */
const PASSOS_DA_EMISSAO = {
  RegistrarXmlAssinado: 'cte.xml_assinado',
  RegistrarAutorizacao: 'cte.autorizado',
  RegistrarRejeicao: 'cte.rejeitado',
  RegistrarDenegacao: 'cte.denegado',
  RegistrarPendencia: 'cte.resultado_pendente',
} as const satisfies Record<RegistrarEmissao['type'], CteEvent['type']>;

/** cStat of an authorized CT-e: 100, or 150 when authorized out of time. */
export const CSTAT_AUTORIZADO = [100, 150];

export const cteStream = (cteId: string) => `cte-${cteId}`;

/** A CT-e's first state as a draft, written by hand or as a counter-CT-e (`contra_cte`). */
const rascunhoNovo = (company_id: string, dados: CteRascunho, contra_cte: ContraCteVinculo | null): CteState => ({
  existe: true,
  company_id,
  chave: null,
  situacao: 'rascunho',
  sha256: null,
  dados,
  emissao: null,
  autorizacao: null,
  eventos: {},
  contra_cte,
});

export const cteDecider: Decider<CteCommand, CteState, CteEvent> = {
  initialState: {
    existe: false,
    company_id: null,
    chave: null,
    situacao: null,
    sha256: null,
    dados: null,
    emissao: null,
    autorizacao: null,
    eventos: {},
    contra_cte: null,
  },
  decide(c, state, ctx) {
    switch (c.type) {
      case 'ReceberCteEmitido': {
        const cte = c.cte;
        if (state.existe) {
          return [
            {
              type: 'cte.emitido_reenviado',
              data: {
                cte_id: c.cte_id,
                company_id: c.company_id,
                chave: cte.chave,
                sha256: c.sha256,
                conteudo_diferente: c.sha256 !== state.sha256,
              },
            },
          ];
        }
        const emitente = cte.emitente.documento;
        if (!emitente || normalizeCnpj(emitente) !== normalizeCnpj(c.company_cnpj)) {
          throw new Rejection(
            'cte_de_outro_emitente',
            `this CT-e was issued by ${emitente ?? 'another company'}, not by the authenticated carrier; a contractor's CT-e goes to POST /fiscal/cte-subcontratacao`,
            { emitente, inbox: '/v1/fiscal/cte-subcontratacao' },
          );
        }
        if (cte.ambiente !== c.environment) {
          throw new Rejection(
            'ambiente_divergente',
            `the CT-e was issued in ${cte.ambiente} (tpAmb) and this is the ${c.environment} environment`,
          );
        }
        const prot = cte.protocolo;
        if (prot && prot.chave !== cte.chave) {
          throw new Rejection('chave_invalida', `the authorization protocol is for key ${prot.chave}, not for ${cte.chave}`);
        }
        if (prot && !CSTAT_AUTORIZADO.includes(prot.status)) {
          throw new Rejection('cte_nao_autorizado', `the protocol does not authorize this CT-e (cStat ${prot.status}: ${prot.motivo})`);
        }
        return [
          {
            type: 'cte.emitido_recebido',
            data: {
              cte_id: c.cte_id,
              company_id: c.company_id,
              chave: cte.chave,
              sha256: c.sha256,
              tamanho_bytes: c.tamanho_bytes,
              situacao: prot ? 'autorizado' : 'sem_protocolo',
              cte,
            },
          },
        ];
      }
      case 'CriarRascunho': {
        if (state.existe) return [];
        const { dados, fields } = validarRascunho(c.dados);
        if (fields.length > 0) throw new Rejection('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });
        return [{ type: 'cte.rascunho_criado', data: { cte_id: c.cte_id, company_id: c.company_id, ambiente: c.environment, dados } }];
      }
      case 'CriarContraCte': {
        if (state.existe) return [];
        const { dados, fields } = validarRascunho(c.dados);
        if (fields.length > 0) throw new Rejection('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });
        return [
          {
            type: 'cte.contra_cte_criado',
            data: { cte_id: c.cte_id, company_id: c.company_id, ambiente: c.environment, dados, vinculo: c.vinculo },
          },
        ];
      }
      case 'AlterarRascunho': {
        if (!state.existe || state.company_id !== c.company_id) throw new Rejection('nao_encontrado', 'CT-e not found');
        if (state.contra_cte)
          throw new Rejection('cte_nao_editavel', "a counter-CT-e is made of the contractor's CT-e and the request: it is not edited");
        if (state.situacao !== 'rascunho' && state.situacao !== 'rejeitado') {
          throw new Rejection('cte_nao_editavel', `only a draft can be changed; this CT-e is ${state.situacao} and immutable`);
        }
        const { dados, fields } = validarRascunho(c.dados);
        if (fields.length > 0) throw new Rejection('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });
        // Events read back from storage may list keys in another order: compare values, not text.
        if (isDeepStrictEqual(dados, state.dados)) return [];
        return [{ type: 'cte.rascunho_alterado', data: { cte_id: c.cte_id, company_id: c.company_id, dados } }];
      }
      case 'SolicitarEmissao': {
        if (!state.existe || state.company_id !== c.company_id) throw new Rejection('nao_encontrado', 'CT-e not found');
        // Asking again while the result is unknown, or once it is known, issues nothing more.
        if (state.situacao !== 'rascunho' && state.situacao !== 'rejeitado') return [];
        // A refused counter-CT-e gave its key back; the next one is a new counter-CT-e, not this one again.
        if (state.contra_cte && state.situacao === 'rejeitado') {
          throw new Rejection(
            'cte_nao_editavel',
            'the authority refused this counter-CT-e and its key is free: issue a new one (POST /fiscal/cte/contra or a batch)',
          );
        }
        return [{ type: 'cte.emissao_solicitada', data: { cte_id: c.cte_id, company_id: c.company_id, serie: c.serie } }];
      }
      case 'RegistrarXmlAssinado':
      case 'RegistrarAutorizacao':
      case 'RegistrarRejeicao':
      case 'RegistrarDenegacao':
      case 'RegistrarPendencia':
        return passoDaEmissao(state, { type: PASSOS_DA_EMISSAO[c.type], data: c.data } as CteEvent, {
          xmlAssinado: c.type === 'RegistrarXmlAssinado',
        });
      case 'SolicitarEventoCte': {
        const atual = state.eventos[c.data.event_key];
        if (atual && atual.situacao !== 'rejeitado') return [];
        const plano = planejarEventoCte(state, c.data.company_id, c.tipo, ctx.now);
        if (plano.tipo === 'pendente' || plano.event_key !== c.data.event_key) {
          throw new Rejection('regra_de_negocio', 'another event of this type was requested at the same time; try again', {
            event_key: plano.tipo === 'pendente' ? plano.evento.event_key : plano.event_key,
          });
        }
        if (c.tipo !== 'carta_correcao') return [{ type: 'cte.evento_solicitado', data: c.data }];
        // The authority keeps only the letter with the highest nSeqEvento: it repeats every correction in force.
        const correcoes = cartaCumulativa(comoInfCorrecao(correcoesEmVigorDoCte(state.eventos, c.correcoes_legadas)), c.correcoes ?? []);
        if (!c.correcoes?.length || !isDeepStrictEqual(correcoes, c.data.correcoes)) {
          throw new Rejection('regra_de_negocio', 'the signed letter does not carry the corrections in force and the new ones; try again', {
            event_key: c.data.event_key,
          });
        }
        return [{ type: 'cte.evento_solicitado', data: { ...c.data, correcoes } }];
      }
      case 'RegistrarEventoRegistrado': {
        const evento = state.eventos[c.data.event_key];
        if (evento?.situacao !== 'pendente') return [];
        if (evento.tp_evento !== TP_EVENTO_CTE.carta_correcao || !evento.correcoes)
          return [{ type: 'cte.evento_registrado', data: c.data }];
        // What is in force once this letter is registered, so that the event alone says it (auditors, the read model).
        const emVigor = CSTAT_EVENTO_REGISTRADO.includes(c.data.protocolo.cstat)
          ? correcoesEmVigor([
              ...cartasRegistradas(state.eventos),
              { n_seq_evento: evento.n_seq_evento, event_key: evento.event_key, correcoes: evento.correcoes },
            ])
          : correcoesEmVigorDoCte(state.eventos);
        return [{ type: 'cte.evento_registrado', data: { ...c.data, correcoes_em_vigor: emVigor } }];
      }
      case 'RegistrarEventoRejeitado':
        if (state.eventos[c.data.event_key]?.situacao !== 'pendente') return [];
        return [{ type: 'cte.evento_rejeitado', data: c.data }];
      case 'RegistrarEventoPendente':
        if (state.eventos[c.data.event_key]?.situacao !== 'pendente') return [];
        return [{ type: 'cte.evento_pendente', data: c.data }];
      case 'RepassarCte':
        if (!state.existe || state.company_id !== c.company_id) throw new Rejection('nao_encontrado', 'CT-e not found');
        if (state.situacao !== 'autorizado') {
          throw new Rejection('cte_nao_autorizado', `only an authorized CT-e can be handed off; this one is ${state.situacao}`);
        }
        return [
          {
            type: 'cte.repassado',
            data: {
              cte_id: c.cte_id,
              company_id: c.company_id,
              chave: state.chave!,
              subcontratada_id: c.subcontratada_id,
              subcontratada_cnpj: c.subcontratada_cnpj,
              observacao: c.observacao,
            },
          },
        ];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'cte.emitido_recebido':
        return {
          existe: true,
          company_id: event.data.company_id,
          chave: event.data.chave,
          situacao: event.data.situacao,
          sha256: event.data.sha256,
          dados: null,
          emissao: null,
          autorizacao: event.data.cte.protocolo
            ? { numero: event.data.cte.protocolo.numero, recebido_em: event.data.cte.protocolo.recebido_em }
            : null,
          eventos: {},
          contra_cte: null,
        };
      case 'cte.rascunho_criado':
        return rascunhoNovo(event.data.company_id, event.data.dados, null);
      case 'cte.contra_cte_criado':
        return rascunhoNovo(event.data.company_id, event.data.dados, event.data.vinculo);
      case 'cte.rascunho_alterado':
        return { ...state, situacao: 'rascunho', dados: event.data.dados };
      case 'cte.emissao_solicitada':
        return { ...state, ...EMISSAO_SOLICITADA };
      case 'cte.xml_assinado':
        return { ...state, chave: event.data.chave, emissao: emissaoAssinada(event.data) };
      case 'cte.autorizado':
        return {
          ...state,
          situacao: 'autorizado',
          chave: event.data.chave,
          sha256: event.data.sha256,
          autorizacao: { numero: event.data.protocolo.numero, recebido_em: event.data.protocolo.recebido_em },
        };
      case 'cte.rejeitado':
        // The draft may be corrected and issued again; it keeps its number, and the next XML gets a new cCT.
        return { ...state, ...EMISSAO_REJEITADA };
      case 'cte.denegado':
        return { ...state, situacao: 'denegado' };
      case 'cte.evento_solicitado': {
        const d = event.data;
        const evento: EventoCteEstado = {
          event_key: d.event_key,
          tp_evento: d.tp_evento,
          n_seq_evento: d.n_seq_evento,
          sha256: d.sha256,
          situacao: 'pendente',
          protocolo: null,
          proc_sha256: null,
          retorno: null,
          n_prot_ce: d.n_prot_ce ?? null,
          ...(d.correcoes ? { correcoes: d.correcoes } : {}),
        };
        return { ...state, eventos: { ...state.eventos, [d.event_key]: evento } };
      }
      case 'cte.evento_registrado': {
        const d = event.data;
        const atual = state.eventos[d.event_key];
        if (!atual) return state;
        const eventos = {
          ...state.eventos,
          [d.event_key]: {
            ...atual,
            situacao: 'registrado' as const,
            protocolo: d.protocolo,
            proc_sha256: d.sha256,
            retorno: { cstat: d.protocolo.cstat, motivo: d.protocolo.motivo },
          },
        };
        if (atual.n_prot_ce) {
          // A registered 110181 cancels the delivery proof of that protocol.
          for (const e of Object.values(eventos)) {
            if (e.tp_evento === '110180' && e.protocolo?.numero === atual.n_prot_ce) eventos[e.event_key] = { ...e, situacao: 'cancelado' };
          }
        }
        return { ...state, eventos, situacao: tipoDoTpEvento(atual.tp_evento) === 'cancelamento' ? 'cancelado' : state.situacao };
      }
      case 'cte.evento_rejeitado': {
        const atual = state.eventos[event.data.event_key];
        if (!atual) return state;
        return {
          ...state,
          eventos: {
            ...state.eventos,
            [atual.event_key]: { ...atual, situacao: 'rejeitado', retorno: { cstat: event.data.cstat, motivo: event.data.motivo } },
          },
        };
      }
      case 'cte.evento_pendente': {
        const atual = state.eventos[event.data.event_key];
        if (!atual) return state;
        return {
          ...state,
          eventos: { ...state.eventos, [atual.event_key]: { ...atual, retorno: { cstat: null, motivo: event.data.motivo } } },
        };
      }
      default:
        return state;
    }
  },
};
