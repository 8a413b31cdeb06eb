import { type Environment, type Uf } from '@frete/contracts';

/**
 * Who authorizes and where, as data: the one file a maintainer updates when a state moves to another authorizer or an
 * address changes. Facts from `shared/design/sefaz-webservices.md` (the manuals' service lists and the endpoint
 * tables of nfephp-org/sped-cte and sped-mdfe); SVSP's addresses are not in them, so SVSP needs `SEFAZ_ENDPOINTS`.
 */
export type Autorizador = 'SVRS' | 'SVSP' | 'SP' | 'MG' | 'MS' | 'MT' | 'PR' | 'RS';

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

/** MDF-e (model 58): SVRS for every state. */
export const AUTORIZADOR_MDFE: Autorizador = 'SVRS';

type Enderecos = Record<Environment, (servico: ServicoSefaz) => string>;

const svrs = (host: Record<Environment, string>): Enderecos => ({
  homologacao: (s) => `https://${host.homologacao}/ws/${s}/${s}.asmx`,
  producao: (s) => `https://${host.producao}/ws/${s}/${s}.asmx`,
});

/** The built-in addresses of CT-e 4.00 services per authorizer (RS answers through SVRS). */
export const ENDERECOS_CTE: Partial<Record<Autorizador, Enderecos>> = {
  SVRS: svrs({ homologacao: 'cte-homologacao.svrs.rs.gov.br', producao: 'cte.svrs.rs.gov.br' }),
  RS: svrs({ homologacao: 'cte-homologacao.svrs.rs.gov.br', producao: 'cte.svrs.rs.gov.br' }),
  SP: {
    homologacao: (s) => `https://homologacao.nfe.fazenda.sp.gov.br/CTeWS/WS/${s}.asmx`,
    producao: (s) => `https://nfe.fazenda.sp.gov.br/CTeWS/WS/${s}.asmx`,
  },
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
