/**
 * The counter-CT-e's CFOP (batch rule 4). A service starting outside the emitter's UF is 5932/6932 (G051) whatever
 * the tax rule says; starting in the emitter's UF it is 5360/6360 (the taker, a carrier, is the ICMS substitute),
 * unless a rule written for the service type (`tp_serv`) names its own CFOP, which is then kept. A general rule's
 * CFOP is for ordinary freight and does not apply to subcontracting.
 */
export function cfopContraCte(i: {
  ufEmitente: string;
  ufInicio: string;
  ufFim: string;
  regra: { tp_serv: number | null; cfop: string | null };
}): string {
  const mesmaUf = i.ufInicio === i.ufFim;
  if (i.ufInicio !== i.ufEmitente) return mesmaUf ? '5932' : '6932';
  if (i.regra.tp_serv !== null && i.regra.cfop) return i.regra.cfop;
  return mesmaUf ? '5360' : '6360';
}
