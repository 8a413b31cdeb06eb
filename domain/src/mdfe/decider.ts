import {
  type CondutorMdfe,
  type DadosEventoMdfe,
  type DomainEventOf,
  type Environment,
  type MdfeDados,
  type MdfeSituacao,
  type TipoEventoMdfe,
} from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { exigirRegrasAntt } from './regras-nt2025-001';
import { EMISSAO_REJEITADA, EMISSAO_SOLICITADA, emissaoAssinada, passoDaEmissao } from '../emissao/decider';

export type MdfeEvent =
  | DomainEventOf<'mdfe.criado'>
  | DomainEventOf<'mdfe.emissao_solicitada'>
  | DomainEventOf<'mdfe.xml_assinado'>
  | DomainEventOf<'mdfe.autorizado'>
  | DomainEventOf<'mdfe.rejeitado'>
  | DomainEventOf<'mdfe.resultado_pendente'>
  | DomainEventOf<'mdfe.evento_pendente'>
  | DomainEventOf<'mdfe.evento_registrado'>
  | DomainEventOf<'mdfe.evento_rejeitado'>;

/** `POST /fiscal/mdfe`: the edge resolved the CT-e, the vehicles and the drivers; the id is chosen by the edge. */
export interface CriarMdfe {
  type: 'CriarMdfe';
  mdfe_id: string;
  company_id: string;
  environment: Environment;
  dados: MdfeDados;
}

export interface SolicitarEmissaoMdfe {
  type: 'SolicitarEmissaoMdfe';
  mdfe_id: string;
  company_id: string;
  serie: number;
}

export type RegistrarEmissaoMdfe =
  | { type: 'RegistrarXmlAssinadoMdfe'; data: DomainEventOf<'mdfe.xml_assinado'>['data'] }
  | { type: 'RegistrarAutorizacaoMdfe'; data: DomainEventOf<'mdfe.autorizado'>['data'] }
  | { type: 'RegistrarRejeicaoMdfe'; data: DomainEventOf<'mdfe.rejeitado'>['data'] }
  | { type: 'RegistrarPendenciaMdfe'; data: DomainEventOf<'mdfe.resultado_pendente'>['data'] };

export type RegistrarEventoMdfe =
  | { type: 'RegistrarEventoPendenteMdfe'; data: DomainEventOf<'mdfe.evento_pendente'>['data'] }
  | { type: 'RegistrarEventoMdfe'; data: DomainEventOf<'mdfe.evento_registrado'>['data'] }
  | { type: 'RegistrarEventoRejeitadoMdfe'; data: DomainEventOf<'mdfe.evento_rejeitado'>['data'] };

export type MdfeCommand = CriarMdfe | SolicitarEmissaoMdfe | RegistrarEmissaoMdfe | RegistrarEventoMdfe;

export interface EventoMdfeState {
  tipo: TipoEventoMdfe;
  tp_evento: string;
  n_seq: number;
  situacao: 'pendente' | 'registrado' | 'rejeitado';
  /** Pending: the signed eventoMDFe (sent again as is); registered: the procEventoMDFe. */
  sha256: string | null;
  dados: DadosEventoMdfe;
}

export interface MdfeState {
  existe: boolean;
  company_id: string | null;
  situacao: MdfeSituacao | null;
  dados: MdfeDados | null;
  chave: string | null;
  /** The signed XML being issued (kept through retries until a verdict). */
  emissao: { chave: string; numero: number; serie: number; sha256: string; data_emissao: string } | null;
  /** The authorization protocol number (`nProt`), which the events cite. */
  n_prot: string | null;
  condutores: CondutorMdfe[];
  eventos: EventoMdfeState[];
}

/** The event each step of the issue becomes. */
const PASSOS_DA_EMISSAO = {
  RegistrarXmlAssinadoMdfe: 'mdfe.xml_assinado',
  RegistrarAutorizacaoMdfe: 'mdfe.autorizado',
  RegistrarRejeicaoMdfe: 'mdfe.rejeitado',
  RegistrarPendenciaMdfe: 'mdfe.resultado_pendente',
} as const satisfies Record<RegistrarEmissaoMdfe['type'], MdfeEvent['type']>;

export const mdfeStream = (mdfeId: string) => `mdfe-${mdfeId}`;

export const TP_EVENTO_MDFE: Record<TipoEventoMdfe, string> = { cancelamento: '110111', encerramento: '110112', condutor: '110114' };

/**
 * The type and sequence of the next event of `tipo`: a pending one is followed (same sequence, same signed bytes);
 * otherwise the MDF-e must be authorized. Cancellation and closing are sequence 1; each driver added takes the next.
 */
export function proximoEventoMdfe(
  state: MdfeState,
  tipo: TipoEventoMdfe,
): { tp_evento: string; n_seq: number; pendente: EventoMdfeState | null } {
  const tp = TP_EVENTO_MDFE[tipo];
  const pendente = state.eventos.find((e) => e.tp_evento === tp && e.situacao === 'pendente') ?? null;
  if (pendente) return { tp_evento: tp, n_seq: pendente.n_seq, pendente };
  if (state.situacao !== 'autorizado') {
    throw new Rejection('mdfe_nao_autorizado', `only an authorized MDF-e takes this event; this one is ${state.situacao}`);
  }
  const outroPendente = state.eventos.find((e) => e.situacao === 'pendente');
  if (outroPendente) {
    throw new Rejection(
      'regra_de_negocio',
      `the ${outroPendente.tipo} event of this MDF-e is still pending: send it again to follow it first`,
      {
        pendente: outroPendente.tipo,
      },
    );
  }
  const n = tipo === 'condutor' ? state.eventos.filter((e) => e.tp_evento === tp && e.situacao === 'registrado').length + 1 : 1;
  return { tp_evento: tp, n_seq: n, pendente: null };
}

/**
 * A driver is included once: asking to include one already in the MDF-e is refused, unless a driver inclusion is
 * pending (the same request again follows it).
 */
export function exigirCondutorNovo(state: MdfeState, cpf: string): void {
  if (state.condutores.some((c) => c.cpf === cpf) && !state.eventos.some((e) => e.tipo === 'condutor' && e.situacao === 'pendente')) {
    throw new Rejection('regra_de_negocio', `the driver ${cpf} is already in this MDF-e`, {
      fields: [{ field: 'cpf', message: 'already a driver of this MDF-e' }],
    });
  }
}

const own = (state: MdfeState, companyId: string) => {
  if (!state.existe || state.company_id !== companyId) throw new Rejection('nao_encontrado', 'MDF-e not found');
};

const semEvento = (state: MdfeState, tp: string, seq: number) => state.eventos.filter((e) => !(e.tp_evento === tp && e.n_seq === seq));

export const mdfeDecider: Decider<MdfeCommand, MdfeState, MdfeEvent> = {
  initialState: {
    existe: false,
    company_id: null,
    situacao: null,
    dados: null,
    chave: null,
    emissao: null,
    n_prot: null,
    condutores: [],
    eventos: [],
  },
  decide(c, state) {
    switch (c.type) {
      case 'CriarMdfe':
        if (state.existe) return [];
        if (c.dados.ctes.length === 0)
          throw new Rejection('validacao', 'ctes: at least one CT-e', { fields: [{ field: 'ctes', message: 'at least one CT-e' }] });
        if (c.dados.motoristas.length === 0 || c.dados.motoristas.length > 10) {
          throw new Rejection('validacao', 'motoristas: 1 to 10 drivers', {
            fields: [{ field: 'motoristas', message: '1 to 10 drivers' }],
          });
        }
        // NT 2025.001 v1.03 (ANTT): refused here, before anything is built or sent.
        exigirRegrasAntt(c.dados);
        return [{ type: 'mdfe.criado', data: { mdfe_id: c.mdfe_id, company_id: c.company_id, ambiente: c.environment, dados: c.dados } }];
      case 'SolicitarEmissaoMdfe':
        own(state, c.company_id);
        if (state.situacao === 'em_processamento') return [];
        if (state.situacao !== 'rascunho' && state.situacao !== 'rejeitado') {
          throw new Rejection('mdfe_nao_editavel', `this MDF-e is ${state.situacao}: there is nothing to issue`);
        }
        return [{ type: 'mdfe.emissao_solicitada', data: { mdfe_id: c.mdfe_id, company_id: c.company_id, serie: c.serie } }];
      case 'RegistrarXmlAssinadoMdfe':
      case 'RegistrarAutorizacaoMdfe':
      case 'RegistrarRejeicaoMdfe':
      case 'RegistrarPendenciaMdfe':
        return passoDaEmissao(state, { type: PASSOS_DA_EMISSAO[c.type], data: c.data } as MdfeEvent, {
          xmlAssinado: c.type === 'RegistrarXmlAssinadoMdfe',
        });
      case 'RegistrarEventoPendenteMdfe':
      case 'RegistrarEventoMdfe':
      case 'RegistrarEventoRejeitadoMdfe': {
        own(state, c.data.company_id);
        const atual = state.eventos.find((e) => e.tp_evento === c.data.tp_evento && e.n_seq === c.data.n_seq);
        if (atual?.situacao === 'registrado') return [];
        if (c.type === 'RegistrarEventoPendenteMdfe') {
          if (atual?.situacao === 'pendente') return [];
          return [{ type: 'mdfe.evento_pendente', data: c.data }];
        }
        if (c.type === 'RegistrarEventoMdfe') return [{ type: 'mdfe.evento_registrado', data: c.data }];
        return [{ type: 'mdfe.evento_rejeitado', data: c.data }];
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'mdfe.criado':
        return {
          ...state,
          existe: true,
          company_id: event.data.company_id,
          situacao: 'rascunho',
          dados: event.data.dados,
          condutores: event.data.dados.motoristas,
        };
      case 'mdfe.emissao_solicitada':
        return { ...state, ...EMISSAO_SOLICITADA };
      case 'mdfe.xml_assinado':
        return { ...state, chave: event.data.chave, emissao: { ...emissaoAssinada(event.data), data_emissao: event.data.data_emissao } };
      case 'mdfe.autorizado':
        return { ...state, situacao: 'autorizado', chave: event.data.chave, n_prot: event.data.protocolo.numero };
      case 'mdfe.rejeitado':
        // Issued again later with the same number and a new cMDF.
        return { ...state, ...EMISSAO_REJEITADA };
      case 'mdfe.resultado_pendente':
        return state;
      case 'mdfe.evento_pendente': {
        const d = event.data;
        return {
          ...state,
          eventos: [
            ...semEvento(state, d.tp_evento, d.n_seq),
            { tipo: d.tipo, tp_evento: d.tp_evento, n_seq: d.n_seq, situacao: 'pendente', sha256: d.sha256, dados: d.dados },
          ],
        };
      }
      case 'mdfe.evento_rejeitado': {
        const d = event.data;
        return {
          ...state,
          eventos: [
            ...semEvento(state, d.tp_evento, d.n_seq),
            { tipo: d.tipo, tp_evento: d.tp_evento, n_seq: d.n_seq, situacao: 'rejeitado', sha256: null, dados: d.dados },
          ],
        };
      }
      case 'mdfe.evento_registrado': {
        const d = event.data;
        const eventos = [
          ...semEvento(state, d.tp_evento, d.n_seq),
          { tipo: d.tipo, tp_evento: d.tp_evento, n_seq: d.n_seq, situacao: 'registrado' as const, sha256: d.sha256, dados: d.dados },
        ];
        if (d.tipo === 'cancelamento') return { ...state, situacao: 'cancelado', eventos };
        if (d.tipo === 'encerramento') return { ...state, situacao: 'encerrado', eventos };
        const condutor = d.dados.condutor;
        const condutores =
          condutor && !state.condutores.some((x) => x.cpf === condutor.cpf) ? [...state.condutores, condutor] : state.condutores;
        return { ...state, condutores, eventos };
      }
      default:
        return state;
    }
  },
};
