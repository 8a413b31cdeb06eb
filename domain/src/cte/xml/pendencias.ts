import { type CteRascunho, type Endereco } from '@frete/contracts';
import { problemaCfop } from './montar';
import { centavosDeReais, decimalDeCentavos, somaCentavos } from '../../money/money';

/** One thing an issue still needs, named by its field path (draft fields as in `CteDraftInput`). */
export interface Pendencia {
  campo: string;
  mensagem: string;
}

export interface PendenciasInput {
  dados: CteRascunho;
  /** The fiscal configuration (ruling 23). */
  configuracao: {
    inscricao_estadual: string | null;
    regime_tributario: number | null;
    rntrc: string | null;
    serie_cte: number | null;
    endereco: Endereco | null;
  };
  certificado: { valido_de: Date | string; valido_ate: Date | string } | null;
  /** The applicable tax rule (`regraAplicavel`), if any. */
  regra: { icms_cst: string } | null;
  now: Date;
}

const PAPEL_PATH = { remetente: 'remetente', expedidor: 'expedidor', recebedor: 'recebedor', destinatario: 'destinatario' } as const;
const SEM_ALIQUOTA = ['40', '41', '51', 'SN'];

/**
 * Everything missing for issuing this draft: configuration, certificate, draft groups, ICMS (the draft's or a tax
 * rule's: otherwise `sem_regra_tributacao`), values that do not add up, previous documents for tpServ 1–3 (G059)
 * and none for tpServ 0 (G060), infDoc but for tpServ 3 and 4 (G036), a draft CFOP the route forbids (G050–G052).
 * Empty when the draft can be issued.
 */
export function pendenciasEmissao({ dados, configuracao: c, certificado, regra, now }: PendenciasInput): Pendencia[] {
  const out: Pendencia[] = [];
  const falta = (campo: string, mensagem: string) => out.push({ campo, mensagem });

  if (!c.inscricao_estadual) falta('configuracao.inscricao_estadual', "the company's state registration (emit/IE) is not configured");
  else if (c.inscricao_estadual === 'ISENTO')
    falta('configuracao.inscricao_estadual', 'a carrier issuing CT-e needs a numeric state registration (emit/IE), not ISENTO');
  if (c.regime_tributario === null) falta('configuracao.regime_tributario', 'the tax regime (emit/CRT) is not configured');
  if (c.serie_cte === null) falta('configuracao.serie_cte', 'the CT-e series is not configured');
  if (!c.endereco) falta('configuracao.endereco', "the company's address (emit/enderEmit) is not configured");
  if (!c.rntrc && !dados.rodoviario?.rntrc) falta('configuracao.rntrc', 'no RNTRC: neither configured nor in rodoviario.rntrc');

  if (!certificado) falta('certificado', 'no A1 certificate uploaded (POST /fiscal/certificado)');
  else if (new Date(certificado.valido_ate).getTime() < now.getTime())
    falta('certificado', `the certificate expired on ${new Date(certificado.valido_ate).toISOString()}`);
  else if (new Date(certificado.valido_de).getTime() > now.getTime())
    falta('certificado', `the certificate is valid only from ${new Date(certificado.valido_de).toISOString()}`);

  const tpServ = dados.tipo_servico ?? 0;
  if (!dados.inicio) falta('inicio', 'the start of the service (ide/cMunIni) is missing');
  if (!dados.fim) falta('fim', 'the end of the service (ide/cMunFim) is missing');
  if (tpServ === 3) {
    if (!dados.expedidor) falta('expedidor', 'an intermediate redispatch needs the expedidor (G055)');
    if (!dados.recebedor) falta('recebedor', 'an intermediate redispatch needs the recebedor (G056)');
  } else {
    if (!dados.remetente) falta('remetente', 'the remetente is required for this service type (G053)');
    if (!dados.destinatario) falta('destinatario', 'the destinatario is required for this service type (G054)');
  }
  if (!dados.tomador) falta('tomador', 'the taker (toma3 or toma4) is missing');
  else if (
    dados.tomador.papel !== 'outros' &&
    !dados[dados.tomador.papel] &&
    !out.some((p) => p.campo === PAPEL_PATH[dados.tomador!.papel as keyof typeof PAPEL_PATH])
  ) {
    falta(PAPEL_PATH[dados.tomador.papel], `the taker is the ${dados.tomador.papel}, who is not in the draft`);
  }
  if (!dados.valores) falta('valores.total', 'the service total (vPrest/vTPrest) is missing');
  else if (dados.valores.componentes?.length) {
    const soma = somaCentavos(dados.valores.componentes.map((k) => centavosDeReais(k.valor)));
    const total = centavosDeReais(dados.valores.total);
    if (soma !== total) {
      falta('valores.componentes', `the components add up to ${decimalDeCentavos(soma)}, not the total ${decimalDeCentavos(total)}`);
    }
  }
  if (!dados.carga) falta('carga', 'the cargo (infCarga: value, predominant product, quantities) is missing');
  // G036 (693): infDoc for every service but an intermediate redispatch (3) and one linked to multimodal (4). The
  // product writes NF-e keys (infNFe) and other documents (infOutros), not paper invoices (infNF): a contractor's CT-e
  // of paper invoices cannot be passed on.
  if (tpServ !== 3 && tpServ !== 4 && !dados.documentos?.nfe?.length && !dados.documentos?.outros?.length) {
    falta(
      'documentos',
      `tpServ ${tpServ} needs the transported documents, NF-e keys or other documents (infDoc/infNFe or infOutros: G036, rejection 693)`,
    );
  }
  const anteriores = dados.documentos_anteriores?.length ?? 0;
  if (tpServ >= 1 && tpServ <= 3 && anteriores === 0) {
    falta('documentos_anteriores', 'subcontracting and redispatch need the previous CT-e (docAnt, G059, rejection 521)');
  }
  if (tpServ === 0 && anteriores > 0)
    falta('documentos_anteriores', 'a normal service (tpServ 0) takes no previous documents (G060, rejection 747)');

  const icms = dados.impostos?.icms;
  if (icms) {
    if (!SEM_ALIQUOTA.includes(icms.cst) && icms.aliquota === undefined) falta('impostos.icms.aliquota', `CST ${icms.cst} needs a rate`);
    if (icms.cst === '20' && !(icms.reducao_base && icms.reducao_base > 0 && icms.reducao_base < 100)) {
      falta('impostos.icms.reducao_base', 'CST 20 needs a base reduction above 0 and below 100');
    }
  } else if (!regra && dados.inicio && dados.fim) {
    falta(
      'impostos.icms',
      `sem_regra_tributacao: no ICMS in the draft and no tax rule for ${dados.inicio.uf}→${dados.fim.uf} (tpServ ${tpServ}); create one with POST /fiscal/regras-tributacao`,
    );
  } else if (!regra) {
    falta('impostos.icms', 'no ICMS in the draft, and without the route no tax rule can apply');
  }

  if (dados.cfop && dados.inicio && dados.fim && c.endereco) {
    const problema = problemaCfop(dados.cfop, c.endereco.uf, dados.inicio.uf, dados.fim.uf);
    if (problema) falta('cfop', problema);
  }
  return out;
}
