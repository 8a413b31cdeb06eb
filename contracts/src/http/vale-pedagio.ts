import { Type, type Static } from '@sinclair/typebox';
import { Local } from './cte-rascunho';
import { CursorQuery, PageQuery } from './common';
import { CategoriaVeicular, FornecedorValePedagio, LocalValePedagio, TipoValePedagio } from '../events/vale-pedagio';

/**
 * The mandatory toll pass (`/vale-pedagio`, scope `operacao`): routing of toll plazas, tariff calculation, purchase
 * and issue (paid at once from the operational account), plaza passages, receipt and regulatory cancellation. Money
 * as decimals with two places (ruling 10).
 */
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);
const Money = (description: string) => Type.Number({ minimum: 0, multipleOf: 0.01, description });
const Instant = (description: string) => Type.String({ format: 'date-time', description });

const Placa = Type.String({
  minLength: 7,
  maxLength: 8,
  description: 'Vehicle plate, old (`ABC1234`) or Mercosur (`ABC1D23`) pattern; hyphen and case ignored',
});

/** `POST /vale-pedagio/roteirizacao` and `POST /vale-pedagio/calculo`. */
export const ValePedagioRotaInput = Type.Object(
  {
    origem: Type.Ref(Local),
    destino: Type.Ref(Local),
    categoria: CategoriaVeicular,
    placa: Type.Optional(Placa),
  },
  { additionalProperties: false, $id: 'ValePedagioRotaInput', description: "A route (ruling 19 ends) and the vehicle's category" },
);
export type ValePedagioRotaInput = Static<typeof ValePedagioRotaInput>;

export const PracaPedagio = Type.Object(
  {
    ordem: Type.Integer({ minimum: 1, description: 'Order of passage from the origin' }),
    codigo: Type.String({ description: "The supplier's code of the plaza (the passage simulation names a plaza by it)" }),
    nome: Type.String(),
    rodovia: Type.String({ description: 'Highway, e.g. `BR-116`, `SP-330`' }),
    km: Type.Number({ description: 'Kilometre mark on the highway' }),
    uf: Type.String(),
    concessionaria: Type.String(),
    tarifa: Money('Tariff of the requested category at this plaza'),
  },
  { $id: 'PracaPedagio', description: 'A toll plaza on the route' },
);
export type PracaPedagio = Static<typeof PracaPedagio>;

export const TaxaServicoValePedagio = Type.Object({
  percentual: Type.Number({ description: 'Share of the toll total, in percent (1.5)' }),
  minimo: Money('The smallest fee of a purchase'),
});

export const ValePedagioRoteirizacao = Type.Object(
  {
    origem: LocalValePedagio,
    destino: LocalValePedagio,
    categoria: CategoriaVeicular,
    eixos: Type.Integer({ description: 'Axles of the category (the tariff multiplier)' }),
    distancia_km: Type.Integer({ description: 'Estimated road distance' }),
    quantidade_pracas: Type.Integer(),
    pracas: Type.Array(Type.Ref(PracaPedagio), { description: 'In order of passage; empty when the route crosses no plaza' }),
    valor_pedagio: Money("Σ of the plazas' tariffs for the category"),
    fornecedor: FornecedorValePedagio,
  },
  { $id: 'ValePedagioRoteirizacao', description: 'The toll plazas of a route for a vehicle category' },
);
export type ValePedagioRoteirizacao = Static<typeof ValePedagioRoteirizacao>;

export const ValePedagioCalculo = Type.Object(
  {
    origem: LocalValePedagio,
    destino: LocalValePedagio,
    categoria: CategoriaVeicular,
    eixos: Type.Integer(),
    quantidade_pracas: Type.Integer(),
    valor_pedagio: Money("Σ of the plazas' tariffs: the VPO value (MDF-e `vValePed`)"),
    taxa: Money('Service fee: 1.5% of the toll, rounded half up to the cent, at least 1.00'),
    valor_total: Money('Toll + fee: what a purchase debits from the operational account'),
    taxa_servico: TaxaServicoValePedagio,
    fornecedor: FornecedorValePedagio,
  },
  { $id: 'ValePedagioCalculo', description: 'What a purchase of this route would cost' },
);
export type ValePedagioCalculo = Static<typeof ValePedagioCalculo>;

/** `POST /vale-pedagio`. */
export const ValePedagioInput = Type.Object(
  {
    origem: Type.Ref(Local),
    destino: Type.Ref(Local),
    categoria: CategoriaVeicular,
    placa: Placa,
    tipo: TipoValePedagio,
    motorista: Type.Optional(
      Type.Object(
        {
          cpf: Type.String({ minLength: 11, maxLength: 14, description: 'CPF, with or without mask' }),
          nome: Type.Optional(Type.String({ minLength: 2, maxLength: 60 })),
        },
        { additionalProperties: false, description: 'The driver of the trip, recorded on the toll pass and its receipt' },
      ),
    ),
    cte: Type.Optional(
      Type.String({
        minLength: 36,
        maxLength: 44,
        description:
          'The CT-e of the trip: its `cte_uuid` or its 44-character access key (recorded as given); it must name a CT-e of the company (404 otherwise)',
      }),
    ),
    mdfe: Type.Optional(
      Type.String({
        minLength: 36,
        maxLength: 44,
        description:
          'The MDF-e of the trip: its `mdfe_uuid` or its 44-character access key (recorded as given); it must name an MDF-e of the company (404 otherwise)',
      }),
    ),
    referencia_externa: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: '^[A-Za-z0-9._:/-]+$',
        description:
          'Your reference, unique per company: resending it answers 200 with the toll pass already bought (nothing debited twice); ' +
          'with another route, vehicle or type it is 400 `validacao`',
      }),
    ),
  },
  { additionalProperties: false, $id: 'ValePedagioInput', description: 'Purchase of a mandatory toll pass for the whole route' },
);
export type ValePedagioInput = Static<typeof ValePedagioInput>;

export const SituacaoValePedagio = Type.Union([Type.Literal('emitido'), Type.Literal('em_uso'), Type.Literal('cancelado')], {
  description: '`emitido` (bought, no passage yet), `em_uso` (a plaza was passed: no longer cancellable), `cancelado` (refunded)',
});
export type SituacaoValePedagio = Static<typeof SituacaoValePedagio>;

export const ValePedagioIdParam = Type.Object({
  uuid: Type.String({ minLength: 1, maxLength: 64, description: "The toll pass's `id` (UUID)" }),
});
export type ValePedagioIdParam = Static<typeof ValePedagioIdParam>;

/** `POST /vale-pedagio/{uuid}/passagens` (sandbox). */
export const ValePedagioPassagemInput = Type.Object(
  {
    praca: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: "The plaza's `codigo`; default the first plaza not passed yet" }),
    ),
  },
  { additionalProperties: false, $id: 'ValePedagioPassagemInput' },
);
export type ValePedagioPassagemInput = Static<typeof ValePedagioPassagemInput>;

const ValePedagioCampos = {
  id: Type.String({ format: 'uuid' }),
  numero: Type.String({ description: "The supplier's purchase number (IDVPO), MDF-e `nCompra`" }),
  referencia_externa: nullable(Type.String()),
  situacao: SituacaoValePedagio,
  origem: LocalValePedagio,
  destino: LocalValePedagio,
  categoria: CategoriaVeicular,
  eixos: Type.Integer(),
  placa: Type.String(),
  tipo: TipoValePedagio,
  quantidade_pracas: Type.Integer(),
  valor_pedagio: Money('The VPO value (MDF-e `vValePed`)'),
  taxa: Money('Service fee'),
  valor_total: Money('Debited from the operational account'),
  emitido_em: Instant('Issue (and debit) instant, service clock'),
  cancelavel_ate: Instant('emitido_em + 3 h: a cancellation must come strictly before it'),
  cancelavel: Type.Boolean({ description: 'Cancellable now: not cancelled, no passage, and now < cancelavel_ate' }),
  primeira_passagem_em: nullable(Instant('First plaza passage')),
  cancelado_em: nullable(Instant('Cancellation')),
  estornado_em: nullable(Instant('When the refund (toll + fee) reached the operational account')),
};

export const ValePedagioResumo = Type.Object(ValePedagioCampos, { $id: 'ValePedagioResumo', description: 'A toll pass in a list' });
export type ValePedagioResumo = Static<typeof ValePedagioResumo>;

export const PracaValePedagioView = Type.Object({
  ...PracaPedagio.properties,
  passou_em: nullable(Instant('When the vehicle passed this plaza')),
});

export const ValePedagio = Type.Object(
  {
    ...ValePedagioCampos,
    motorista: nullable(Type.Object({ cpf: Type.String(), nome: nullable(Type.String()) })),
    cte: nullable(Type.String()),
    mdfe: nullable(Type.String()),
    fornecedor: FornecedorValePedagio,
    pagador: Type.Object({ cnpj: Type.String({ description: 'MDF-e `CNPJPg`' }) }),
    distancia_km: Type.Integer(),
    pracas: Type.Array(PracaValePedagioView),
    mdfe_vale_ped: Type.Object(
      {
        CNPJForn: Type.String(),
        CNPJPg: Type.String(),
        nCompra: Type.String(),
        vValePed: Type.String({ description: 'Decimal with two places, as the XML writes it' }),
        tpValePed: Type.Union([Type.Literal('01'), Type.Literal('04')]),
        categCombVeic: CategoriaVeicular,
      },
      { description: 'The MDF-e group `infModal/rodo/infANTT/valePed` (`disp` and `categCombVeic`) for this toll pass, ready to copy' },
    ),
  },
  { $id: 'ValePedagio', description: 'A mandatory toll pass (VPO)' },
);
export type ValePedagio = Static<typeof ValePedagio>;

export const ValePedagioListQuery = Type.Object({
  ...PageQuery.properties,
  ...CursorQuery.properties,
  situacao: Type.Optional(SituacaoValePedagio),
  placa: Type.Optional(Placa),
  from: Type.Optional(Type.String({ format: 'date', description: 'Issued on or after this day (Brasília)' })),
  to: Type.Optional(Type.String({ format: 'date', description: 'Issued on or before this day (Brasília)' })),
});
export type ValePedagioListQuery = Static<typeof ValePedagioListQuery>;

export const VALE_PEDAGIO_SCHEMAS = [
  ValePedagioRotaInput,
  PracaPedagio,
  ValePedagioRoteirizacao,
  ValePedagioCalculo,
  ValePedagioInput,
  ValePedagioPassagemInput,
  ValePedagioResumo,
  ValePedagio,
];
