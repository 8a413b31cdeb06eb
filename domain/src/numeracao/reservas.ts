/**
 * The numbers a series gave, newest first, as a chain: folding a series stream adds one link per reservation in
 * constant time (a map copied at every event made each fold quadratic, and a series holds hundreds of thousands of
 * documents). Finding a document's number walks the chain once.
 */
export interface Reserva {
  id: string;
  numero: number;
  anterior: Reserva | null;
}

export function numeroReservado(reservas: Reserva | null, id: string): number | undefined {
  for (let r = reservas; r; r = r.anterior) if (r.id === id) return r.numero;
  return undefined;
}
