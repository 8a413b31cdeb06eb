import { Type, type Static } from '@sinclair/typebox';
import { IdentificacaoLida, ParteLida, ProtocoloLido } from './cte-lido';

/**
 * What the service reads from an NF-e XML (layout 4.00, `nfeProc` or bare `NFe`). The events that record an
 * imported NF-e carry it, so that auditors and projectors never re-parse the archived bytes. Parties reuse the
 * CT-e reader's shape (`ParteLida`); the carrier of `transp/transporta` has a flat address, read into
 * `endereco.logradouro`, `endereco.municipio` and `endereco.uf`.
 */
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

export const CargaNfeLida = Type.Object({
  volumes: Nullable(Type.Integer({ description: 'Sum of `transp/vol/qVol`' })),
  peso_liquido_g: Nullable(Type.Integer({ description: 'Sum of `transp/vol/pesoL`, in grams' })),
  peso_bruto_g: Nullable(Type.Integer({ description: 'Sum of `transp/vol/pesoB`, in grams' })),
});
export type CargaNfeLida = Static<typeof CargaNfeLida>;

export const NfeLida = Type.Object({
  ...IdentificacaoLida,
  natureza_operacao: Type.String(),
  tipo_operacao: Type.Union([Type.Literal('entrada'), Type.Literal('saida')], { description: '`ide/tpNF` 0 entrada, 1 saída' }),
  finalidade: Type.Integer({ description: '`ide/finNFe`: 1 normal, 2 complementar, 3 ajuste, 4 devolução' }),
  data_emissao: Type.String(),
  data_saida_entrada: Nullable(Type.String()),
  ambiente: Type.Union([Type.Literal('producao'), Type.Literal('homologacao')]),
  emitente: ParteLida,
  destinatario: Nullable(ParteLida),
  valor_total_centavos: Type.Integer({ description: '`total/ICMSTot/vNF` in integer cents' }),
  valor_produtos_centavos: Nullable(Type.Integer({ description: '`total/ICMSTot/vProd` in integer cents' })),
  modalidade_frete: Nullable(Type.Integer({ description: '`transp/modFrete` 0–4 or 9' })),
  transportador: Nullable(ParteLida),
  carga: CargaNfeLida,
  protocolo: Nullable(ProtocoloLido),
});
export type NfeLida = Static<typeof NfeLida>;
