import { Type, type Static } from '@sinclair/typebox';
import { CursorQuery, PageQuery } from './common';

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

export const NFE_STATUSES = ['importada', 'somente_chave', 'vinculada'] as const;

export const NfeStatus = Type.Union(
  NFE_STATUSES.map((s) => Type.Literal(s)),
  {
    description:
      '`importada`: the XML was imported and is archived; `somente_chave`: only the access key is known (read from a PDF ' +
      'such as a DANFE), the XML is awaited and completes the record when it arrives; `vinculada`: an own CT-e of the ' +
      'company (issued here or delivered through `POST /fiscal/cte-emitidos`) carries this key: such an NF-e cannot be ' +
      'removed. `vinculada` prevails over the other two; `xml_disponivel` still says whether the XML is archived.',
  },
);
export type NfeStatus = Static<typeof NfeStatus>;

export const NfeListQuery = Type.Object({
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'Issuer CNPJ/CPF or name, recipient CNPJ/CPF or name, NF-e number, or access key. Documents and keys may be ' +
        'punctuated, and a CNPJ root (8 characters) finds every branch; names match a part, without regard to case or accents',
    }),
  ),
  status: Type.Optional(NfeStatus),
  ...PageQuery.properties,
  ...CursorQuery.properties,
});
export type NfeListQuery = Static<typeof NfeListQuery>;

export const NfeParams = Type.Object({ access_key: Type.String({ description: 'NF-e access key, 44 characters' }) });

export const NfeParte = Type.Object({
  documento: nullable(Type.String({ description: 'CNPJ, CPF or foreign id, unpunctuated' })),
  tipo_documento: nullable(Type.Union([Type.Literal('CNPJ'), Type.Literal('CPF'), Type.Literal('estrangeiro')])),
  nome: nullable(Type.String()),
  uf: nullable(Type.String()),
  municipio: nullable(Type.String()),
});
export type NfeParte = Static<typeof NfeParte>;

const ArquivoArquivado = Type.Object({
  nome: Type.String({ description: 'Name of the file as sent; for a ZIP entry, its path inside the ZIP' }),
  zip: nullable(Type.String({ description: 'The ZIP the file came in, or null' })),
  sha256: Type.String({ description: 'Digest of the bytes kept byte for byte' }),
});

const resumo = {
  access_key: Type.String(),
  status: NfeStatus,
  modelo: Type.String(),
  serie: Type.Integer(),
  numero: Type.Integer(),
  data_emissao: nullable(Type.String({ description: '`ide/dhEmi` as written in the XML; null while only the key is known' })),
  ambiente: nullable(Type.Union([Type.Literal('producao'), Type.Literal('homologacao')], { description: '`ide/tpAmb` of the NF-e' })),
  emitente: NfeParte,
  destinatario: nullable(NfeParte),
  valor_total: nullable(Type.Number({ description: '`vNF`, decimal with two places; null while only the key is known' })),
  xml_disponivel: Type.Boolean(),
  recebimentos: Type.Integer({ description: 'How many times the NF-e was received (XML or PDF)' }),
  origem: Type.Union([Type.Literal('importacao'), Type.Literal('distribuicao')], {
    description:
      'How the key first arrived: `importacao` (files sent to POST /fiscal/nfe/importacoes) or `distribuicao` (the national ' +
      "distribution service, NFeDistribuicaoDFe, brought the procNFe naming your company in `transp/transporta`). Later receipts don't change it",
  }),
  importada_em: Type.String({ format: 'date-time' }),
  atualizada_em: Type.String({ format: 'date-time' }),
};

export const NfeResumo = Type.Object(resumo, {
  title: 'NfeResumo',
  description: 'An NF-e in the list. While only the key is known, issuer CNPJ, UF, model, series and number come from the key',
});
export type NfeResumo = Static<typeof NfeResumo>;

export const Nfe = Type.Object(
  {
    ...resumo,
    natureza_operacao: nullable(Type.String()),
    tipo_operacao: nullable(Type.Union([Type.Literal('entrada'), Type.Literal('saida')])),
    modalidade_frete: nullable(
      Type.Integer({
        description: '`transp/modFrete`: 0 sender, 1 recipient, 2 third party, 3 own by sender, 4 own by recipient, 9 no freight',
      }),
    ),
    transportador: nullable(NfeParte),
    carga: Type.Object({
      volumes: nullable(Type.Integer()),
      peso_liquido_kg: nullable(Type.Number()),
      peso_bruto_kg: nullable(Type.Number()),
    }),
    protocolo: nullable(
      Type.Object({
        numero: Type.String(),
        recebido_em: Type.String(),
        status: Type.Integer({ description: '`cStat`, 100 when authorized' }),
        motivo: Type.String(),
      }),
    ),
    arquivos: Type.Object({ xml: nullable(ArquivoArquivado), pdf: nullable(ArquivoArquivado) }),
    ctes_vinculados: Type.Array(Type.String(), { description: 'Ids of the own CT-e that carry this key' }),
  },
  { title: 'Nfe', description: 'One NF-e of the company' },
);
export type Nfe = Static<typeof Nfe>;

export const NfeImportOutcome = Type.Union(
  ['importada', 'completada', 'somente_chave', 'ja_importada', 'atualizada'].map((s) => Type.Literal(s)),
  {
    description:
      '`importada`: new NF-e from its XML; `completada`: the XML completed an NF-e known only by its key; ' +
      '`somente_chave`: new NF-e known only by the key a PDF carries; `ja_importada`: already known, nothing changed (the receipt ' +
      'is still recorded); `atualizada`: the XML differs from the archived one and replaced it',
  },
);
export type NfeImportOutcome = Static<typeof NfeImportOutcome>;

export const NFE_IMPORT_ERROR_CODES = [
  'arquivo_nao_suportado',
  'xml_hostil',
  'xml_malformado',
  'documento_nao_e_nfe',
  'layout_nao_suportado',
  'chave_invalida',
  'ambiente_divergente',
  'pdf_ilegivel',
  'pdf_sem_chave',
  'zip_invalido',
  'zip_aninhado',
  'zip_limite_excedido',
  'zip_entrada_muito_grande',
  'zip_taxa_de_compressao',
] as const;
export type NfeImportErrorCode = (typeof NFE_IMPORT_ERROR_CODES)[number];

export const NfeImportError = Type.Object({
  entrada: nullable(Type.String({ description: 'The ZIP entry the error is about; null for the file itself' })),
  code: Type.Union(
    NFE_IMPORT_ERROR_CODES.map((c) => Type.Literal(c)),
    {
      description:
        '`arquivo_nao_suportado` (not XML, PDF nor ZIP by its content), `xml_hostil` (DOCTYPE, entities, deep nesting), ' +
        '`xml_malformado`, `documento_nao_e_nfe` (another document, NFC-e, or a PDF of another document), `layout_nao_suportado` ' +
        '(NF-e layout other than 4.00), `chave_invalida` (shape or check digit), `ambiente_divergente` (a sandbox NF-e in production), ' +
        '`pdf_ilegivel` (cannot be read in time), `pdf_sem_chave` (no valid access key in its text), `zip_invalido`, `zip_aninhado` ' +
        '(a ZIP inside the ZIP is not opened), `zip_limite_excedido` (over 1000 entries or 100 MB uncompressed in all), ' +
        '`zip_entrada_muito_grande` (entry over 10 MB uncompressed), `zip_taxa_de_compressao` (entry over 1 MB compressed more than 100:1, a ZIP bomb)',
    },
  ),
  message: Type.String(),
});
export type NfeImportError = Static<typeof NfeImportError>;

export const NfeImportFileResult = Type.Object({
  arquivo: Type.String({ description: 'File name as sent' }),
  tipo: Type.Union([Type.Literal('xml'), Type.Literal('pdf'), Type.Literal('zip'), Type.Literal('desconhecido')], {
    description: 'Kind detected from the bytes, not from the name',
  }),
  nfes: Type.Array(
    Type.Object({
      access_key: Type.String(),
      resultado: NfeImportOutcome,
      entrada: nullable(Type.String({ description: 'The ZIP entry it came from; null for the file itself' })),
    }),
  ),
  erros: Type.Array(NfeImportError),
});
export type NfeImportFileResult = Static<typeof NfeImportFileResult>;

export const NfeImportResult = Type.Object(
  {
    arquivos: Type.Array(NfeImportFileResult, { description: 'One result per file, in the order sent' }),
    total_nfes: Type.Integer({ description: 'NF-e received in this request (each key once per file or entry)' }),
    total_erros: Type.Integer(),
  },
  { title: 'NfeImportResult' },
);
export type NfeImportResult = Static<typeof NfeImportResult>;
