import { type Pool } from 'pg';
import { type Environment, type MdfeDados } from '@frete/contracts';
import { montarMdfeXml, type RejeicaoPrevista, rejeicoesPrevistas, tpAmbDoAmbiente, ufBySigla, dhSaoPaulo } from '@frete/domain';
import { certificadoOf, companyOf, configuracaoOf } from '@frete/projections';
import { type FiscalRootSchema } from '@frete/documents';
import { assinarXml, type Assinado } from '../emissao/assinar';
import { CSTAT_FALHA_SCHEMA, type MontarXmlDeps } from '../emissao/montar-xml';

export { type Assinado } from '../emissao/assinar';

/**
 * What an MDF-e issue still lacks from the company (fiscal configuration, certificate), as `campo: mensagem`, and the
 * certificate's blob it would sign with.
 */
async function pendenciasMdfe(pool: Pool, companyId: string) {
  const [configuracao, certificado] = await Promise.all([configuracaoOf(pool, companyId), certificadoOf(pool, companyId)]);
  const p: { campo: string; mensagem: string }[] = [];
  if (!configuracao.inscricao_estadual)
    p.push({ campo: 'configuracao.inscricao_estadual', mensagem: 'the fiscal configuration has no state registration' });
  if (!configuracao.endereco || !ufBySigla(configuracao.endereco.uf))
    p.push({ campo: 'configuracao.endereco', mensagem: 'the fiscal configuration has no address' });
  if (!certificado) p.push({ campo: 'certificado', mensagem: 'no A1 certificate was sent (POST /fiscal/certificado)' });
  return { pendencias: p, certificadoBlobId: certificado?.blob_id ?? null };
}

export interface MdfePreparado {
  pendencias: { campo: string; mensagem: string }[];
  /** Unsigned; null while the company's fiscal configuration or address is missing. */
  xml: string | null;
  chave: string | null;
  /** The certificate's blob, to sign with. */
  certificadoBlobId: string | null;
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
  const [{ pendencias, certificadoBlobId }, company, configuracao] = await Promise.all([
    pendenciasMdfe(pool, input.companyId),
    companyOf(pool, input.companyId, ''),
    configuracaoOf(pool, input.companyId),
  ]);
  if (!company || !configuracao.endereco || !ufBySigla(configuracao.endereco.uf) || !input.dados)
    return { pendencias, xml: null, chave: null, certificadoBlobId, rejeicoes: [] };
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
  return { pendencias, xml: built.xml, chave: built.chave, certificadoBlobId, rejeicoes };
}

/** Signs an MDF-e event's `element` with the company's A1 certificate and validates the result against `schema`. */
export const assinarMdfe =
  (deps: MontarXmlDeps) =>
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
