import { type Autorizador, type ServicoSefaz, SERVICOS_CTE, SERVICOS_MDFE } from '@frete/adapters';
import { atende, ehAutorizador } from './autorizadores';

export interface Rota {
  autorizador: Autorizador;
  servico: ServicoSefaz;
}

const SERVICOS: readonly string[] = [...SERVICOS_CTE, ...SERVICOS_MDFE];
const ehServico = (nome: string): nome is ServicoSefaz => SERVICOS.includes(nome);

/**
 * The authorizer and service a path names, or null (404):
 * - `/<authorizer>/<Service>`, the layout `SEFAZ_BASE_URL` gives (`/SVRS/CTeRecepcaoSincV4`, `/SVC-RS/CTeConsultaV4`,
 *   `/SVRS/MDFeRecepcaoSinc`); a service the authorizer does not answer (MDF-e outside SVRS) is not there;
 * - the real tables' shapes (`/ws/<S>/<S>.asmx`, `/CTeWS/WS/<S>.asmx`, `/cte/services/<S>`, `/cte4/<S>`…), the
 *   service being the last segment without `.asmx`: SVRS answers them, so that a client configured with the real
 *   paths (`SEFAZ_ENDPOINTS`) reaches the authorizer of most states.
 */
export function rotaDe(caminho: string): Rota | null {
  const partes = caminho.split('/').filter((p) => p !== '');
  if (partes.length < 2) return null;
  const [primeiro, segundo] = partes as [string, string];
  if (partes.length === 2 && ehAutorizador(primeiro)) {
    return ehServico(segundo) && atende(primeiro, segundo) ? { autorizador: primeiro, servico: segundo } : null;
  }
  const ultimo = partes[partes.length - 1]!.replace(/\.asmx$/i, '');
  return ehServico(ultimo) ? { autorizador: 'SVRS', servico: ultimo } : null;
}
