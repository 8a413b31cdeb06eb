import { type Pool } from 'pg';
import { type Environment, type MdfeDados } from '@frete/contracts';
import {
  codigoNumerico,
  montarMdfeXml,
  type MdfeState,
  type RejeicaoPrevista,
  rejeicoesPrevistas,
  tpAmbDoAmbiente,
  ufBySigla,
  dhSaoPaulo,
} from '@frete/domain';
import { certificadoOf, companyOf, configuracaoOf } from '@frete/projections';
import { type FiscalRootSchema } from '@frete/documents';
import { CSTAT_ERRO_NAO_CATALOGADO, type MontarXmlDaEmissao } from '../emissao/emissor';
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

export interface MdfePreparado {
  pendencias: { campo: string; mensagem: string }[];
  /** Unsigned; null while the company's fiscal configuration or address is missing. */
  xml: string | null;
  chave: string | null;
  /** Every authority rule the XML fails (domain/src/autoridade/regras), with the cStat and text the authority would answer. */
  rejeicoes: RejeicaoPrevista[];
}

/**
 * What an issue of an MDF-e would send, unsigned, from its data and the company's configuration: the preview shows
 * it, the issue checks it before anything is sent, and signs and sends it.
 */
export async function prepararMdfe(
  deps: { pool: Pool; environment: Environment },
  input: { companyId: string; dados: MdfeDados | null; serie?: number; numero: number; cMDF: string; now: Date },
): Promise<MdfePreparado> {
  const { pool, environment } = deps;
  const [pendencias, company, configuracao] = await Promise.all([
    pendenciasMdfe(pool, input.companyId),
    companyOf(pool, input.companyId, ''),
    configuracaoOf(pool, input.companyId),
  ]);
  if (!company || !configuracao.endereco || !ufBySigla(configuracao.endereco.uf) || !input.dados)
    return { pendencias, xml: null, chave: null, rejeicoes: [] };
  const built = montarMdfeXml({
    dados: input.dados,
    emitente: {
      cnpj: company.cnpj,
      razao_social: company.razao_social,
      inscricao_estadual: configuracao.inscricao_estadual ?? '',
      endereco: configuracao.endereco,
      rntrc: configuracao.rntrc,
    },
    serie: input.serie ?? configuracao.serie_mdfe ?? 0,
    numero: input.numero,
    cMDF: input.cMDF,
    dhEmi: dhSaoPaulo(input.now),
    ambiente: environment,
  });
  const rejeicoes = rejeicoesPrevistas('mdfe', built.xml, { tpAmb: tpAmbDoAmbiente(environment), agora: input.now });
  return { pendencias, xml: built.xml, chave: built.chave, rejeicoes };
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
  (deps: MontarMdfeDeps): MontarXmlDaEmissao<MdfeState> =>
  async (input) => {
    const { companyId, state, serie, numero } = input;
    const built = await prepararMdfe(deps, {
      companyId,
      dados: state.dados,
      serie,
      numero,
      cMDF: codigoNumerico(deps.random, numero),
      now: deps.clock(),
    });
    if (built.pendencias.length > 0 || !built.xml || !built.chave) {
      const list = built.pendencias.map((p) => `${p.campo}: ${p.mensagem}`).join('; ') || 'the MDF-e could not be built';
      return { tipo: 'recusado', cstat: CSTAT_ERRO_NAO_CATALOGADO, motivo: `Pendências: ${list}`.slice(0, 255) };
    }
    // With its real number and date, checked once more by the authority's rule set: refused here, never sent.
    const [rejeicao] = built.rejeicoes;
    if (rejeicao) return { tipo: 'recusado', cstat: rejeicao.cStat, motivo: rejeicao.xMotivo };
    const signed = await assinarMdfe(deps)(companyId, built.xml, 'infMDFe', 'mdfe_v3.00.xsd');
    if (signed.tipo === 'recusado') return signed;
    return { tipo: 'assinado', chave: built.chave, xml: signed.xml, data_emissao: dataEmissaoDe(signed.xml) };
  };
