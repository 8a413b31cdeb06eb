import { type ChavePix, type TipoChavePix } from '@frete/contracts';

/**
 * The PIX directory (DICT, Banco Central) behind a port: who holds a PIX key and at which institution. The sandbox
 * answers through the simulation (`simulado.ts`: deterministic, documented sentinels, marked `verificacao:
 * 'simulada'`); production, while no provider (a PSP with DICT access) is contracted, through `indisponivel.ts`
 * (ruling 7: every call rejects with `provedor_indisponivel`). The port returns the holder as the directory has it,
 * in full; masking for display is the edge's (`mascararNome`, `mascararCpf`).
 */
export interface TitularChavePix {
  tipo_pessoa: 'fisica' | 'juridica';
  /** Full name or corporate name. */
  nome: string;
  /** CPF (11 digits) or CNPJ (14 characters), unpunctuated. */
  documento: string;
}

export interface ChavePixEncontrada {
  tipo: TipoChavePix;
  chave: string;
  titular: TitularChavePix;
  banco: { ispb: string; nome: string };
  tipo_conta: 'corrente' | 'poupanca' | 'pagamento';
  /** Present only on simulated answers. */
  verificacao?: 'simulada';
}

export interface DiretorioPix {
  /** False when no provider serves this deployment: every call rejects with `provedor_indisponivel`. */
  readonly disponivel: boolean;
  /** The key (validated and normalized) as the directory has it; null when the directory has no such key. */
  consultarChave(chave: ChavePix): Promise<ChavePixEncontrada | null>;
}
