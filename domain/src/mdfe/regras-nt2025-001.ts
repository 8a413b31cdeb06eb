/**
 * The MDF-e rules the ANTT asked for in NT 2025.001 (MDF-e) v1.03, section 2 "Regras solicitadas pela ANTT" (p. 4):
 * F55a (301), F55b (302), F113a (303), F113b (304). Pure predicates over the facts a manifest shows, so that the
 * build (422 before sending), the pre-flight and the simulated authority (reading the XML) judge alike.
 *
 * Sources: the NT's rule table (Id, Regra, Obrigatoriedade, Código, Mensagem), read in its text as published; the
 * schema changes of the same version in nfephp-org/sped-mdfe commits cb6931b (v1.02), e13ad6e (v1.03: `infCIOT/CIOT`
 * becomes optional in the layout, the rule F113b keeps it required for a TAC) and 754f299. In production from
 * 06/10/2025 (NT v1.03, "Histórico de alterações"; tecnologistica.com.br, 2025). F55a/F55b are "Obrig." (every
 * authorizer applies them); F113a/F113b are "Facult." (an authorizer may apply them): the product applies all four.
 */

import { type MdfeDados } from '@frete/contracts';
import { Rejection } from '../decider';

/** What a manifest shows that the four rules read (from the build's input or from the XML). */
export interface FatosMdfeNt2025001 {
  /** `ide/modal`: '1' road; the rules apply to the road modal only. */
  modal: string;
  /** `ide/tpEmit`: '1' prestador de serviço de transporte, '2' transportador de carga própria, '3' CT-e globalizado. */
  tpEmit: string;
  /** `ide/tpTransp` present (a carrier of own goods that says which kind of carrier it is). */
  tpTranspInformado: boolean;
  /** DF-e in `infDoc` (CT-e, NF-e and MDF-e of every `infMunDescarga`): exactly one is a "carga lotação". */
  qtdDfe: number;
  /** `prodPred/NCM`, null when absent. */
  ncmProdPred: string | null;
  /** `infANTT/infPag` groups. */
  qtdInfPag: number;
  /** Every `infPag` carries `infBanc` (the 3.00 layout requires it inside `infPag`). */
  infBancEmTodos: boolean;
  /**
   * An RNTRC is informed (the emitter's `infANTT/RNTRC` or the owner's `veicTracao/prop/RNTRC`) whose holder is a TAC
   * or "equiparado a TAC" in the ANTT's RNTRC registry. The XML shows it for an owner (`tpProp` 0 or 1); for the
   * emitter the authority reads the registry, and the product takes it from the manifest's input.
   */
  rntrcDeTac: boolean;
  /** `infANTT/infCIOT` groups. */
  qtdInfCiot: number;
}

export interface RejeicaoMdfeNt2025001 {
  cStat: '301' | '302' | '303' | '304';
  xMotivo: string;
  /** The NT's rule id and its condition. */
  regra: string;
  fonte: string;
}

const FONTE = 'NT 2025.001 MDF-e v1.03, seção 2 "Regras solicitadas pela ANTT" (p. 4)';

/** Road modal, and an emitter that carries for others (tpEmit 1 or 3) or a carrier of own goods that informed tpTransp. */
const emitenteDasRegrasDeLotacao = (f: FatosMdfeNt2025001) =>
  f.modal === '1' && (f.tpEmit === '1' || f.tpEmit === '3' || (f.tpEmit === '2' && f.tpTranspInformado));

/** A "carga lotação": exactly one DF-e in `infDoc`, under F55a/F55b's emitter condition. */
export const cargaLotacao = (f: FatosMdfeNt2025001) => emitenteDasRegrasDeLotacao(f) && f.qtdDfe === 1;

/** F55a (301): a carga lotação names the predominant product's NCM. */
export function regraF55a(f: FatosMdfeNt2025001): RejeicaoMdfeNt2025001 | null {
  if (!cargaLotacao(f) || (f.ncmProdPred !== null && f.ncmProdPred !== '')) return null;
  return {
    cStat: '301',
    xMotivo: 'Rejeição: O NCM do produto predominante da carga lotação deve ser informado',
    regra: 'F55a: road modal, tpEmit 1 or 3 (or 2 with tpTransp) and one DF-e in infDoc: prodPred/NCM must be informed',
    fonte: FONTE,
  };
}

/** F55b (302): a carga lotação carries the payment group. */
export function regraF55b(f: FatosMdfeNt2025001): RejeicaoMdfeNt2025001 | null {
  if (!cargaLotacao(f) || f.qtdInfPag > 0) return null;
  return {
    cStat: '302',
    xMotivo: 'Rejeição: As informações de pagamento devem ser informadas para carga lotação',
    regra: 'F55b: road modal, tpEmit 1 or 3 (or 2 with tpTransp) and one DF-e in infDoc: infANTT/infPag must be informed',
    fonte: FONTE,
  };
}

/** F113a (303): an RNTRC of a TAC or equiparado carries the payment and bank groups. */
export function regraF113a(f: FatosMdfeNt2025001): RejeicaoMdfeNt2025001 | null {
  if (f.modal !== '1' || !f.rntrcDeTac || (f.qtdInfPag > 0 && f.infBancEmTodos)) return null;
  return {
    cStat: '303',
    xMotivo: 'Rejeição: Dados Bancários e de pagamento devem ser informados para TAC e equiparado a TAC',
    regra: "F113a: road modal with the RNTRC (emitter's or owner's) of a TAC or equiparado: infPag and infBanc must be informed",
    fonte: FONTE,
  };
}

/** F113b (304): an RNTRC of a TAC or equiparado carries the CIOT group. */
export function regraF113b(f: FatosMdfeNt2025001): RejeicaoMdfeNt2025001 | null {
  if (f.modal !== '1' || !f.rntrcDeTac || f.qtdInfCiot > 0) return null;
  return {
    cStat: '304',
    xMotivo: 'Rejeição: CIOT deve ser informado para TAC e equiparado a TAC',
    regra: "F113b: road modal with the RNTRC (emitter's or owner's) of a TAC or equiparado: infCIOT must be informed",
    fonte: FONTE,
  };
}

/** Every rule of the four the manifest breaks, in the NT's order (the authority answers the first). */
export const rejeicoesMdfeNt2025001 = (f: FatosMdfeNt2025001): RejeicaoMdfeNt2025001[] =>
  [regraF55a(f), regraF55b(f), regraF113a(f), regraF113b(f)].filter((r): r is RejeicaoMdfeNt2025001 => r !== null);

/**
 * What the product's MDF-e shows to the four rules, from its data: road modal, `tpEmit` 1 (the carrier manifests its
 * own CT-e), every CT-e one DF-e of `infDoc`, the groups as written by `montarMdfeXml`.
 */
export const fatosDosDadosMdfe = (dados: MdfeDados): FatosMdfeNt2025001 => ({
  modal: '1',
  tpEmit: '1',
  tpTranspInformado: false,
  qtdDfe: dados.ctes.length,
  ncmProdPred: dados.produto_predominante?.ncm ?? null,
  qtdInfPag: dados.pagamentos?.length ?? 0,
  infBancEmTodos: true, // the input's type requires `banco` in every payment
  rntrcDeTac: dados.rntrc_tac === true,
  qtdInfCiot: dados.ciot?.length ?? 0,
});

/** The input field that supplies what each rule misses. */
const CAMPO_DA_REGRA: Record<RejeicaoMdfeNt2025001['cStat'], string[]> = {
  '301': ['produto_predominante.ncm'],
  '302': ['pagamentos'],
  '303': ['pagamentos'],
  '304': ['ciot'],
};

/**
 * Refuses (422 `mdfe_regra_antt`) an MDF-e the authority would reject by F55a/F55b/F113a/F113b, naming the first rule
 * broken (as the authority answers) and listing every one in `error.details.rejeicoes`.
 */
export function exigirRegrasAntt(dados: MdfeDados): void {
  const rejeicoes = rejeicoesMdfeNt2025001(fatosDosDadosMdfe(dados));
  const [primeira] = rejeicoes;
  if (!primeira) return;
  const fields = rejeicoes.flatMap((r) => CAMPO_DA_REGRA[r.cStat].map((field) => ({ field, message: `${r.cStat}: ${r.regra}` })));
  throw new Rejection(
    'mdfe_regra_antt',
    `the authority would reject this MDF-e with ${primeira.cStat} (${primeira.regra.split(':')[0]}): ${primeira.xMotivo.replace(/^Rejeição: /, '')}`,
    { cStat: primeira.cStat, xMotivo: primeira.xMotivo, regra: primeira.regra, fonte: primeira.fonte, rejeicoes, fields },
  );
}
