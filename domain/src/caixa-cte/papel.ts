import { type BloqueioContraCte, type CteLido, type Environment, type PapelTransportadora } from '@frete/contracts';
import { normalizeCnpj } from '../fiscal/documents';

const same = (doc: string | null | undefined, cnpj: string) => !!doc && normalizeCnpj(doc) === normalizeCnpj(cnpj);

/**
 * The company's role in a CT-e, by where its CNPJ appears; when it appears more than once the role that matters
 * most to a carrier wins (issuer, then taker, then the parties that hand over or receive the cargo). A
 * subcontractor is usually named nowhere in the contractor's CT-e: `terceiro`.
 */
export function papelNoCte(cte: CteLido, companyCnpj: string): PapelTransportadora {
  if (same(cte.emitente.documento, companyCnpj)) return 'emitente';
  if (same(cte.tomador.parte?.documento, companyCnpj)) return 'tomador';
  if (same(cte.expedidor?.documento, companyCnpj)) return 'expedidor';
  if (same(cte.recebedor?.documento, companyCnpj)) return 'recebedor';
  if (same(cte.remetente?.documento, companyCnpj)) return 'remetente';
  if (same(cte.destinatario?.documento, companyCnpj)) return 'destinatario';
  return 'terceiro';
}

/**
 * Why no counter-CT-e can be issued against this CT-e, or null. The spec names two cases (own CT-e, linked to
 * multimodal: `tpServ` 4); the others follow from the layout: a CT-e OS (model 67) carries no cargo, a
 * complementary CT-e (`tpCTe` 1) or an annulment (2) is no freight service of its own, and a production
 * deployment never subcontracts a sandbox document.
 */
export function bloqueioContraCte(cte: CteLido, papel: PapelTransportadora, environment: Environment): BloqueioContraCte | null {
  if (papel === 'emitente') return 'cte_proprio';
  if (cte.tipo_servico === 4) return 'vinculado_multimodal';
  if (cte.modelo !== '57') return 'nao_e_cte_de_carga';
  if (cte.tipo_cte === 1 || cte.tipo_cte === 2) return 'cte_nao_normal';
  if (environment === 'producao' && cte.ambiente === 'homologacao') return 'ambiente_homologacao';
  return null;
}
