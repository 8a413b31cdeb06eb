import { type Pool } from 'pg';
import { codigoNumerico, montarMdfeXml, type MdfeState, ufBySigla, dhSaoPaulo } from '@frete/domain';
import { certificadoOf, companyOf, configuracaoOf } from '@frete/projections';
import { type FiscalRootSchema } from '@frete/documents';
import { CSTAT_ERRO_NAO_CATALOGADO, type XmlDaEmissao } from '../emissao/emissor';
import { assinarXml, type Assinado } from '../emissao/assinar';
import { CSTAT_FALHA_SCHEMA, dataEmissaoDe, type MontarXmlDeps } from '../cte/montar-xml';

/** The same parts as the CT-e's engine: pool, environment, certificates, schemas, clock and randomness. */
export type MontarMdfeDeps = MontarXmlDeps;
export { type Assinado } from '../emissao/assinar';

/** What an MDF-e issue still lacks from the company (fiscal configuration, certificate), as `campo: mensagem`. */
export async function pendenciasMdfe(pool: Pool, companyId: string): Promise<{ campo: string; mensagem: string }[]> {
  const [configuracao, certificado] = await Promise.all([configuracaoOf(pool, companyId), certificadoOf(pool, companyId)]);
  const p: { campo: string; mensagem: string }[] = [];
  if (!configuracao.inscricao_estadual)
    p.push({ campo: 'configuracao.inscricao_estadual', mensagem: 'the fiscal configuration has no state registration' });
  if (!configuracao.endereco || !ufBySigla(configuracao.endereco.uf))
    p.push({ campo: 'configuracao.endereco', mensagem: 'the fiscal configuration has no address' });
  if (!certificado) p.push({ campo: 'certificado', mensagem: 'no A1 certificate was sent (POST /fiscal/certificado)' });
  return p;
}

/** Signs `element` with the company's A1 certificate and validates the result against `schema`. */
export const assinarMdfe =
  (deps: MontarMdfeDeps) =>
  async (companyId: string, xml: string, element: string, schema: FiscalRootSchema): Promise<Assinado> => {
    const certificado = await certificadoOf(deps.pool, companyId);
    return assinarXml(deps, {
      companyId,
      certificadoBlobId: certificado?.blob_id ?? null,
      xml,
      element,
      schema,
      falha: { cstat: CSTAT_FALHA_SCHEMA, texto: 'Rejeição: Falha no Schema XML' },
    });
  };

/** The MDF-e of a manifest with its number and a fresh cMDF, signed on `infMDFe` and checked against mdfe_v3.00.xsd. */
export const montarXmlDaEmissaoMdfe =
  (deps: MontarMdfeDeps) =>
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
        cnpj: company.cnpj,
        razao_social: company.razao_social,
        inscricao_estadual: configuracao.inscricao_estadual ?? '',
        endereco: configuracao.endereco,
        rntrc: configuracao.rntrc,
      },
      serie,
      numero,
      cMDF: codigoNumerico(deps.random, numero),
      dhEmi: dhSaoPaulo(deps.clock()),
      ambiente: deps.environment,
    });
    const signed = await assinarMdfe(deps)(companyId, built.xml, 'infMDFe', 'mdfe_v3.00.xsd');
    if (signed.tipo === 'recusado') return signed;
    return { tipo: 'assinado', chave: built.chave, xml: signed.xml, data_emissao: dataEmissaoDe(signed.xml) };
  };
