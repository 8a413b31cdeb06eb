import { type Environment } from '@frete/contracts';
import { type Autorizador } from '@frete/domain';

/**
 * Who authorizes and where, as data: with `domain/src/fiscal/autorizadores.ts` (who authorizes each UF, the SVC of
 * each UF, the QR code portals: the document builder needs them, so they live there once and are re-exported here),
 * the files a maintainer updates when a state moves to another authorizer or an address changes. Each fact names its
 * source beside it; `docs/fatos-autoridades.md` lists them with their agreement.
 */
export {
  AUTORIZADOR_CTE_POR_UF,
  AUTORIZADOR_MDFE,
  type Autorizador,
  autorizadorContingenciaCte,
  autorizadorCte,
  CONTINGENCIA_CTE_POR_UF,
  QRCODE_CTE,
  QRCODE_MDFE,
  TP_EMIS_CONTINGENCIA,
} from '@frete/domain';
export type { AutorizadorContingencia } from '@frete/contracts';

export type ServicoCte = 'CTeRecepcaoSincV4' | 'CTeConsultaV4' | 'CTeStatusServicoV4' | 'CTeRecepcaoEventoV4';
export type ServicoMdfe = 'MDFeRecepcaoSinc' | 'MDFeConsulta' | 'MDFeRecepcaoEvento' | 'MDFeStatusServico' | 'MDFeConsNaoEnc';
export type ServicoSefaz = ServicoCte | ServicoMdfe;

export const SERVICOS_CTE: readonly ServicoCte[] = ['CTeRecepcaoSincV4', 'CTeConsultaV4', 'CTeStatusServicoV4', 'CTeRecepcaoEventoV4'];
export const SERVICOS_MDFE: readonly ServicoMdfe[] = [
  'MDFeRecepcaoSinc',
  'MDFeConsulta',
  'MDFeRecepcaoEvento',
  'MDFeStatusServico',
  'MDFeConsNaoEnc',
];

type Enderecos = Record<Environment, (servico: ServicoSefaz) => string>;

const svrs = (host: Record<Environment, string>): Enderecos => ({
  homologacao: (s) => `https://${host.homologacao}/ws/${s}/${s}.asmx`,
  producao: (s) => `https://${host.producao}/ws/${s}/${s}.asmx`,
});

const SVRS_CTE = svrs({ homologacao: 'cte-homologacao.svrs.rs.gov.br', producao: 'cte.svrs.rs.gov.br' });
const SP_CTE: Enderecos = {
  homologacao: (s) => `https://homologacao.nfe.fazenda.sp.gov.br/CTeWS/WS/${s}.asmx`,
  producao: (s) => `https://nfe.fazenda.sp.gov.br/CTeWS/WS/${s}.asmx`,
};

/**
 * The built-in addresses of CT-e 4.00 services per authorizer, both environments. Sources: sped-cte @ 2232aa7
 * `storage/wscte_4.00_mod57.xml` and Java_CTe @ c4de5d6 `src/main/resources/WebServicesCte.ini` (`*_4.00` keys),
 * which agree address by address for every authorizer below (the facts file had all but SVSP). RS answers on SVRS's
 * hosts (both libraries). SVSP, SP's virtual authorizer for AP, PE and RR, is served by SP's hosts: sped-cte's
 * `<sigla>SVSP</sigla>` holds SP's addresses, Java_CTe sends AP, PE and RR to `CTe_SP_*`. SVC-RS is served by SVRS's
 * hosts and SVC-SP by SP's (Java_CTe `[CTe_SVC-RS_*]`, `[CTe_SVC-SP_*]`; sped-cte `Contingency` switches to its SVRS
 * and SVSP entries). The MOC lists no addresses (Visão Geral §11.3.3: "disponível no Portal Nacional do CTe … e no
 * Portal da SVRS"), and those portals cannot be reached from here.
 */
export const ENDERECOS_CTE: Readonly<Record<Autorizador, Enderecos>> = {
  SVRS: SVRS_CTE,
  RS: SVRS_CTE,
  'SVC-RS': SVRS_CTE,
  SP: SP_CTE,
  SVSP: SP_CTE,
  'SVC-SP': SP_CTE,
  MG: {
    homologacao: (s) => `https://hcte.fazenda.mg.gov.br/cte/services/${s}`,
    producao: (s) => `https://cte.fazenda.mg.gov.br/cte/services/${s}`,
  },
  MS: { homologacao: (s) => `https://homologacao.cte.ms.gov.br/ws/${s}`, producao: (s) => `https://producao.cte.ms.gov.br/ws/${s}` },
  MT: {
    homologacao: (s) => `https://homologacao.sefaz.mt.gov.br/ctews2/services/${s}`,
    producao: (s) => `https://cte.sefaz.mt.gov.br/ctews2/services/${s}`,
  },
  PR: {
    homologacao: (s) => `https://homologacao.cte.fazenda.pr.gov.br/cte4/${s}`,
    producao: (s) => `https://cte.fazenda.pr.gov.br/cte4/${s}`,
  },
};

/** The built-in addresses of MDF-e 3.00 services (SVRS): sped-mdfe @ 05b74a0 `storage/wsmdfe_3.00.xml`. */
export const ENDERECOS_MDFE: Enderecos = svrs({ homologacao: 'mdfe-homologacao.svrs.rs.gov.br', producao: 'mdfe.svrs.rs.gov.br' });

/**
 * The national environment (Ambiente Nacional, `AN`): not an authorizer of any UF, but a destination of services
 * routed as the authorizers' are (`SEFAZ_ENDPOINTS` `{ "AN": { "<Service>": "<url>" } }`, `SEFAZ_BASE_URL`
 * `<base>/AN/<Service>`, else the table below). Its services here: the distribution of documents of interest.
 */
export const AMBIENTE_NACIONAL = 'AN';
export type AmbienteNacional = typeof AMBIENTE_NACIONAL;
export type ServicoAn = 'CTeDistribuicaoDFe' | 'NFeDistribuicaoDFe';
export const SERVICOS_AN: readonly ServicoAn[] = ['CTeDistribuicaoDFe', 'NFeDistribuicaoDFe'];

/**
 * The built-in addresses of the national distribution services, both environments. Sources: sped-cte @ 2232aa7
 * `storage/wscte_4.00_mod57.xml` (`<sigla>AN</sigla>`, `CTeDistribuicaoDFe` version 1.00); sped-nfe @ 3b44ec9
 * `storage/wsnfe_4.00_mod55.xml` (`<sigla>AN</sigla>`, `NfeDistribuicaoDFe` method `nfeDistDFeInteresse` version
 * 1.01); Java_CTe @ ffcee65 `CTeDistribuicaoDFeStub.java` (generated from the WSDL: the production address); the facts
 * file "Distribution". All agree. Hosts: `www1`/`hom1` (not `www`/`hom`, which serve other AN services).
 */
export const ENDERECOS_AN: Readonly<Record<ServicoAn, Readonly<Record<Environment, string>>>> = {
  CTeDistribuicaoDFe: {
    homologacao: 'https://hom1.cte.fazenda.gov.br/CTeDistribuicaoDFe/CTeDistribuicaoDFe.asmx',
    producao: 'https://www1.cte.fazenda.gov.br/CTeDistribuicaoDFe/CTeDistribuicaoDFe.asmx',
  },
  NFeDistribuicaoDFe: {
    homologacao: 'https://hom1.nfe.fazenda.gov.br/NFeDistribuicaoDFe/NFeDistribuicaoDFe.asmx',
    producao: 'https://www1.nfe.fazenda.gov.br/NFeDistribuicaoDFe/NFeDistribuicaoDFe.asmx',
  },
};

/** `tpAmb`: the sandbox deployment talks to homologação (2), production to produção (1). */
export const tpAmbDe = (ambiente: Environment): 1 | 2 => (ambiente === 'producao' ? 1 : 2);
