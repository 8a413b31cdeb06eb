/**
 * A fiscal date-time as CT-e, MDF-e and their events write it: `AAAA-MM-DDTHH:MM:SS-03:00`, Brasília time (ruling
 * 11). Brazil has kept -03:00 all year since 2019, so the offset is fixed rather than looked up.
 */
export const dhSaoPaulo = (d: Date): string => `${new Date(d.getTime() - 3 * 3_600_000).toISOString().slice(0, 19)}-03:00`;
