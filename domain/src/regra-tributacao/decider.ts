import { type DomainEventOf, type FieldError, type RegraTributacaoDados, type RegraTributacaoInput } from '@frete/contracts';
import { Rejection } from '../decider';
import { registro, type RegistroState } from '../cadastros/registro';
import { ufBySigla } from '../fiscal/ufs';
import { centesimosExatos } from '../money/money';
import { type RejeicaoAliquotaAutoridade, rejeicaoAliquotasAutoridade } from './aliquotas-autoridade';

/**
 * Tax-rule registry (regras de tributação) of one company (stream `regras-tributacao-<companyId>`): integer ids, one
 * rule per (origin UF, destination UF, service type or general). The collection rules are the registries' pattern
 * (`cadastros/registro`); this file has the rule's own.
 */
export const regraTributacaoStream = (companyId: string) => `regras-tributacao-${companyId}`;

export type RegraTributacaoEvent =
  | DomainEventOf<'regra_tributacao.criada'>
  | DomainEventOf<'regra_tributacao.alterada'>
  | DomainEventOf<'regra_tributacao.removida'>;

export type RegraTributacaoCommand =
  | { type: 'CriarRegraTributacao'; company_id: string; regra: RegraTributacaoInput }
  | { type: 'AlterarRegraTributacao'; company_id: string; regra_id: number; regra: RegraTributacaoInput }
  | { type: 'RemoverRegraTributacao'; company_id: string; regra_id: number };

/** Keyed by `chaveRegraTributacao`. */
export type RegraTributacaoState = RegistroState<RegraTributacaoDados>;

/** The uniqueness key of a rule: its UF pair and its service type, `*` for the general rule. */
export const chaveRegraTributacao = (r: { uf_origem: string; uf_destino: string; tp_serv: number | null }) =>
  `${r.uf_origem}>${r.uf_destino}:${r.tp_serv ?? '*'}`;

/**
 * What each ICMS CST admits (CT-e 4.00 groups). `aliquota`: `positiva` required and above 0; `obrigatoria` required,
 * 0 allowed; `nenhuma` absent or 0. `reducao`: `obrigatoria` (0 < x < 100), `opcional`, `proibida`.
 */
const REGRAS_CST: Record<string, { aliquota: 'positiva' | 'obrigatoria' | 'nenhuma'; reducao: 'obrigatoria' | 'opcional' | 'proibida' }> = {
  '00': { aliquota: 'positiva', reducao: 'proibida' },
  '20': { aliquota: 'positiva', reducao: 'obrigatoria' },
  '40': { aliquota: 'nenhuma', reducao: 'proibida' },
  '41': { aliquota: 'nenhuma', reducao: 'proibida' },
  '51': { aliquota: 'nenhuma', reducao: 'proibida' },
  '60': { aliquota: 'positiva', reducao: 'proibida' },
  '90': { aliquota: 'obrigatoria', reducao: 'opcional' },
  SN: { aliquota: 'nenhuma', reducao: 'proibida' },
};

/**
 * UFs of the incentivized areas where the CBS may be 0 (NT 2025.001 v1.11a, exception to rejection 326: start and end
 * in the ZFM — AC, AM, RO, RR and, in AP, Macapá and Santana — or in one ALC, all within these UFs). A rule names
 * UFs only: both in this list make the exception possible; the municipalities are the CT-e's, checked at the build.
 */
export const UFS_AREA_INCENTIVADA: readonly string[] = ['AC', 'AM', 'AP', 'RO', 'RR'];
const zonaIncentivadaPossivel = (origem: string, destino: string) =>
  UFS_AREA_INCENTIVADA.includes(origem) && UFS_AREA_INCENTIVADA.includes(destino);

/**
 * The rejection the authority would give to a CT-e of this rule emitted at `agora` (316/321/326), or null. The
 * "tributação regular" exception is not read here: the product keeps no cClassTrib table, and a rule at zero rates
 * for it would be reported; none of the cClassTrib with that indicator is a road freight service.
 */
export function rejeicaoDaRegra(regra: RegraTributacaoDados, agora: Date): RejeicaoAliquotaAutoridade | null {
  const i = regra.ibs_cbs;
  if (!i) return null;
  return rejeicaoAliquotasAutoridade(
    {
      ibs_uf_centesimos: i.aliquota_ibs_uf_centesimos,
      ibs_mun_centesimos: i.aliquota_ibs_mun_centesimos,
      cbs_centesimos: i.aliquota_cbs_centesimos,
    },
    agora,
    { areaIncentivada: zonaIncentivadaPossivel(regra.uf_origem, regra.uf_destino) },
  );
}

/** A percentage 0–100 with at most two decimals → integer hundredths; null (and a field error) otherwise. */
function centesimos(value: number, field: string, erros: FieldError[]): number | null {
  const rounded = centesimosExatos(value);
  if (rounded === null) {
    erros.push({ field, message: 'at most 2 decimals' });
    return null;
  }
  if (rounded < 0 || rounded > 10_000) {
    erros.push({ field, message: 'must be between 0 and 100' });
    return null;
  }
  return rounded;
}

/** Checks an input rule as a whole and gives the registry's form; every wrong field is named (400 `validacao`). */
export function normalizarRegraTributacao(input: RegraTributacaoInput): RegraTributacaoDados {
  const erros: FieldError[] = [];
  if (!ufBySigla(input.uf_origem)) erros.push({ field: 'uf_origem', message: 'not a Brazilian UF' });
  // An export's rule (UF fim EX: the service ends abroad) is the one whose CFOP is 7xxx (G050).
  const exportacao = input.uf_destino === 'EX';
  if (!exportacao && !ufBySigla(input.uf_destino)) erros.push({ field: 'uf_destino', message: 'not a Brazilian UF nor EX (export)' });
  const tpServ = input.tp_serv ?? null;
  if (tpServ !== null && (!Number.isInteger(tpServ) || tpServ < 0 || tpServ > 3)) {
    erros.push({ field: 'tp_serv', message: 'must be 0, 1, 2 or 3' });
  }
  const cfop = input.cfop ?? null;
  if (cfop !== null) {
    const esperado = exportacao ? '7' : input.uf_origem === input.uf_destino ? '5' : '6';
    const porque = {
      '5': 'origin and destination are the same UF',
      '6': 'origin and destination are different UFs',
      '7': 'an export (EX)',
    };
    if (!/^[0-9]{4}$/.test(cfop)) erros.push({ field: 'cfop', message: 'must be 4 digits' });
    else if (cfop[0] !== esperado) erros.push({ field: 'cfop', message: `must start with ${esperado}: ${porque[esperado]}` });
  }

  const icms = input.icms;
  const regra = REGRAS_CST[icms.cst];
  let aliquota: number | null = 0;
  let reducao: number | null = null;
  if (!regra) {
    erros.push({ field: 'icms.cst', message: `must be one of ${Object.keys(REGRAS_CST).join(', ')}` });
  } else {
    if (icms.aliquota === undefined) {
      if (regra.aliquota !== 'nenhuma') erros.push({ field: 'icms.aliquota', message: `required for CST ${icms.cst}` });
    } else {
      aliquota = centesimos(icms.aliquota, 'icms.aliquota', erros);
      if (aliquota !== null && regra.aliquota === 'nenhuma' && aliquota !== 0) {
        erros.push({ field: 'icms.aliquota', message: `CST ${icms.cst} carries no rate: omit it or send 0` });
      } else if (aliquota === 0 && regra.aliquota === 'positiva') {
        erros.push({ field: 'icms.aliquota', message: `must be above 0 for CST ${icms.cst}` });
      }
    }
    if (icms.reducao_base === undefined) {
      if (regra.reducao === 'obrigatoria') erros.push({ field: 'icms.reducao_base', message: `required for CST ${icms.cst}` });
    } else if (regra.reducao === 'proibida') {
      erros.push({ field: 'icms.reducao_base', message: `not allowed for CST ${icms.cst} (only 20 and 90 reduce the base)` });
    } else {
      reducao = centesimos(icms.reducao_base, 'icms.reducao_base', erros);
      if (reducao !== null && (reducao === 0 || reducao === 10_000) && regra.reducao === 'obrigatoria') {
        erros.push({ field: 'icms.reducao_base', message: 'must be above 0 and below 100' });
      }
    }
  }

  let ibsCbs: RegraTributacaoDados['ibs_cbs'] = null;
  if (input.ibs_cbs) {
    const i = input.ibs_cbs;
    if (!/^[0-9]{3}$/.test(i.cst)) erros.push({ field: 'ibs_cbs.cst', message: 'must be 3 digits' });
    if (!/^[0-9]{6}$/.test(i.cclass_trib)) erros.push({ field: 'ibs_cbs.cclass_trib', message: 'must be 6 digits' });
    const uf = centesimos(i.aliquota_ibs_uf, 'ibs_cbs.aliquota_ibs_uf', erros);
    const mun = centesimos(i.aliquota_ibs_mun, 'ibs_cbs.aliquota_ibs_mun', erros);
    const cbs = centesimos(i.aliquota_cbs, 'ibs_cbs.aliquota_cbs', erros);
    const suframa = i.inscricao_suframa ?? null;
    if (suframa !== null && !/^[0-9]{8,9}$/.test(suframa)) {
      erros.push({ field: 'ibs_cbs.inscricao_suframa', message: 'must be the 8 or 9 digits of the SUFRAMA registration' });
    }
    if (cbs === 0 && zonaIncentivadaPossivel(input.uf_origem, input.uf_destino) && suframa === null) {
      // cteTiposBasico_v4.00.xsd (NT 2026.002), emit/ISUFEmit: "obrigatório nas operações que se beneficiam de
      // incentivos fiscais ... da SUFRAMA com alíquota zero da CBS" (LC 214/2025 arts. 451 e 466).
      erros.push({ field: 'ibs_cbs.inscricao_suframa', message: 'required with CBS at 0 in ZFM/ALC: it is written as emit/ISUFEmit' });
    }
    if (uf !== null && mun !== null && cbs !== null) {
      ibsCbs = {
        cst: i.cst,
        cclass_trib: i.cclass_trib,
        aliquota_ibs_uf_centesimos: uf,
        aliquota_ibs_mun_centesimos: mun,
        aliquota_cbs_centesimos: cbs,
        ...(suframa !== null ? { inscricao_suframa: suframa } : {}),
      };
    }
  }

  if (erros.length > 0) {
    throw new Rejection('validacao', erros.map((e) => `${e.field}: ${e.message}`).join('; '), { fields: erros });
  }
  return {
    uf_origem: input.uf_origem,
    uf_destino: input.uf_destino,
    tp_serv: tpServ,
    cfop,
    icms: { cst: icms.cst, aliquota_centesimos: aliquota ?? 0, reducao_base_centesimos: reducao },
    ibs_cbs: ibsCbs,
  };
}

const naoEncontrada = (id: number) => new Rejection('nao_encontrado', `no tax rule ${id}`);

const duplicada = (regra: RegraTributacaoDados, id: number) =>
  new Rejection(
    'regra_tributacao_duplicada',
    `rule ${id} already covers ${regra.uf_origem} → ${regra.uf_destino}${regra.tp_serv === null ? ' (general rule)' : ` for tp_serv ${regra.tp_serv}`}`,
    { regra_id: id },
  );

/** The rule's scope and ICMS, field by field in one order: what the read model stores in columns of their own. */
export const camposDaRegra = (r: RegraTributacaoDados) =>
  [r.uf_origem, r.uf_destino, r.tp_serv, r.cfop, r.icms.cst, r.icms.aliquota_centesimos, r.icms.reducao_base_centesimos] as const;

/** Field by field: the stored event data may come back from the log with its keys in another order. */
const canonica = (r: RegraTributacaoDados) =>
  JSON.stringify([
    ...camposDaRegra(r),
    r.ibs_cbs && [
      r.ibs_cbs.cst,
      r.ibs_cbs.cclass_trib,
      r.ibs_cbs.aliquota_ibs_uf_centesimos,
      r.ibs_cbs.aliquota_ibs_mun_centesimos,
      r.ibs_cbs.aliquota_cbs_centesimos,
      r.ibs_cbs.inscricao_suframa ?? null,
    ],
  ]);
const mesma = (a: RegraTributacaoDados, b: RegraTributacaoDados) => canonica(a) === canonica(b);

const registroBase = registro<RegraTributacaoCommand, RegraTributacaoEvent, RegraTributacaoInput, RegraTributacaoDados>({
  nomes: {
    comandos: ['CriarRegraTributacao', 'AlterarRegraTributacao', 'RemoverRegraTributacao'],
    eventos: ['regra_tributacao.criada', 'regra_tributacao.alterada', 'regra_tributacao.removida'],
    id: 'regra_id',
    dados: 'regra',
  },
  stream: regraTributacaoStream,
  normalizar: normalizarRegraTributacao,
  chave: chaveRegraTributacao,
  iguais: mesma,
  naoEncontrado: naoEncontrada,
  duplicado: duplicada,
});
/**
 * The registry's decider, refusing a rule whose IBS/CBS rates the authority would reject for a CT-e emitted now
 * (422 `aliquota_rejeitada_autoridade`, naming the rule): nothing built from it could be authorized.
 */
export const regraTributacaoDecider: typeof registroBase.decider = {
  ...registroBase.decider,
  decide(command, state, ctx) {
    const events = registroBase.decider.decide(command, state, ctx);
    for (const e of events) {
      if (e.type === 'regra_tributacao.removida') continue;
      const regra = e.data.regra;
      const rejeicao = rejeicaoDaRegra(regra, ctx.now);
      if (rejeicao) {
        const nome = `${regra.uf_origem} → ${regra.uf_destino}${regra.tp_serv === null ? ' (general rule)' : ` tp_serv ${regra.tp_serv}`}`;
        throw new Rejection(
          'aliquota_rejeitada_autoridade',
          `the authority would reject the IBS/CBS of rule ${e.data.regra_id} (${nome}) with ${rejeicao.cStat}: ${rejeicao.regra}`,
          { regra_id: e.data.regra_id, cStat: rejeicao.cStat, xMotivo: rejeicao.xMotivo, regra: rejeicao.regra, fonte: rejeicao.fonte },
        );
      }
    }
    return events;
  },
};

/** The registry (its handler's commands and readers of the log) with the decider above. */
export const registroRegrasTributacao: typeof registroBase = { ...registroBase, decider: regraTributacaoDecider };
