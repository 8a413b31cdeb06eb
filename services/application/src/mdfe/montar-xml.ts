import { type Pool } from 'pg';
import { codigoNumerico, montarMdfeXml, type MdfeState, ufBySigla, dhSaoPaulo } from '@frete/domain';
import { certificadoOf, companyOf, configuracaoOf } from '@frete/projections';
import { signFiscalXml } from '@frete/documents';
import { type FiscalRootSchema } from '@frete/documents';
import { CSTAT_ERRO_NAO_CATALOGADO, type XmlDaEmissao } from '../cte/emissor';
import { CSTAT_FALHA_SCHEMA, type MontarXmlDeps } from '../cte/montar-xml';

/** The same parts as the CT-e's engine: pool, environment, certificates, schemas, clock and randomness. */
export type MontarMdfeDeps = MontarXmlDeps;



export type Assinado = { tipo: 'assinado'; xml: string } | { tipo: 'recusado'; cstat: number; motivo: string };

/** What an MDF-e issue still lacks from the company (fiscal configuration, certificate), as `campo: mensagem`. */
export async function pendenciasMdfe(pool: Pool, companyId: string): Promise<{ campo: string; mensagem: string }[]> {
  const [configuracao, certificado] = await Promise.all([configuracaoOf(pool, companyId), certificadoOf(pool, companyId)]);
  const p: { campo: string; mensagem: string }[] = [];
  if (!configuracao.inscricao_estadual) p.push({ campo: 'configuracao.inscricao_estadual', mensagem: 'the fiscal configuration has no state registration' });
  if (!configuracao.endereco || !ufBySigla(configuracao.endereco.uf)) p.push({ campo: 'configuracao.endereco', mensagem: 'the fiscal configuration has no address' });
  if (!certificado) p.push({ campo: 'certificado', mensagem: 'no A1 certificate was sent (POST /fiscal/certificado)' });
  return p;
}

/** Signs `element` with the company's A1 certificate and validates the result against `schema`. */
export const assinarMdfe = (deps: MontarMdfeDeps) => async (companyId: string, xml: string, element: string, schema: FiscalRootSchema): Promise<Assinado> => {
  const certificado = await certificadoOf(deps.pool, companyId);
  const pem = certificado ? await deps.certificates.signingKey(companyId, certificado.blob_id) : null;
  if (!pem) return { tipo: 'recusado', cstat: CSTAT_ERRO_NAO_CATALOGADO, motivo: 'Pendências: certificado: the A1 certificate cannot be opened' };
  const signed = signFiscalXml(xml, { element, privateKeyPem: pem.privateKeyPem, certificatePem: pem.certificatePem });
  const check = await deps.schemas.validate(signed, schema);
  if (!check.valid) {
    const first = check.errors[0];
    return { tipo: 'recusado', cstat: CSTAT_FALHA_SCHEMA, motivo: `Rejeição: Falha no Schema XML: ${first?.path ?? ''} ${first?.message ?? ''}`.trim().slice(0, 255) };
  }
  return { tipo: 'assinado', xml: signed };
};

/** The MDF-e of a manifest with its number and a fresh cMDF, signed on `infMDFe` and checked against mdfe_v3.00.xsd. */
export const montarXmlDaEmissaoMdfe = (deps: MontarMdfeDeps) =>
  async (input: { companyId: string; state: MdfeState; serie: number; numero: number }): Promise<XmlDaEmissao> => {
    const { companyId, state, serie, numero } = input;
    const pendencias = await pendenciasMdfe(deps.pool, companyId);
    const [company, configuracao] = await Promise.all([companyOf(deps.pool, companyId, ''), configuracaoOf(deps.pool, companyId)]);
    if (pendencias.length > 0 || !company || !configuracao.endereco || !state.dados) {
      const list = pendencias.map((p) => `${p.campo}: ${p.mensagem}`).join('; ') || 'the MDF-e could not be built';
      return { tipo: 'recusado', cstat: CSTAT_ERRO_NAO_CATALOGADO, motivo: `Pendências: ${list}`.slice(0, 255) };
    }
    const built = montarMdfeXml({
      dados: state.dados,
      emitente: {
        cnpj: company.cnpj, razao_social: company.razao_social, inscricao_estadual: configuracao.inscricao_estadual ?? '',
        endereco: configuracao.endereco, rntrc: configuracao.rntrc,
      },
      serie,
      numero,
      cMDF: codigoNumerico(deps.random, numero),
      dhEmi: dhSaoPaulo(deps.clock()),
      ambiente: deps.environment,
    });
    const signed = await assinarMdfe(deps)(companyId, built.xml, 'infMDFe', 'mdfe_v3.00.xsd');
    if (signed.tipo === 'recusado') return signed;
    const dataEmissao = /<dhEmi>([^<]+)<\/dhEmi>/.exec(signed.xml)?.[1] ?? '';
    return { tipo: 'assinado', chave: built.chave, xml: signed.xml, data_emissao: dataEmissao };
  };
