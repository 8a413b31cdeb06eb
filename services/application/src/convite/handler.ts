import { randomUUID } from 'node:crypto';
import { type Pool } from 'pg';
import { type ConviteTransportadoraInput } from '@frete/contracts';
import { conviteDecider, conviteStream, normalizarConvite } from '@frete/domain';
import { companyOf } from '@frete/projections';
import { type CommandDeps, type ContextoEmpresa } from '../commands/execute';
import { handles } from '../commands/handles';

export interface ConviteHandlerDeps extends CommandDeps {
  pool: Pool;
}

/** The invitation a command left pending, and whether this command sent it. */
export interface ConviteEnviado {
  convite_id: string;
  novo: boolean;
}

/** Invitations of carriers to onboarding; one stream per inviting company and invited CNPJ. */
export const conviteHandler = (deps: ConviteHandlerDeps) => {
  const run = handles(deps, conviteDecider, (c) => conviteStream(c.company_id, normalizarConvite(c.dados).cnpj));
  return {
    enviar: async (ctx: ContextoEmpresa, companyCnpj: string, dados: ConviteTransportadoraInput): Promise<ConviteEnviado> => {
      // 400 before anything else: the stream is named by the normalized CNPJ.
      const { cnpj } = normalizarConvite(dados);
      const company = await companyOf(deps.pool, cnpj, cnpj);
      const { events, state } = await run(ctx, {
        type: 'EnviarConvite',
        company_id: ctx.companyId,
        company_cnpj: companyCnpj,
        convite_id: randomUUID(),
        dados,
        transportadora_cadastrada: company?.carrier === true,
      });
      const enviado = events.find((e) => e.type === 'convite.enviado');
      const id = enviado?.type === 'convite.enviado' ? enviado.data.convite_id : state.atual?.convite_id;
      if (!id) throw new Error('invitation neither sent nor pending');
      return { convite_id: id, novo: enviado !== undefined };
    },
  };
};
export type ConviteHandler = ReturnType<typeof conviteHandler>;
