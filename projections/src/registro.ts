import { type EventType } from '@frete/contracts';
import { type Projector } from './projector';

/** One registry of a company (drivers, vehicles): integer ids, a row per id, removal keeping the row with its time. */
export interface RegistroProjetado<D> {
  name: string;
  table: string;
  /** The aggregate's event prefix: `<prefix>.cadastrado`, `.alterado`, `.removido`. */
  prefix: string;
  /** The id's field in the events (`motorista_id`). */
  idField: string;
  /** The data columns, in the order `values` gives them. */
  columns: readonly string[];
  values(dados: D): unknown[];
}

type DadosDoRegistro<D> = { company_id: string; dados: D } & Record<string, unknown>;

/** The projector every registry shares: what differs is its table, its columns and how its data fills them. */
export function registroProjector<D>(r: RegistroProjetado<D>): Projector {
  const n = r.columns.length;
  const insert = `INSERT INTO ${r.table} (company_id, id, ${r.columns.join(', ')}, cadastrado_em, atualizado_em)
    VALUES (${Array.from({ length: n + 3 }, (_, i) => `$${i + 1}`).join(', ')}, $${n + 3})
    ON CONFLICT (company_id, id) DO NOTHING`;
  const update = `UPDATE ${r.table} SET ${r.columns.map((c, i) => `${c} = $${i + 3}`).join(', ')}, atualizado_em = $${n + 3}
    WHERE company_id = $1 AND id = $2`;
  const remove = `UPDATE ${r.table} SET removido_em = $3, atualizado_em = $3 WHERE company_id = $1 AND id = $2 AND removido_em IS NULL`;
  const [cadastrado, alterado, removido] = (['cadastrado', 'alterado', 'removido'] as const).map((f) => `${r.prefix}.${f}` as EventType);
  return {
    name: r.name,
    tables: [r.table],
    async apply(sql, event) {
      const d = event.data as DadosDoRegistro<D>;
      const id = d[r.idField];
      if (event.type === cadastrado || event.type === alterado) {
        await sql.query(event.type === cadastrado ? insert : update, [d.company_id, id, ...r.values(d.dados), event.recordedAt]);
      } else if (event.type === removido) {
        await sql.query(remove, [d.company_id, id, event.recordedAt]);
      }
    },
  };
}
