import {
  type FatosMdfeNt2025001,
  regraF113a,
  regraF113b,
  regraF55a,
  regraF55b,
  type RejeicaoMdfeNt2025001,
} from '../../mdfe/regras-nt2025-001';
import { regraAmbiente, regraCampoId, regraCnpjEmitente, regraDigitoChave, regraUfAtendida, regraUfEmitente } from './comuns';
import { type DocumentoFiscal, no, nos, texto } from './documento';
import { type RegraAutoridade } from './tipos';

/**
 * What the XML of an MDF-e shows to NT 2025.001 v1.03's rules 301–304 (domain/src/mdfe/regras-nt2025-001.ts, the
 * predicates the build applies too). The TAC condition is read where the XML says it: an owner's vehicle
 * (`veicTracao/prop`, `tpProp` 0 TAC agregado or 1 TAC independente); an emitter that is a TAC is known to the
 * authority from the RNTRC registry only, which this check does not have (the MDF-e's creation refuses it from its input).
 */
export function fatosDoXmlMdfe(d: DocumentoFiscal): FatosMdfeNt2025001 {
  const ide = no(d.inf, 'ide');
  const rodo = no(d.inf, 'infModal', 'rodo');
  const infPag = nos(rodo, 'infANTT', 'infPag');
  const tpProp = texto(rodo, 'veicTracao', 'prop', 'tpProp');
  const descargas = nos(d.inf, 'infDoc', 'infMunDescarga');
  return {
    modal: texto(ide, 'modal') ?? '',
    tpEmit: texto(ide, 'tpEmit') ?? '',
    tpTranspInformado: texto(ide, 'tpTransp') !== null,
    qtdDfe: descargas.reduce((n, m) => n + nos(m, 'infCTe').length + nos(m, 'infNFe').length + nos(m, 'infMDFeTransp').length, 0),
    ncmProdPred: texto(d.inf, 'prodPred', 'NCM'),
    qtdInfPag: infPag.length,
    infBancEmTodos: infPag.every((p) => no(p, 'infBanc') !== null),
    rntrcDeTac: tpProp === '0' || tpProp === '1',
    qtdInfCiot: nos(rodo, 'infANTT', 'infCIOT').length,
  };
}

const NT_MDFE = 'NT 2025.001 MDF-e v1.03, seção 2 "Regras solicitadas pela ANTT" (domain/src/mdfe/regras-nt2025-001.ts)';

function regraAntt(
  id: string,
  cStat: number,
  xMotivo: string,
  predicado: (f: FatosMdfeNt2025001) => RejeicaoMdfeNt2025001 | null,
): RegraAutoridade {
  return {
    regra: id,
    cStat,
    xMotivo,
    fonte: NT_MDFE,
    aplica: 'mdfe',
    verificar: (d) => (predicado(fatosDoXmlMdfe(d)) === null ? null : ''),
  };
}

/**
 * The MDF-e 3.00 rules (modelo 58) the product checks before sending, in the reception's order: the document's
 * identity (environment, authorizing UF, access key, emitter), then the ANTT's rules of NT 2025.001 v1.03.
 */
export const REGRAS_MDFE: readonly RegraAutoridade[] = [
  regraAmbiente('mdfe'),
  regraUfAtendida('mdfe'),
  regraUfEmitente('mdfe'),
  regraCampoId('mdfe'),
  regraDigitoChave('mdfe'),
  regraCnpjEmitente('mdfe'),
  regraAntt('F55a', 301, 'Rejeição: O NCM do produto predominante da carga lotação deve ser informado', regraF55a),
  regraAntt('F55b', 302, 'Rejeição: As informações de pagamento devem ser informadas para carga lotação', regraF55b),
  regraAntt('F113a', 303, 'Rejeição: Dados Bancários e de pagamento devem ser informados para TAC e equiparado a TAC', regraF113a),
  regraAntt('F113b', 304, 'Rejeição: CIOT deve ser informado para TAC e equiparado a TAC', regraF113b),
];
