import { CTE, codigoNumerico, type CteCommand, cteDecider, type CteEvent, type CteState } from '@frete/domain';
import { montarCteProc } from '@frete/adapters';
import { lerCteEmitido } from '@frete/documents';
import { prepararCte } from '../../cte/preparar';
import { montarXmlDaEmissao } from '../montar-xml';
import { type DocumentoEmitido } from '../documento';
import { protocoloDe } from '../emissor';

/** The CT-e (model 57) as the application issues it: its authorization also records the CT-e as read back. */
export const CTE_EMITIDO: DocumentoEmitido<CteCommand, CteState, CteEvent> = {
  fiscal: CTE,
  decider: cteDecider,
  solicitar: ({ id, companyId }, serie) => ({ type: 'SolicitarEmissao', cte_id: id, company_id: companyId, serie }),
  preparar: (deps, { id, companyId, dados, numero, now }) =>
    prepararCte(deps, { companyId, dados: dados ?? {}, numero, cCT: codigoNumerico(id, numero), now }),
  montarXml: montarXmlDaEmissao<CteState>(CTE, (deps, { companyId, state, serie, numero, leituras }, { codigo, now }) =>
    prepararCte(deps, { companyId, dados: state.dados ?? {}, serie, numero, cCT: codigo, now }, leituras),
  ),
  autorizar: (autoridade, xml, remetente) => autoridade.autorizarCte(xml, remetente),
  consultar: (autoridade, chave, remetente) => autoridade.consultarCte(chave, remetente),
  proc: montarCteProc,
  comando: ({ id, companyId }, passo) => {
    const base = { cte_id: id, company_id: companyId };
    switch (passo.tipo) {
      case 'xml_assinado': {
        const { tipo: _tipo, ...data } = passo;
        return { type: 'RegistrarXmlAssinado', data: { ...base, ...data } };
      }
      case 'autorizado':
        return {
          type: 'RegistrarAutorizacao',
          data: {
            ...base,
            chave: passo.protocolo.chave,
            protocolo: protocoloDe(passo.protocolo),
            sha256: passo.sha256,
            // The cteProc is archived as its UTF-8 bytes (EmissorDocumento.autorizado).
            tamanho_bytes: Buffer.byteLength(passo.proc, 'utf8'),
            cte: lerCteEmitido(passo.proc),
          },
        };
      case 'rejeitado':
        return { type: 'RegistrarRejeicao', data: { ...base, cstat: passo.cstat, motivo: passo.motivo } };
      case 'denegado':
        return { type: 'RegistrarDenegacao', data: { ...base, chave: passo.chave, protocolo: protocoloDe(passo.protocolo) } };
      case 'pendente':
        return { type: 'RegistrarPendencia', data: { ...base, chave: passo.chave, motivo: passo.motivo } };
    }
  },
};
