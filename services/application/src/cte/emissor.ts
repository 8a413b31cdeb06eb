import { type Pool } from 'pg';
import { type ContraCteVinculo } from '@frete/contracts';
import { type CteCommand, type CteEvent, type CteState, cteStream } from '@frete/domain';
import { type CommandContext } from '../commands/execute';
import { type LeiturasDaEmpresa } from './leituras';
import { EmissorDocumento, type EmissaoDeps } from '../emissao/emissor';
import { CTE_EMITIDO } from '../emissao/documentos/cte';

export { CSTAT_ERRO_NAO_CATALOGADO, type XmlDaEmissao } from '../emissao/emissor';

export interface EmissorDeps extends EmissaoDeps {
  pool: Pool;
}

/** Issues CT-e through the authority (the emission processor reacts to `cte.emissao_solicitada`; `consulta` polls). */
export class EmissorCte extends EmissorDocumento<CteCommand, CteState, CteEvent> {
  constructor(deps: EmissorDeps) {
    super(deps, CTE_EMITIDO);
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
    return this.solicitarEmBloco(companyId, serie, ids, ctx, leituras);
  }

  /** Whether the authority can be reached at all (see `AutoridadeFiscal.disponivel`). */
  get disponivel(): boolean {
    return this.deps.autoridade.disponivel;
  }
}
