import { Type, type Static } from '@sinclair/typebox';

/** Metadata read from the certificate; the file and its password stay encrypted in the blob, never here. */
export const CertificadoEnviado = Type.Object({
  company_id: Type.String(),
  blob_id: Type.String(),
  sha256: Type.String(),
  nome_arquivo: Type.String(),
  titular: Type.String(),
  cnpj: Type.String(),
  emissor: Type.String(),
  serial: Type.String(),
  valido_de: Type.String({ format: 'date-time' }),
  valido_ate: Type.String({ format: 'date-time' }),
});
export type CertificadoEnviado = Static<typeof CertificadoEnviado>;

export const CertificadoRemovido = Type.Object({ company_id: Type.String(), blob_id: Type.String() });
export type CertificadoRemovido = Static<typeof CertificadoRemovido>;
