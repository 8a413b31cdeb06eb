import { type Pool } from 'pg';
import { type Environment } from '@frete/contracts';
import { codigoNumerico, type EspecieDocumento } from '@frete/domain';
import { type CertificateVault } from '@frete/platform';
import { type FiscalSchemas } from '@frete/documents';
import { CSTAT_ERRO_NAO_CATALOGADO, type PedidoDeXml, type XmlDaEmissao } from './emissor';
import { assinarXml } from './assinar';
import { type Preparado } from './documento';

export interface MontarXmlDeps {
  pool: Pool;
  environment: Environment;
  certificates: CertificateVault;
  schemas: FiscalSchemas;
  clock: () => Date;
  /** Randomness for the key's numeric code (cCT, cMDF), passed in (tests make it deterministic). */
  random: () => number;
}

/** cStat 225 "Rejeição: Falha no Schema XML do CT-e" (of the MDF-e): what the authority would answer, said before sending. */
export const CSTAT_FALHA_SCHEMA = 225;

/** What a kind's own builder makes of an issue: the unsigned XML with its real number, and the certificate to sign it with. */
export type XmlConstruido = Preparado & { certificadoBlobId: string | null };

/**
 * A kind's own builder: its document from its data and the company's, with the number, the key's numeric code and
 * the issue date it is given. Everything else an issue does with that XML is the same for every kind.
 */
export type ConstruirXml<S> = (deps: MontarXmlDeps, pedido: PedidoDeXml<S>, chave: { codigo: string; now: Date }) => Promise<XmlConstruido>;

/**
 * The document engine behind an issue of any kind: the kind's XML with its real number and a fresh numeric code,
 * refused when anything is missing or an authority rule fails, signed on the kind's element with the company's A1
 * certificate and checked against the kind's official schema (`EspecieDocumento.xml`), so nothing the authority
 * would refuse is sent.
 */
export const montarXmlDaEmissao =
  <S>(fiscal: EspecieDocumento, construir: ConstruirXml<S>) =>
  async (deps: MontarXmlDeps, pedido: PedidoDeXml<S>): Promise<XmlDaEmissao> => {
    const { companyId, numero } = pedido;
    const built = await construir(deps, pedido, { codigo: codigoNumerico(deps.random, numero), now: deps.clock() });
    if (built.pendencias.length > 0 || !built.xml || !built.chave || !built.certificadoBlobId) {
      const list = built.pendencias.map((p) => `${p.campo}: ${p.mensagem}`).join('; ') || `the ${fiscal.nome} could not be built`;
      return { tipo: 'recusado', cstat: CSTAT_ERRO_NAO_CATALOGADO, motivo: `Pendências: ${list}`.slice(0, 255) };
    }
    // With its real number and date, the XML is checked once more by the authority's rule set: refused here, never sent.
    const [rejeicao] = built.rejeicoes;
    if (rejeicao) return { tipo: 'recusado', cstat: rejeicao.cStat, motivo: rejeicao.xMotivo };
    const signed = await assinarXml(deps, {
      companyId,
      certificadoBlobId: built.certificadoBlobId,
      xml: built.xml,
      element: fiscal.xml.inf,
      schema: fiscal.xml.esquema,
      falha: { cstat: CSTAT_FALHA_SCHEMA, texto: `Rejeição: Falha no Schema XML do ${fiscal.nome}` },
    });
    if (signed.tipo === 'recusado') return signed;
    return { tipo: 'assinado', chave: built.chave, xml: signed.xml, data_emissao: dataEmissaoDe(signed.xml) };
  };

/** dhEmi as the signed XML writes it. */
export const dataEmissaoDe = (signed: string) => /<dhEmi>([^<]+)<\/dhEmi>/.exec(signed)?.[1] ?? '';
