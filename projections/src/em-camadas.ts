import { type DomainEvent } from '@frete/contracts';
import { type ProjectedEvent, type Projector, type Sql } from './projector';

type Tipo = DomainEvent['type'];
export type EventoDo<T extends Tipo> = Extract<ProjectedEvent, { type: T }>;

/** Statements that write many events of one type at once, by type. */
export type EmGrupo = { [T in Tipo]?: (sql: Sql, events: EventoDo<T>[]) => Promise<void> };

export interface Camadas {
  /** The row an event writes (its key in the projector's tables); null when the event is none of the projector's. */
  linha(event: ProjectedEvent): string | null;
  emGrupo: EmGrupo;
  /** Any other event of the projector, alone. */
  sozinho(sql: Sql, event: ProjectedEvent): Promise<void>;
}

/**
 * A projector whose batch is written in few statements. Each event goes in the layer after the one holding its row's
 * previous event, so a row's events keep their order and a layer holds at most one event per row; within a layer, rows
 * do not depend on each other, and the events of one type are written by one statement (`emGrupo`) over all their
 * rows. A batch of a thousand counter-CT-e, each created, requested, signed and authorized, is four layers, not four
 * thousand statements; one event alone is one layer of one, written by the same statements.
 */
export function emCamadas(c: Camadas): Pick<Projector, 'apply' | 'applyBatch'> {
  const applyBatch = async (sql: Sql, events: ProjectedEvent[]): Promise<void> => {
    const camadaDaLinha = new Map<string, number>();
    const camadas: ProjectedEvent[][] = [];
    for (const e of events) {
      const linha = c.linha(e);
      if (linha === null) continue;
      const camada = (camadaDaLinha.get(linha) ?? -1) + 1;
      camadaDaLinha.set(linha, camada);
      (camadas[camada] ??= []).push(e);
    }
    for (const camada of camadas) {
      const porTipo = new Map<Tipo, ProjectedEvent[]>();
      for (const e of camada) {
        const doTipo = porTipo.get(e.type);
        if (doTipo) doTipo.push(e);
        else porTipo.set(e.type, [e]);
      }
      for (const [tipo, doTipo] of porTipo) {
        const grupo = c.emGrupo[tipo] as ((sql: Sql, events: ProjectedEvent[]) => Promise<void>) | undefined;
        if (grupo) await grupo(sql, doTipo);
        else for (const e of doTipo) await c.sozinho(sql, e);
      }
    }
  };
  return { apply: (sql, event) => applyBatch(sql, [event]), applyBatch };
}
