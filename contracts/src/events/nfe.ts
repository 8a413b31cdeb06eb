import { Type, type Static } from '@sinclair/typebox';
import { NfeLida } from './nfe-lida';

/**
 * Events of aggregate `nfe`, one stream per company and access key (`nfe-<company_id>-<chave>`). Every receipt is
 * an event, even one that changes nothing, so that each file an integrator sent can be audited; the received
 * bytes are in the document store under `sha256`, written before the event.
 */
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

export const NfeArquivoRecebido = Type.Object({
  nome: Type.String({ description: 'File name as sent (for a ZIP entry, the entry path)' }),
  zip: Nullable(Type.String({ description: 'The ZIP the entry came from, or null' })),
  sha256: Type.String({ description: 'Digest of the bytes kept in the document store' }),
});
export type NfeArquivoRecebido = Static<typeof NfeArquivoRecebido>;

/**
 * How an NF-e's XML arrived: files sent to `POST /fiscal/nfe/importacoes` (`importacao`), or the national distribution
 * (`distribuicao`, NFeDistribuicaoDFe: a `procNFe` naming the company in `transp/transporta`; issue 30).
 */
export const CanalNfe = Type.Union([Type.Literal('importacao'), Type.Literal('distribuicao')]);
export type CanalNfe = Static<typeof CanalNfe>;

/** The XML was received for a key not yet imported, or known only from a PDF (`completou_chave`). */
export const NfeImportada = Type.Object({
  company_id: Type.String(),
  chave: Type.String(),
  arquivo: NfeArquivoRecebido,
  completou_chave: Type.Boolean({ description: 'True when the key was known only from a PDF until now' }),
  nfe: NfeLida,
  /** Absent: `importacao` (every import recorded before issue 30). */
  canal: Type.Optional(CanalNfe),
  /** Canal `distribuicao`: the document's NSU in the company's distribution (15 digits). */
  nsu: Type.Optional(Type.String({ pattern: '^[0-9]{15}$' })),
});
export type NfeImportada = Static<typeof NfeImportada>;

/** Only the access key is known (read from a PDF, e.g. a DANFE); the XML is awaited. */
export const NfeChaveImportada = Type.Object({
  company_id: Type.String(),
  chave: Type.String(),
  arquivo: NfeArquivoRecebido,
});
export type NfeChaveImportada = Static<typeof NfeChaveImportada>;

/**
 * A later receipt of an NF-e already known. `substituiu_xml` is true when the XML received differs from the
 * archived one and replaced it (never an authorized `nfeProc` by an XML without protocol).
 */
export const NfeReimportada = Type.Object({
  company_id: Type.String(),
  chave: Type.String(),
  origem: Type.Union([Type.Literal('xml'), Type.Literal('pdf')]),
  arquivo: NfeArquivoRecebido,
  substituiu_xml: Type.Boolean(),
  nfe: Nullable(NfeLida),
});
export type NfeReimportada = Static<typeof NfeReimportada>;

export const NfeRemovida = Type.Object({ company_id: Type.String(), chave: Type.String() });
export type NfeRemovida = Static<typeof NfeRemovida>;
