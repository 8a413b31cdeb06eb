import { type Falhas, problemaDaRegra, type RegraFalha } from './falhas';

/**
 * `/_falhas` for integrators, on the same mutual-TLS server (only a trusted client certificate reaches it):
 * `POST` a rule or an array of rules (JSON, `RegraFalha`) to add them, `DELETE` to clear every rule, `GET` to list
 * them. Answers JSON: `{ "regras": [...] }`, or `{ "erro": "..." }` with 400/405.
 */
export const CAMINHO_FALHAS = '/_falhas';

export interface RespostaAdmin {
  status: number;
  corpo: unknown;
}

export function administrarFalhas(falhas: Falhas, metodo: string, corpo: string): RespostaAdmin {
  const regras = () => ({ regras: falhas.listar() });
  if (metodo === 'GET') return { status: 200, corpo: regras() };
  if (metodo === 'DELETE') {
    falhas.limpar();
    return { status: 200, corpo: regras() };
  }
  if (metodo !== 'POST')
    return { status: 405, corpo: { erro: `method ${metodo} is not allowed on ${CAMINHO_FALHAS}: use POST, DELETE or GET` } };
  let valor: unknown;
  try {
    valor = JSON.parse(corpo);
  } catch {
    return { status: 400, corpo: { erro: 'the body is not JSON: send a rule or an array of rules' } };
  }
  const lista = Array.isArray(valor) ? (valor as unknown[]) : [valor];
  if (lista.length === 0) return { status: 400, corpo: { erro: 'the array of rules is empty' } };
  for (const [i, regra] of lista.entries()) {
    const problema = problemaDaRegra(regra);
    if (problema) return { status: 400, corpo: { erro: Array.isArray(valor) ? `rule ${i}: ${problema}` : problema } };
  }
  falhas.programar(lista as RegraFalha[]);
  return { status: 201, corpo: regras() };
}
