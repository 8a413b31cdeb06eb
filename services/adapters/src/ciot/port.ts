import { type AncoraCiot, type DeclaracaoCiotDados } from '@frete/contracts';

/**
 * The CIOT provider behind a port: the IPEF (instituição de pagamento eletrônico de frete) that declares transport
 * operations to ANTT's PEF services (Res. ANTT 5.862/2019) and answers with the CIOT (12 digits) and its 4-digit
 * verification code. The sandbox answers through the simulated provider (`simulado.ts`: deterministic, nothing reaches
 * the regulator); production, while no provider is contracted, through `indisponivel.ts` (ruling 7). A contracted
 * IPEF's adapter replaces either without touching the callers.
 *
 * **No verdict.** A declaration the provider received but did not decide yet is `pendente`; a call whose outcome is
 * unknown (timeout after sending) is `sem_resposta`. Both leave the operation `sent`: the caller asks again with
 * `consultarDeclaracao` (the same `operacao_id`, so that the provider never makes a second CIOT of one operation).
 * A thrown error means the call did not take place (`ProvedorIndisponivel`) or a bug.
 */

export interface PedidoDeclaracaoCiot {
  /** Our operation id: the provider's idempotency key. */
  operacao_id: string;
  referencia_externa: string | null;
  /** The own CT-e the operation is declared for, when anchored. */
  ancora: AncoraCiot | null;
  declaracao: DeclaracaoCiotDados;
}

/** A registered CIOT, as the provider's other services identify it. */
export interface CiotRegistradoNoProvedor {
  ciot: string;
  codigo_verificacao: string;
}

export interface SemRespostaCiot {
  tipo: 'sem_resposta';
  /** What happened, for logs and the stored reason; never an integration detail. */
  motivo: string;
}

export interface RecusaCiot {
  tipo: 'recusado';
  /** The provider's refusal code. */
  codigo: string;
  motivo: string;
}

export type RetornoDeclaracaoCiot =
  | { tipo: 'registrado'; ciot: string; codigo_verificacao: string; protocolo: string; registrado_em: Date }
  | { tipo: 'pendente'; protocolo: string | null; motivo: string }
  | RecusaCiot
  | SemRespostaCiot;

/** The answer to a cancellation, rectification or closing. */
export type RetornoOperacaoCiot = { tipo: 'registrado'; protocolo: string; registrado_em: Date } | RecusaCiot | SemRespostaCiot;

export interface ProvedorCiot {
  /** False when no provider is contracted: declarations are blocked, every other operation answers 503. */
  readonly disponivel: boolean;
  /** DeclaracaoOperacaoTransporte (PEF service 03). */
  declarar(pedido: PedidoDeclaracaoCiot): Promise<RetornoDeclaracaoCiot>;
  /** Follow-up of a declaration left without verdict (ConsultarCIOTGerado, PEF service 08). */
  consultarDeclaracao(pedido: PedidoDeclaracaoCiot, protocolo: string | null): Promise<RetornoDeclaracaoCiot>;
  /** CancelamentoOperacaoTransporte (service 04): the caller already checked that the trip has not started. */
  cancelar(ciot: CiotRegistradoNoProvedor, justificativa: string): Promise<RetornoOperacaoCiot>;
  /** RetificacaoOperacaoTransporte (service 05), with the whole declaration after the change; never for lotação. */
  retificar(ciot: CiotRegistradoNoProvedor, declaracao: DeclaracaoCiotDados): Promise<RetornoOperacaoCiot>;
  /** EncerramentoOperacaoTransporte (service 06). */
  encerrar(ciot: CiotRegistradoNoProvedor, pesoEntregueGramas: number | null): Promise<RetornoOperacaoCiot>;
}
