import { AutoridadeIndisponivel } from '../port';

/**
 * How long the adapter keeps away from a channel that said no (facts file: back off; never loop on consumo indevido).
 * 108 pauses the authorizer for `base`, 109 (no forecast) for 5 × `base`, and consumo indevido — 678 at the CT-e and
 * MDF-e authorizers (MOC CT-e 4.00 Visão Geral §8.2: "por até 1 (uma) hora"; `CSTAT_CONSUMO_INDEVIDO`), 656 should
 * one answer with the distribution's code — pauses the emitter at that authorizer for 60 × `base`: an hour with the
 * default minute, as long as the authority blocks the CNPJ.
 */
export const PAUSA_PADRAO_MS = 60_000;

const MOTIVO: Record<number, AutoridadeIndisponivel['motivo']> = {
  108: 'paralisada',
  109: 'paralisada',
  656: 'consumo_indevido',
  678: 'consumo_indevido',
};

/** The pauses in force, per authorizer (108/109) and per authorizer and emitter (678/656). In this process's memory. */
export class PausasDoCanal {
  private readonly pausas = new Map<string, AutoridadeIndisponivel>();

  constructor(
    private readonly clock: () => Date,
    private readonly baseMs: number = PAUSA_PADRAO_MS,
  ) {}

  private chaves(autorizador: string, emitente: string): string[] {
    return [autorizador, `${autorizador}:${emitente}`];
  }

  /** Throws the pause in force for this call, if any: nothing is sent before it ends. */
  verificar(autorizador: string, emitente: string): void {
    const agora = this.clock().getTime();
    for (const chave of this.chaves(autorizador, emitente)) {
      const pausa = this.pausas.get(chave);
      if (!pausa) continue;
      if (pausa.tentarApos.getTime() > agora) throw pausa;
      this.pausas.delete(chave);
    }
  }

  /** Records the channel status an answer carried and returns the pause to throw. */
  pausar(autorizador: string, emitente: string, cStat: number, xMotivo: string): AutoridadeIndisponivel {
    const fator = cStat === 108 ? 1 : cStat === 109 ? 5 : 60;
    const pausa = new AutoridadeIndisponivel(
      MOTIVO[cStat] ?? 'paralisada',
      cStat,
      xMotivo,
      new Date(this.clock().getTime() + fator * this.baseMs),
    );
    this.pausas.set(fator === 60 ? `${autorizador}:${emitente}` : autorizador, pausa);
    return pausa;
  }
}
