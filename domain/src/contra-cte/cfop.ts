/**
 * The counter-CT-e's CFOP (batch rule 4). A service starting outside the emitter's UF is 5932/6932 (G051) whatever
 * the tax rule says; starting in the emitter's UF it is 5360/6360 (the taker, a carrier, is the ICMS substitute),
 * unless a rule written for the service type (`tp_serv`) names its own CFOP, which is then kept. A general rule's
 * CFOP is for ordinary freight and does not apply to subcontracting. An export is 7358.
 */
export function cfopContraCte(i: {
  ufEmitente: string;
  ufInicio: string;
  ufFim: string;
  regra: { tp_serv: number | null; cfop: string | null };
}): string {
  // An export (UF fim EX) starts with 7 (G050) and G051/G052 do not apply to it; 7358 is the one transport service of
  // the 7 group (MOC Visão Geral §12, shared/design/fiscal-domain.md B2), unless a rule for the type names its own 7xxx.
  if (i.ufFim === 'EX') return i.regra.tp_serv !== null && i.regra.cfop?.startsWith('7') ? i.regra.cfop : '7358';
  const mesmaUf = i.ufInicio === i.ufFim;
  if (i.ufInicio !== i.ufEmitente) return mesmaUf ? '5932' : '6932';
  if (i.regra.tp_serv !== null && i.regra.cfop) return i.regra.cfop;
  return mesmaUf ? '5360' : '6360';
}
