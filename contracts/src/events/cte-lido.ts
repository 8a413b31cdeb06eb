import { Type, type Static } from '@sinclair/typebox';

/**
 * What the service reads from a CT-e XML (layouts 4.00 and 3.00). Events that record a received CT-e carry it,
 * so that auditors and projectors never re-parse the archived bytes.
 */
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

export const EnderecoLido = Type.Object({
  logradouro: Nullable(Type.String()),
  numero: Nullable(Type.String()),
  complemento: Nullable(Type.String()),
  bairro: Nullable(Type.String()),
  codigo_municipio: Nullable(Type.String()),
  municipio: Nullable(Type.String()),
  uf: Nullable(Type.String()),
  cep: Nullable(Type.String()),
  pais: Nullable(Type.String()),
});
export type EnderecoLido = Static<typeof EnderecoLido>;

export const ParteLida = Type.Object({
  documento: Nullable(Type.String()),
  tipo_documento: Nullable(Type.Union([Type.Literal('CNPJ'), Type.Literal('CPF'), Type.Literal('estrangeiro')])),
  ie: Nullable(Type.String()),
  nome: Nullable(Type.String()),
  fantasia: Nullable(Type.String()),
  telefone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  endereco: Nullable(EnderecoLido),
});
export type ParteLida = Static<typeof ParteLida>;

export const PapelTomador = Type.Union(
  [Type.Literal('remetente'), Type.Literal('expedidor'), Type.Literal('recebedor'), Type.Literal('destinatario'), Type.Literal('outros')],
  { description: 'The taker by `toma3/toma` code 0–3, or `outros` for group `toma4`' },
);
export type PapelTomador = Static<typeof PapelTomador>;

export const LocalPrestacao = Type.Object({ codigo_ibge: Type.String(), municipio: Type.String(), uf: Type.String() });
export type LocalPrestacao = Static<typeof LocalPrestacao>;

export const ProtocoloLido = Type.Object({
  numero: Type.String(),
  recebido_em: Type.String(),
  status: Type.Integer(),
  motivo: Type.String(),
  chave: Type.String(),
});
export type ProtocoloLido = Static<typeof ProtocoloLido>;

export const CteLido = Type.Object({
  chave: Type.String(),
  versao: Type.String(),
  modelo: Type.String(),
  serie: Type.Integer(),
  numero: Type.Integer(),
  codigo_numerico: Type.String(),
  cfop: Type.String(),
  natureza_operacao: Type.String(),
  data_emissao: Type.String(),
  ambiente: Type.Union([Type.Literal('producao'), Type.Literal('homologacao')]),
  tipo_cte: Type.Integer(),
  tipo_servico: Type.Integer(),
  modal: Type.String(),
  emitente: ParteLida,
  remetente: Nullable(ParteLida),
  expedidor: Nullable(ParteLida),
  recebedor: Nullable(ParteLida),
  destinatario: Nullable(ParteLida),
  tomador: Type.Object({
    codigo: Type.Union([0, 1, 2, 3, 4].map((n) => Type.Literal(n))),
    papel: PapelTomador,
    parte: Nullable(ParteLida),
  }),
  inicio: LocalPrestacao,
  fim: LocalPrestacao,
  valor_prestacao_centavos: Type.Integer(),
  valor_receber_centavos: Type.Integer(),
  componentes: Type.Array(Type.Object({ nome: Type.String(), valor_centavos: Type.Integer() })),
  icms: Nullable(
    Type.Object({
      grupo: Type.String(),
      cst: Nullable(Type.String()),
      base_centavos: Nullable(Type.Integer()),
      aliquota: Nullable(Type.String()),
      valor_centavos: Nullable(Type.Integer()),
    }),
  ),
  nfe_chaves: Type.Array(Type.String()),
  cte_anteriores: Type.Array(Type.String()),
  protocolo: Nullable(ProtocoloLido),
});
export type CteLido = Static<typeof CteLido>;
