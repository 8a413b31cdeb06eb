import { type Pool } from 'pg';
import { type RejeicaoPrevista, Rejection } from '@frete/domain';
import { configuracaoOf } from '@frete/projections';
import { type DomainEvent, type Environment } from '@frete/contracts';
import { type CommandDeps, type ContextoEmpresa, execute, load } from '../commands/execute';
import { type DocumentoEmitido } from './documento';
import { type EmissorDocumento, type EstadoEmitido } from './emissor';

type Ctx = ContextoEmpresa;

/** 422 `rejeicao_prevista`: the authority would reject the document by these rules (the first names the error). */
export function rejeicaoPrevista(documento: string, rejeicoes: RejeicaoPrevista[]): Rejection {
  const [primeira] = rejeicoes;
  return new Rejection(
    'rejeicao_prevista',
    `the authority would reject this ${documento}: rule ${primeira!.regra}, cStat ${primeira!.cStat} (${primeira!.xMotivo})`,
    { cstat: primeira!.cStat, regra: primeira!.regra, rejeicoes },
  );
}

/** What the handlers of issued documents read besides the event store. */
export interface DocumentoHandlerDeps extends CommandDeps {
  pool: Pool;
  environment: Environment;
}

/**
 * The one way a route requests an issue and polls it, whatever the document (`CTE_EMITIDO`, `MDFE_EMITIDO`): a draft
 * (or a rejected document) is issued only once nothing is missing and no rule of the authority would refuse it, in the
 * company's series of that kind; asking again while in issue issues nothing more; a document past its issue is refused.
 */
export const pedidoDeEmissao = <C, S extends EstadoEmitido, E extends DomainEvent>(
  deps: DocumentoHandlerDeps,
  doc: DocumentoEmitido<C, S, E>,
  emissor: Pick<EmissorDocumento<C, S, E>, 'consultar'>,
) => {
  const { fiscal } = doc;
  const estado = (id: string) => load(deps.store, fiscal.stream(id), doc.decider);
  return {
    solicitarEmissao: async (ctx: Ctx, id: string): Promise<void> => {
      const state = await estado(id);
      if (state.situacao === 'rascunho' || state.situacao === 'rejeitado') {
        const { pendencias, rejeicoes } = await doc.preparar(deps, {
          id,
          companyId: ctx.companyId,
          dados: state.dados,
          numero: 1,
          now: ctx.now,
        });
        if (pendencias.length > 0) {
          const campos = pendencias.map((x) => x.campo).join(', ');
          throw new Rejection(fiscal.erros.pendencias, `the ${fiscal.nome} cannot be issued yet: ${campos}`, { pendencias });
        }
        // Nothing is sent that the authority would reject: the same rule set it runs, over the XML an issue would build.
        if (rejeicoes.length > 0) throw rejeicaoPrevista(fiscal.nome, rejeicoes);
      } else if (state.situacao !== 'em_processamento') {
        // Issued, denied, closed, cancelled or delivered by the carrier: there is nothing to issue, and the carrier is told.
        throw new Rejection(fiscal.erros.naoEditavel, `this ${fiscal.nome} is ${state.situacao}: there is nothing to issue`);
      }
      const serie = (await configuracaoOf(deps.pool, ctx.companyId))[fiscal.campoSerie] ?? 0;
      await execute(deps, fiscal.stream(id), doc.decider, doc.solicitar({ id, companyId: ctx.companyId }, serie), ctx);
    },
    /** `POST .../consulta`: one never issued is refused; while the result is unknown the authority is asked. */
    consultar: async (ctx: Ctx, id: string): Promise<void> => {
      const state = await estado(id);
      if (state.situacao === 'rascunho') {
        throw new Rejection(fiscal.erros.naoEditavel, `this ${fiscal.nome} is a draft that was never issued: POST .../emissao first`);
      }
      // Asked by an API request (its correlation id): its caller's next reads see what the consultation recorded.
      if (state.situacao === 'em_processamento') await emissor.consultar(ctx.companyId, id, ctx.correlationId, ctx.correlationId);
    },
  };
};
