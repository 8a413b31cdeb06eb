import { type AlteracoesCiot, type AncoraCiot, type DeclaracaoCiotDados, type Environment } from '@frete/contracts';
import {
  aplicarRetificacao,
  bloqueioDaDeclaracao,
  type CiotCommand,
  ciotDecider,
  type CiotState,
  ciotStream,
  exigirCancelavel,
  exigirEmVigor,
  exigirRetificavel,
  MAX_TENTATIVAS_CIOT,
  Rejection,
} from '@frete/domain';
import { execute, load, type CommandContext } from '../commands/execute';
import { type EventStore } from '@frete/platform';
import { type ReadYourWrites } from '@frete/platform';
import { derivedEventId } from '@frete/platform';
import { type PedidoDeclaracaoCiot, type ProvedorCiot, type RetornoDeclaracaoCiot, type RetornoOperacaoCiot } from '@frete/adapters';

export interface ServicoCiotDeps {
  store: EventStore;
  provedor: ProvedorCiot;
  environment: Environment;
  readYourWrites?: ReadYourWrites;
  clock: () => Date;
}

export interface DeclaracaoCiotPedida {
  ciot_id: string;
  company_id: string;
  /** The authenticated company's CNPJ: the contracted party must be it. */
  cnpj_empresa: string;
  referencia_externa: string | null;
  ancora: AncoraCiot | null;
  declaracao: DeclaracaoCiotDados;
}

const pedidoDe = (s: CiotState): PedidoDeclaracaoCiot => ({
  operacao_id: s.ciot_id!,
  referencia_externa: s.referencia_externa,
  ancora: s.ancora,
  declaracao: s.declaracao!,
});

/**
 * CIOT operations through the provider port (`ProvedorCiot`): the operation is recorded before the provider is
 * called, the provider's answer is recorded after; the rules of the operation's state are the decider's
 * (`exigir…`), checked before any call, so that nothing is sent that the state forbids.
 */
export class ServicoCiot {
  constructor(private readonly deps: ServicoCiotDeps) {}

  /** False in production while no provider is contracted (ruling 7). */
  get disponivel(): boolean {
    return this.deps.provedor.disponivel;
  }

  private run(ciotId: string, command: CiotCommand, ctx: CommandContext, cause?: string) {
    return execute(
      this.deps,
      ciotStream(ciotId),
      ciotDecider,
      command,
      ctx,
      cause ? { eventId: (i, e) => derivedEventId(cause, `${e.type}:${i}`) } : {},
    );
  }

  async estado(ciotId: string): Promise<CiotState> {
    return load(this.deps.store, ciotStream(ciotId), ciotDecider);
  }

  /**
   * `POST /fiscal/ciot` and `POST /fiscal/cte/{cte_uuid}/ciot/emissao`: records the operation (blocked at once when it
   * must not be transmitted), then declares it to the provider and records the answer. Returns the state after.
   */
  async declarar(p: DeclaracaoCiotPedida, ctx: CommandContext): Promise<CiotState> {
    const bloqueio = bloqueioDaDeclaracao(p.declaracao, p.cnpj_empresa, this.deps.provedor.disponivel);
    const declarada = await this.run(
      p.ciot_id,
      {
        type: 'DeclararCiot',
        ciot_id: p.ciot_id,
        company_id: p.company_id,
        environment: this.deps.environment,
        referencia_externa: p.referencia_externa,
        ancora: p.ancora,
        declaracao: p.declaracao,
        bloqueio,
      },
      ctx,
    );
    if (declarada.state.status !== 'sent') return declarada.state;
    const retorno = await this.chamar(() => this.deps.provedor.declarar(pedidoDe(declarada.state)));
    return this.registrarRetorno(declarada.state, retorno, 1, ctx);
  }

  /**
   * The emission processor's reaction to `ciot.pendente`: asks the provider about the declaration again and records
   * the answer (ids derived from the cause, so a redelivery appends nothing new). After `MAX_TENTATIVAS_CIOT`
   * answers without verdict the operation stays `sent`.
   */
  async acompanhar(companyId: string, ciotId: string, cause: string): Promise<void> {
    const state = await this.estado(ciotId);
    if (!state.existe || state.company_id !== companyId || state.status !== 'sent') return;
    if (state.tentativas >= MAX_TENTATIVAS_CIOT) return;
    const retorno = await this.chamar(() => this.deps.provedor.consultarDeclaracao(pedidoDe(state), state.protocolo));
    const ctx: CommandContext = {
      companyId,
      correlationId: cause,
      causationId: cause,
      requestId: null,
      actor: 'processor:emission',
      now: this.deps.clock(),
    };
    await this.registrarRetorno(state, retorno, state.tentativas + 1, ctx, cause);
  }

  /** A provider call that throws (other than "no provider") is an answer never received. */
  private async chamar(call: () => Promise<RetornoDeclaracaoCiot>): Promise<RetornoDeclaracaoCiot> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof Rejection) throw err;
      return { tipo: 'sem_resposta', motivo: 'o provedor não respondeu à declaração' };
    }
  }

  private async registrarRetorno(
    state: CiotState,
    r: RetornoDeclaracaoCiot,
    tentativa: number,
    ctx: CommandContext,
    cause?: string,
  ): Promise<CiotState> {
    const base = { ciot_id: state.ciot_id!, company_id: state.company_id! };
    let command: CiotCommand;
    switch (r.tipo) {
      case 'registrado':
        command = {
          type: 'RegistrarCiot',
          data: {
            ...base,
            ciot: r.ciot,
            codigo_verificacao: r.codigo_verificacao,
            protocolo: r.protocolo,
            registrada_em: r.registrado_em.toISOString(),
          },
        };
        break;
      case 'recusado':
        command = { type: 'RegistrarRecusaCiot', data: { ...base, codigo: r.codigo, motivo: r.motivo } };
        break;
      case 'pendente':
        command = { type: 'RegistrarPendenciaCiot', data: { ...base, protocolo: r.protocolo, motivo: r.motivo, tentativa } };
        break;
      case 'sem_resposta':
        command = {
          type: 'RegistrarPendenciaCiot',
          data: { ...base, protocolo: state.protocolo, motivo: `${r.motivo}: não prossiga com a viagem; releia a operação`, tentativa },
        };
        break;
    }
    return (await this.run(state.ciot_id!, command, ctx, cause)).state;
  }

  private static registrado(state: CiotState) {
    return { ciot: state.ciot!, codigo_verificacao: state.codigo_verificacao! };
  }

  /** The provider's answer to an act on a registered CIOT: a refusal or no answer is thrown, nothing recorded. */
  private static aceito(r: RetornoOperacaoCiot): { protocolo: string; em: string } {
    if (r.tipo === 'recusado') {
      throw new Rejection('ciot_operacao_recusada', `the CIOT provider refused: ${r.motivo}`, { codigo: r.codigo, motivo: r.motivo });
    }
    if (r.tipo === 'sem_resposta')
      throw new Rejection('consulta_indisponivel', 'the CIOT provider did not answer; nothing was recorded: retry later');
    return { protocolo: r.protocolo, em: r.registrado_em.toISOString() };
  }

  async iniciarViagem(companyId: string, ciotId: string, ctx: CommandContext): Promise<CiotState> {
    return (
      await this.run(ciotId, { type: 'IniciarViagemCiot', ciot_id: ciotId, company_id: companyId, iniciada_em: ctx.now.toISOString() }, ctx)
    ).state;
  }

  async cancelar(
    companyId: string,
    ciotId: string,
    justificativa: string,
    mdfeAutorizado: boolean,
    ctx: CommandContext,
  ): Promise<CiotState> {
    const state = await this.estado(ciotId);
    exigirCancelavel(state, companyId, mdfeAutorizado);
    const ok = ServicoCiot.aceito(await this.deps.provedor.cancelar(ServicoCiot.registrado(state), justificativa));
    return (
      await this.run(
        ciotId,
        {
          type: 'RegistrarCancelamentoCiot',
          mdfe_autorizado: mdfeAutorizado,
          data: { ciot_id: ciotId, company_id: companyId, justificativa, protocolo: ok.protocolo, cancelada_em: ok.em },
        },
        ctx,
      )
    ).state;
  }

  async retificar(companyId: string, ciotId: string, alteracoes: AlteracoesCiot, ctx: CommandContext): Promise<CiotState> {
    const state = await this.estado(ciotId);
    exigirRetificavel(state, companyId);
    const declaracao = aplicarRetificacao(state.declaracao!, alteracoes);
    const ok = ServicoCiot.aceito(await this.deps.provedor.retificar(ServicoCiot.registrado(state), declaracao));
    return (
      await this.run(
        ciotId,
        {
          type: 'RegistrarRetificacaoCiot',
          data: { ciot_id: ciotId, company_id: companyId, alteracoes, declaracao, protocolo: ok.protocolo, retificada_em: ok.em },
        },
        ctx,
      )
    ).state;
  }

  async encerrar(companyId: string, ciotId: string, pesoEntregueGramas: number | null, ctx: CommandContext): Promise<CiotState> {
    const state = await this.estado(ciotId);
    exigirEmVigor(state, companyId);
    const ok = ServicoCiot.aceito(await this.deps.provedor.encerrar(ServicoCiot.registrado(state), pesoEntregueGramas));
    return (
      await this.run(
        ciotId,
        {
          type: 'RegistrarEncerramentoCiot',
          data: {
            ciot_id: ciotId,
            company_id: companyId,
            peso_entregue_gramas: pesoEntregueGramas,
            protocolo: ok.protocolo,
            encerrada_em: ok.em,
          },
        },
        ctx,
      )
    ).state;
  }
}
