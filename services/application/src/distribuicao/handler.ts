import { randomUUID } from 'node:crypto';
import { type Environment, type ServicoDistribuicao } from '@frete/contracts';
import {
  type DistribuicaoEvent,
  type DistribuicaoState,
  fold,
  type ResultadoConsulta,
  Rejection,
  SERVICOS_DISTRIBUICAO,
  distribuicaoDecider,
  distribuicaoStream,
  ufBySigla,
} from '@frete/domain';
import { companyOf, configuracaoOf } from '@frete/projections';
import { ProvedorIndisponivel } from '@frete/adapters';
import { type Pool } from 'pg';
import { type CommandContext, type CommandDeps, type ContextoEmpresa, toDomainEvent } from '../commands/execute';
import { handles } from '../commands/handles';

export interface DistribuicaoHandlerDeps extends Required<CommandDeps> {
  pool: Pool;
  environment: Environment;
  /** False when no distribution service is reachable (production without an authority): nothing is asked. */
  distribuicaoDisponivel: boolean;
}

export interface ConsultaSolicitada {
  servico: ServicoDistribuicao;
  consulta_id: string;
  ult_nsu: string;
}

/** Who asks the national environment: the company's CNPJ and the IBGE code of its UF (`cUFAutor`). */
async function interessado(pool: Pool, companyId: string): Promise<{ documento: string; c_uf_autor: string }> {
  const [company, configuracao] = await Promise.all([companyOf(pool, companyId, ''), configuracaoOf(pool, companyId)]);
  if (!company) throw new Rejection('nao_encontrado', `company ${companyId} is not registered`);
  const uf = configuracao.endereco ? ufBySigla(configuracao.endereco.uf) : undefined;
  if (!uf)
    throw new Rejection(
      'distribuicao_sem_uf',
      "the company's fiscal configuration has no address yet, and the national distribution asks for its UF (cUFAutor)",
    );
  return { documento: company.cnpj, c_uf_autor: uf.codigo_ibge };
}

/**
 * The company's consultation of the national distribution (aggregate `distribuicao`): the switch, the consultations
 * asked by the company or the schedule, and their outcomes as the distribution processor records them.
 */
export const distribuicaoHandler = (deps: DistribuicaoHandlerDeps) => {
  const run = handles(deps, distribuicaoDecider, (c) => distribuicaoStream(c.company_id));

  /** Asks one service; the consultation already in progress when there is one (the answer a repeat gets). */
  const solicitar = async (
    ctx: CommandContext,
    companyId: string,
    servico: ServicoDistribuicao,
    consultaId: string,
    origem: 'agenda' | 'manual',
  ): Promise<ConsultaSolicitada | null> => {
    if (!deps.distribuicaoDisponivel) throw new ProvedorIndisponivel('national distribution service', 'the consultation');
    const parte = await interessado(deps.pool, companyId);
    const { state, events } = await run(ctx, {
      type: 'SolicitarConsulta',
      company_id: companyId,
      environment: deps.environment,
      servico,
      consulta_id: consultaId,
      origem,
      ...parte,
    });
    const pedida = events[0];
    if (pedida?.type === 'distribuicao.consulta_solicitada')
      return { servico, consulta_id: pedida.data.consulta_id, ult_nsu: pedida.data.ult_nsu };
    const andamento = (state as DistribuicaoState).servicos[servico].em_andamento;
    return andamento ? { servico, consulta_id: andamento.consulta_id, ult_nsu: state.servicos[servico].ult_nsu } : null;
  };

  return {
    alterar: async (ctx: ContextoEmpresa, habilitada: boolean): Promise<void> => {
      await run(ctx, { type: 'AlterarDistribuicao', company_id: ctx.companyId, environment: deps.environment, habilitada });
    },

    /**
     * The company asks now, for the services named (every one when null). Services in their wait or block are left
     * alone; when every one asked is, the refusal names the earliest time one may be asked.
     */
    consultar: async (ctx: ContextoEmpresa, servicos: ServicoDistribuicao[] | null): Promise<{ consultas: ConsultaSolicitada[] }> => {
      const consultas: ConsultaSolicitada[] = [];
      const bloqueios: Rejection[] = [];
      for (const servico of servicos ?? SERVICOS_DISTRIBUICAO) {
        try {
          const c = await solicitar(ctx, ctx.companyId, servico, randomUUID(), 'manual');
          if (c) consultas.push(c);
        } catch (err) {
          if (err instanceof Rejection && err.code === 'consulta_bloqueada') bloqueios.push(err);
          else throw err;
        }
      }
      if (consultas.length > 0 || bloqueios.length === 0) return { consultas };
      const tentarApos = bloqueios.map((b) => String(b.details?.tentar_apos)).sort()[0]!;
      throw new Rejection(
        'consulta_bloqueada',
        bloqueios.length === 1 ? bloqueios[0]!.message : `no distribution service may be consulted before ${tentarApos}`,
        { tentar_apos: tentarApos, servicos: bloqueios.flatMap((b) => (b.details?.servicos as string[] | undefined) ?? []) },
      );
    },

    /** The schedule's request, with an id it derives from the service's last consultation (repeats decide nothing). */
    solicitarAgendada: (ctx: CommandContext, companyId: string, servico: ServicoDistribuicao, consultaId: string) =>
      solicitar(ctx, companyId, servico, consultaId, 'agenda'),

    /**
     * Whether the consultation is still waiting for its outcome: a redelivered request already answered must not call
     * the service again (a second "nothing new" within the hour is 656 there, and restarts its block).
     */
    emAndamento: async (companyId: string, servico: ServicoDistribuicao, consultaId: string): Promise<boolean> => {
      const eventos = await deps.store.readStream(distribuicaoStream(companyId));
      const state = fold(
        distribuicaoDecider,
        eventos.map((e) => toDomainEvent<DistribuicaoEvent>(e)),
      );
      return state.servicos[servico].em_andamento?.consulta_id === consultaId;
    },

    /** The processor records a consultation's outcome; its event's id comes from the consultation's event. */
    registrar: async (
      ctx: CommandContext,
      companyId: string,
      servico: ServicoDistribuicao,
      consultaId: string,
      resultado: ResultadoConsulta,
      eventId: string,
    ): Promise<void> => {
      await run(
        ctx,
        { type: 'RegistrarConsulta', company_id: companyId, servico, consulta_id: consultaId, resultado },
        { eventId: () => eventId },
      );
    },
  };
};
export type DistribuicaoHandler = ReturnType<typeof distribuicaoHandler>;
