import { gunzipSync } from 'node:zlib';
import { childElements } from '@frete/documents';
import { type ModeloFiscal, type RetornoAutorizacao } from '@frete/adapters';
import { type Balcao, type Pedido, RecusaDoPedido, type Resposta, retorno } from './pedido';
import { retornoRecepcao } from './retornos';

/**
 * `CTeRecepcaoSincV4` / `MDFeRecepcaoSinc`: the data area's text is the signed `CTe`/`MDFe`, gzipped and in Base64.
 * The door decodes it (anything it cannot decode is the schema rejection of the document, 225, never a crash) and
 * the rules decide.
 */

/** What a decompressed document may weigh: a gzip bomb stops here, cut off by zlib itself. */
export const MAXIMO_DESCOMPACTADO = 5 * 1024 * 1024;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The signed document the data area carries, or the 225 that says why it cannot be read. */
export function documentoDaArea(modelo: ModeloFiscal, pedido: Pedido): string {
  const recusa = (motivo: string) => new RecusaDoPedido(modelo, 225, `[Motivo: ${motivo}]`);
  if (childElements(pedido.dados).length > 0) throw recusa('a área de dados deve ser o documento compactado (gzip) em Base64, não XML');
  const texto = (pedido.dados.textContent ?? '').replace(/\s+/g, '');
  if (texto === '' || !BASE64.test(texto)) throw recusa('a área de dados não é Base64');
  const gzip = Buffer.from(texto, 'base64');
  if (gzip.length < 18 || gzip[0] !== 0x1f || gzip[1] !== 0x8b) throw recusa('a área de dados não é gzip');
  let bytes: Buffer;
  try {
    bytes = gunzipSync(gzip, { maxOutputLength: MAXIMO_DESCOMPACTADO });
  } catch (error) {
    const grande = error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
    throw recusa(grande ? `o documento descompactado passa de ${MAXIMO_DESCOMPACTADO} bytes` : 'falha na descompactação (gzip)');
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    throw recusa('o documento não está em UTF-8');
  }
}

/** The rules' verdict as the authority answers it (MOC: protocol only when authorized or denied). */
export function respostaDaAutorizacao(modelo: ModeloFiscal, balcao: Balcao, r: RetornoAutorizacao): Resposta {
  const c = balcao.cabecalho;
  switch (r.tipo) {
    case 'autorizado':
    case 'denegado':
      return retorno(retornoRecepcao(modelo, c, r.cStat, r.xMotivo, r.protocolo.xml));
    // 204/539 carry the protocol's number in xMotivo only, as a real authority answers them.
    case 'duplicidade':
    case 'rejeitado':
    case 'em_processamento':
      return retorno(retornoRecepcao(modelo, c, r.cStat, r.xMotivo));
    case 'sem_resposta':
      return { tipo: 'sem_resposta' };
  }
}

export async function recepcaoSincrona(pedido: Pedido, balcao: Balcao): Promise<Resposta> {
  const modelo = pedido.modelo;
  const xml = documentoDaArea(modelo, pedido);
  const r =
    modelo === 'cte'
      ? await balcao.autoridade.autorizarCte(xml, pedido.remetente)
      : await balcao.autoridade.autorizarMdfe(xml, pedido.remetente);
  return respostaDaAutorizacao(modelo, balcao, r);
}
