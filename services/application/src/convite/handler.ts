import { randomUUID } from 'node:crypto';
import { type ConviteTransportadoraInput } from '@frete/contracts';
import { conviteDecider, conviteStream, normalizarConvite } from '@frete/domain';
import { type ConviteRow } from '@frete/projections';
import { type CommandDeps, type ContextoEmpresa } from '../commands/execute';
import { handles } from '../commands/handles';
import { type LeiturasConvite } from './leituras';

export interface ConviteHandlerDeps extends CommandDeps {
  leituras: LeiturasConvite;
}

/** The invitation a command left pending (as recorded, in the read model's row shape), and whether this command sent it. */
export interface ConviteEnviado {
  convite_id: string;
  novo: boolean;
  convite: ConviteRow;
}

/** Invitations of carriers to onboarding; one stream per inviting company and invited CNPJ. */
export const conviteHandler = (deps: ConviteHandlerDeps) => {
  const run = handles(deps, conviteDecider, (c) => conviteStream(c.company_id, normalizarConvite(c.dados).cnpj));
  return {
    enviar: async (ctx: ContextoEmpresa, companyCnpj: string, dados: ConviteTransportadoraInput): Promise<ConviteEnviado> => {
      // 400 before anything else: the stream is named by the normalized CNPJ.
      const { cnpj } = normalizarConvite(dados);
      const transportadoraCadastrada = await deps.leituras.transportadoraCadastrada(cnpj);
      const { events, state } = await run(ctx, {
        type: 'EnviarConvite',
        company_id: ctx.companyId,
        company_cnpj: companyCnpj,
        convite_id: randomUUID(),
        dados,
        transportadora_cadastrada: transportadoraCadastrada,
      });
      const atual = state.atual;
      if (!atual) throw new Error('invitation neither sent nor pending');
      // Pending: sent now, or sent before and not expired at this command's clock (nor accepted: the CNPJ is no carrier).
      const convite: ConviteRow = {
        convite_id: atual.convite_id,
        company_id: atual.company_id,
        cnpj: atual.cnpj,
        razao_social: atual.razao_social,
        contato_nome: atual.contato.nome,
        contato_email: atual.contato.email,
        contato_telefone: atual.contato.telefone,
        estado: 'pendente',
        enviado_em: new Date(atual.enviado_em),
        expira_em: new Date(atual.expira_em),
        aceito_em: null,
        expirado_em: null,
      };
      return { convite_id: atual.convite_id, novo: events.some((e) => e.type === 'convite.enviado'), convite };
    },
  };
};
export type ConviteHandler = ReturnType<typeof conviteHandler>;
