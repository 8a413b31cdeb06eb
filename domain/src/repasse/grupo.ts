import { type ContraCteVinculo } from '@frete/contracts';

/**
 * A driver group: the counter-CT-e of one driver in one batch form a group (batch rule 6), whose size decides whole
 * documents or splits at the scan; a single counter-CT-e (`POST /fiscal/cte/contra`) is a group of its own.
 */
export const grupoDoVinculo = (cteId: string, vinculo: Pick<ContraCteVinculo, 'lote_id' | 'motorista_cpf'>): string =>
  vinculo.lote_id === null ? `cte:${cteId}` : `lote:${vinculo.lote_id}:${vinculo.motorista_cpf}`;

/** One stream per group, so that the group's scans see each other's documents and cancellations in order. */
export const repasseStream = (companyId: string, grupo: string) => `repasse-${companyId}-${grupo}`;
