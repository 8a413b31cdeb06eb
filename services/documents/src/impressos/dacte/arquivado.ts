import { type CteLido, type Environment } from '@frete/contracts';
import { decodeXml } from '../../leitura/decode-xml';
import { readCteDocument } from '../../leitura/readers';
import { renderDacte } from './render';

/** Where a caller records why an archived XML could not be drawn (its request's log). */
export interface RegistroDeFalha {
  error: (contexto: object, mensagem: string) => void;
}

/**
 * The DACTE of an archived CT-e, drawn from its stored bytes (the API's download and the panel's share it). Those
 * bytes were read when they were archived, so failing to read them now is the archive's fault: it is logged and the
 * answer is null, which the callers turn into "cannot be read now".
 */
export async function dacteDoArquivo(
  xml: Buffer,
  cte: { cte_id: string; situacao: string },
  environment: Environment,
  log: RegistroDeFalha,
): Promise<Buffer | null> {
  let lido: CteLido;
  try {
    lido = await readCteDocument(decodeXml(xml));
  } catch (err) {
    log.error({ err, cte_id: cte.cte_id }, 'archived CT-e XML no longer readable');
    return null;
  }
  return renderDacte(lido, { environment, cancelado: cte.situacao === 'cancelado' });
}
