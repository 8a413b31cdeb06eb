import { isDeepStrictEqual } from 'node:util';
import { type CteDraftInput, type CteLido, type CteSituation, type DomainEventOf, type Environment } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { normalizeCnpj } from '../fiscal/documents';
import { validarRascunho } from './rascunho';

export type CteEvent =
  | DomainEventOf<'cte.emitido_recebido'>
  | DomainEventOf<'cte.emitido_reenviado'>
  | DomainEventOf<'cte.repassado'>
  | DomainEventOf<'cte.rascunho_criado'>
  | DomainEventOf<'cte.rascunho_alterado'>;

/** A new draft (`POST /fiscal/cte`); the id is chosen by the edge. */
export interface CriarRascunho {
  type: 'CriarRascunho';
  cte_id: string;
  company_id: string;
  environment: Environment;
  dados: CteDraftInput;
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

export type CteCommand = ReceberCteEmitido | RepassarCte | CriarRascunho | AlterarRascunho;

export interface CteState {
  existe: boolean;
  company_id: string | null;
  chave: string | null;
  situacao: CteSituation | null;
  sha256: string | null;
  dados: CteDraftInput | null;
}

/** cStat of an authorized CT-e: 100, or 150 when authorized out of time. */
export const CSTAT_AUTORIZADO = [100, 150];

export const cteStream = (cteId: string) => `cte-${cteId}`;

export const cteDecider: Decider<CteCommand, CteState, CteEvent> = {
  initialState: { existe: false, company_id: null, chave: null, situacao: null, sha256: null, dados: null },
  decide(c, state) {
    switch (c.type) {
      case 'ReceberCteEmitido': {
        const cte = c.cte;
        if (state.existe) {
          return [{
            type: 'cte.emitido_reenviado',
            data: { cte_id: c.cte_id, company_id: c.company_id, chave: cte.chave, sha256: c.sha256, conteudo_diferente: c.sha256 !== state.sha256 },
          }];
        }
        const emitente = cte.emitente.documento;
        if (!emitente || normalizeCnpj(emitente) !== normalizeCnpj(c.company_cnpj)) {
          throw new Rejection('cte_de_outro_emitente',
            `this CT-e was issued by ${emitente ?? 'another company'}, not by the authenticated carrier; a contractor's CT-e goes to POST /fiscal/cte-subcontratacao`,
            { emitente, inbox: '/v1/fiscal/cte-subcontratacao' });
        }
        if (cte.ambiente !== c.environment) {
          throw new Rejection('ambiente_divergente', `the CT-e was issued in ${cte.ambiente} (tpAmb) and this is the ${c.environment} environment`);
        }
        const prot = cte.protocolo;
        if (prot && prot.chave !== cte.chave) {
          throw new Rejection('chave_invalida', `the authorization protocol is for key ${prot.chave}, not for ${cte.chave}`);
        }
        if (prot && !CSTAT_AUTORIZADO.includes(prot.status)) {
          throw new Rejection('cte_nao_autorizado', `the protocol does not authorize this CT-e (cStat ${prot.status}: ${prot.motivo})`);
        }
        return [{
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
        }];
      }
      case 'CriarRascunho': {
        if (state.existe) return [];
        const { dados, fields } = validarRascunho(c.dados);
        if (fields.length > 0) throw new Rejection('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });
        return [{ type: 'cte.rascunho_criado', data: { cte_id: c.cte_id, company_id: c.company_id, ambiente: c.environment, dados } }];
      }
      case 'AlterarRascunho': {
        if (!state.existe || state.company_id !== c.company_id) throw new Rejection('nao_encontrado', 'CT-e not found');
        if (state.situacao !== 'rascunho') {
          throw new Rejection('cte_nao_editavel', `only a draft can be changed; this CT-e is ${state.situacao} and immutable`);
        }
        const { dados, fields } = validarRascunho(c.dados);
        if (fields.length > 0) throw new Rejection('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });
        // Events read back from storage may list keys in another order: compare values, not text.
        if (isDeepStrictEqual(dados, state.dados)) return [];
        return [{ type: 'cte.rascunho_alterado', data: { cte_id: c.cte_id, company_id: c.company_id, dados } }];
      }
      case 'RepassarCte':
        if (!state.existe || state.company_id !== c.company_id) throw new Rejection('nao_encontrado', 'CT-e not found');
        if (state.situacao !== 'autorizado') {
          throw new Rejection('cte_nao_autorizado', `only an authorized CT-e can be handed off; this one is ${state.situacao}`);
        }
        return [{
          type: 'cte.repassado',
          data: {
            cte_id: c.cte_id,
            company_id: c.company_id,
            chave: state.chave!,
            subcontratada_id: c.subcontratada_id,
            subcontratada_cnpj: c.subcontratada_cnpj,
            observacao: c.observacao,
          },
        }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'cte.emitido_recebido':
        return { existe: true, company_id: event.data.company_id, chave: event.data.chave, situacao: event.data.situacao, sha256: event.data.sha256, dados: null };
      case 'cte.rascunho_criado':
        return { existe: true, company_id: event.data.company_id, chave: null, situacao: 'rascunho', sha256: null, dados: event.data.dados };
      case 'cte.rascunho_alterado':
        return { ...state, dados: event.data.dados };
      default:
        return state;
    }
  },
};
