import { type Pool } from 'pg';
import { type CteRascunho, type Environment } from '@frete/contracts';
import {
  cfopDaPrestacao,
  type IbsCbsDaPrestacao,
  type IcmsDaPrestacao,
  montarCteXml,
  type Pendencia,
  pendenciasEmissao,
  percentualDeCentesimos,
  regraAplicavel,
  type RejeicaoPrevista,
  rejeicoesPrevistas,
  tpAmbDoAmbiente,
  ufBySigla,
  dhSaoPaulo,
} from '@frete/domain';
import { LeiturasDaEmpresa } from './leituras';

export interface PrepararDeps {
  pool: Pool;
  environment: Environment;
}

export interface CtePreparado {
  pendencias: Pendencia[];
  /** Unsigned; null while the route, the taker, the values, the company address or the ICMS are missing. */
  xml: string | null;
  chave: string | null;
  /** The certificate's blob, to sign with. */
  certificadoBlobId: string | null;
  /**
   * Every authority rule the XML fails (the rule set the simulated authority runs, domain/src/autoridade/regras),
   * with the cStat and text the authority would answer; empty when it passes or there is no XML yet.
   */
  rejeicoes: RejeicaoPrevista[];
}

/** What an issue of the draft would still lack, and the reads that said so (the company, its configuration, the rule). */
export async function pendenciasDoCte(dados: CteRascunho, now: Date, leituras: LeiturasDaEmpresa) {
  const [company, configuracao, certificado] = await Promise.all([leituras.company(), leituras.configuracao(), leituras.certificado()]);
  const { inicio, fim } = dados;
  const tpServ = dados.tipo_servico ?? 0;
  const regra = inicio && fim ? regraAplicavel(await leituras.regrasDaRota(inicio.uf, fim.uf), inicio.uf, fim.uf, tpServ) : null;
  const pendencias = pendenciasEmissao({ dados, configuracao, certificado, regra, now });
  return { company, configuracao, certificado, regra, pendencias };
}

/**
 * What an issue of a draft would send, from the draft, the company, its fiscal configuration and certificate, and
 * the tax rule of the route: the preview shows it, the issue signs and sends it.
 */
export async function prepararCte(
  deps: PrepararDeps,
  input: { companyId: string; dados: CteRascunho; serie?: number; numero: number; cCT: string; now: Date },
  leituras = new LeiturasDaEmpresa(deps.pool, input.companyId),
): Promise<CtePreparado> {
  const { dados } = input;
  const { company, configuracao, certificado, regra, pendencias } = await pendenciasDoCte(dados, input.now, leituras);
  const now = input.now;
  const { inicio, fim } = dados;
  const icms: IcmsDaPrestacao | null =
    dados.impostos?.icms ??
    (regra
      ? {
          cst: regra.icms_cst,
          aliquota: percentualDeCentesimos(regra.icms_aliquota),
          reducao_base: regra.icms_reducao_base === null ? null : percentualDeCentesimos(regra.icms_reducao_base),
        }
      : null);
  const regraIbsCbs = regra?.ibs_cbs ?? null;
  const ibsCbs: IbsCbsDaPrestacao | null =
    dados.impostos?.ibs_cbs ??
    (regraIbsCbs
      ? {
          cst: regraIbsCbs.cst,
          cclass_trib: regraIbsCbs.cclass_trib,
          aliquota_ibs_uf: percentualDeCentesimos(regraIbsCbs.aliquota_ibs_uf_centesimos),
          aliquota_ibs_mun: percentualDeCentesimos(regraIbsCbs.aliquota_ibs_mun_centesimos),
          aliquota_cbs: percentualDeCentesimos(regraIbsCbs.aliquota_cbs_centesimos),
          inscricao_suframa: regraIbsCbs.inscricao_suframa ?? null,
        }
      : null);
  const endereco = configuracao.endereco;
  if (!(company && endereco && ufBySigla(endereco.uf) && inicio && fim && dados.tomador && dados.valores && icms)) {
    return { pendencias, xml: null, chave: null, certificadoBlobId: certificado?.blob_id ?? null, rejeicoes: [] };
  }
  // Read at build time, for every CT-e built here (a draft's issue, a counter-CT-e, a batch row, the preview): a UF the
  // operator switched to its SVC issues with its tpEmis, dhCont and xJust; a re-issue after a rejection follows the switch.
  const contingencia = await leituras.contingencia(endereco.uf);
  const built = montarCteXml({
    dados,
    emitente: {
      cnpj: company.cnpj,
      razao_social: company.razao_social,
      inscricao_estadual: configuracao.inscricao_estadual ?? '',
      crt: configuracao.regime_tributario ?? 0,
      endereco,
      rntrc: configuracao.rntrc,
    },
    serie: input.serie ?? configuracao.serie_cte ?? 0,
    numero: input.numero,
    cCT: input.cCT,
    dhEmi: dhSaoPaulo(now),
    ambiente: deps.environment,
    contingencia: contingencia && { tpEmis: contingencia.tp_emis, dhCont: contingencia.dh_cont, xJust: contingencia.justificativa },
    icms,
    ibsCbs,
    cfop: cfopDaPrestacao({
      cfopRascunho: dados.cfop,
      cfopRegra: regra?.cfop,
      ufEmitente: endereco.uf,
      ufInicio: inicio.uf,
      ufFim: fim.uf,
    }),
  });
  const rejeicoes = rejeicoesPrevistas('cte', built.xml, { tpAmb: tpAmbDoAmbiente(deps.environment), agora: now });
  return { pendencias, xml: built.xml, chave: built.chave, certificadoBlobId: certificado?.blob_id ?? null, rejeicoes };
}
