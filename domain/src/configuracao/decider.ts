import { type DomainEventOf, type Endereco, type FiscalConfigurationUpdate } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { findMunicipio } from '../ibge/municipios';
import { centesimosDePercentual } from '../money/money';

export type ConfiguracaoEvent = DomainEventOf<'configuracao.atualizada'>;

export interface ConfiguracaoState {
  inscricao_estadual: string | null;
  regime_tributario: number | null;
  rntrc: string | null;
  serie_cte: number | null;
  serie_mdfe: number | null;
  endereco: Endereco | null;
  /**
   * The pricing rule of counter-CT-e in hundredths of a percentage point (the contract's PercentualFreteContraCte,
   * 12.5% → 1250); optional for issuing.
   */
  percentual_frete_contra_cte_centesimos: number | null;
}

/** One configuration per company. */
export const configuracaoStream = (companyId: string) => `configuracao-${companyId}`;

export type ConfiguracaoCommand = { type: 'AtualizarConfiguracao'; company_id: string; changes: FiscalConfigurationUpdate };

const FIELDS = [
  'inscricao_estadual',
  'regime_tributario',
  'rntrc',
  'serie_cte',
  'serie_mdfe',
  'endereco',
  'percentual_frete_contra_cte',
] as const;
/** What a CT-e issue needs. */
const EXIGIDOS = ['inscricao_estadual', 'regime_tributario', 'rntrc', 'serie_cte', 'endereco'] as const;

/**
 * Series 890–899 are the tax authority's (CT-e avulso) and 900–999 are reserved for contingency and for
 * issuers identified by CPF (MOC 4.00): a carrier's CNPJ cannot take them.
 */
const isReservedSerie = (serie: number) => serie >= 890;

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const configuracaoDecider: Decider<ConfiguracaoCommand, ConfiguracaoState, ConfiguracaoEvent> = {
  initialState: {
    inscricao_estadual: null,
    regime_tributario: null,
    rntrc: null,
    serie_cte: null,
    serie_mdfe: null,
    endereco: null,
    percentual_frete_contra_cte_centesimos: null,
  },
  decide(command, state) {
    const input = command.changes;
    const changes: ConfiguracaoEvent['data']['changes'] = {};
    for (const field of FIELDS) {
      if (!(field in input) || input[field] === undefined) continue;
      let value = input[field] ?? null;
      if (field === 'endereco' && value !== null) value = canonicalEndereco(value as Endereco);
      if (field === 'percentual_frete_contra_cte') {
        const centesimos = value === null ? null : centesimosDePercentual(value as number);
        if (centesimos !== state.percentual_frete_contra_cte_centesimos) changes.percentual_frete_contra_cte_centesimos = centesimos;
      } else if (!sameValue(value, state[field])) Object.assign(changes, { [field]: value });
    }
    for (const field of ['serie_cte', 'serie_mdfe'] as const) {
      const serie = changes[field];
      if (typeof serie === 'number' && isReservedSerie(serie)) {
        throw new Rejection(
          'serie_reservada',
          `${field} ${serie} is reserved (890–999 belong to the tax authority, contingency and CPF issuers)`,
          {
            fields: [{ field, message: 'reserved series' }],
          },
        );
      }
    }
    if (Object.keys(changes).length === 0) return [];
    return [{ type: 'configuracao.atualizada', data: { company_id: command.company_id, changes } }];
  },
  evolve(state, event) {
    return { ...state, ...event.data.changes } as ConfiguracaoState;
  },
};

/** Municipality and UF checked against the IBGE table (ruling 19); the stored name and code are the table's. */
const canonicalEndereco = (endereco: Endereco): Endereco => {
  const found = findMunicipio(endereco.municipio, endereco.uf, endereco.codigo_ibge);
  if (!found) {
    throw new Rejection('validacao', `endereco: municipality '${endereco.municipio}'/${endereco.uf} is not in the IBGE table`, {
      fields: [
        {
          field: 'endereco.municipio',
          message: `'${endereco.municipio}'/${endereco.uf} is not an IBGE municipality${endereco.codigo_ibge ? ` with code ${endereco.codigo_ibge}` : ''}`,
        },
      ],
    });
  }
  return { ...endereco, complemento: endereco.complemento ?? null, municipio: found.municipio, codigo_ibge: found.codigo_ibge };
};

/** Fields a CT-e issue needs that are still empty. */
export const pendenciasConfiguracao = (state: Pick<ConfiguracaoState, (typeof EXIGIDOS)[number]>): string[] =>
  EXIGIDOS.filter((f) => state[f] === null);
