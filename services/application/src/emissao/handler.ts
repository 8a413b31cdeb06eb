import { type Pool } from 'pg';
import { type RejeicaoPrevista, Rejection } from '@frete/domain';
import { configuracaoOf, type ConfiguracaoRow } from '@frete/projections';
import { type Environment } from '@frete/contracts';
import { type CommandDeps, type ContextoEmpresa } from '../commands/execute';
import { type EstadoEmitido } from './emissor';

export interface Pendencia {
  campo: string;
  mensagem: string;
}

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

/** How a kind of issued document is asked for an issue and polled (CT-e, MDF-e). */
export interface PedidoDeEmissao<S extends EstadoEmitido> {
  estado: (id: string) => Promise<S>;
  /** What the document or the company still lacks before an issue (configuration, certificate, the draft's data). */
  pendencias: (ctx: Ctx, id: string, state: S) => Promise<Pendencia[]>;
  incompleto: (pendencias: Pendencia[]) => Rejection;
  /** Refuses a document that is past its issue; null leaves the answer to the decider. */
  naoEmitivel: (state: S) => Rejection | null;
  /** The series the company issues this kind in (0 when the configuration has none). */
  serie: (configuracao: ConfiguracaoRow) => number | null;
  solicitar: (ctx: Ctx, id: string, serie: number) => Promise<unknown>;
  nuncaEmitido: () => Rejection;
  /** Asks the authority while the result is unknown (the emitter sends the same signed XML if it never got it). */
  consultar: (companyId: string, id: string, cause: string) => Promise<void>;
}

/**
 * The one way a route requests an issue and polls it, whatever the document: a draft (or a rejected document) is
 * issued only once nothing is missing, in the company's series; asking again while in issue issues nothing more.
 */
export const pedidoDeEmissao = <S extends EstadoEmitido>(pool: Pool, p: PedidoDeEmissao<S>) => ({
  solicitarEmissao: async (ctx: Ctx, id: string): Promise<void> => {
    const state = await p.estado(id);
    if (state.situacao === 'rascunho' || state.situacao === 'rejeitado') {
      const pendencias = await p.pendencias(ctx, id, state);
      if (pendencias.length > 0) throw p.incompleto(pendencias);
    } else {
      const recusa = p.naoEmitivel(state);
      if (recusa) throw recusa;
    }
    await p.solicitar(ctx, id, p.serie(await configuracaoOf(pool, ctx.companyId)) ?? 0);
  },
  /** `POST .../consulta`: one never issued is refused; while the result is unknown the authority is asked. */
  consultar: async (ctx: Ctx, id: string): Promise<void> => {
    const state = await p.estado(id);
    if (state.situacao === 'rascunho') throw p.nuncaEmitido();
    if (state.situacao === 'em_processamento') await p.consultar(ctx.companyId, id, ctx.correlationId);
  },
});
