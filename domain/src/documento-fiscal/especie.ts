import { type ErrorCode } from '@frete/contracts';

/**
 * How a kind numbers its series, in the names its stored histories hold: the reservation event, the field naming the
 * document in it and the stream's prefix never change (a history written years ago is folded by today's decider).
 */
export type NumeracaoDoDocumento =
  | { evento: 'numeracao_cte.reservada'; campo: 'cte_id'; prefixo: 'numeracao_cte' }
  | { evento: 'numeracao_mdfe.reservada'; campo: 'mdfe_id'; prefixo: 'numeracao_mdfe' };

/**
 * One kind of issued fiscal document (CT-e model 57, MDF-e model 58) as plain data every layer reads: the routes, the
 * issue handler, the emitter, the numbering, the printed document and the panel take it instead of saying again what
 * tells the kinds apart. Each layer adds only what is its own (XML building, the authority's call, schemas, markup).
 */
export interface EspecieDocumento {
  /** `CT-e`, `MDF-e`: for messages and labels. */
  nome: 'CT-e' | 'MDF-e';
  modelo: '57' | '58';
  /** The resource (`/v1/fiscal/cte`, `/console/cte`), the events' prefix (`cte.`) and the audit's aggregate. */
  recurso: 'cte' | 'mdfe';
  /** The path parameter that names one document in the API. */
  parametro: 'cte_uuid' | 'mdfe_uuid';
  /** The id's column and field (`cte_id`): read-model rows, commands and events. */
  campoId: 'cte_id' | 'mdfe_id';
  /** The document's own stream. */
  stream: (id: string) => string;
  numeracao: NumeracaoDoDocumento;
  /** The fiscal configuration's field holding the series the company issues this kind in. */
  campoSerie: 'serie_cte' | 'serie_mdfe';
  /** Whether the authority denies use of this kind (CT-e 301–306); where it does not, a denial answer is a rejection. */
  denegacao: boolean;
  /** Every situation a document of this kind can be in, in the order of its life (the contracts' list): the lists' filters. */
  situacoes: readonly string[];
  /** Situations after which polling the issue tells nothing new. */
  conclusivas: readonly string[];
  /** Situations a poll answers 200 besides the conclusive ones (known, though not final). */
  conhecidas: readonly string[];
  erros: {
    /** The draft still lacks data, configuration or certificate. */
    pendencias: ErrorCode;
    /** The document is past its issue (or was never issued, when polled). */
    naoEditavel: ErrorCode;
    /** What needs an authorized document (its printed form, its events) asked of one that is not. */
    naoAutorizado: ErrorCode;
  };
  /** The kind's XML: its root, the signed element, its number's tag and its official schema. */
  xml: { raiz: 'CTe' | 'MDFe'; inf: 'infCte' | 'infMDFe'; numero: 'nCT' | 'nMDF'; esquema: 'cte_v4.00.xsd' | 'mdfe_v3.00.xsd' };
  /** Situations in which a document has a preview: not issued yet. */
  comPrevia: readonly string[];
  /** The archived document with its protocol (`cteProc`) and the printed one (`DACTE`), and when it exists. */
  impresso: { nome: 'DACTE' | 'DAMDFE'; proc: 'cteProc' | 'mdfeProc'; situacoes: readonly string[] };
}
