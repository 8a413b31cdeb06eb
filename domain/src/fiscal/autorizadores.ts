import { type AutorizadorContingencia, type Environment, type TpEmisContingencia, type Uf } from '@frete/contracts';

/**
 * Who authorizes a CT-e or an MDF-e, who stands in for it in contingency, and where its QR code points: the facts
 * the document builder needs, kept once here (the adapters' routing data, `services/adapters/src/autoridade/sefaz/
 * autorizadores.ts`, adds the web service addresses and re-exports these). Each table names its sources; the note
 * `docs/fatos-autoridades.md` lists them with their agreement. A maintainer updates this file when a state moves.
 *
 * Sources, by short name:
 * - MOC: MOC CT-e 4.00 (Visão Geral; Anexo I), as published in nfephp-org/sped-cte `storage/`.
 * - sped-cte: nfephp-org/sped-cte @ 2232aa7 (2026, after "feat: NT 2026.002"): `storage/autorizadores.json`,
 *   `storage/wscte_4.00_mod57.xml`, `src/Factories/Contingency.php`.
 * - Java_CTe: Samuel-Oliveira/Java_CTe @ c4de5d6 (release 4.00.14): `src/main/resources/WebServicesCte.ini`,
 *   `src/main/java/br/com/swconsultoria/cte/util/WebServiceCteUtil.java` (its comment: "Estados x SVC conforme
 *   NT2012.003").
 * - sefazclass: JoseQuintas/sefazclass `sefazclass/include/sefazclass.ch` (`WS_CTE_QRCODE`, `WS_MDFE_QRCODE`).
 * - sped-mdfe: nfephp-org/sped-mdfe @ 05b74a0: `src/Factories/QRCode.php`.
 */

/** The 27 UFs by their letters (the contracts' `Uf` is any string; the tables below must name every one). */
type Sigla =
  | 'AC'
  | 'AL'
  | 'AM'
  | 'AP'
  | 'BA'
  | 'CE'
  | 'DF'
  | 'ES'
  | 'GO'
  | 'MA'
  | 'MG'
  | 'MS'
  | 'MT'
  | 'PA'
  | 'PB'
  | 'PE'
  | 'PI'
  | 'PR'
  | 'RJ'
  | 'RN'
  | 'RO'
  | 'RR'
  | 'RS'
  | 'SC'
  | 'SE'
  | 'SP'
  | 'TO';

/** The normal authorizers of CT-e (model 57). RS authorizes its own on SVRS's hosts. */
export type AutorizadorNormalCte = 'SVRS' | 'SVSP' | 'SP' | 'MG' | 'MS' | 'MT' | 'PR' | 'RS';
export type Autorizador = AutorizadorNormalCte | AutorizadorContingencia;

/**
 * CT-e: the authorizer of each UF. Sources: sped-cte `storage/autorizadores.json` ("57"), Java_CTe
 * `WebServicesCte.ini` (`Usar=` of each `[CTe_<UF>_P]`), facts file `shared/design/sefaz-webservices.md`: all three
 * agree (MG, MS, MT, PR, RS, SP their own; AP, PE, RR SVSP; the rest SVRS). The MOC names the virtual authorizers
 * (Visão Geral §11.2: "SEFAZ Virtual dos Estados do Rio Grande do Sul e de São Paulo") but lists no UF per authorizer.
 */
export const AUTORIZADOR_CTE_POR_UF: Readonly<Record<Sigla, AutorizadorNormalCte>> = {
  AC: 'SVRS',
  AL: 'SVRS',
  AM: 'SVRS',
  AP: 'SVSP',
  BA: 'SVRS',
  CE: 'SVRS',
  DF: 'SVRS',
  ES: 'SVRS',
  GO: 'SVRS',
  MA: 'SVRS',
  MG: 'MG',
  MS: 'MS',
  MT: 'MT',
  PA: 'SVRS',
  PB: 'SVRS',
  PE: 'SVSP',
  PI: 'SVRS',
  PR: 'PR',
  RJ: 'SVRS',
  RN: 'SVRS',
  RO: 'SVRS',
  RR: 'SVSP',
  RS: 'RS',
  SC: 'SVRS',
  SE: 'SVRS',
  SP: 'SP',
  TO: 'SVRS',
};

/** `tpEmis` of a document issued through each contingency authorizer (MOC Visão Geral §11.3.3; rule G011). */
export const TP_EMIS_CONTINGENCIA: Readonly<Record<AutorizadorContingencia, TpEmisContingencia>> = { 'SVC-RS': 7, 'SVC-SP': 8 };

/**
 * CT-e contingency: the virtual authorizer (SVC) that stands in for each UF (`tpEmis` 7 SVC-RS, 8 SVC-SP). Sources:
 * sped-cte `src/Factories/Contingency.php` (`activate()`'s list: 'SVRS' = SVC-RS, 'SVSP' = SVC-SP) and Java_CTe
 * `WebServiceCteUtil.java` (AP, PE, RR, SP, MT, MS → the SVC-RS section; every other UF → SVC-SP, "conforme
 * NT2012.003"): both agree, UF by UF. The MOC says only that each UF has one ("conforme a SVC prevista para atender
 * determinada SEFAZ", Visão Geral §11.3.3; rules C08/C09, 513/114) and sends to the portals for the list; NT 2012.003
 * itself was not available here. Not a derivation: MS and MT go to SVC-RS although they authorize their own.
 */
export const CONTINGENCIA_CTE_POR_UF: Readonly<Record<Sigla, AutorizadorContingencia>> = {
  AC: 'SVC-SP',
  AL: 'SVC-SP',
  AM: 'SVC-SP',
  AP: 'SVC-RS',
  BA: 'SVC-SP',
  CE: 'SVC-SP',
  DF: 'SVC-SP',
  ES: 'SVC-SP',
  GO: 'SVC-SP',
  MA: 'SVC-SP',
  MG: 'SVC-SP',
  MS: 'SVC-RS',
  MT: 'SVC-RS',
  PA: 'SVC-SP',
  PB: 'SVC-SP',
  PE: 'SVC-RS',
  PI: 'SVC-SP',
  PR: 'SVC-SP',
  RJ: 'SVC-SP',
  RN: 'SVC-SP',
  RO: 'SVC-SP',
  RR: 'SVC-RS',
  RS: 'SVC-SP',
  SC: 'SVC-SP',
  SE: 'SVC-SP',
  SP: 'SVC-RS',
  TO: 'SVC-SP',
};

const daTabela = <T>(tabela: Readonly<Record<Sigla, T>>, uf: Uf): T => {
  const achado = (tabela as Readonly<Record<string, T>>)[uf];
  if (achado === undefined) throw new Error(`no CT-e authorizer for UF ${JSON.stringify(uf)}`);
  return achado;
};

export const autorizadorCte = (uf: Uf): AutorizadorNormalCte => daTabela(AUTORIZADOR_CTE_POR_UF, uf);
export const autorizadorContingenciaCte = (uf: Uf): AutorizadorContingencia => daTabela(CONTINGENCIA_CTE_POR_UF, uf);

/** MDF-e (model 58): SVRS for every state (sped-mdfe `storage/wsmdfe_3.00.xml` has SVRS's only; facts file). */
export const AUTORIZADOR_MDFE = 'SVRS' as const;

type PorAmbiente = Readonly<Record<Environment, string>>;
const igual = (url: string): PorAmbiente => ({ homologacao: url, producao: url });

const QR_SVRS = igual('https://dfe-portal.svrs.rs.gov.br/cte/qrCode');
const QR_SP: PorAmbiente = {
  homologacao: 'https://homologacao.nfe.fazenda.sp.gov.br/CTeConsulta/qrCode',
  producao: 'https://nfe.fazenda.sp.gov.br/CTeConsulta/qrCode',
};

/**
 * CT-e: the base of `qrCodCTe` (before `?chCTe=…&tpAmb=…`, MOC Visão Geral §9.2.1) per authorizer and environment.
 * The MOC publishes no list (it points to dfe-portal.svrs.rs.gov.br/cte/Servicos, unreachable here) and allows one
 * address for both environments. Sources: sped-cte `wscte_4.00_mod57.xml` (`QRCode` of each authorizer), Java_CTe
 * `WebServicesCte.ini` (`URL-QRCode`, incl. its SVC-RS and SVC-SP sections), sefazclass `WS_CTE_QRCODE`. They agree
 * except MG: sped-cte and Java_CTe's CT-e section give portalcte.fazenda.mg.gov.br for both environments (kept
 * here); sefazclass gives cte.fazenda.mg.gov.br/portalcte/…, Java_CTe's CT-e OS/GTV-e sections hcte.fazenda.mg.gov.br
 * /portalcte/… for homologação. SVSP and SVC-SP are SP's portal, SVC-RS SVRS's (sped-cte SVSP; Java_CTe SVC-*).
 */
export const QRCODE_CTE: Readonly<Record<Autorizador, PorAmbiente>> = {
  SVRS: QR_SVRS,
  RS: QR_SVRS,
  'SVC-RS': QR_SVRS,
  SP: QR_SP,
  SVSP: QR_SP,
  'SVC-SP': QR_SP,
  MG: igual('https://portalcte.fazenda.mg.gov.br/portalcte/sistema/qrcode.xhtml'),
  MS: igual('http://www.dfe.ms.gov.br/cte/qrcode'),
  MT: { homologacao: 'https://homologacao.sefaz.mt.gov.br/cte/qrcode', producao: 'https://www.sefaz.mt.gov.br/cte/qrcode' },
  PR: igual('http://www.fazenda.pr.gov.br/cte/qrcode'),
};

/**
 * MDF-e: the base of `qrCodMDFe`, SVRS's for both environments (sped-mdfe `src/Factories/QRCode.php`, sefazclass
 * `WS_MDFE_QRCODE`: they agree; the MDF-e manual was not available here).
 */
export const QRCODE_MDFE: PorAmbiente = igual('https://dfe-portal.svrs.rs.gov.br/mdfe/qrCode');
