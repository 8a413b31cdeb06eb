import { randomUUID } from 'node:crypto';
import { type DadosEventoMdfe, type MdfeDados, type TipoEventoMdfe } from '@frete/contracts';
import { exigirCondutorNovo, type MdfeCommand, mdfeDecider, mdfeStream, Rejection } from '@frete/domain';
import { load } from '../commands/execute';
import { handles } from '../commands/handles';
import { type CompanyContext, type DocumentoHandlerDeps, pedidoDeEmissao } from '../emissao/handler';
import { type EmissorMdfe, type ResultadoEventoMdfe } from './emissor';
import { pendenciasMdfe } from './montar-xml';

export interface MdfeHandlerDeps extends DocumentoHandlerDeps {
  emissor: EmissorMdfe;
}

type Ctx = CompanyContext;

/** The carrier's MDF-e: creation, issue and its polling, events. */
export const mdfeHandler = (deps: MdfeHandlerDeps) => {
  const run = handles(deps, mdfeDecider, (c: MdfeCommand) => mdfeStream('mdfe_id' in c ? c.mdfe_id : c.data.mdfe_id));
  const estado = (id: string) => load(deps.store, mdfeStream(id), mdfeDecider);
  const emissao = pedidoDeEmissao(deps.pool, {
    estado,
    pendencias: (ctx) => pendenciasMdfe(deps.pool, ctx.companyId),
    incompleto: (pendencias) => new Rejection('regra_de_negocio', `the MDF-e cannot be issued yet: ${pendencias.map((x) => x.campo).join(', ')}`, { pendencias }),
    // The decider refuses an MDF-e past its issue (`mdfe_nao_editavel`).
    naoEmitivel: () => null,
    serie: (configuracao) => configuracao.serie_mdfe,
    solicitar: (ctx, id, serie) => run(ctx, { type: 'SolicitarEmissaoMdfe', mdfe_id: id, company_id: ctx.companyId, serie }),
    nuncaEmitido: () => new Rejection('mdfe_nao_editavel', 'this MDF-e was never issued: POST .../emissao first'),
    consultar: (companyId, id, cause) => deps.emissor.consultar(companyId, id, cause),
  });
  return {
    /** A new MDF-e of resolved data; answers its id. */
    criar: async (ctx: Ctx, dados: MdfeDados): Promise<string> => {
      const mdfeId = randomUUID();
      await run(ctx, { type: 'CriarMdfe', mdfe_id: mdfeId, company_id: ctx.companyId, environment: deps.environment, dados });
      return mdfeId;
    },
    ...emissao,
    registrarEvento: async (ctx: Ctx, mdfeId: string, tipo: TipoEventoMdfe, dados: DadosEventoMdfe): Promise<ResultadoEventoMdfe> => {
      if (tipo === 'condutor' && dados.condutor) exigirCondutorNovo(await estado(mdfeId), dados.condutor.cpf);
      return deps.emissor.registrarEvento(ctx.companyId, mdfeId, tipo, dados, ctx.correlationId);
    },
  };
};
export type MdfeHandler = ReturnType<typeof mdfeHandler>;
