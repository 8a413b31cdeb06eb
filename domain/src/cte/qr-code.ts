import { QRCODE_CTE, autorizadorCte } from '../fiscal/autorizadores';
import { ufByCode } from '../fiscal/ufs';

/**
 * The text of the DACTE's QR code. CT-e 4.00 carries it in `infCTeSupl/qrCodCTe`, which is printed as written. For
 * documents without it (older 3.00 ones), the standard text is rebuilt as `<portal>?chCTe=<key>&tpAmb=<1|2>` (MOC
 * Visão Geral §9.2.1), with the QR code portal of the authorizer (`QRCODE_CTE`, one table with its sources): the
 * authorizer of the key's UF (`cUF`) or, in contingency, SVC-RS (`tpEmis` 7) or SVC-SP (8). EPEC (4) and FS-DA (5)
 * need `&sign=` (the key signed with the issuer's certificate, §9.2.2), which cannot be rebuilt here: those get none.
 */

type Ambiente = 'producao' | 'homologacao';

/** The portal of the QR code consultation for a key, or null when the key's emission type needs a signature. */
export function qrCodePortal(chave: string, ambiente: Ambiente): string | null {
  const tpEmis = chave[34];
  if (tpEmis === '7') return QRCODE_CTE['SVC-RS'][ambiente];
  if (tpEmis === '8') return QRCODE_CTE['SVC-SP'][ambiente];
  if (tpEmis !== '1') return null;
  const uf = ufByCode(chave.slice(0, 2))?.sigla;
  return uf ? QRCODE_CTE[autorizadorCte(uf)][ambiente] : null;
}

/** The QR code text: the document's own when it has one, else the standard one rebuilt (null when it cannot be). */
export function qrCodeText(cte: { chave: string; ambiente: Ambiente; qr_code?: string | null }): string | null {
  if (cte.qr_code) return cte.qr_code;
  const portal = qrCodePortal(cte.chave, cte.ambiente);
  return portal ? `${portal}?chCTe=${cte.chave}&tpAmb=${cte.ambiente === 'producao' ? 1 : 2}` : null;
}
