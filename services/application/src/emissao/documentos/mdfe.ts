import { codigoNumerico, MDFE, type MdfeCommand, mdfeDecider, type MdfeEvent, type MdfeState } from '@frete/domain';
import { montarMdfeProc } from '@frete/adapters';
import { prepararMdfe } from '../../mdfe/preparar';
import { montarXmlDaEmissao } from '../montar-xml';
import { type DocumentoEmitido } from '../documento';
import { protocoloDe } from '../emissor';

/** The MDF-e (model 58) as the application issues it: a denial answer is recorded as a rejection (`MDFE.denegacao`). */
export const MDFE_EMITIDO: DocumentoEmitido<MdfeCommand, MdfeState, MdfeEvent> = {
  fiscal: MDFE,
  decider: mdfeDecider,
  solicitar: ({ id, companyId }, serie) => ({ type: 'SolicitarEmissaoMdfe', mdfe_id: id, company_id: companyId, serie }),
  preparar: (deps, { id, companyId, dados, numero, now }) =>
    prepararMdfe(deps, { companyId, dados, numero, cMDF: codigoNumerico(id, numero), now }),
  montarXml: montarXmlDaEmissao<MdfeState>(MDFE, (deps, { companyId, state, serie, numero }, { codigo, now }) =>
    prepararMdfe(deps, { companyId, dados: state.dados, serie, numero, cMDF: codigo, now }),
  ),
  autorizar: (autoridade, xml, remetente) => autoridade.autorizarMdfe(xml, remetente),
  consultar: (autoridade, chave, remetente) => autoridade.consultarMdfe(chave, remetente),
  proc: montarMdfeProc,
  comando: ({ id, companyId }, passo) => {
    const base = { mdfe_id: id, company_id: companyId };
    switch (passo.tipo) {
      case 'xml_assinado': {
        const { tipo: _tipo, ...data } = passo;
        return { type: 'RegistrarXmlAssinadoMdfe', data: { ...base, ...data } };
      }
      case 'autorizado':
        return {
          type: 'RegistrarAutorizacaoMdfe',
          data: { ...base, chave: passo.protocolo.chave, protocolo: protocoloDe(passo.protocolo), sha256: passo.sha256 },
        };
      case 'rejeitado':
        return { type: 'RegistrarRejeicaoMdfe', data: { ...base, cstat: passo.cstat, motivo: passo.motivo } };
      case 'denegado':
        return { type: 'RegistrarRejeicaoMdfe', data: { ...base, cstat: passo.protocolo.cStat, motivo: passo.protocolo.xMotivo } };
      case 'pendente':
        return { type: 'RegistrarPendenciaMdfe', data: { ...base, chave: passo.chave, motivo: passo.motivo } };
    }
  },
};
