import { type Pool } from 'pg';
import { readModelMigrations } from '@frete/projections';
import { MIGRATION_LOCK } from '../db/migrate';
import {
  ESQUEMA_VIVO,
  PREFIXO_ESQUEMA_ANTIGO,
  PREFIXO_RECONSTRUCAO,
  criarEsquemaLateral,
  novoEsquemaLateral,
  removerEsquemaLateral,
} from './esquema-lateral';
import { type OpcoesVerificacao, type ReadModelsVivos, checkpointVivo, emTransacao, replayLateral } from './verificacao';

export interface RelatorioReconstrucao {
  reconstruido: true;
  /** The log position the new read models took over at: the live checkpoint when they were swapped in. */
  posicao: { commit: string; prepare: string };
  eventos_reaplicados: number;
}

/**
 * Rebuilds the read models without stopping anything: the whole log is replayed into a side schema made from the same
 * migrations, beside the live read models that keep serving and being projected; then, in one short transaction, the
 * side schema catches up to the live checkpoint and takes the live schema's name, and the old one is dropped.
 *
 * Why nobody notices: the live projector is held only for the last stretch (an EXCLUSIVE lock on the checkpoint table
 * stops its next `SELECT … FOR UPDATE` while plain reads, readiness's lag included, go on). Readers name tables as
 * `rm.x`, and PostgreSQL resolves a name again when the relation it had found is dropped under it (prepared statements
 * are re-analysed too), so a read waiting on the swap reads the new table. The projector's held batch resumes on the
 * new checkpoint, which the swap sets to exactly where the old one was. The migrations' lock keeps a process that
 * starts meanwhile from migrating either schema during the swap, and a read-model migration applied while the replay
 * ran makes the swap refuse (the side schema lacks it) rather than lose it.
 */
export async function reconstruirSemParada(
  vivos: ReadModelsVivos,
  opcoes: Pick<OpcoesVerificacao, 'tamanhoDoLote' | 'aoProgredir'> = {},
): Promise<RelatorioReconstrucao> {
  const { pool, name } = vivos;
  const esquema = novoEsquemaLateral(PREFIXO_RECONSTRUCAO);
  const antigo = `${PREFIXO_ESQUEMA_ANTIGO}${esquema.slice(PREFIXO_RECONSTRUCAO.length)}`;
  let trocado = false;
  try {
    const aplicadas = (await criarEsquemaLateral(pool, esquema)).sort();
    const replay = await pool.connect();
    const troca = await pool.connect();
    try {
      const lateral = replayLateral(vivos, replay, esquema, opcoes);
      // Twice without holding anything: the live projector moves on during the first (long) pass.
      for (let i = 0; i < 2; i++) await lateral.ate(await checkpointVivo(replay, name));
      const alvo = await emTransacao(troca, async () => {
        await troca.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
        await troca.query(`LOCK TABLE ${ESQUEMA_VIVO}.projection_checkpoint IN EXCLUSIVE MODE`);
        const vivas = await migracoesDe(troca, ESQUEMA_VIVO);
        if (vivas.join() !== aplicadas.join())
          throw new Error('read-model migrations changed while the rebuild replayed the log: run the rebuild again');
        const alvo = await checkpointVivo(troca, name);
        await lateral.ate(alvo);
        // The bookkeeping comes along: the migrations applied (so no process applies them again) and the checkpoints.
        await troca.query(`DELETE FROM ${esquema}.${readModelMigrations.table}`);
        await troca.query(`INSERT INTO ${esquema}.${readModelMigrations.table} SELECT * FROM ${ESQUEMA_VIVO}.${readModelMigrations.table}`);
        await troca.query(
          `SELECT setval(pg_get_serial_sequence('${esquema}.${readModelMigrations.table}', 'id'),
                         (SELECT coalesce(max(id), 0) + 1 FROM ${esquema}.${readModelMigrations.table}), false)`,
        );
        await troca.query(`INSERT INTO ${esquema}.projection_checkpoint SELECT * FROM ${ESQUEMA_VIVO}.projection_checkpoint`);
        await troca.query(`ALTER SCHEMA ${ESQUEMA_VIVO} RENAME TO ${antigo}`);
        await troca.query(`ALTER SCHEMA ${esquema} RENAME TO ${ESQUEMA_VIVO}`);
        await troca.query(`DROP SCHEMA ${antigo} CASCADE`);
        return alvo;
      });
      trocado = true;
      return {
        reconstruido: true,
        posicao: { commit: alvo.commit.toString(), prepare: alvo.prepare.toString() },
        eventos_reaplicados: lateral.eventos,
      };
    } finally {
      replay.release();
      troca.release();
    }
  } finally {
    if (!trocado) await removerEsquemaLateral(pool, esquema);
  }
}

async function migracoesDe(sql: Pick<Pool, 'query'>, esquema: string): Promise<string[]> {
  const { rows } = await sql.query<{ name: string }>(`SELECT name FROM ${esquema}.${readModelMigrations.table}`);
  return rows.map((r) => r.name).sort();
}
