import { createHash } from 'node:crypto';
import { type DeclaracaoCiotDados } from '@frete/contracts';
import {
  type CiotRegistradoNoProvedor,
  type PedidoDeclaracaoCiot,
  type ProvedorCiot,
  type RetornoDeclaracaoCiot,
  type RetornoOperacaoCiot,
} from './port';
import { lerSentinelaCiot, lerSentinelaCiotNoTexto } from './sentinelas';

/** JSON with the keys of every object sorted: the same declaration always gives the same text. */
export function canonico(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonico).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonico(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const digitos = (semente: string, n: number): string => {
  const h = BigInt(`0x${createHash('sha256').update(semente).digest('hex').slice(0, 30)}`);
  return (h % 10n ** BigInt(n)).toString().padStart(n, '0');
};

/**
 * What identifies a declaration for the simulation: the declaration, the external reference and, for an anchored
 * operation, the CT-e's key and the slot's sequence (never our random operation id). The same request gives the same
 * CIOT; the same CT-e declared again after a cancellation gives another.
 */
export const impressaoDaDeclaracao = (p: PedidoDeclaracaoCiot): string =>
  createHash('sha256')
    .update(
      canonico({
        declaracao: p.declaracao,
        referencia_externa: p.referencia_externa,
        ancora: p.ancora ? { chave: p.ancora.chave, sequencia: p.ancora.sequencia } : null,
      }),
    )
    .digest('hex');

/** The simulated CIOT (12 digits) and verification code (4 digits) of a declaration. */
export function ciotSimulado(p: PedidoDeclaracaoCiot): CiotRegistradoNoProvedor {
  const impressao = impressaoDaDeclaracao(p);
  const ciot = digitos(`ciot:${impressao}`, 12);
  return { ciot, codigo_verificacao: digitos(`verificacao:${ciot}:${impressao}`, 4) };
}

export interface ProvedorCiotSimuladoOptions {
  clock?: () => Date;
}

/**
 * The sandbox's CIOT provider (spec section 1, "Simulated operations in sandbox"): plausible, deterministic, no
 * regulatory effect. Declarations are registered with a CIOT and verification code derived from the declaration
 * (`ciotSimulado`); protocols are 15 digits derived from the act; the sentinels of `sentinelas.ts` drive the
 * pending and refused paths. It keeps no state: the rules that depend on an operation's history (cancellation only
 * before the trip, no rectification for lotação, nothing after closing) are the domain's, checked before any call.
 */
export class ProvedorCiotSimulado implements ProvedorCiot {
  readonly disponivel = true;
  private readonly clock: () => Date;

  constructor(options: ProvedorCiotSimuladoOptions = {}) {
    this.clock = options.clock ?? (() => new Date());
  }

  private registrar(p: PedidoDeclaracaoCiot): RetornoDeclaracaoCiot {
    const { ciot, codigo_verificacao } = ciotSimulado(p);
    return {
      tipo: 'registrado',
      ciot,
      codigo_verificacao,
      protocolo: digitos(`protocolo:declaracao:${impressaoDaDeclaracao(p)}`, 15),
      registrado_em: this.clock(),
    };
  }

  private static sentinela(p: PedidoDeclaracaoCiot) {
    return lerSentinelaCiot(p.referencia_externa) ?? lerSentinelaCiotNoTexto(p.declaracao.observacoes);
  }

  declarar(pedido: PedidoDeclaracaoCiot): Promise<RetornoDeclaracaoCiot> {
    switch (ProvedorCiotSimulado.sentinela(pedido)) {
      case 'pendente':
        return Promise.resolve({
          tipo: 'pendente',
          protocolo: digitos(`protocolo:recebimento:${impressaoDaDeclaracao(pedido)}`, 15),
          motivo: 'Declaração recebida pelo provedor (simulado), ainda sem veredito: não prossiga com a viagem; releia a operação',
        });
      case 'recusar':
        return Promise.resolve({
          tipo: 'recusado',
          codigo: 'SIM-001',
          motivo: 'Declaração recusada pelo provedor (simulado): sentinela CIOT-RECUSAR',
        });
      default:
        return Promise.resolve(this.registrar(pedido));
    }
  }

  /** The follow-up registers a declaration the provider held without verdict (CIOT-PENDENTE's first follow-up). */
  consultarDeclaracao(pedido: PedidoDeclaracaoCiot, _protocolo: string | null): Promise<RetornoDeclaracaoCiot> {
    if (ProvedorCiotSimulado.sentinela(pedido) === 'recusar') return this.declarar(pedido);
    return Promise.resolve(this.registrar(pedido));
  }

  cancelar(c: CiotRegistradoNoProvedor, justificativa: string): Promise<RetornoOperacaoCiot> {
    return Promise.resolve({
      tipo: 'registrado',
      protocolo: digitos(`protocolo:cancelamento:${c.ciot}:${justificativa}`, 15),
      registrado_em: this.clock(),
    });
  }

  retificar(c: CiotRegistradoNoProvedor, declaracao: DeclaracaoCiotDados): Promise<RetornoOperacaoCiot> {
    return Promise.resolve({
      tipo: 'registrado',
      protocolo: digitos(`protocolo:retificacao:${c.ciot}:${canonico(declaracao)}`, 15),
      registrado_em: this.clock(),
    });
  }

  encerrar(c: CiotRegistradoNoProvedor, pesoEntregueGramas: number | null): Promise<RetornoOperacaoCiot> {
    return Promise.resolve({
      tipo: 'registrado',
      protocolo: digitos(`protocolo:encerramento:${c.ciot}:${pesoEntregueGramas ?? ''}`, 15),
      registrado_em: this.clock(),
    });
  }
}
