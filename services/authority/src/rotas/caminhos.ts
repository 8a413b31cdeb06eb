import { type Autorizador, ENDERECOS_CTE, ENDERECOS_MDFE, type ServicoSefaz, SERVICOS_CTE, SERVICOS_MDFE } from '@frete/adapters';
import { atende, ehAutorizador } from './autorizadores';

export interface Rota {
  autorizador: Autorizador;
  servico: ServicoSefaz;
}

const SERVICOS: readonly string[] = [...SERVICOS_CTE, ...SERVICOS_MDFE];
const ehServico = (nome: string): nome is ServicoSefaz => SERVICOS.includes(nome);

/**
 * The paths of the real endpoint table (`autorizadores.ts`, both environments), each naming its service:
 * `/ws/<S>/<S>.asmx`, `/CTeWS/WS/<S>.asmx`, `/cte/services/<S>`, `/ws/<S>`, `/ctews2/services/<S>`, `/cte4/<S>`.
 * Compared without case, as IIS does.
 */
const CAMINHOS_REAIS: ReadonlyMap<string, ServicoSefaz> = (() => {
  const caminhos = new Map<string, ServicoSefaz>();
  const tabelas = [
    ...Object.values(ENDERECOS_CTE).map((e) => ({ enderecos: e, servicos: SERVICOS_CTE as readonly ServicoSefaz[] })),
    { enderecos: ENDERECOS_MDFE, servicos: SERVICOS_MDFE as readonly ServicoSefaz[] },
  ];
  for (const { enderecos, servicos } of tabelas) {
    for (const endereco of [enderecos.homologacao, enderecos.producao]) {
      for (const servico of servicos) caminhos.set(new URL(endereco(servico)).pathname.toLowerCase(), servico);
    }
  }
  return caminhos;
})();

/**
 * The authorizer and service a path names, or null (404):
 * - `/<authorizer>/<Service>`, the layout `SEFAZ_BASE_URL` gives (`/SVRS/CTeRecepcaoSincV4`, `/SVC-RS/CTeConsultaV4`,
 *   `/SVRS/MDFeRecepcaoSinc`); a service the authorizer does not answer (MDF-e outside SVRS) is not there;
 * - a path of the real endpoint table (`/ws/<S>/<S>.asmx`, `/CTeWS/WS/<S>.asmx`, `/cte/services/<S>`…): SVRS
 *   answers them, so that a client configured with the real paths (`SEFAZ_ENDPOINTS`) reaches the authorizer of most
 *   states (a host name is all that tells the real authorizers apart, and here there is one host).
 */
export function rotaDe(caminho: string): Rota | null {
  const partes = caminho.split('/').filter((p) => p !== '');
  const [primeiro, segundo] = partes;
  if (partes.length === 2 && ehAutorizador(primeiro!)) {
    return ehServico(segundo!) && atende(primeiro, segundo) ? { autorizador: primeiro, servico: segundo } : null;
  }
  const servico = CAMINHOS_REAIS.get(`/${partes.join('/')}`.toLowerCase());
  return servico ? { autorizador: 'SVRS', servico } : null;
}
