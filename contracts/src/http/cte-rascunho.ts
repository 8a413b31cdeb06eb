import { Type, type Static } from '@sinclair/typebox';
import { Uf } from './common';
import { Endereco, InscricaoEstadual, Municipio, Rntrc } from './configuracao';

/**
 * `CteDraftInput`: the editable data of a CT-e 4.00 draft, in the API's own naming, one member per group of the
 * layout. A draft may be incomplete: `POST .../previa` lists what an issue still needs. What the service fills in
 * itself is not here: the emitter (the company and its fiscal configuration), series and number, the key, the
 * issue date, the environment, the signature and the QR code.
 */
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);
const Money = (description: string) => Type.Number({ minimum: 0, maximum: 9_999_999_999_999.99, multipleOf: 0.01, description });

/** TData of the CT-e schema: a day of the years 2000–2099, YYYY-MM-DD. */
const DataCte = (description: string) => Type.String({ format: 'date', pattern: '^20[0-9]{2}-[0-9]{2}-[0-9]{2}$', description });

/**
 * `infCTeNorm/infDoc/infOutros`: a transported document that is neither an NF-e nor a paper invoice. Codes and limits:
 * schema `cteTiposBasico_v4.00.xsd` (infOutros) and MOC 4.00 Anexo I, fields 312–318.
 */
export const DocumentoOutros = Type.Object(
  {
    tipo_documento: Type.Union(
      ['00', '10', '59', '65', '99'].map((v) => Type.Literal(v)),
      { description: 'tpDoc: 00 declaração, 10 dutoviário, 59 CF-e SAT, 65 NFC-e, 99 outros' },
    ),
    descricao: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'descOutros; required when tipo_documento is 99' })),
    numero: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'nDoc' })),
    data_emissao: Type.Optional(DataCte('dEmi, YYYY-MM-DD')),
    valor: Type.Optional(Money('vDocFisc: value of the document')),
    data_prevista_entrega: Type.Optional(DataCte('dPrev: expected delivery day, YYYY-MM-DD')),
  },
  { additionalProperties: false },
);

export const Local = Type.Object(
  {
    municipio: Municipio,
    uf: Uf,
    codigo_ibge: Type.Optional(Type.String({ pattern: '^[0-9]{7}$' })),
  },
  { additionalProperties: false, $id: 'Local', description: 'A route end (ruling 19): the pair must exist in the IBGE table' },
);
export type Local = Static<typeof Local>;

export const CteParteInput = Type.Object(
  {
    documento: Type.String({ minLength: 11, maxLength: 18, description: 'CNPJ (numeric or alphanumeric) or CPF, with or without mask' }),
    ie: Type.Optional(nullable(InscricaoEstadual)),
    nome: Type.String({ minLength: 2, maxLength: 60 }),
    fantasia: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 60 }))),
    telefone: Type.Optional(nullable(Type.String({ pattern: '^[0-9]{6,14}$' }))),
    email: Type.Optional(nullable(Type.String({ format: 'email', maxLength: 60 }))),
    endereco: Endereco,
  },
  { additionalProperties: false, $id: 'CteParteInput', description: 'A party of the CT-e (rem, exped, receb, dest or toma4)' },
);
export type CteParteInput = Static<typeof CteParteInput>;

export const TomadorInput = Type.Union(
  [
    Type.Object(
      {
        papel: Type.Union([Type.Literal('remetente'), Type.Literal('expedidor'), Type.Literal('recebedor'), Type.Literal('destinatario')]),
      },
      { additionalProperties: false },
    ),
    Type.Object({ papel: Type.Literal('outros'), parte: Type.Ref(CteParteInput) }, { additionalProperties: false }),
  ],
  { description: 'The taker: one of the parties (`toma3`) or another company (`toma4`, with its data)' },
);

export const IcmsInput = Type.Object(
  {
    cst: Type.Union(['00', '20', '40', '41', '51', '60', '90', 'SN'].map((v) => Type.Literal(v))),
    aliquota: Type.Optional(Type.Number({ minimum: 0, maximum: 100, multipleOf: 0.01 })),
    reducao_base: Type.Optional(Type.Number({ minimum: 0, maximum: 100, multipleOf: 0.01 })),
  },
  { additionalProperties: false, description: 'ICMS of this CT-e; when absent, the tax rule of the route applies' },
);

const PercentualRtc = (description: string) =>
  Type.Number({ minimum: 0, maximum: 100, description: `${description}; percent, 0–100, up to 4 decimals (layout TDec_0302_04RTC)` });

export const IbsCbsInput = Type.Object(
  {
    cst: Type.String({ pattern: '^[0-9]{3}$', description: 'IBSCBS/CST, 3 digits' }),
    cclass_trib: Type.String({ pattern: '^[0-9]{6}$', description: 'IBSCBS/cClassTrib, 6 digits' }),
    aliquota_ibs_uf: PercentualRtc('gIBSUF/pIBSUF'),
    aliquota_ibs_mun: PercentualRtc('gIBSMun/pIBSMun'),
    aliquota_cbs: PercentualRtc('gCBS/pCBS'),
  },
  {
    additionalProperties: false,
    description: 'IBS/CBS of the tax reform (imp/IBSCBS) of this CT-e; when absent, the tax rule of the route applies (if it has one)',
  },
);

export const CteDraftInput = Type.Object(
  {
    tipo_servico: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 3,
        description: 'ide/tpServ: 0 normal, 1 subcontracting, 2 redispatch, 3 intermediate redispatch',
      }),
    ),
    cfop: Type.Optional(
      Type.String({ pattern: '^[567][0-9]{3}$', description: "When absent, the tax rule's CFOP or the service-start rule decides" }),
    ),
    natureza_operacao: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
    inicio: Type.Optional(Type.Ref(Local)),
    fim: Type.Optional(Type.Ref(Local)),
    remetente: Type.Optional(nullable(Type.Ref(CteParteInput))),
    expedidor: Type.Optional(nullable(Type.Ref(CteParteInput))),
    recebedor: Type.Optional(nullable(Type.Ref(CteParteInput))),
    destinatario: Type.Optional(nullable(Type.Ref(CteParteInput))),
    tomador: Type.Optional(TomadorInput),
    valores: Type.Optional(
      Type.Object(
        {
          total: Money('vTPrest: the service total'),
          a_receber: Type.Optional(Money('vRec: at most the total (default: the total)')),
          componentes: Type.Optional(
            Type.Array(
              Type.Object({ nome: Type.String({ minLength: 1, maxLength: 15 }), valor: Money('vComp') }, { additionalProperties: false }),
              { maxItems: 50 },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    impostos: Type.Optional(
      Type.Object(
        {
          icms: Type.Optional(IcmsInput),
          ibs_cbs: Type.Optional(IbsCbsInput),
          valor_total_tributos: Type.Optional(Money('vTotTrib: approximate total of taxes')),
          informacoes_fisco: Type.Optional(Type.String({ maxLength: 2000 })),
        },
        { additionalProperties: false },
      ),
    ),
    carga: Type.Optional(
      Type.Object(
        {
          valor: Money('vCarga: value of the cargo'),
          produto_predominante: Type.String({ minLength: 1, maxLength: 60 }),
          outras_caracteristicas: Type.Optional(Type.String({ maxLength: 30 })),
          quantidades: Type.Array(
            Type.Object(
              {
                unidade: Type.Union(
                  ['00', '01', '02', '03', '04', '05'].map((v) => Type.Literal(v)),
                  { description: 'cUnid: 00 m3, 01 kg, 02 ton, 03 unidade, 04 litros, 05 MMBTU' },
                ),
                tipo_medida: Type.String({ minLength: 1, maxLength: 20, description: 'tpMed, e.g. PESO BRUTO' }),
                quantidade: Type.Number({ minimum: 0, multipleOf: 0.0001 }),
              },
              { additionalProperties: false },
            ),
            { minItems: 1, maxItems: 20 },
          ),
        },
        { additionalProperties: false },
      ),
    ),
    documentos: Type.Optional(
      Type.Object(
        {
          nfe: Type.Optional(
            Type.Array(
              Type.Object({ chave: Type.String({ pattern: '^[0-9]{6}[A-Z0-9]{12}[0-9]{26}$' }) }, { additionalProperties: false }),
              { maxItems: 2000 },
            ),
          ),
          outros: Type.Optional(Type.Array(DocumentoOutros, { maxItems: 2000 })),
        },
        {
          additionalProperties: false,
          description:
            'Transported documents (infDoc): NF-e keys (infNFe) or other documents (infOutros), not both (the schema makes them a ' +
            'choice); at most 2000 (MOC 4.00 G038, rejection 601)',
        },
      ),
    ),
    documentos_anteriores: Type.Optional(
      Type.Array(
        Type.Object(
          {
            emitente: Type.Object(
              {
                cnpj: Type.String({ minLength: 14, maxLength: 18 }),
                ie: InscricaoEstadual,
                uf: Uf,
                nome: Type.String({ minLength: 2, maxLength: 60 }),
              },
              { additionalProperties: false },
            ),
            chaves_cte: Type.Array(Type.String({ pattern: '^[0-9]{6}[A-Z0-9]{12}[0-9]{26}$' }), { minItems: 1, maxItems: 100 }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 20, description: "infCTeNorm/docAnt/emiDocAnt: the previous carriers' CT-e (ruling 16)" },
      ),
    ),
    rodoviario: Type.Optional(
      Type.Object(
        { rntrc: Type.Optional(Rntrc) },
        { additionalProperties: false, description: "Road modal; RNTRC defaults to the fiscal configuration's" },
      ),
    ),
    observacoes: Type.Optional(
      nullable(Type.String({ maxLength: 2000, description: "compl/xObs. In the sandbox it may carry the authority's sentinels" })),
    ),
    autorizados_xml: Type.Optional(
      Type.Array(
        Type.String({
          minLength: 11,
          maxLength: 18,
          pattern: '^[0-9A-Za-z./-]{11,18}$',
          description: 'CNPJ (numeric or alphanumeric) or CPF, with or without mask; stored without it',
        }),
        {
          maxItems: 10,
          description:
            'infCte/autXML: the CNPJ or CPF authorized to download the XML from the authorities (the national distribution service ' +
            'hands it to them), at most 10 (cteTiposBasico_v4.00.xsd, autXML 0..10); each checked by its check digits (authority rules G193/699, ' +
            'G194/700), and the same document twice, masked or not, is refused as the authority would (G195/715)',
        },
      ),
    ),
  },
  { additionalProperties: false, $id: 'CteDraftInput' },
);
export type CteDraftInput = Static<typeof CteDraftInput>;

/**
 * A party's address as CT-e 4.00 carries it (`TEndereco`, and `TEndeEmi` for a taker read from `emit`): the CEP and the
 * complement are optional there. What the input's `Endereco` requires besides is required by the layout too.
 */
export const CteEnderecoParte = Type.Object(
  { ...Endereco.properties, cep: Type.Optional(Endereco.properties.cep) },
  {
    additionalProperties: false,
    description: "A party's address; `cep` is absent when the CT-e it was read from has none (CEP is optional in CT-e 4.00)",
  },
);
export type CteEnderecoParte = Static<typeof CteEnderecoParte>;

export const CteParteRascunho = Type.Object(
  {
    ...CteParteInput.properties,
    ie: Type.Optional(
      nullable(Type.String({ pattern: '^(ISENTO|[0-9]{1,14})$', description: 'IE as the layout allows it (TIeDest), or ISENTO' })),
    ),
    endereco: CteEnderecoParte,
  },
  {
    additionalProperties: false,
    $id: 'CteParteRascunho',
    description: "A party of a stored draft: `CteParteInput`, or a party read from a contractor's CT-e",
  },
);
export type CteParteRascunho = Static<typeof CteParteRascunho>;

const carga = CteDraftInput.properties.carga;
const quantidade = carga.properties.quantidades.items;

/**
 * `CteRascunho`: a draft's data as stored and shown. A draft created or changed through the API holds its
 * `CteDraftInput`, validated and normalized. A counter-CT-e holds what the contractor's CT-e gives, which may lack
 * what CT-e 4.00 makes optional (a party's CEP, the cargo value) and may exceed the input's own limits where the layout
 * has none (cargo quantities, transported NF-e, large cargo values and quantities).
 */
export const CteRascunho = Type.Object(
  {
    ...CteDraftInput.properties,
    remetente: Type.Optional(nullable(Type.Ref(CteParteRascunho))),
    expedidor: Type.Optional(nullable(Type.Ref(CteParteRascunho))),
    recebedor: Type.Optional(nullable(Type.Ref(CteParteRascunho))),
    destinatario: Type.Optional(nullable(Type.Ref(CteParteRascunho))),
    tomador: Type.Optional(
      Type.Union(
        [
          TomadorInput.anyOf[0],
          Type.Object({ papel: Type.Literal('outros'), parte: Type.Ref(CteParteRascunho) }, { additionalProperties: false }),
        ],
        { description: TomadorInput.description },
      ),
    ),
    carga: Type.Optional(
      Type.Object(
        {
          valor: Type.Optional(
            Type.Number({
              minimum: 0,
              maximum: 9_999_999_999_999.99,
              description: "vCarga, two decimals; absent when the contractor's CT-e has none",
            }),
          ),
          produto_predominante: carga.properties.produto_predominante,
          outras_caracteristicas: carga.properties.outras_caracteristicas,
          quantidades: Type.Array(
            Type.Object(
              { ...quantidade.properties, quantidade: Type.Number({ minimum: 0, description: 'qCarga, up to four decimals' }) },
              { additionalProperties: false },
            ),
            { minItems: 1 },
          ),
        },
        { additionalProperties: false },
      ),
    ),
    documentos: Type.Optional(
      Type.Object(
        {
          nfe: Type.Optional(Type.Array(CteDraftInput.properties.documentos.properties.nfe.items)),
          outros: Type.Optional(Type.Array(DocumentoOutros)),
        },
        { additionalProperties: false, description: 'Transported documents (infDoc): NF-e keys (infNFe) or other documents (infOutros)' },
      ),
    ),
  },
  {
    additionalProperties: false,
    $id: 'CteRascunho',
    description:
      "A draft's data: the `CteDraftInput` of a CT-e drafted here, or what a counter-CT-e took from the contractor's CT-e, " +
      "which may lack what CT-e 4.00 makes optional (a party's CEP, vCarga)",
  },
);
export type CteRascunho = Static<typeof CteRascunho>;

export const CTE_DRAFT_SCHEMAS = [Local, CteParteInput, CteDraftInput, CteParteRascunho, CteRascunho];
