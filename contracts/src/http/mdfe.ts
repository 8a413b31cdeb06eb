import { Type, type Static } from '@sinclair/typebox';
import { Environment, CursorQuery, PageQuery, Uf } from './common';
import { Local } from './cte-rascunho';
import { MdfeSituacao } from '../events/mdfe';

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);
const Placa = Type.String({ minLength: 1, maxLength: 10, description: 'A plate of the vehicle registry (case and hyphen ignored)' });
const Cpf = Type.String({ minLength: 11, maxLength: 14, description: 'CPF, with or without punctuation (check digits validated)' });

const Reais = (description: string) =>
  Type.Number({ minimum: 0, maximum: 9_999_999_999_999.99, description: `${description}, in reais (2 decimals)` });
const CpfOuCnpj = Type.String({ minLength: 11, maxLength: 18, description: 'CPF or CNPJ (numeric or alphanumeric), with or without mask' });

/** `prodPred`. NT 2025.001 v1.03 rule F55a (301): an MDF-e of one CT-e (carga lotação) names the product's NCM. */
export const ProdutoPredominanteInput = Type.Object(
  {
    tipo_carga: Type.Union(
      ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'].map((v) => Type.Literal(v)),
      {
        description:
          '`tpCarga` (ANTT Resolução 5.849/2019): 01 granel sólido, 02 granel líquido, 03 frigorificada, 04 conteinerizada, ' +
          '05 carga geral, 06 neogranel, 07–11 perigosa (granel sólido, granel líquido, frigorificada, conteinerizada, carga geral), 12 granel pressurizada',
      },
    ),
    descricao: Type.String({ minLength: 2, maxLength: 120, description: '`xProd`' }),
    ncm: Type.Optional(Type.String({ pattern: '^[0-9]{8}$', description: '`NCM`, 8 digits: required for one CT-e (rule F55a, 301)' })),
  },
  { additionalProperties: false, description: 'The predominant product (`prodPred`)' },
);

const BancoInput = Type.Union(
  [
    Type.Object(
      {
        codigo_banco: Type.String({ pattern: '^[0-9]{3,5}$', description: '`codBanco`' }),
        codigo_agencia: Type.String({ pattern: '^[0-9A-Za-z]{1,10}$', description: '`codAgencia`' }),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      { cnpj_ipef: CpfOuCnpj },
      { additionalProperties: false, description: '`CNPJIPEF`: the electronic freight payment institution' },
    ),
    Type.Object({ pix: Type.String({ minLength: 2, maxLength: 60, description: '`PIX` key' }) }, { additionalProperties: false }),
  ],
  { description: '`infBanc`: bank and branch, an IPEF or a PIX key (exactly one)' },
);

/** `infANTT/infPag`. Rules F55b (302, one CT-e) and F113a (303, a TAC or equiparado) require it. */
export const PagamentoMdfeInput = Type.Object(
  {
    responsavel: Type.Object(
      { nome: Type.Optional(Type.String({ minLength: 2, maxLength: 60 })), documento: CpfOuCnpj },
      { additionalProperties: false, description: 'Who pays the contract (`xNome`, `CPF`/`CNPJ`)' },
    ),
    componentes: Type.Array(
      Type.Object(
        {
          tipo: Type.Union(
            ['01', '02', '03', '04', '99'].map((v) => Type.Literal(v)),
            {
              description: '`tpComp`: 01 vale-pedágio, 02 impostos/taxas, 03 despesas, 04 frete (NT 2025.001 v1.03), 99 outros',
            },
          ),
          valor: Reais('`vComp`'),
          descricao: Type.Optional(Type.String({ minLength: 2, maxLength: 60, description: '`xComp`, for 99' })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
    valor_contrato: Reais('`vContrato`'),
    a_prazo: Type.Optional(Type.Boolean({ description: '`indPag` 1 (a prazo, with `parcelas`); default false: à vista (0)' })),
    valor_adiantamento: Type.Optional(Reais('`vAdiant`, a prazo only')),
    parcelas: Type.Optional(
      Type.Array(
        Type.Object(
          { vencimento: Type.String({ format: 'date', description: '`dVenc`' }), valor: Reais('`vParcela`') },
          { additionalProperties: false },
        ),
        { maxItems: 999, description: '`infPrazo`, a prazo only' },
      ),
    ),
    banco: BancoInput,
  },
  { additionalProperties: false, description: 'Payment of the transport contract (`infPag` with `infBanc`)' },
);

/**
 * `POST /fiscal/mdfe`: a road MDF-e (model 58) carrying own authorized CT-e. Vehicle and drivers come from the
 * registries (`/fiscal/veiculos`, `/fiscal/motoristas`); UFs and municipalities default from the CT-e routes.
 */
export const MdfeInput = Type.Object(
  {
    ctes: Type.Array(Type.String({ description: 'cte_uuid of an own authorized CT-e' }), { minItems: 1, maxItems: 500, uniqueItems: true }),
    veiculo: Type.Object(
      {
        placa: Placa,
        reboques: Type.Optional(Type.Array(Placa, { maxItems: 3, description: 'Plates of registered trailers (`tipo` reboque)' })),
      },
      { additionalProperties: false, description: 'The traction vehicle (`tipo` tracao) and its trailers' },
    ),
    motoristas: Type.Array(Type.Object({ cpf: Cpf }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: 10,
      description: 'Registered drivers (`condutor`), 1 to 10',
    }),
    uf_inicio: Type.Optional(Uf),
    uf_fim: Type.Optional(Uf),
    percurso: Type.Optional(Type.Array(Uf, { maxItems: 25, description: 'UFs crossed between start and end, in order (`infPercurso`)' })),
    carregamento: Type.Optional(
      Type.Array(Type.Ref(Local), { minItems: 1, maxItems: 50, description: 'Loading municipalities (default: the CT-e starts)' }),
    ),
    descarregamento: Type.Optional(Type.Ref(Local, { description: "Unloading municipality of every CT-e (default: each CT-e's end)" })),
    observacoes: Type.Optional(
      nullable(Type.String({ maxLength: 5000, description: '`infAdic/infCpl` (where the sandbox sentinels go)' })),
    ),
    produto_predominante: Type.Optional(ProdutoPredominanteInput),
    pagamentos: Type.Optional(Type.Array(PagamentoMdfeInput, { maxItems: 10, description: '`infANTT/infPag`' })),
    ciot: Type.Optional(
      Type.Array(
        Type.Object(
          {
            codigo: Type.String({ pattern: '^[0-9]{12}$', description: '`CIOT`, 12 digits' }),
            responsavel: CpfOuCnpj,
          },
          { additionalProperties: false },
        ),
        { maxItems: 10, description: '`infANTT/infCIOT`: required for a TAC or equiparado (rule F113b, 304)' },
      ),
    ),
    rntrc_tac: Type.Optional(
      Type.Boolean({
        description:
          "The company's RNTRC is, in the ANTT's registry, a TAC or an ETC equiparado a TAC: the MDF-e then needs `pagamentos` with " +
          '`banco` (rule F113a, 303) and `ciot` (rule F113b, 304). Default false',
      }),
    ),
  },
  {
    additionalProperties: false,
    $id: 'MdfeInput',
    description:
      'NT 2025.001 v1.03 (ANTT): an MDF-e of exactly one CT-e (carga lotação) needs `produto_predominante.ncm` (301) and `pagamentos` ' +
      '(302); with `rntrc_tac`, `pagamentos` (303) and `ciot` (304). Missing ones are refused with 422 `mdfe_regra_antt` naming the rule',
  },
);
export type MdfeInput = Static<typeof MdfeInput>;

const Municipio = Type.Object({ codigo_ibge: Type.String(), municipio: Type.String(), uf: Type.String() });
const VeiculoView = Type.Object({
  placa: Type.String(),
  renavam: nullable(Type.String()),
  tara_kg: Type.Integer(),
  capacidade_kg: nullable(Type.Integer()),
  capacidade_m3: nullable(Type.Integer()),
  tipo_rodado: nullable(Type.String()),
  tipo_carroceria: Type.String(),
  uf: Type.String(),
});
const Condutor = Type.Object({ cpf: Type.String(), nome: Type.String() });
const Protocolo = Type.Object({ numero: Type.String(), recebido_em: Type.String(), cstat: Type.Integer(), motivo: Type.String() });
const Retorno = nullable(
  Type.Object(
    { cstat: nullable(Type.Integer()), motivo: Type.String() },
    {
      description: "The authority's last answer about the issue (cStat and text)",
    },
  ),
);

export const MdfeEventoView = Type.Object(
  {
    tipo: Type.Union([Type.Literal('cancelamento'), Type.Literal('encerramento'), Type.Literal('condutor')]),
    tp_evento: Type.String({ description: '110111, 110112 or 110114' }),
    n_seq: Type.Integer(),
    situacao: Type.Union([Type.Literal('registrado'), Type.Literal('pendente'), Type.Literal('rejeitado')]),
    protocolo: nullable(Protocolo),
    retorno: Retorno,
    dados: Type.Object({}, { additionalProperties: true }),
  },
  { $id: 'MdfeEvento', description: "An MDF-e event: its type, sequence, the authority's protocol or last answer" },
);
export type MdfeEventoView = Static<typeof MdfeEventoView>;

export const Mdfe = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'mdfe_uuid' }),
    environment: Environment,
    situacao: Type.Ref(MdfeSituacao),
    access_key: nullable(Type.String({ description: 'Known once the signed XML exists' })),
    serie: nullable(Type.Integer()),
    numero: nullable(Type.Integer()),
    data_emissao: nullable(Type.String()),
    protocolo: nullable(Protocolo),
    retorno: Retorno,
    uf_inicio: Type.String(),
    uf_fim: Type.String(),
    percurso: Type.Array(Type.String()),
    carregamento: Type.Array(Municipio),
    ctes: Type.Array(Type.Object({ id: Type.String({ format: 'uuid' }), access_key: Type.String(), descarga: Municipio })),
    veiculo: VeiculoView,
    reboques: Type.Array(VeiculoView),
    motoristas: Type.Array(Condutor, { description: 'The drivers, with those added by `eventos/condutor`' }),
    totais: Type.Object({ qtd_cte: Type.Integer(), valor_carga: Type.Number(), peso_kg: Type.Number() }),
    observacoes: nullable(Type.String()),
    produto_predominante: nullable(
      Type.Object({ tipo_carga: Type.String(), descricao: Type.String(), ncm: nullable(Type.String()) }, { description: '`prodPred`' }),
    ),
    pagamentos: Type.Array(
      Type.Object({
        responsavel: Type.Object({ nome: nullable(Type.String()), documento: Type.String() }),
        componentes: Type.Array(Type.Object({ tipo: Type.String(), valor: Type.Number(), descricao: nullable(Type.String()) })),
        valor_contrato: Type.Number(),
        a_prazo: Type.Boolean(),
        valor_adiantamento: nullable(Type.Number()),
        parcelas: Type.Array(Type.Object({ vencimento: Type.String(), valor: Type.Number() })),
        banco: Type.Union([
          Type.Object({ codigo_banco: Type.String(), codigo_agencia: Type.String() }),
          Type.Object({ cnpj_ipef: Type.String() }),
          Type.Object({ pix: Type.String() }),
        ]),
      }),
      { description: '`infANTT/infPag` (NT 2025.001 v1.03)' },
    ),
    ciot: Type.Array(Type.Object({ codigo: Type.String(), responsavel: Type.String() }), { description: '`infANTT/infCIOT`' }),
    rntrc_tac: Type.Boolean({ description: "The company's RNTRC declared a TAC or equiparado (rules F113a/F113b)" }),
    eventos: Type.Array(Type.Ref(MdfeEventoView)),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Mdfe', description: 'A road MDF-e (model 58) of the carrier' },
);

export const MdfeQuery = Type.Object({
  status: Type.Optional(Type.Ref(MdfeSituacao)),
  ...PageQuery.properties,
  ...CursorQuery.properties,
});
export type MdfeQuery = Static<typeof MdfeQuery>;

export const MdfeIdParam = Type.Object({ mdfe_uuid: Type.String({ description: "The MDF-e's public UUID" }) });

/** The state of an issue, as `POST .../emissao` (202) and `POST .../consulta` (200 or 202) answer it. */
export const MdfeIssueEnvelope = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    situacao: Type.Ref(MdfeSituacao),
    access_key: nullable(Type.String()),
    serie: nullable(Type.Integer()),
    numero: nullable(Type.Integer()),
    conclusivo: Type.Boolean({ description: 'False while the result is unknown: poll `consulta`, never issue again' }),
    retorno: Retorno,
    consulta: Type.String({ description: 'Where to poll' }),
  },
  { $id: 'MdfeIssueEnvelope' },
);

export const MdfeCancelamentoInput = Type.Object(
  { justificativa: Type.String({ minLength: 15, maxLength: 255, description: '`xJust`, 15 to 255 characters' }) },
  { additionalProperties: false, $id: 'MdfeCancelamentoInput' },
);
export type MdfeCancelamentoInput = Static<typeof MdfeCancelamentoInput>;

export const MdfeEncerramentoInput = Type.Object(
  {
    municipio: Type.String({ minLength: 1, maxLength: 60, description: 'Where the trip ended (pair checked as in ruling 19)' }),
    uf: Uf,
    codigo_ibge: Type.Optional(Type.String({ pattern: '^[0-9]{7}$' })),
    data: Type.Optional(Type.String({ format: 'date', description: '`dtEnc`, YYYY-MM-DD (default: today, Brasília time)' })),
  },
  { additionalProperties: false, $id: 'MdfeEncerramentoInput' },
);
export type MdfeEncerramentoInput = Static<typeof MdfeEncerramentoInput>;

export const MdfeCondutorInput = Type.Object(
  {
    cpf: Cpf,
    nome: Type.Optional(Type.String({ minLength: 2, maxLength: 60, description: 'Required unless the CPF is a registered driver' })),
  },
  { additionalProperties: false, $id: 'MdfeCondutorInput' },
);
export type MdfeCondutorInput = Static<typeof MdfeCondutorInput>;

/** The answer of an event request: 200 registered, 202 pending (send the same request again to follow it). */
export const MdfeEventoResultado = Type.Object(
  {
    mdfe: Type.Object({ id: Type.String({ format: 'uuid' }), situacao: Type.Ref(MdfeSituacao), access_key: Type.String() }),
    evento: Type.Ref(MdfeEventoView),
  },
  { $id: 'MdfeEventoResultado' },
);

export const MDFE_SCHEMAS = [
  MdfeSituacao,
  MdfeInput,
  MdfeEventoView,
  Mdfe,
  MdfeIssueEnvelope,
  MdfeCancelamentoInput,
  MdfeEncerramentoInput,
  MdfeCondutorInput,
  MdfeEventoResultado,
];
