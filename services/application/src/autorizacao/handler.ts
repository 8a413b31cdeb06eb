import { randomUUID } from 'node:crypto';
import { autorizacaoDecider, autorizacaoStream, isValidCnpj, normalizeCnpj, type ParteAutorizacao, Rejection } from '@frete/domain';
import { type AutorizacaoRow, autorizacaoDoLog } from '@frete/projections';
import { type CommandDeps, type ContextoEmpresa } from '../commands/execute';
import { handles } from '../commands/handles';
import { type LeiturasAutorizacao } from './leituras';

export interface AutorizacaoHandlerDeps extends Required<CommandDeps> {
  leituras: LeiturasAutorizacao;
}

/** The grant a command left active (as recorded, in the read model's row shape), and whether this command created it. */
export interface AutorizacaoConcedida {
  autorizacao_id: string;
  nova: boolean;
  autorizacao: AutorizacaoRow;
}

/**
 * Emission grants between carriers; the caller is the subcontractor. Each write also records the other party's
 * read-your-writes watermark, so that the contractor's next read (its GET, the batch check) sees it too.
 */
export const autorizacaoHandler = (deps: AutorizacaoHandlerDeps) => {
  const run = handles(deps, autorizacaoDecider, (c) =>
    c.type === 'ConcederAutorizacao'
      ? autorizacaoStream(c.subcontratada.company_id, c.contratante_cnpj)
      : autorizacaoStream(c.subcontratada_id, c.contratante_cnpj),
  );
  /** The grant as its stream recorded it: what a write answers, never waiting for the projection. */
  const registrada = async (stream: string, autorizacaoId: string): Promise<AutorizacaoRow> => {
    const row = autorizacaoDoLog(await deps.store.readStream(stream), autorizacaoId);
    if (!row) throw new Error(`stream ${stream} has no grant ${autorizacaoId} after its write`);
    return row;
  };
  return {
    conceder: async (ctx: ContextoEmpresa, subcontratada: ParteAutorizacao, contratanteCnpj: string): Promise<AutorizacaoConcedida> => {
      const cnpj = normalizeCnpj(contratanteCnpj);
      // Only a well-formed CNPJ is looked up (it can never match a company id); the decider judges the rest.
      const found = isValidCnpj(cnpj) ? await deps.leituras.empresaPorCnpj(cnpj) : null;
      const { state, events, position } = await run(ctx, {
        type: 'ConcederAutorizacao',
        autorizacao_id: randomUUID(),
        subcontratada,
        contratante_cnpj: cnpj,
        contratante: found,
      });
      if (position && found) await deps.readYourWrites.recordWrite(found.company_id, position);
      if (!position) {
        // Already active: the grant may have been written a moment ago by a concurrent request whose watermark is not
        // recorded yet. The caller's read must still wait for it.
        const history = await deps.store.readStream(autorizacaoStream(subcontratada.company_id, cnpj));
        const last = history[history.length - 1];
        if (last) await deps.readYourWrites.recordWrite(ctx.companyId, last.position);
      }
      if (!state.ativa) throw new Error('grant neither created nor active');
      const autorizacao = await registrada(autorizacaoStream(subcontratada.company_id, cnpj), state.ativa.autorizacao_id);
      return { autorizacao_id: state.ativa.autorizacao_id, nova: events.length > 0, autorizacao };
    },
    /** The grant revoked, as recorded. */
    revogar: async (ctx: ContextoEmpresa, contratanteCnpj: string): Promise<AutorizacaoRow> => {
      const cnpj = normalizeCnpj(contratanteCnpj);
      // A malformed CNPJ names no stream a grant could be in.
      if (!isValidCnpj(cnpj)) throw new Rejection('autorizacao_nao_encontrada', `no active grant to CNPJ ${cnpj}`);
      const { events, position } = await run(ctx, { type: 'RevogarAutorizacao', subcontratada_id: ctx.companyId, contratante_cnpj: cnpj });
      const revoked = events[0];
      if (!revoked || revoked.type !== 'autorizacao.revogada') throw new Error('revoke appended no autorizacao.revogada');
      if (position) await deps.readYourWrites.recordWrite(revoked.data.contratante_id, position);
      return registrada(autorizacaoStream(ctx.companyId, cnpj), revoked.data.autorizacao_id);
    },
  };
};
export type AutorizacaoHandler = ReturnType<typeof autorizacaoHandler>;
