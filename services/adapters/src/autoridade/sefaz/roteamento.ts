import { type Environment, type Uf } from '@frete/contracts';
import { ufByCode } from '@frete/domain';
import {
  AMBIENTE_NACIONAL,
  type AmbienteNacional,
  type Autorizador,
  AUTORIZADOR_MDFE,
  ENDERECOS_AN,
  autorizadorCte,
  ENDERECOS_CTE,
  ENDERECOS_MDFE,
  SERVICOS_CTE,
  type ServicoAn,
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

/** The configured address of a service at a destination (`SEFAZ_ENDPOINTS`, then `SEFAZ_BASE_URL`), or null. */
function configurado(destino: string, servico: string, configurados: EnderecosConfigurados): string | null {
  const url = configurados.endpoints?.[destino]?.[servico];
  if (url) return url;
  if (configurados.baseUrl) return `${configurados.baseUrl.replace(/\/+$/, '')}/${destino}/${servico}`;
  return null;
}

/** Where a national service goes: the national environment (`AN`) is one destination for every UF. */
export interface DestinoAn {
  autorizador: AmbienteNacional;
  url: string;
}

/** The address of a national environment's service in this environment, with the same precedence as the authorizers'. */
export function destinoAn(servico: ServicoAn, ambiente: Environment, configurados: EnderecosConfigurados = {}): DestinoAn {
  return { autorizador: AMBIENTE_NACIONAL, url: configurado(AMBIENTE_NACIONAL, servico, configurados) ?? ENDERECOS_AN[servico][ambiente] };
}

function enderecoDe(autorizador: Autorizador, servico: ServicoSefaz, ambiente: Environment, configurados: EnderecosConfigurados): Destino {
  const url = configurado(autorizador, servico, configurados);
  if (url) return { autorizador, url };
  const tabela = ehCte(servico) ? ENDERECOS_CTE[autorizador] : ENDERECOS_MDFE;
  if (!tabela) throw new SemEnderecoSefaz(autorizador, servico);
  return { autorizador, url: tabela[ambiente](servico) };
}
