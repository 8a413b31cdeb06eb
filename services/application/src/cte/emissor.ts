import { type Pool } from 'pg';
import { type ContraCteVinculo } from '@frete/contracts';
import {
  type CteCommand,
  cteDecider,
  type CteEvent,
  type CteState,
  cteStream,
  numeracaoCteDecider,
  type NumeracaoCteEvent,
  numeracaoCteStream,
  type ReservarNumeroCte,
} from '@frete/domain';
import { montarCteProc } from '@frete/adapters';
import { lerCteEmitido } from '@frete/documents';
import { type CommandContext } from '../commands/execute';
import { type LeiturasDaEmpresa } from './leituras';
import { EmissorDocumento, type EmissaoDeps, protocoloDe, type TipoDocumento, type XmlDaEmissao } from '../emissao/emissor';

export { CSTAT_ERRO_NAO_CATALOGADO, type XmlDaEmissao } from '../emissao/emissor';

/**
 * Builds, signs and validates the CT-e of a draft with a given number (the document engine: builder, certificate,
 * official schema). Kept behind a function so that issuing depends on the engine's result, not on its parts.
 */
export type MontarXmlDaEmissao = (input: {
  companyId: string;
  cteId: string;
  state: CteState;
  serie: number;
  numero: number;
  /** The company's reads a batch block's documents share; fresh ones when absent. */
  leituras?: LeiturasDaEmpresa;
}) => Promise<XmlDaEmissao>;

export interface EmissorDeps extends EmissaoDeps {
  pool: Pool;
  montarXml: MontarXmlDaEmissao;
}

/** The CT-e (model 57) as an issued document: denied use exists (301–306), the authorization carries the read CT-e. */
const cte = (montarXml: MontarXmlDaEmissao): TipoDocumento<CteCommand, CteState, CteEvent, ReservarNumeroCte, NumeracaoCteEvent> => ({
  nome: 'CT-e',
  decider: cteDecider,
  stream: cteStream,
  numeracao: {
    decider: numeracaoCteDecider,
    stream: numeracaoCteStream,
    reservar: (companyId, serie, id) => ({ type: 'ReservarNumeroCte', company_id: companyId, serie, cte_id: id }),
    documento: (e) => e.data.cte_id,
  },
  denegacao: true,
  montarXml: ({ id, ...input }) => montarXml({ ...input, cteId: id }),
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
});

/** Issues CT-e through the authority (the emission processor reacts to `cte.emissao_solicitada`; `consulta` polls). */
export class EmissorCte extends EmissorDocumento<CteCommand, CteState, CteEvent, ReservarNumeroCte, NumeracaoCteEvent> {
  constructor(deps: EmissorDeps) {
    super(deps, cte(deps.montarXml));
  }

  /**
   * A counter-CT-e's link as this process last folded the CT-e, without reading: the link is recorded with the CT-e's
   * creation and never changes, so any folded state that exists has it (null: not a counter-CT-e). Undefined when
   * this process has not folded the CT-e lately.
   */
  vinculoConhecido(cteId: string): ContraCteVinculo | null | undefined {
    const estado = this.documentos.get(cteStream(cteId))?.state;
    return estado?.company_id ? estado.contra_cte : undefined;
  }

  /**
   * A batch block's counter-CT-e drafts, issued in the company's series: numbers in one append, each request with its
   * signed XML in one (see `solicitarEmBloco`); the emission processor sends them when it sees the requests.
   */
  solicitarContraCtes(
    companyId: string,
    serie: number,
    ids: readonly string[],
    ctx: CommandContext,
    leituras: LeiturasDaEmpresa,
  ): Promise<void> {
    return this.solicitarEmBloco(
      companyId,
      serie,
      ids,
      (id) => ({ type: 'SolicitarEmissao', cte_id: id, company_id: companyId, serie }),
      ctx,
      (state) => state.situacao === 'rascunho',
      leituras,
    );
  }

  /** Whether the authority can be reached at all (see `AutoridadeFiscal.disponivel`). */
  get disponivel(): boolean {
    return this.deps.autoridade.disponivel;
  }
}
