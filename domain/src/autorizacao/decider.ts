import { type DomainEventOf } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { isValidCnpj, normalizeCnpj } from '../fiscal/documents';

/**
 * Emission grant (autorização de emissão): the subcontractor authorizes a contractor to trigger counter-CT-e batches
 * on its account. One stream per pair: `autorizacao-<subcontratada company id>-<contractor CNPJ, normalized>`.
 */
export const autorizacaoStream = (subcontratadaId: string, contratanteCnpj: string) =>
  `autorizacao-${subcontratadaId}-${normalizeCnpj(contratanteCnpj)}`;

export type AutorizacaoEvent = DomainEventOf<'autorizacao.concedida'> | DomainEventOf<'autorizacao.revogada'>;

export interface ParteAutorizacao {
  company_id: string;
  cnpj: string;
  nome: string;
}

/** What the edge found in the companies read model for the CNPJ the caller named; null when nothing. */
export type ContratanteEncontrada = ParteAutorizacao & { carrier: boolean };

export type AutorizacaoCommand =
  | {
      type: 'ConcederAutorizacao';
      /** A fresh UUID from the edge: the decider never draws randomness itself. */
      autorizacao_id: string;
      /** The caller. */
      subcontratada: ParteAutorizacao;
      /** The CNPJ as the caller sent it (with or without punctuation). */
      contratante_cnpj: string;
      contratante: ContratanteEncontrada | null;
    }
  | { type: 'RevogarAutorizacao'; subcontratada_id: string; contratante_cnpj: string };

export interface AutorizacaoState {
  ativa: { autorizacao_id: string; contratante_id: string; contratante_cnpj: string } | null;
}

const FIELD = 'contratante.cnpj';

export const autorizacaoDecider: Decider<AutorizacaoCommand, AutorizacaoState, AutorizacaoEvent> = {
  initialState: { ativa: null },
  decide(command, state) {
    switch (command.type) {
      case 'ConcederAutorizacao': {
        const cnpj = normalizeCnpj(command.contratante_cnpj);
        if (!isValidCnpj(cnpj)) {
          const message = /^[A-Z0-9]{12}[0-9]{2}$/.test(cnpj)
            ? 'check digits do not match'
            : 'not a CNPJ (14 characters, the last two digits)';
          throw new Rejection('contratante_invalida', `contratante.cnpj: ${message}`, { fields: [{ field: FIELD, message }] });
        }
        if (cnpj === normalizeCnpj(command.subcontratada.cnpj)) {
          const message = 'the contractor cannot be the authenticated company itself';
          throw new Rejection('contratante_invalida', message, { fields: [{ field: FIELD, message }] });
        }
        const found = command.contratante;
        // Unknown and not-a-carrier answer alike: the answer must not tell which CNPJs are customers of what kind.
        if (!found || !found.carrier || normalizeCnpj(found.cnpj) !== cnpj) {
          throw new Rejection('contratante_nao_encontrada', `no carrier customer with CNPJ ${cnpj}`);
        }
        if (state.ativa) return [];
        return [
          {
            type: 'autorizacao.concedida',
            data: {
              autorizacao_id: command.autorizacao_id,
              subcontratada_id: command.subcontratada.company_id,
              subcontratada_cnpj: normalizeCnpj(command.subcontratada.cnpj),
              subcontratada_nome: command.subcontratada.nome,
              contratante_id: found.company_id,
              contratante_cnpj: cnpj,
              contratante_nome: found.nome,
            },
          },
        ];
      }
      case 'RevogarAutorizacao': {
        if (!state.ativa) {
          throw new Rejection('autorizacao_nao_encontrada', `no active grant to CNPJ ${normalizeCnpj(command.contratante_cnpj)}`);
        }
        return [
          {
            type: 'autorizacao.revogada',
            data: {
              autorizacao_id: state.ativa.autorizacao_id,
              subcontratada_id: command.subcontratada_id,
              contratante_id: state.ativa.contratante_id,
              contratante_cnpj: state.ativa.contratante_cnpj,
            },
          },
        ];
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'autorizacao.concedida':
        return {
          ativa: {
            autorizacao_id: event.data.autorizacao_id,
            contratante_id: event.data.contratante_id,
            contratante_cnpj: event.data.contratante_cnpj,
          },
        };
      case 'autorizacao.revogada':
        return state.ativa?.autorizacao_id === event.data.autorizacao_id ? { ativa: null } : state;
    }
  },
};
