import { NOME_HOMOLOGACAO } from '../../cte/xml/montar';
import { isValidAccessKey } from '../../fiscal/access-key';
import { isValidCnpj, isValidCpf } from '../../fiscal/documents';
import { ufByCode, ufBySigla } from '../../fiscal/ufs';
import { municipioByCode } from '../../ibge/municipios';
import { rejeicaoAliquotasAutoridade } from '../../regra-tributacao/aliquotas-autoridade';
import { UFS_AREA_INCENTIVADA } from '../../regra-tributacao/decider';
import { scaledDecimal } from '../../xml/decimal';
import { type XmlNode } from '../../xml/nodes';
import { regraAmbiente, regraCampoId, regraCnpjEmitente, regraDigitoChave, regraUfAtendida, regraUfEmitente } from './comuns';
import { type DocumentoFiscal, no, nos, texto, textos } from './documento';
import { type DocumentosAnteriores, falhasDocumentosAnteriores } from './documentos-anteriores';
import { type ContextoRegras, type RegraAutoridade } from './tipos';

/**
 * The CT-e 4.00 rules (modelo 57) the product checks before sending, in the order of MOC CT-e 4.00 Anexo I, 2.1
 * ("Regras de Validação do CT-e"): those a road carrier's document can break and that need no data of the authority
 * (registers of taxpayers, the NF-e base, other CT-e). The texts are the manual's; "CTe" in the extracted text reads
 * "CT-e" as in the simulated authority's table (`codigos.ts`).
 */

const ANEXO_I = 'MOC CT-e 4.00 Anexo I, 2.1 (Regras de Validação do CT-e)';
const VISAO_GERAL_CFOP = 'MOC CT-e 4.00 Visão Geral, 12 (Relação de CFOP válidos para autorização de CT-e)';
const NT_RTC = 'NT 2025.001 CT-e (RTC) v1.11a, grupo imp/IBSCBS/gIBSCBS (domain/src/regra-tributacao/aliquotas-autoridade.ts)';

const ide = (d: DocumentoFiscal) => no(d.inf, 'ide');
const campo = (d: DocumentoFiscal, n: string) => texto(ide(d), n) ?? '';
const normal = (d: DocumentoFiscal) => ['0', '3'].includes(campo(d, 'tpCTe'));
const falha = (condicao: boolean, detalhe = ''): string | null => (condicao ? detalhe : null);
/** Cents of a decimal field; null when absent or not a decimal. */
const centavos = (v: string | null): bigint | null => {
  if (v === null) return null;
  const c = scaledDecimal(v, 2);
  return c === null ? null : BigInt(c);
};
const instante = (v: string): number => Date.parse(v);

function regra(
  id: string,
  cStat: number,
  xMotivo: string,
  verificar: (d: DocumentoFiscal, ctx: ContextoRegras) => string | null,
  fonte = `${ANEXO_I} ${id}`,
): RegraAutoridade {
  return { regra: id, cStat, xMotivo, fonte, aplica: 'cte', verificar };
}

// ---- parties -------------------------------------------------------------------------------------------------

type Papel = 'rem' | 'exped' | 'receb' | 'dest' | 'toma4';
const ENDERECO: Record<Papel, string> = {
  rem: 'enderReme',
  exped: 'enderExped',
  receb: 'enderReceb',
  dest: 'enderDest',
  toma4: 'enderToma',
};
const parte = (d: DocumentoFiscal, p: Papel): XmlNode | null => (p === 'toma4' ? no(ide(d), 'toma4') : no(d.inf, p));

/** The municipality code's first two digits are the UF's IBGE code (abroad: 9999999 / EX, not judged). */
const municipioForaDaUf = (cMun: string | null, uf: string | null): boolean =>
  cMun !== null && uf !== null && uf !== 'EX' && ufBySigla(uf)?.codigo_ibge !== cMun.slice(0, 2);
const municipioInexistente = (cMun: string | null, uf: string | null): boolean =>
  cMun !== null && uf !== 'EX' && cMun !== '9999999' && municipioByCode(cMun) === undefined;

function regrasDaParte(p: Papel, nome: string, g: number, c: { cnpj: number; cpf: number; mun: number; inexistente: number }) {
  const end = (d: DocumentoFiscal) => no(parte(d, p), ENDERECO[p]);
  return [
    regra(`G${g}`, c.cnpj, `Rejeição: CNPJ do ${nome} inválido`, (d) => {
      const cnpj = texto(parte(d, p), 'CNPJ');
      return falha(cnpj !== null && !isValidCnpj(cnpj));
    }),
    regra(`G${g + 1}`, c.cpf, `Rejeição: CPF do ${nome} inválido`, (d) => {
      const cpf = texto(parte(d, p), 'CPF');
      return falha(cpf !== null && !isValidCpf(cpf));
    }),
    regra(`G${g + 2}`, c.mun, `Rejeição: Código de Município diverge da UF de localização ${nome}`, (d) =>
      falha(municipioForaDaUf(texto(end(d), 'cMun'), texto(end(d), 'UF'))),
    ),
    regra(
      `G${g + 3}`,
      c.inexistente,
      `Rejeição: Município do ${nome[0]!.toUpperCase()}${nome.slice(1)} inexistente`,
      (d) => falha(municipioInexistente(texto(end(d), 'cMun'), texto(end(d), 'UF'))),
      // The manual leaves 533's text blank (G125); it reads as its siblings 532, 534, 535 and 536.
      p === 'dest' ? `${ANEXO_I} G${g + 3} (text blank in the manual: written as its siblings 532, 534–536)` : undefined,
    ),
  ];
}

/** G002–G005: in homologação each party's name is the literal the manual gives. */
function regraNomeHomologacao(g: string, cStat: number, p: Papel, nome: string): RegraAutoridade {
  return regra(
    g,
    cStat,
    `Rejeição: CT-e emitido em ambiente de homologação com Razão Social do ${nome} diferente de ${NOME_HOMOLOGACAO}`,
    (d) => {
      const xNome = texto(parte(d, p), 'xNome');
      return falha(campo(d, 'tpAmb') === '2' && xNome !== null && xNome !== NOME_HOMOLOGACAO);
    },
  );
}

/** The taker a `toma3` names must be in the document (G018–G021). */
function regraTomadorInformado(g: string, cStat: number, toma: string, p: Papel, nome: string): RegraAutoridade {
  return regra(g, cStat, `Rejeição: Não informado os dados do ${nome} indicado como tomador do serviço`, (d) =>
    falha(texto(ide(d), 'toma3', 'toma') === toma && parte(d, p) === null),
  );
}

// ---- values --------------------------------------------------------------------------------------------------

/** ICMS groups and their base, rate and value fields (imp/ICMS). ICMS45 and ICMSSN carry no value. */
const ICMS: [string, string, string, string][] = [
  ['ICMS00', 'vBC', 'pICMS', 'vICMS'],
  ['ICMS20', 'vBC', 'pICMS', 'vICMS'],
  ['ICMS60', 'vBCSTRet', 'pICMSSTRet', 'vICMSSTRet'],
  ['ICMS90', 'vBC', 'pICMS', 'vICMS'],
  ['ICMSOutraUF', 'vBCOutraUF', 'pICMSOutraUF', 'vICMSOutraUF'],
];

/** G047: vICMS = vBC × pICMS within R$ 0,01 either way. */
function icmsDivergente(d: DocumentoFiscal): boolean {
  const icms = no(d.inf, 'imp', 'ICMS');
  for (const [grupo, base, aliquota, valor] of ICMS) {
    const g = no(icms, grupo);
    if (!g) continue;
    const vBC = centavos(texto(g, base));
    const p = texto(g, aliquota);
    const vICMS = centavos(texto(g, valor));
    const pCentesimos = p === null ? null : scaledDecimal(p, 2);
    if (vBC === null || pCentesimos === null || vICMS === null) continue;
    const diferenca = vICMS * 10_000n - vBC * BigInt(pCentesimos);
    if (diferenca > 10_000n || diferenca < -10_000n) return true;
  }
  return false;
}

/** The CFOP of item 12 of the Visão Geral (the only ones a CT-e may carry). */
export const CFOP_DO_CTE: ReadonlySet<string> = new Set([
  ...['351', '352', '353', '354', '355', '356', '357', '359', '360'].flatMap((s) => [`5${s}`, `6${s}`]),
  '5601',
  '5602',
  '5603',
  '5605',
  '5606',
  '5932',
  '5949',
  '6603',
  '6932',
  '6949',
  '7358',
  '7949',
]);

// ---- previous documents --------------------------------------------------------------------------------------

const TOMA3: Papel[] = ['rem', 'exped', 'receb', 'dest'];
function documentosAnteriores(d: DocumentoFiscal): DocumentosAnteriores {
  const toma3 = texto(ide(d), 'toma3', 'toma');
  const tomador = toma3 !== null ? parte(d, TOMA3[Number(toma3)] ?? 'rem') : parte(d, 'toma4');
  const docAnt = no(d.inf, 'infCTeNorm', 'docAnt');
  return {
    tpCTe: campo(d, 'tpCTe'),
    tpServ: campo(d, 'tpServ'),
    tomador: texto(tomador, 'CNPJ') ?? texto(tomador, 'CPF'),
    temDocAnt: docAnt !== null,
    emissores: nos(docAnt, 'emiDocAnt').map((e) => ({
      documento: texto(e, 'CNPJ') ?? texto(e, 'CPF') ?? '',
      chaves: textos(e, 'idDocAnt', 'idDocAntEle', 'chCTe'),
    })),
  };
}
const regraDocAnt = (g: string, cStat: number, xMotivo: string) =>
  regra(g, cStat, xMotivo, (d) => falha(falhasDocumentosAnteriores(documentosAnteriores(d)).includes(cStat)));

// ---- NF-e carried --------------------------------------------------------------------------------------------

const chavesNfe = (d: DocumentoFiscal) => textos(d.inf, 'infCTeNorm', 'infDoc', 'infNFe', 'chave');

/** G040: why an NF-e key is not one, in the manual's words; null when it is. */
function motivoChaveNfe(chave: string, agora: Date | undefined): string | null {
  if (!/^[0-9]{6}[A-Z0-9]{12}[0-9]{26}$/.test(chave)) return 'formato inválido';
  if (!isValidAccessKey(chave)) return 'DV inválido';
  if (chave.slice(20, 22) !== '55') return 'Modelo diferente de 55';
  if (!ufByCode(chave.slice(0, 2))) return 'UF inválida';
  const ano = 2000 + Number(chave.slice(2, 4));
  const mes = Number(chave.slice(4, 6));
  if (mes < 1 || mes > 12) return 'Mês inválido';
  if (ano < 2005 || (agora && ano > agora.getUTCFullYear())) return 'Ano inválido';
  const emitente = chave.slice(6, 20);
  if (!(isValidCnpj(emitente) || (emitente.startsWith('000') && isValidCpf(emitente.slice(3))))) return 'CNPJ / CPF zerado ou inválido';
  if (/^0+$/.test(chave.slice(25, 34))) return 'Número zerado';
  return null;
}

// ---- IBS/CBS rates -------------------------------------------------------------------------------------------

/** The rates of imp/IBSCBS/gIBSCBS in hundredths of a percent (0.1000 → 10), or null when the group is absent. */
function aliquotasIbsCbs(d: DocumentoFiscal) {
  const g = no(d.inf, 'imp', 'IBSCBS', 'gIBSCBS');
  if (!g) return null;
  const centesimos = (v: string | null) => (v === null ? 0 : (scaledDecimal(v, 4) ?? 0) / 100);
  return {
    ibs_uf_centesimos: centesimos(texto(g, 'gIBSUF', 'pIBSUF')),
    ibs_mun_centesimos: centesimos(texto(g, 'gIBSMun', 'pIBSMun')),
    cbs_centesimos: centesimos(texto(g, 'gCBS', 'pCBS')),
  };
}
function regraAliquota(cStat: number, xMotivo: string, campoNt: string): RegraAutoridade {
  return regra(
    `NT 2025.001 ${campoNt}`,
    cStat,
    xMotivo,
    (d) => {
      const aliquotas = aliquotasIbsCbs(d);
      if (!aliquotas) return null;
      // CBS at zero is the authority's exception within ZFM/ALC (v1.11a), claimed by emit/ISUFEmit (NT 2026.002) on a
      // route between the incentivized UFs: as the tax-rule registry judges it (regra-tributacao/decider.ts).
      const areaIncentivada =
        texto(d.inf, 'emit', 'ISUFEmit') !== null &&
        [campo(d, 'UFIni'), campo(d, 'UFFim')].every((uf) => UFS_AREA_INCENTIVADA.includes(uf));
      const r = rejeicaoAliquotasAutoridade(aliquotas, campo(d, 'dhEmi'), {
        ambiente: campo(d, 'tpAmb') === '1' ? 'producao' : 'homologacao',
        areaIncentivada,
      });
      return r !== null && Number(r.cStat) === cStat ? `[${r.regra}]` : null;
    },
    NT_RTC,
  );
}

// ---- the rule set --------------------------------------------------------------------------------------------

const CINCO_MINUTOS = 5 * 60_000;
const HORAS_168 = 168 * 3_600_000;

export const REGRAS_CTE: readonly RegraAutoridade[] = [
  regraAmbiente('cte'),
  regraUfAtendida('cte'),
  regraNomeHomologacao('G002', 646, 'rem', 'remetente'),
  regraNomeHomologacao('G003', 647, 'exped', 'expedidor'),
  regraNomeHomologacao('G004', 648, 'receb', 'recebedor'),
  regraNomeHomologacao('G005', 649, 'dest', 'destinatário'),
  regra('G006', 670, 'Rejeição: Série utilizada não permitida no webservice', (d) => {
    const serie = Number(campo(d, 'serie'));
    return falha(serie >= 890 && serie <= 899);
  }),
  regraUfEmitente('cte'),
  regra('G010', 588, 'Rejeição: Data de entrada em contingência posterior a data de emissão.', (d) => {
    const dhCont = campo(d, 'dhCont');
    return falha(dhCont !== '' && instante(dhCont) > instante(campo(d, 'dhEmi')));
  }),
  regraCampoId('cte'),
  regraDigitoChave('cte'),
  regra('G016', 458, 'Rejeição: Grupo de CT-e normal não informado para CT-e normal', (d) =>
    falha(normal(d) && no(d.inf, 'infCTeNorm') === null),
  ),
  regra('G017', 459, 'Rejeição: Grupo de CT-e complementar não informado para CT-e complementar', (d) =>
    falha(campo(d, 'tpCTe') === '1' && no(d.inf, 'infCteComp') === null),
  ),
  regraTomadorInformado('G018', 460, '0', 'rem', 'remetente'),
  regraTomadorInformado('G019', 461, '1', 'exped', 'expedidor'),
  regraTomadorInformado('G020', 462, '2', 'receb', 'recebedor'),
  regraTomadorInformado('G021', 463, '3', 'dest', 'destinatário'),
  regra(
    'G036',
    693,
    'Rejeição: Grupo Documentos Transportados deve ser informado para tipo de serviço diferente de redespacho intermediário e serviço vinculado a multimodal',
    (d) => falha(normal(d) && !['3', '4'].includes(campo(d, 'tpServ')) && no(d.inf, 'infCTeNorm', 'infDoc') === null),
  ),
  regra(
    'G037',
    694,
    'Rejeição: Grupo Documentos Transportados não pode ser informado para tipo de serviço redespacho intermediário e serviço vinculado a multimodal',
    (d) => falha(normal(d) && ['3', '4'].includes(campo(d, 'tpServ')) && no(d.inf, 'infCTeNorm', 'infDoc') !== null),
  ),
  regra('G039', 527, 'Rejeição: NF-e duplicada no CT-e', (d) => {
    if (!normal(d)) return null;
    const vistas = new Set<string>();
    for (const chave of chavesNfe(d)) {
      if (vistas.has(chave)) return `[chNFe: ${chave}]`;
      vistas.add(chave);
    }
    return null;
  }),
  regra('G040', 843, 'Rejeição: Chave de acesso da NF-e transportada inválida', (d, ctx) => {
    if (!normal(d)) return null;
    for (const chave of chavesNfe(d)) {
      const motivo = motivoChaveNfe(chave, ctx.agora);
      if (motivo) return `[chNFe: ${chave}][Motivo: ${motivo}]`;
    }
    return null;
  }),
  regra('G045', 813, 'Rejeição: Tipo de Documento inválido para operação interestadual', (d) => {
    if (!normal(d) || campo(d, 'UFIni') === campo(d, 'UFFim')) return null;
    const tipos = textos(d.inf, 'infCTeNorm', 'infDoc', 'infOutros', 'tpDoc');
    const vedado = tipos.find((tp) => tp === '59' || tp === '65');
    return vedado ? `[tpDoc: ${vedado}]` : null;
  }),
  regra('G046', 650, 'Rejeição: Valor total do serviço superior ao limite permitido (R$ 9.999.999,99)', (d) => {
    const total = centavos(texto(d.inf, 'vPrest', 'vTPrest'));
    return falha(normal(d) && total !== null && total > 999_999_999n);
  }),
  regra('G047', 675, 'Rejeição: Valor do imposto não corresponde à base de cálculo X alíquota', (d) => falha(icmsDivergente(d))),
  regra('G048', 531, 'Rejeição: Valor a receber deve ser menor ou igual Valor da Prestação', (d) => {
    const vRec = centavos(texto(d.inf, 'vPrest', 'vRec'));
    const vTPrest = centavos(texto(d.inf, 'vPrest', 'vTPrest'));
    return falha(vRec !== null && vTPrest !== null && vRec > vTPrest);
  }),
  regra(
    'G049',
    676,
    'Rejeição: CFOP informado inválido',
    (d) => falha(!CFOP_DO_CTE.has(campo(d, 'CFOP'))),
    `${ANEXO_I} G049; ${VISAO_GERAL_CFOP}`,
  ),
  regra('G050', 519, 'Rejeição: CFOP inválido para operação', (d) => {
    const [ini, fim] = [campo(d, 'UFIni'), campo(d, 'UFFim')];
    const esperado = fim === 'EX' ? '7' : ini === fim ? '5' : '6';
    return falha(!campo(d, 'CFOP').startsWith(esperado));
  }),
  regra('G051', 524, 'Rejeição: CFOP inválido, informar 5932 ou 6932', (d) => {
    const [ini, fim, emit] = [campo(d, 'UFIni'), campo(d, 'UFFim'), texto(d.inf, 'emit', 'enderEmit', 'UF')];
    return falha(emit !== ini && ini !== 'EX' && fim !== 'EX' && !['5932', '6932'].includes(campo(d, 'CFOP')));
  }),
  regra('G052', 908, 'Rejeição: CFOP inválido, não informar 5932 ou 6932', (d) => {
    const [ini, fim, emit] = [campo(d, 'UFIni'), campo(d, 'UFFim'), texto(d.inf, 'emit', 'enderEmit', 'UF')];
    return falha(emit === ini && ini !== 'EX' && fim !== 'EX' && ['5932', '6932'].includes(campo(d, 'CFOP')));
  }),
  regra(
    'G053',
    469,
    'Rejeição: Remetente deve ser informado para tipo de serviço diferente de redespacho intermediário ou Serviço vinculado a multimodal',
    (d) => falha(!['3', '4'].includes(campo(d, 'tpServ')) && parte(d, 'rem') === null),
  ),
  regra(
    'G054',
    470,
    'Rejeição: Destinatário deve ser informado para tipo de serviço diferente de redespacho intermediário ou serviço vinculado a multimodal',
    (d) => falha(!['3', '4'].includes(campo(d, 'tpServ')) && parte(d, 'dest') === null),
  ),
  regra(
    'G055',
    474,
    'Rejeição: Expedidor deve ser informado para tipo de serviço de redespacho intermediário e serviço vinculado a multimodal',
    (d) => falha(['3', '4'].includes(campo(d, 'tpServ')) && parte(d, 'exped') === null),
  ),
  regra(
    'G056',
    475,
    'Rejeição: Recebedor deve ser informado para tipo de serviço de redespacho intermediário e serviço vinculado a multimodal',
    (d) => falha(['3', '4'].includes(campo(d, 'tpServ')) && parte(d, 'receb') === null),
  ),
  regraDocAnt(
    'G059',
    521,
    'Rejeição: Os documentos de transporte anterior devem ser informados para os tipos de serviço Subcontratação, Redespacho e Redespacho Intermediário',
  ),
  regraDocAnt('G060', 747, 'Rejeição: Documentos anteriores informados para Tipo de Serviço Normal'),
  regraDocAnt('G061', 543, 'Rejeição: Chave de CTe duplicada em documentos anteriores'),
  regraDocAnt('G062', 733, 'Rejeição: CNPJ do documento anterior deve ser o mesmo indicado no grupo emiDocAnt'),
  regraDocAnt('G063', 745, 'Rejeição: CNPJ base do tomador deve ser igual ao CNPJ base indicado no grupo emiDocAnt'),
  regraDocAnt('G065', 844, 'Rejeição: Chave de acesso do CTe anterior inválida'),
  regra('G102', 212, 'Rejeição: Data de emissão CT-e posterior a data de recebimento', (d, ctx) =>
    falha(ctx.agora !== undefined && instante(campo(d, 'dhEmi')) > ctx.agora.getTime() + CINCO_MINUTOS),
  ),
  regra('G103', 228, 'Rejeição: Data de Emissão muito atrasada', (d, ctx) =>
    falha(
      ctx.agora !== undefined && !['4', '5'].includes(campo(d, 'tpEmis')) && ctx.agora.getTime() - instante(campo(d, 'dhEmi')) > HORAS_168,
    ),
  ),
  regraCnpjEmitente('cte'),
  regra('G105', 229, 'Rejeição: IE do emitente não informada', (d) => {
    const ie = texto(d.inf, 'emit', 'IE');
    return falha(campo(d, 'tpEmis') !== '3' && (ie === null || /^0*$/.test(ie)));
  }),
  regra('G112', 712, 'Rejeição: Código de Município diverge da UF de localização do emitente', (d) =>
    falha(municipioForaDaUf(texto(d.inf, 'emit', 'enderEmit', 'cMun'), texto(d.inf, 'emit', 'enderEmit', 'UF'))),
  ),
  regra('G113', 713, 'Rejeição: Município do Emitente inexistente', (d) =>
    falha(municipioInexistente(texto(d.inf, 'emit', 'enderEmit', 'cMun'), texto(d.inf, 'emit', 'enderEmit', 'UF'))),
  ),
  ...regrasDaParte('rem', 'remetente', 114, { cnpj: 415, cpf: 416, mun: 418, inexistente: 532 }),
  ...regrasDaParte('dest', 'destinatário', 122, { cnpj: 208, cpf: 237, mun: 424, inexistente: 533 }),
  ...regrasDaParte('exped', 'expedidor', 132, { cnpj: 428, cpf: 429, mun: 431, inexistente: 534 }),
  ...regrasDaParte('receb', 'recebedor', 140, { cnpj: 436, cpf: 437, mun: 439, inexistente: 535 }),
  ...regrasDaParte('toma4', 'tomador', 148, { cnpj: 444, cpf: 445, mun: 447, inexistente: 536 }),
  regra('G178', 493, 'Rejeição: Código de Município diverge da UF de envio', (d) =>
    falha(municipioForaDaUf(campo(d, 'cMunEnv'), campo(d, 'UFEnv'))),
  ),
  regra('G179', 537, 'Rejeição: Município de Envio inexistente', (d) =>
    falha(municipioInexistente(campo(d, 'cMunEnv'), campo(d, 'UFEnv'))),
  ),
  regra('G180', 456, 'Rejeição: Código de Município diverge da UF de início da prestação', (d) =>
    falha(municipioForaDaUf(campo(d, 'cMunIni'), campo(d, 'UFIni'))),
  ),
  regra('G181', 541, 'Rejeição: Município de início da prestação inexistente', (d) =>
    falha(municipioInexistente(campo(d, 'cMunIni'), campo(d, 'UFIni'))),
  ),
  regra('G182', 414, 'Rejeição: Código de Município diverge da UF de término da prestação', (d) =>
    falha(municipioForaDaUf(campo(d, 'cMunFim'), campo(d, 'UFFim'))),
  ),
  regra('G183', 542, 'Rejeição: Município de término da prestação inexistente', (d) =>
    falha(municipioInexistente(campo(d, 'cMunFim'), campo(d, 'UFFim'))),
  ),
  // Validações dos Autorizados ao XML do CTe: the draft refuses the same cases (`autorizados_xml`, domain/src/cte/rascunho.ts).
  regra('G193', 699, 'Rejeição: CNPJ autorizado para download inválido', (d) => {
    const cnpj = textos(d.inf, 'autXML', 'CNPJ').find((c) => !isValidCnpj(c));
    return cnpj === undefined ? null : `[CNPJ: ${cnpj}]`;
  }),
  regra('G194', 700, 'Rejeição: CPF autorizado para download inválido', (d) => {
    const cpf = textos(d.inf, 'autXML', 'CPF').find((c) => !isValidCpf(c));
    return cpf === undefined ? null : `[CPF: ${cpf}]`;
  }),
  regra('G195', 715, 'Rejeição: Documento autorizado ao XML duplicado no CTe', (d) => {
    const vistos = new Set<string>();
    for (const doc of [...textos(d.inf, 'autXML', 'CNPJ'), ...textos(d.inf, 'autXML', 'CPF')]) {
      if (vistos.has(doc)) return `[${doc}]`;
      vistos.add(doc);
    }
    return null;
  }),
  regraAliquota(316, 'Rejeição: Alíquota do IBS da UF inválida', 'pIBSUF'),
  regraAliquota(321, 'Rejeição: Alíquota do IBS do Município inválida', 'pIBSMun'),
  regraAliquota(326, 'Rejeição: Alíquota da CBS inválida', 'pCBS'),
];
