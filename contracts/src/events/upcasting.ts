import { type ConfiguracaoAtualizada, type ConfiguracaoAtualizadaV1 } from './configuracao';
import { EventCatalog, isEventType } from './index';

/** Turns the data of one version of an event type into the next version's. Pure: no I/O, no clock. */
export type Upcaster = (data: unknown) => unknown;

/**
 * Every change of an event's shape, per type: `[n]` turns version n into version n + 1. Events are never rewritten
 * in the store (their hash chain covers them as recorded); readers get the current shape through `upcast`.
 */
export const UPCASTERS: { readonly [type: string]: { readonly [version: number]: Upcaster } } = {
  'configuracao.atualizada': {
    1: (data) => {
      const { company_id, changes } = data as ConfiguracaoAtualizadaV1;
      const { percentual_frete_contra_cte: percentual, ...resto } = changes;
      const v2: ConfiguracaoAtualizada = { company_id, changes: resto };
      // Version 1 accepted at most two decimals (the contract's multipleOf 0.01): rounding only drops binary noise.
      if (percentual !== undefined)
        v2.changes.percentual_frete_contra_cte_centesimos = percentual === null ? null : Math.round(percentual * 100);
      return v2;
    },
  },
};

export interface VersionedData {
  type: string;
  schemaVersion: number;
  data: unknown;
}

/**
 * The event in its type's current version. An event already current, or of a type the catalogue does not know, is
 * returned as it is (the same object); a version newer than the catalogue's (written by a newer release) is too.
 */
export function upcast<E extends VersionedData>(event: E): E {
  if (!isEventType(event.type)) return event;
  const atual = EventCatalog[event.type].version;
  if (event.schemaVersion >= atual) return event;
  const passos = UPCASTERS[event.type] ?? {};
  let data = event.data;
  for (let v = event.schemaVersion; v < atual; v++) {
    const passo = passos[v];
    if (!passo) throw new Error(`no upcaster for ${event.type} version ${v} → ${v + 1}`);
    data = passo(data);
  }
  return { ...event, schemaVersion: atual, data };
}

/** Types whose current version lacks an upcaster for some older version (a test keeps this empty). */
export const upcastersEmFalta = (): string[] =>
  Object.entries(EventCatalog).flatMap(([type, { version }]) =>
    Array.from({ length: version - 1 }, (_, i) => i + 1)
      .filter((v) => !UPCASTERS[type]?.[v])
      .map((v) => `${type} v${v}`),
  );
