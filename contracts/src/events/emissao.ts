import { Type, type TString } from '@sinclair/typebox';

/** The authority's protocol (number, reception time, cStat and text) as the events of an issue record it. */
export const ProtocoloAutoridade = Type.Object({
  numero: Type.String(),
  recebido_em: Type.String(),
  cstat: Type.Integer(),
  motivo: Type.String(),
});

/**
 * The events of an issue that every issued fiscal document (CT-e model 57, MDF-e model 58) records alike, keyed by
 * the document's id (`cte_id`, `mdfe_id`); `documento` names its XML root (`CTe`, `MDFe`) in descriptions.
 */
export const eventosDaEmissao = <K extends string>(id: K, documento: string) => {
  const ids = { [id]: Type.String(), company_id: Type.String() } as { [P in K]: TString } & { company_id: TString };
  return {
    /** The carrier asked to issue it (`POST .../emissao`): it goes to the emission processor. */
    EmissaoSolicitada: Type.Object({ ...ids, serie: Type.Integer() }),
    /**
     * The signed XML exists and is archived before it is sent: from here on the same bytes (the same key) are sent
     * again whenever the outcome is unknown, never a new document for the number.
     */
    XmlAssinado: Type.Object({
      ...ids,
      chave: Type.String(),
      serie: Type.Integer(),
      numero: Type.Integer(),
      data_emissao: Type.String(),
      sha256: Type.String({ description: `SHA-256 of the signed ${documento} XML in the document store` }),
    }),
    /** The authority refused it (or the service's own checks did before sending): it may be issued again. */
    Rejeitado: Type.Object({ ...ids, cstat: Type.Integer(), motivo: Type.String() }),
    /** A send or a query whose outcome is unknown (no answer, still processing): it stays `em_processamento`. */
    ResultadoPendente: Type.Object({ ...ids, chave: Type.String(), motivo: Type.String() }),
  };
};
