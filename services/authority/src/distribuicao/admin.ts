import { type AmbienteNacionalSimulado, NfeNaoDistribuivel } from '@frete/adapters';
import { type RespostaAdmin } from '../falhas/admin';

/**
 * `/_ambiente-nacional/nfe`, a test hook on the same mutual-TLS server (only a trusted client certificate reaches it):
 * `POST` an authorized `nfeProc` (the XML as the body) and the national environment distributes it, byte for byte, to
 * its emitter, recipient, carrier (`transporta`) and `autXML`, as an NF-e authorized elsewhere would reach them.
 * Answers JSON `{ "chave": "...", "nsus": { "<CNPJ/CPF>": "<NSU>" } }` (201), or `{ "erro": "..." }` with 400/405.
 */
export const CAMINHO_AMBIENTE_NACIONAL_NFE = '/_ambiente-nacional/nfe';

export async function registrarNfeAdmin(ambiente: AmbienteNacionalSimulado, metodo: string, corpo: string): Promise<RespostaAdmin> {
  if (metodo !== 'POST')
    return { status: 405, corpo: { erro: `method ${metodo} is not allowed on ${CAMINHO_AMBIENTE_NACIONAL_NFE}: use POST` } };
  try {
    const { chave, nsus } = await ambiente.registrarNfe(corpo);
    return { status: 201, corpo: { chave, nsus: Object.fromEntries(nsus) } };
  } catch (error) {
    if (error instanceof NfeNaoDistribuivel) return { status: 400, corpo: { erro: error.message } };
    throw error;
  }
}
