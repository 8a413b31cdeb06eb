import { type ItemFrota, type SituacaoRntrc, type TipoDocumento } from '@frete/contracts';

/**
 * The road-transport regulator (ANTT) behind a port: RNTRC registration and fleet queries. The sandbox answers through
 * the simulation (`simulado.ts`: deterministic, sentinels of spec section 4, every answer marked
 * `verificacao: 'simulada'`); production, while no provider is contracted, through `indisponivel.ts` (ruling 7: every
 * call rejects with `provedor_indisponivel`, never invented data). A provider's adapter replaces either without
 * touching the callers; its answers carry no `verificacao` (a real verification).
 */
export interface ConsultaRntrcRegulador {
  /** Unpunctuated, check digits already validated. */
  documento: string;
  tipo_documento: TipoDocumento;
  /** 8 or 9 digits. */
  rntrc: string;
}

export interface ConsultaFrotaRegulador {
  documento: string;
  tipo_documento: TipoDocumento;
  /** 1 to 50 distinct plates, normalized (upper case, no hyphen). */
  placas: string[];
}

export interface ReguladorTransporte {
  /** False when no provider serves this deployment: every call rejects with `provedor_indisponivel`. */
  readonly disponivel: boolean;
  consultarRntrc(consulta: ConsultaRntrcRegulador): Promise<SituacaoRntrc>;
  /** One item per plate, in the order given. */
  consultarFrota(consulta: ConsultaFrotaRegulador): Promise<ItemFrota[]>;
}
