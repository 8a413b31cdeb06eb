import { type Pool } from 'pg';
import { type Environment } from '@frete/contracts';
import { codigoNumerico } from '@frete/domain';
import { type CertificateVault } from '@frete/platform';
import { signFiscalXml } from '@frete/documents';
import { type FiscalSchemas } from '@frete/documents';
import { prepararCte } from './preparar';
import { CSTAT_ERRO_NAO_CATALOGADO, type MontarXmlDaEmissao } from './emissor';

export interface MontarXmlDeps {
  pool: Pool;
  environment: Environment;
  certificates: CertificateVault;
  schemas: FiscalSchemas;
  clock: () => Date;
  /** Randomness for cCT, passed in (tests make it deterministic). */
  random: () => number;
}

/** cStat 225 "Rejeição: Falha no Schema XML do CT-e": what the authority would answer, said before sending. */
export const CSTAT_FALHA_SCHEMA = 225;

/**
 * The document engine behind an issue: the draft's XML with its real number and a fresh cCT, signed with the
 * company's A1 certificate, checked against cte_v4.00.xsd. Anything missing refuses the issue before sending.
 */
export const montarXmlDaEmissao = (deps: MontarXmlDeps): MontarXmlDaEmissao => async ({ companyId, state, serie, numero }) => {
  const now = deps.clock();
  const prepared = await prepararCte({ pool: deps.pool, environment: deps.environment }, {
    companyId, dados: state.dados ?? {}, serie, numero, cCT: codigoNumerico(deps.random, numero), now,
  });
  if (prepared.pendencias.length > 0 || !prepared.xml || !prepared.chave || !prepared.certificadoBlobId) {
    const list = prepared.pendencias.map((p) => `${p.campo}: ${p.mensagem}`).join('; ') || 'the CT-e could not be built';
    return { tipo: 'recusado', cstat: CSTAT_ERRO_NAO_CATALOGADO, motivo: `Pendências: ${list}`.slice(0, 255) };
  }
  const pem = await deps.certificates.signingKey(companyId, prepared.certificadoBlobId);
  if (!pem) return { tipo: 'recusado', cstat: CSTAT_ERRO_NAO_CATALOGADO, motivo: 'Pendências: certificado: the A1 certificate cannot be opened' };
  const signed = signFiscalXml(prepared.xml, { element: 'infCte', privateKeyPem: pem.privateKeyPem, certificatePem: pem.certificatePem });
  const check = await deps.schemas.validate(signed, 'cte_v4.00.xsd');
  if (!check.valid) {
    const first = check.errors[0];
    return { tipo: 'recusado', cstat: CSTAT_FALHA_SCHEMA, motivo: `Rejeição: Falha no Schema XML do CT-e: ${first?.path ?? ''} ${first?.message ?? ''}`.trim().slice(0, 255) };
  }
  const dataEmissao = /<dhEmi>([^<]+)<\/dhEmi>/.exec(signed)?.[1] ?? '';
  return { tipo: 'assinado', chave: prepared.chave, xml: signed, data_emissao: dataEmissao };
};
