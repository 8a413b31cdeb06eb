import { type Environment, type Uf } from '@frete/contracts';
import { ufByCode } from '@frete/domain';
import {
  type Autorizador,
  AUTORIZADOR_MDFE,
  autorizadorCte,
  ENDERECOS_CTE,
  ENDERECOS_MDFE,
  SERVICOS_CTE,
  type ServicoSefaz,
} from './autorizadores';

const POR_TP_EMIS: Record<string, Autorizador> = { '7': 'SVC-RS', '8': 'SVC-SP' };

/**
 * What a deployment says about addresses: `SEFAZ_ENDPOINTS` (a file's `{ "<authorizer>": { "<Service>": "<url>" } }`,
 * for the deployment's environment) wins over `SEFAZ_BASE_URL` (`<base>/<authorizer>/<Service>`, for a local server),
 * which wins over the built-in table.
 */
export interface EnderecosConfigurados {
  endpoints?: Partial<Record<string, Partial<Record<string, string>>>>;
  baseUrl?: string;
}

export class SemEnderecoSefaz extends Error {
  constructor(
    readonly autorizador: Autorizador,
    readonly servico: ServicoSefaz,
  ) {
    super(`no address for ${servico} at ${autorizador}: set it in SEFAZ_ENDPOINTS`);
    this.name = 'SemEnderecoSefaz';
  }
}

export interface Destino {
  autorizador: Autorizador;
  url: string;
}

const ehCte = (servico: ServicoSefaz) => (SERVICOS_CTE as readonly string[]).includes(servico);

/** The authorizer of the emitter's UF for the service's model, and the address of that service in this environment. */
export function destinoSefaz(uf: Uf, servico: ServicoSefaz, ambiente: Environment, configurados: EnderecosConfigurados = {}): Destino {
  return enderecoDe(ehCte(servico) ? autorizadorCte(uf) : AUTORIZADOR_MDFE, servico, ambiente, configurados);
}

/**
 * Where a document (or its events and consultation) goes, from its access key: the UF of its first two digits, and
 * for a CT-e issued in contingency (`tpEmis` 7 or 8, the key's 35th digit) the contingency authorizer that authorized it.
 */
export function destinoDaChave(
  chave: string,
  servico: ServicoSefaz,
  ambiente: Environment,
  configurados: EnderecosConfigurados = {},
): Destino {
  const uf = ufByCode(chave.slice(0, 2))?.sigla;
  if (!uf) throw new Error(`access key ${chave} names no UF`);
  const contingencia = ehCte(servico) ? POR_TP_EMIS[chave.charAt(34)] : undefined;
  return contingencia ? enderecoDe(contingencia, servico, ambiente, configurados) : destinoSefaz(uf, servico, ambiente, configurados);
}

function enderecoDe(autorizador: Autorizador, servico: ServicoSefaz, ambiente: Environment, configurados: EnderecosConfigurados): Destino {
  const configurado = configurados.endpoints?.[autorizador]?.[servico];
  if (configurado) return { autorizador, url: configurado };
  if (configurados.baseUrl) return { autorizador, url: `${configurados.baseUrl.replace(/\/+$/, '')}/${autorizador}/${servico}` };
  const tabela = ehCte(servico) ? ENDERECOS_CTE[autorizador] : ENDERECOS_MDFE;
  if (!tabela) throw new SemEnderecoSefaz(autorizador, servico);
  return { autorizador, url: tabela[ambiente](servico) };
}
