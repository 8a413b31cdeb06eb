import {
  type AncoraCiot,
  type CiotStatus,
  type CodigoBloqueioCiot,
  type DeclaracaoCiotDados,
  type DomainEventOf,
  type Environment,
} from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { limitesDaDeclaracao } from './declaracao';

/**
 * A CIOT operation (Código Identificador da Operação de Transporte), one stream per operation: `ciot-<ciot_id>`.
 *
 * declarada → `sent` (the provider is called only after this is stored) → `registrado` | `recusado` | `sent` again
 * (`ciot.pendente`: the emission processor asks the provider again). A declaration that must not be transmitted is
 * `declarada` + `bloqueada` in one append. A registered CIOT may be rectified (not a full load: no rectification for
 * lotação), cancelled (only before the trip: not after `viagem_iniciada`, nor when an authorized MDF-e carries its
 * CT-e) and closed (encerramento); cancelled and closed are final.
 *
 * The stream id makes `referencia_externa` unique per company (the id is derived from it) and keeps one operation per
 * CT-e slot (anchored operations derive theirs from the CT-e and the slot's sequence): a second declaration on the
 * same stream is refused.
 */
export type CiotEvent =
  | DomainEventOf<'ciot.declarada'>
  | DomainEventOf<'ciot.bloqueada'>
  | DomainEventOf<'ciot.pendente'>
  | DomainEventOf<'ciot.registrada'>
  | DomainEventOf<'ciot.recusada'>
  | DomainEventOf<'ciot.viagem_iniciada'>
  | DomainEventOf<'ciot.cancelada'>
  | DomainEventOf<'ciot.retificada'>
  | DomainEventOf<'ciot.encerrada'>;

export interface DeclararCiot {
  type: 'DeclararCiot';
  ciot_id: string;
  company_id: string;
  environment: Environment;
  referencia_externa: string | null;
  ancora: AncoraCiot | null;
  declaracao: DeclaracaoCiotDados;
  /** Decided by `bloqueioDaDeclaracao`: recorded, never transmitted. */
  bloqueio: { codigo: CodigoBloqueioCiot; motivo: string } | null;
}

export type RegistrarRetornoCiot =
  | { type: 'RegistrarCiot'; data: DomainEventOf<'ciot.registrada'>['data'] }
  | { type: 'RegistrarRecusaCiot'; data: DomainEventOf<'ciot.recusada'>['data'] }
  | { type: 'RegistrarPendenciaCiot'; data: DomainEventOf<'ciot.pendente'>['data'] };

export interface IniciarViagemCiot {
  type: 'IniciarViagemCiot';
  ciot_id: string;
  company_id: string;
  iniciada_em: string;
}

export interface RegistrarCancelamentoCiot {
  type: 'RegistrarCancelamentoCiot';
  data: DomainEventOf<'ciot.cancelada'>['data'];
  /** The edge looked: an authorized (or closed) MDF-e carries the operation's CT-e, so the trip started. */
  mdfe_autorizado: boolean;
}

export type CiotCommand =
  | DeclararCiot
  | RegistrarRetornoCiot
  | IniciarViagemCiot
  | RegistrarCancelamentoCiot
  | { type: 'RegistrarRetificacaoCiot'; data: DomainEventOf<'ciot.retificada'>['data'] }
  | { type: 'RegistrarEncerramentoCiot'; data: DomainEventOf<'ciot.encerrada'>['data'] };

export interface CiotState {
  existe: boolean;
  ciot_id: string | null;
  company_id: string | null;
  status: CiotStatus | null;
  referencia_externa: string | null;
  ancora: AncoraCiot | null;
  declaracao: DeclaracaoCiotDados | null;
  ciot: string | null;
  codigo_verificacao: string | null;
  protocolo: string | null;
  /** Answers without verdict so far (the declaration's own and each follow-up's). */
  tentativas: number;
  viagem_iniciada_em: string | null;
  /** The stored reason of a blocked, refused or still `sent` operation. */
  motivo: string | null;
  /** How many events the stream holds (one history entry each). */
  versao: number;
}

export const ciotStream = (ciotId: string) => `ciot-${ciotId}`;

/** Operations in force: a CIOT number exists and neither cancellation nor closing ended it. */
export const CIOT_EM_VIGOR: readonly CiotStatus[] = ['registrado', 'retificado'];

/** How many follow-ups without verdict the emission processor makes before it leaves the operation `sent`. */
export const MAX_TENTATIVAS_CIOT = 10;

const naoEncontrado = () => new Rejection('ciot_nao_encontrado', 'CIOT operation not found');

/** The operation must be the company's and in force; otherwise the code that says why. */
export function exigirEmVigor(state: CiotState, companyId: string): void {
  if (!state.existe || state.company_id !== companyId) throw naoEncontrado();
  const detalhes = { ciot: { id: state.ciot_id, status: state.status } };
  switch (state.status) {
    case 'cancelado':
      throw new Rejection('ciot_cancelado', 'this CIOT was cancelled: nothing more can be done with it', detalhes);
    case 'encerrado':
      throw new Rejection('ciot_encerrado', 'this CIOT was closed (encerramento): nothing more can be done with it', detalhes);
    case 'registrado':
    case 'retificado':
      return;
    default:
      throw new Rejection(
        'ciot_nao_registrado',
        `this CIOT operation is ${state.status}: only a registered CIOT takes this act${state.status === 'sent' ? ' (reread it until it leaves sent)' : ''}`,
        detalhes,
      );
  }
}

/** Cancellation only before the operation happens (ANTT PEF service 04): refused once the trip started. */
export function exigirCancelavel(state: CiotState, companyId: string, mdfeAutorizado: boolean): void {
  exigirEmVigor(state, companyId);
  if (state.viagem_iniciada_em) {
    throw new Rejection(
      'ciot_viagem_iniciada',
      `the trip started at ${state.viagem_iniciada_em} (reported): a CIOT is cancelled only before the operation happens`,
      {
        ciot: { id: state.ciot_id, status: state.status },
        fonte: 'inicio_viagem',
      },
    );
  }
  if (mdfeAutorizado) {
    throw new Rejection(
      'ciot_viagem_iniciada',
      'an authorized MDF-e carries this CT-e, so the trip started: a CIOT is cancelled only before the operation happens',
      {
        ciot: { id: state.ciot_id, status: state.status },
        fonte: 'mdfe',
      },
    );
  }
}

/** Rectification (ANTT PEF service 05) is not allowed for a full load (lotação, rule B121). */
export function exigirRetificavel(state: CiotState, companyId: string): void {
  exigirEmVigor(state, companyId);
  if (state.declaracao?.carga.tipo === 'lotacao') {
    throw new Rejection(
      'ciot_retificacao_vedada',
      'a full-load (lotação) CIOT cannot be rectified: cancel it before the trip and declare again',
      {
        ciot: { id: state.ciot_id, status: state.status },
      },
    );
  }
}

const own = (state: CiotState, companyId: string) => {
  if (!state.existe || state.company_id !== companyId) throw naoEncontrado();
};

export const ciotDecider: Decider<CiotCommand, CiotState, CiotEvent> = {
  initialState: {
    existe: false,
    ciot_id: null,
    company_id: null,
    status: null,
    referencia_externa: null,
    ancora: null,
    declaracao: null,
    ciot: null,
    codigo_verificacao: null,
    protocolo: null,
    tentativas: 0,
    viagem_iniciada_em: null,
    motivo: null,
    versao: 0,
  },
  decide(c, state) {
    switch (c.type) {
      case 'DeclararCiot': {
        if (state.existe) {
          if (c.ancora) {
            throw new Rejection('ciot_ja_emitido', `the CT-e already has CIOT operation ${state.ciot_id} (${state.status})`, {
              ciot: { id: state.ciot_id, status: state.status },
            });
          }
          throw new Rejection(
            'validacao',
            `referencia_externa: ${c.referencia_externa ?? ''} was already used by this company (CIOT operation ${state.ciot_id})`,
            {
              fields: [{ field: 'referencia_externa', message: 'already used by this company' }],
              ciot: { id: state.ciot_id, status: state.status },
            },
          );
        }
        const fields = limitesDaDeclaracao(c.declaracao);
        if (fields.length > 0) throw new Rejection('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });
        const declarada: CiotEvent = {
          type: 'ciot.declarada',
          data: {
            ciot_id: c.ciot_id,
            company_id: c.company_id,
            ambiente: c.environment,
            referencia_externa: c.referencia_externa,
            ancora: c.ancora,
            declaracao: c.declaracao,
          },
        };
        if (!c.bloqueio) return [declarada];
        return [
          declarada,
          {
            type: 'ciot.bloqueada',
            data: { ciot_id: c.ciot_id, company_id: c.company_id, codigo: c.bloqueio.codigo, motivo: c.bloqueio.motivo },
          },
        ];
      }
      case 'RegistrarCiot':
        own(state, c.data.company_id);
        return state.status === 'sent' ? [{ type: 'ciot.registrada', data: c.data }] : [];
      case 'RegistrarRecusaCiot':
        own(state, c.data.company_id);
        return state.status === 'sent' ? [{ type: 'ciot.recusada', data: c.data }] : [];
      case 'RegistrarPendenciaCiot':
        own(state, c.data.company_id);
        return state.status === 'sent' ? [{ type: 'ciot.pendente', data: c.data }] : [];
      case 'IniciarViagemCiot':
        exigirEmVigor(state, c.company_id);
        if (state.viagem_iniciada_em) return [];
        return [{ type: 'ciot.viagem_iniciada', data: { ciot_id: c.ciot_id, company_id: c.company_id, iniciada_em: c.iniciada_em } }];
      case 'RegistrarCancelamentoCiot':
        exigirCancelavel(state, c.data.company_id, c.mdfe_autorizado);
        return [{ type: 'ciot.cancelada', data: c.data }];
      case 'RegistrarRetificacaoCiot':
        exigirRetificavel(state, c.data.company_id);
        return [{ type: 'ciot.retificada', data: c.data }];
      case 'RegistrarEncerramentoCiot':
        exigirEmVigor(state, c.data.company_id);
        return [{ type: 'ciot.encerrada', data: c.data }];
    }
  },
  evolve(before, event) {
    const state = { ...before, versao: before.versao + 1 };
    switch (event.type) {
      case 'ciot.declarada': {
        const d = event.data;
        return {
          ...state,
          existe: true,
          ciot_id: d.ciot_id,
          company_id: d.company_id,
          status: 'sent',
          referencia_externa: d.referencia_externa,
          ancora: d.ancora,
          declaracao: d.declaracao,
        };
      }
      case 'ciot.bloqueada':
        return { ...state, status: 'bloqueado', motivo: event.data.motivo };
      case 'ciot.pendente':
        return {
          ...state,
          tentativas: state.tentativas + 1,
          protocolo: event.data.protocolo ?? state.protocolo,
          motivo: event.data.motivo,
        };
      case 'ciot.registrada':
        return {
          ...state,
          status: 'registrado',
          ciot: event.data.ciot,
          codigo_verificacao: event.data.codigo_verificacao,
          protocolo: event.data.protocolo,
          motivo: null,
        };
      case 'ciot.recusada':
        return { ...state, status: 'recusado', motivo: event.data.motivo };
      case 'ciot.viagem_iniciada':
        return { ...state, viagem_iniciada_em: event.data.iniciada_em };
      case 'ciot.cancelada':
        return { ...state, status: 'cancelado', protocolo: event.data.protocolo };
      case 'ciot.retificada':
        return { ...state, status: 'retificado', declaracao: event.data.declaracao, protocolo: event.data.protocolo };
      case 'ciot.encerrada':
        return { ...state, status: 'encerrado', protocolo: event.data.protocolo };
      default:
        return state;
    }
  },
};
