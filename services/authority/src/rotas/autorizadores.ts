import {
  type Autorizador,
  AUTORIZADOR_MDFE,
  autorizadorContingenciaCte,
  autorizadorCte,
  type ModeloFiscal,
  type ServicoSefaz,
  SERVICOS_CTE,
  SERVICOS_MDFE,
} from '@frete/adapters';
import { UFS } from '@frete/domain';

/**
 * Which authorizer serves which UFs and services, from the routing data the adapter uses (`autorizadores.ts`), so
 * that a document sent to the wrong authorizer gets 226 as a real one would.
 */
export const AUTORIZADORES_CTE: readonly Autorizador[] = ['SVRS', 'SVSP', 'SP', 'MG', 'MS', 'MT', 'PR', 'RS', 'SVC-RS', 'SVC-SP'];

export const ehAutorizador = (nome: string): nome is Autorizador => (AUTORIZADORES_CTE as readonly string[]).includes(nome);

/** The services an authorizer answers: CT-e at every CT-e authorizer, MDF-e at SVRS only. */
export function atende(autorizador: Autorizador, servico: ServicoSefaz): boolean {
  if ((SERVICOS_MDFE as readonly string[]).includes(servico)) return autorizador === AUTORIZADOR_MDFE;
  return (SERVICOS_CTE as readonly string[]).includes(servico);
}

/**
 * The IBGE codes of the UFs an authorizer serves for a model. RS authorizes its own CT-e on SVRS's hosts (the
 * built-in table gives RS SVRS's addresses), so SVRS serves RS too: a client pointed at SVRS's real paths for RS
 * gets its documents processed, as it would there.
 */
export function ufsAtendidas(autorizador: Autorizador, modelo: ModeloFiscal): string[] {
  if (modelo === 'mdfe') return autorizador === AUTORIZADOR_MDFE ? UFS.map((u) => u.codigo_ibge) : [];
  const serve = (uf: (typeof UFS)[number]) =>
    autorizadorCte(uf.sigla) === autorizador ||
    autorizadorContingenciaCte(uf.sigla) === autorizador ||
    (autorizador === 'SVRS' && autorizadorCte(uf.sigla) === 'RS');
  return UFS.filter(serve).map((u) => u.codigo_ibge);
}

/**
 * The UF an authorizer answers from (`cUF` of its answers, `cOrgao` of its event answers when the event names none):
 * where it is seated.
 */
export const SEDE: Record<Autorizador, string> = {
  SVRS: '43',
  RS: '43',
  'SVC-RS': '43',
  SP: '35',
  SVSP: '35',
  'SVC-SP': '35',
  MG: '31',
  MS: '50',
  MT: '51',
  PR: '41',
};
