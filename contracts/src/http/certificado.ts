import { Type, type Static } from '@sinclair/typebox';

export const CertificateMetadata = Type.Object(
  {
    presente: Type.Boolean(),
    titular: Type.Union([Type.String(), Type.Null()]),
    cnpj: Type.Union([Type.String(), Type.Null()]),
    emissor: Type.Union([Type.String(), Type.Null()]),
    serial: Type.Union([Type.String(), Type.Null()]),
    valido_de: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    valido_ate: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    dias_para_expirar: Type.Union([Type.Integer(), Type.Null()]),
    nome_arquivo: Type.Union([Type.String(), Type.Null()]),
    enviado_em: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'CertificateMetadata', description: 'Read from the certificate; never the file nor the password' },
);
export type CertificateMetadata = Static<typeof CertificateMetadata>;

export const CertificateRemoval = Type.Object({ removed: Type.Boolean() }, { $id: 'CertificateRemoval' });
