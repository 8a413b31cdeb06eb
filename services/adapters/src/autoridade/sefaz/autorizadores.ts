import { type Environment, type Uf } from '@frete/contracts';

/**
 * Who authorizes and where, as data: the one file a maintainer updates when a state moves to another authorizer or an
 * address changes. Facts from `shared/design/sefaz-webservices.md` (the manuals' service lists and the endpoint
 * tables of nfephp-org/sped-cte and sped-mdfe); SVSP's addresses are not in them, so SVSP needs `SEFAZ_ENDPOINTS`.
 */
export type Autorizador = 'SVRS' | 'SVSP' | 'SP' | 'MG' | 'MS' | 'MT' | 'PR' | 'RS' | AutorizadorContingencia;

/** The virtual contingency authorizers of CT-e (`tpEmis` 7 and 8). */
export type AutorizadorContingencia = 'SVC-RS' | 'SVC-SP';

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

/** CT-e (model 57): MG, MS, MT, PR, RS and SP authorize their own; AP, PE and RR use SVSP; every other state SVRS. */
const PROPRIOS: Partial<Record<Uf, Autorizador>> = { MG: 'MG', MS: 'MS', MT: 'MT', PR: 'PR', RS: 'RS', SP: 'SP' };
const DO_SVSP: readonly Uf[] = ['AP', 'PE', 'RR'];

export const autorizadorCte = (uf: Uf): Autorizador => PROPRIOS[uf] ?? (DO_SVSP.includes(uf) ? 'SVSP' : 'SVRS');

/**
 * CT-e contingency (facts file, "Contingency"): each state is assigned to one virtual authorizer. The states SP
 * authorizes, itself or through SVSP, go to SVC-RS; every other state to SVC-SP (MOC 4.00's table, as the
 * open-source libraries keep it: check it against the manual when a state moves).
 */
export const autorizadorContingenciaCte = (uf: Uf): AutorizadorContingencia =>
  autorizadorCte(uf) === 'SP' || autorizadorCte(uf) === 'SVSP' ? 'SVC-RS' : 'SVC-SP';

/** `tpEmis` of a document issued through each contingency authorizer. */
export const TP_EMIS_CONTINGENCIA: Record<AutorizadorContingencia, 7 | 8> = { 'SVC-RS': 7, 'SVC-SP': 8 };

/** MDF-e (model 58): SVRS for every state. */
export const AUTORIZADOR_MDFE: Autorizador = 'SVRS';

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
 * The built-in addresses of CT-e 4.00 services per authorizer (RS answers through SVRS). SVC-RS is served by SVRS's
 * hosts and SVC-SP by SP's (as sped-cte's table keeps them; not in the facts file: check the manual).
 */
export const ENDERECOS_CTE: Partial<Record<Autorizador, Enderecos>> = {
  SVRS: SVRS_CTE,
  RS: SVRS_CTE,
  'SVC-RS': SVRS_CTE,
  SP: SP_CTE,
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

/** The built-in addresses of MDF-e 3.00 services (SVRS). */
export const ENDERECOS_MDFE: Enderecos = svrs({ homologacao: 'mdfe-homologacao.svrs.rs.gov.br', producao: 'mdfe.svrs.rs.gov.br' });

/** `tpAmb`: the sandbox deployment talks to homologação (2), production to produção (1). */
export const tpAmbDe = (ambiente: Environment): 1 | 2 => (ambiente === 'producao' ? 1 : 2);
