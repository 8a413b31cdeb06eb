import { randomUUID } from 'node:crypto';
import { type CteDraftInput } from '@frete/contracts';
import { type CteCommand, cteDecider, cteStream, type ReceberCteEmitido, Rejection } from '@frete/domain';
import { type CteRow, cteDoLog, mdfesAtivosDoCte } from '@frete/projections';
import { derivedEventId } from '@frete/platform';
import { type ContextoEmpresa } from '../commands/execute';
import { handles } from '../commands/handles';
import { type DocumentoHandlerDeps, pedidoDeEmissao } from '../emissao/handler';
import { CTE_EMITIDO } from '../emissao/documentos/cte';
import { type EmissorCte } from './emissor';
import { type EventosCte, type PedidoEventoCte, type ResultadoEventoCte } from './eventos';

export interface CteHandlerDeps extends DocumentoHandlerDeps {
  emissor: EmissorCte;
  eventos: EventosCte;
}

type Ctx = ContextoEmpresa;

/**
 * The carrier's own CT-e: drafts (spec section 4, "CT-e"), issue and its polling, fiscal events, CT-e issued elsewhere and
 * delivered here.
 */
export const cteHandler = (deps: CteHandlerDeps) => {
  const run = handles(deps, cteDecider, (c: CteCommand) => cteStream('cte_id' in c ? c.cte_id : c.data.cte_id));
  const emissao = pedidoDeEmissao(deps, CTE_EMITIDO, deps.emissor);
  /** The CT-e as its stream recorded it, in rm.ctes's shape: what a write answers, never waiting for the projection. */
  const registrado = async (cteId: string): Promise<CteRow> => {
    const cte = cteDoLog(await deps.store.readStream(cteStream(cteId)));
    if (!cte) throw new Error(`own CT-e ${cteId} has no recorded creation after its write`);
    return cte;
  };
  return {
    ...emissao,
    /**
     * The draft as recorded (rm.ctes's row shape). With an idempotency key the id is derived from it, so a retry lands
     * on the stream the first call created and the decider appends nothing.
     */
    criarRascunho: async (ctx: Ctx, dados: CteDraftInput, idempotencyKey?: string): Promise<CteRow> => {
      const cteId = idempotencyKey ? derivedEventId(ctx.companyId, `rascunho:${idempotencyKey}`) : randomUUID();
      await run(ctx, { type: 'CriarRascunho', cte_id: cteId, company_id: ctx.companyId, environment: deps.environment, dados });
      return registrado(cteId);
    },
    /** The draft as recorded after the change. */
    alterarRascunho: async (ctx: Ctx, cteId: string, dados: CteDraftInput): Promise<CteRow> => {
      await run(ctx, { type: 'AlterarRascunho', cte_id: cteId, company_id: ctx.companyId, dados });
      return registrado(cteId);
    },
    /**
     * An own CT-e issued elsewhere: its id follows from the company and the key, so that a resubmission finds the same
     * resource; `primeiro` tells whether this reception is the first (a resubmission changes nothing); `cte` is the CT-e as
     * recorded, in the read model's row shape.
     */
    receberEmitido: async (
      ctx: Ctx,
      input: Omit<ReceberCteEmitido, 'type' | 'cte_id' | 'company_id' | 'environment'>,
    ): Promise<{ cteId: string; primeiro: boolean; cte: CteRow }> => {
      const cteId = derivedEventId(ctx.companyId, `cte:${input.cte.chave}`);
      const { events } = await run(ctx, {
        type: 'ReceberCteEmitido',
        ...input,
        cte_id: cteId,
        company_id: ctx.companyId,
        environment: deps.environment,
      });
      return { cteId, primeiro: events[0]?.type === 'cte.emitido_recebido', cte: await registrado(cteId) };
    },
    solicitarEvento: async (ctx: Ctx, cteId: string, pedido: PedidoEventoCte): Promise<ResultadoEventoCte> => {
      if (pedido.tipo === 'cancelamento') {
        // The authority refuses it too (528); said here first so that nothing is sent for a CT-e still on a manifest.
        const manifestos = await mdfesAtivosDoCte(deps.pool, ctx.companyId, cteId);
        if (manifestos.length > 0) {
          const motivo = 'Rejeição: Vedado cancelamento se exitir MDF-e autorizado para o CT-e';
          throw new Rejection('regra_de_negocio', motivo, { cstat: 528, motivo, mdfe: manifestos.map((m) => m.mdfe_id) });
        }
      }
      return deps.eventos.solicitar(ctx.companyId, cteId, pedido, ctx);
    },
    reconciliarEvento: (ctx: Ctx, cteId: string, eventKey: string): Promise<ResultadoEventoCte> =>
      deps.eventos.reconciliar(ctx.companyId, cteId, eventKey, ctx),
  };
};
export type CteHandler = ReturnType<typeof cteHandler>;
