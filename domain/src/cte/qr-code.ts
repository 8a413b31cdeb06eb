/**
 * The text of the DACTE's QR code. CT-e 4.00 carries it in `infCTeSupl/qrCodCTe`, which is printed as written. For
 * documents without it (older 3.00 ones), the standard text is rebuilt as `<portal>?chCTe=<key>&tpAmb=<1|2>`, with
 * the QR code consultation portal of the authorizer of the issuer's state (the key's `cUF`): MG, MS, MT, PR and SP
 * run their own; every other state is served by SVRS. Contingency through SVC-RS (`tpEmis` 7) and SVC-SP (8) uses
 * the portal of that virtual authorizer. EPEC (4) and FS-DA (5) need `&sign=` (the key signed with the issuer's
 * certificate), which cannot be rebuilt here: those get no QR code.
 *
 * The portal addresses are those of the authorizers' published QR code services; the PR and SVRS ones match the
 * `qrCodCTe` of public sample documents (test/fixtures/cte).
 */

const SVRS = 'https://dfe-portal.svrs.rs.gov.br/cte/qrCode';
const SP = {
  producao: 'https://nfe.fazenda.sp.gov.br/CTeConsulta/qrCode',
  homologacao: 'https://homologacao.nfe.fazenda.sp.gov.br/CTeConsulta/qrCode',
};

const OWN_PORTALS: Record<string, { producao: string; homologacao: string }> = {
  '31': {
    producao: 'https://cte.fazenda.mg.gov.br/portalcte/sistema/qrcode.xhtml',
    homologacao: 'https://cte.fazenda.mg.gov.br/portalcte/sistema/qrcode.xhtml',
  },
  '35': SP,
  '41': { producao: 'http://www.fazenda.pr.gov.br/cte/qrcode', homologacao: 'http://www.fazenda.pr.gov.br/cte/qrcode' },
  '50': { producao: 'http://www.dfe.ms.gov.br/cte/qrcode', homologacao: 'http://www.dfe.ms.gov.br/cte/qrcode' },
  '51': { producao: 'https://www.sefaz.mt.gov.br/cte/qrcode', homologacao: 'https://homologacao.sefaz.mt.gov.br/cte/qrcode' },
};

type Ambiente = 'producao' | 'homologacao';

/** The portal of the QR code consultation for a key, or null when the key's emission type needs a signature. */
export function qrCodePortal(chave: string, ambiente: Ambiente): string | null {
  const tpEmis = chave[34];
  if (tpEmis === '7') return SVRS;
  if (tpEmis === '8') return SP[ambiente];
  if (tpEmis !== '1') return null;
  return OWN_PORTALS[chave.slice(0, 2)]?.[ambiente] ?? SVRS;
}

/** The QR code text: the document's own when it has one, else the standard one rebuilt (null when it cannot be). */
export function qrCodeText(cte: { chave: string; ambiente: Ambiente; qr_code?: string | null }): string | null {
  if (cte.qr_code) return cte.qr_code;
  const portal = qrCodePortal(cte.chave, cte.ambiente);
  return portal ? `${portal}?chCTe=${cte.chave}&tpAmb=${cte.ambiente === 'producao' ? 1 : 2}` : null;
}
