import { regraAmbiente, regraCampoId, regraCnpjEmitente, regraDigitoChave, regraUfAtendida, regraUfEmitente } from './comuns';
import { type RegraAutoridade } from './tipos';

/**
 * The MDF-e 3.00 rules (modelo 58) the product checks before sending, in the reception's order: the document's
 * identity (environment, authorizing UF, access key, emitter).
 */
export const REGRAS_MDFE: readonly RegraAutoridade[] = [
  regraAmbiente('mdfe'),
  regraUfAtendida('mdfe'),
  regraUfEmitente('mdfe'),
  regraCampoId('mdfe'),
  regraDigitoChave('mdfe'),
  regraCnpjEmitente('mdfe'),
];
