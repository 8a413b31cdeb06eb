import { type CanalNfe, type DomainEventOf, type NfeArquivoRecebido, type NfeLida } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { isValidAccessKey } from '../fiscal/access-key';
import { modelOfKey } from './keys';

/**
 * Aggregate `nfe`: one NF-e as one company imported it (stream `nfe-<company_id>-<chave>`; two companies may
 * import the same NF-e, each in its own stream). Every receipt is recorded, even one that changes nothing.
 *
 * - The XML of an unknown key imports it (`nfe.importada`); of a key known only from a PDF, completes it.
 * - A key read from a PDF with nothing known records the key alone (`nfe.chave_importada`).
 * - Anything received for a key already known is `nfe.reimportada`; an XML whose bytes differ replaces the
 *   archived one, unless that would trade an authorized `nfeProc` for an XML without protocol.
 * - Removal is refused while an own CT-e carries the key (`nfe_vinculada`); after removal, an import starts over.
 */

export type NfeEvent =
  | DomainEventOf<'nfe.importada'>
  | DomainEventOf<'nfe.chave_importada'>
  | DomainEventOf<'nfe.reimportada'>
  | DomainEventOf<'nfe.removida'>;

export type NfeCommand =
  | {
      type: 'ImportarNfeXml';
      company_id: string;
      /** The deployment's environment: production accepts only production NF-e. */
      ambiente: 'producao' | 'homologacao';
      arquivo: NfeArquivoRecebido;
      nfe: NfeLida;
      /** Absent: an import of files. `distribuicao` carries the document's NSU. */
      canal?: CanalNfe;
      nsu?: string;
    }
  | { type: 'ImportarChaveNfe'; company_id: string; chave: string; arquivo: NfeArquivoRecebido }
  | {
      type: 'RemoverNfe';
      company_id: string;
      chave: string;
      /** Read by the edge from the links of own CT-e to NF-e keys. */
      vinculada: boolean;
    };

export type NfeState =
  | { situacao: 'inexistente' }
  | { situacao: 'somente_chave'; pdf_sha256: string }
  | { situacao: 'importada'; xml_sha256: string; com_protocolo: boolean };

export const nfeStream = (companyId: string, chave: string) => `nfe-${companyId}-${chave}`;

function checkKey(chave: string): void {
  if (!isValidAccessKey(chave)) throw new Rejection('chave_invalida', `access key ${chave} has a wrong check digit or shape`);
  if (modelOfKey(chave) !== '55') {
    throw new Rejection('documento_nao_e_nfe', `access key ${chave} is of a model ${modelOfKey(chave)} document, not of an NF-e (55)`);
  }
}

export const nfeDecider: Decider<NfeCommand, NfeState, NfeEvent> = {
  initialState: { situacao: 'inexistente' },
  decide(command, state) {
    switch (command.type) {
      case 'ImportarNfeXml': {
        const { nfe, arquivo, company_id } = command;
        checkKey(nfe.chave);
        if (command.ambiente === 'producao' && nfe.ambiente !== 'producao') {
          throw new Rejection('ambiente_divergente', 'a sandbox (tpAmb 2) NF-e has no legal value and is not accepted in production');
        }
        if (state.situacao !== 'importada') {
          return [
            {
              type: 'nfe.importada',
              data: {
                company_id,
                chave: nfe.chave,
                arquivo,
                completou_chave: state.situacao === 'somente_chave',
                nfe,
                ...(command.canal !== undefined ? { canal: command.canal } : {}),
                ...(command.nsu !== undefined ? { nsu: command.nsu } : {}),
              },
            },
          ];
        }
        const differs = arquivo.sha256 !== state.xml_sha256;
        const losesProtocol = state.com_protocolo && nfe.protocolo === null;
        return [
          {
            type: 'nfe.reimportada',
            data: { company_id, chave: nfe.chave, origem: 'xml', arquivo, substituiu_xml: differs && !losesProtocol, nfe },
          },
        ];
      }
      case 'ImportarChaveNfe': {
        checkKey(command.chave);
        const { company_id, chave, arquivo } = command;
        if (state.situacao === 'inexistente') return [{ type: 'nfe.chave_importada', data: { company_id, chave, arquivo } }];
        return [{ type: 'nfe.reimportada', data: { company_id, chave, origem: 'pdf', arquivo, substituiu_xml: false, nfe: null } }];
      }
      case 'RemoverNfe':
        if (state.situacao === 'inexistente') throw new Rejection('nao_encontrado', `NF-e ${command.chave} not found`);
        if (command.vinculada) {
          throw new Rejection('nfe_vinculada', `NF-e ${command.chave} is carried by an own CT-e of the company and cannot be removed`);
        }
        return [{ type: 'nfe.removida', data: { company_id: command.company_id, chave: command.chave } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'nfe.importada':
        return { situacao: 'importada', xml_sha256: event.data.arquivo.sha256, com_protocolo: event.data.nfe.protocolo !== null };
      case 'nfe.chave_importada':
        return { situacao: 'somente_chave', pdf_sha256: event.data.arquivo.sha256 };
      case 'nfe.reimportada':
        if (event.data.substituiu_xml && event.data.nfe) {
          return { situacao: 'importada', xml_sha256: event.data.arquivo.sha256, com_protocolo: event.data.nfe.protocolo !== null };
        }
        if (event.data.origem === 'pdf' && state.situacao === 'somente_chave')
          return { situacao: 'somente_chave', pdf_sha256: event.data.arquivo.sha256 };
        return state;
      case 'nfe.removida':
        return { situacao: 'inexistente' };
    }
  },
};
