import { type Pool } from 'pg';
import { type Environment } from '@frete/contracts';
import { codigoNumerico, type CteState } from '@frete/domain';
import { type CertificateVault } from '@frete/platform';
import { type FiscalSchemas } from '@frete/documents';
import { prepararCte } from './preparar';
import { CSTAT_ERRO_NAO_CATALOGADO, type MontarXmlDaEmissao } from '../emissao/emissor';
import { assinarXml } from '../emissao/assinar';

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
export const montarXmlDaEmissao =
  (deps: MontarXmlDeps): MontarXmlDaEmissao<CteState> =>
  async ({ companyId, state, serie, numero, leituras }) => {
    const now = deps.clock();
    const prepared = await prepararCte(
      { pool: deps.pool, environment: deps.environment },
      {
        companyId,
        dados: state.dados ?? {},
        serie,
        numero,
        cCT: codigoNumerico(deps.random, numero),
        now,
      },
      leituras,
    );
    if (prepared.pendencias.length > 0 || !prepared.xml || !prepared.chave || !prepared.certificadoBlobId) {
      const list = prepared.pendencias.map((p) => `${p.campo}: ${p.mensagem}`).join('; ') || 'the CT-e could not be built';
      return { tipo: 'recusado', cstat: CSTAT_ERRO_NAO_CATALOGADO, motivo: `Pendências: ${list}`.slice(0, 255) };
    }
    // With its real number and date, the XML is checked once more by the authority's rule set: refused here, never sent.
    const [rejeicao] = prepared.rejeicoes;
    if (rejeicao) return { tipo: 'recusado', cstat: rejeicao.cStat, motivo: rejeicao.xMotivo };
    const signed = await assinarXml(deps, {
      companyId,
      certificadoBlobId: prepared.certificadoBlobId,
      xml: prepared.xml,
      element: 'infCte',
      schema: 'cte_v4.00.xsd',
      falha: { cstat: CSTAT_FALHA_SCHEMA, texto: 'Rejeição: Falha no Schema XML do CT-e' },
    });
    if (signed.tipo === 'recusado') return signed;
    return { tipo: 'assinado', chave: prepared.chave, xml: signed.xml, data_emissao: dataEmissaoDe(signed.xml) };
  };

/** dhEmi as the signed XML writes it. */
export const dataEmissaoDe = (signed: string) => /<dhEmi>([^<]+)<\/dhEmi>/.exec(signed)?.[1] ?? '';
