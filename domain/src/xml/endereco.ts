import { type EnderecoLido } from '@frete/contracts';
import { text as strictText, type XmlNode } from './nodes';

/**
 * The address group NF-e and CT-e share (`enderEmit`, `enderDest`, …). `text` is the caller's, because the
 * CT-e reader reads elements without text of their own differently from the NF-e reader.
 */
export function endereco(n: XmlNode | null, text: (v: unknown) => string | null = strictText): EnderecoLido | null {
  if (!n) return null;
  return {
    logradouro: text(n.xLgr),
    numero: text(n.nro),
    complemento: text(n.xCpl),
    bairro: text(n.xBairro),
    codigo_municipio: text(n.cMun),
    municipio: text(n.xMun),
    uf: text(n.UF),
    cep: text(n.CEP),
    pais: text(n.xPais),
  };
}
