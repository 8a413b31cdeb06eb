import { type CertificateVault } from '@frete/platform';
import { type FiscalRootSchema, type FiscalSchemas, signFiscalXml } from '@frete/documents';
import { CSTAT_ERRO_NAO_CATALOGADO } from './emissor';

export type Assinado = { tipo: 'assinado'; xml: string } | { tipo: 'recusado'; cstat: number; motivo: string };

export interface AssinaturaDeps {
  certificates: CertificateVault;
  schemas: FiscalSchemas;
}

/** How the authority would refuse the XML's schema (its cStat and text differ per document and event). */
export interface FalhaDeSchema {
  cstat: number;
  texto: string;
}

/**
 * Signs `element` of a document or event with the company's A1 certificate and validates the result against its
 * official schema: what the authority would refuse is said before anything is sent.
 */
export async function assinarXml(
  deps: AssinaturaDeps,
  o: { companyId: string; certificadoBlobId: string | null; xml: string; element: string; schema: FiscalRootSchema; falha: FalhaDeSchema },
): Promise<Assinado> {
  const pem = o.certificadoBlobId ? await deps.certificates.signingKey(o.companyId, o.certificadoBlobId) : null;
  if (!pem)
    return { tipo: 'recusado', cstat: CSTAT_ERRO_NAO_CATALOGADO, motivo: 'Pendências: certificado: the A1 certificate cannot be opened' };
  const signed = signFiscalXml(o.xml, { element: o.element, privateKeyPem: pem.privateKeyPem, certificatePem: pem.certificatePem });
  const check = await deps.schemas.validate(signed, o.schema);
  if (!check.valid) {
    const first = check.errors[0];
    return {
      tipo: 'recusado',
      cstat: o.falha.cstat,
      motivo: `${o.falha.texto}: ${first?.path ?? ''} ${first?.message ?? ''}`.trim().slice(0, 255),
    };
  }
  return { tipo: 'assinado', xml: signed };
}
