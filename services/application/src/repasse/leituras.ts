import { type Pool } from 'pg';
import {
  mdfeParaRepasse,
  type ReferenciaRepasse,
  type RepasseDocumentoRow,
  repasseDocumento,
  repasseDocumentosDosCtes,
} from '@frete/projections';

/** The CT-e an MDF-e carries, in its order, and its drivers' CPFs: what an act on a manifest's installments goes through. */
export interface MdfeParaRepasse {
  ctes: { cte_id: string; chave: string }[];
  motoristas: string[];
}

/**
 * What the payout's handler reads besides the log: the read model names the driver group a document is in (the
 * request names only the document). Each lookup is the company's alone: another company's document or manifest is
 * none (null, or absent from the map).
 */
export interface LeiturasRepasse {
  /** The document named by counter-CT-e id, access key or leg document, with its installments; null when unknown. */
  documento(companyId: string, ref: ReferenciaRepasse): Promise<RepasseDocumentoRow | null>;
  /** The manifest's CT-e and drivers; null for an unknown MDF-e. */
  mdfe(companyId: string, mdfeId: string): Promise<MdfeParaRepasse | null>;
  /** The documents of these counter-CT-e that reached the financial step, by counter-CT-e id. */
  documentosDosCtes(companyId: string, cteIds: readonly string[]): Promise<Map<string, RepasseDocumentoRow>>;
}

/** The lookups over the read models in PostgreSQL. */
export const leiturasRepasseDoPool = (pool: Pool): LeiturasRepasse => ({
  documento: (companyId, ref) => repasseDocumento(pool, companyId, ref),
  mdfe: (companyId, mdfeId) => mdfeParaRepasse(pool, companyId, mdfeId),
  documentosDosCtes: (companyId, cteIds) => repasseDocumentosDosCtes(pool, companyId, cteIds),
});
