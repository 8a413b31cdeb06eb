import { type Pool, type PoolClient } from 'pg';
import { type Position, START, comparePositions } from '@frete/contracts';
import { type Projector } from '@frete/projections';
import { type EventStore } from '../event-store/port';
import { projetar, separarProjetores } from './projetar';
import { type TabelaComparada, compararEsquemas } from './comparacao';
import { ESQUEMA_VIVO, criarEsquemaLateral, noEsquema, novoEsquemaLateral, removerEsquemaLateral } from './esquema-lateral';

export { type TabelaComparada } from './comparacao';

export interface ProgressoVerificacao {
  /** Events replayed into the side schema so far. */
  eventos: number;
  posicao: Position;
  /** The live checkpoint the replay is heading for. */
  alvo: Position;
}

export interface OpcoesVerificacao {
  /** Sample rows per table and direction (default 5). */
  exemplos?: number;
  /** Events read from the log at a time (default 500). */
  tamanhoDoLote?: number;
  aoProgredir?: (progresso: ProgressoVerificacao) => void;
}

export interface RelatorioVerificacao {
  identicas: boolean;
  /** The log position both sides were compared at: the live checkpoint. */
  posicao: { commit: string; prepare: string };
  eventos_reaplicados: number;
  tabelas: TabelaComparada[];
}

/** What is verified: the live runner's log, database, projectors and checkpoint name. */
export interface ReadModelsVivos {
  store: EventStore;
  pool: Pool;
  projectors: Projector[];
  name: string;
}

export async function checkpointVivo(client: PoolClient, name: string, trava = ''): Promise<Position> {
  const { rows } = await client.query<{ commit_pos: string; prepare_pos: string }>(
    `SELECT commit_pos, prepare_pos FROM ${ESQUEMA_VIVO}.projection_checkpoint WHERE name = $1 ${trava}`,
    [name],
  );
  return rows[0] ? { commit: BigInt(rows[0].commit_pos), prepare: BigInt(rows[0].prepare_pos) } : START;
}

export async function emTransacao<T>(client: PoolClient, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * A replay of the log into a side schema with the live projectors, one transaction per read: `ate(alvo)` brings it to
 * a position the live runner has reached (so every event up to it is readable).
 */
export function replayLateral(
  vivos: ReadModelsVivos,
  replay: PoolClient,
  esquema: string,
  opcoes: Pick<OpcoesVerificacao, 'tamanhoDoLote' | 'aoProgredir'>,
): { ate(alvo: Position): Promise<void>; readonly posicao: Position; readonly eventos: number } {
  const projetores = separarProjetores(vivos.projectors);
  const tamanhoDoLote = opcoes.tamanhoDoLote ?? 500;
  const sql = noEsquema(replay, esquema);
  let posicao = START;
  let eventos = 0;
  return {
    get posicao() {
      return posicao;
    },
    get eventos() {
      return eventos;
    },
    async ate(alvo) {
      while (comparePositions(posicao, alvo) < 0) {
        const dentro = (await vivos.store.readAll(posicao, tamanhoDoLote)).filter((e) => comparePositions(e.position, alvo) <= 0);
        if (dentro.length === 0) throw new Error(`the log ends before the live checkpoint ${alvo.commit}/${alvo.prepare}`);
        const projecao = await emTransacao(replay, () => projetar(sql, projetores, dentro, posicao));
        posicao = projecao.checkpoint;
        eventos += projecao.applied;
        opcoes.aoProgredir?.({ eventos, posicao, alvo });
      }
    },
  };
}

/**
 * Replays the whole log into a side schema with the live projectors and compares it, table by table and row by row,
 * with the live read models at the same log position, while the service keeps projecting. Nothing of the live read
 * models is written; the side schema is dropped at the end, whatever happens.
 *
 * Why the comparison is consistent: the runner moves its checkpoint in the transaction that writes the rows, so any
 * snapshot shows the live tables exactly as of the checkpoint it shows. The replay is first brought near the live
 * checkpoint without holding anything; then a share lock on the checkpoint row (the runner takes it FOR UPDATE before
 * each batch) holds the live projector still for the short last stretch, the replay reaches exactly that checkpoint
 * and commits, and a REPEATABLE READ READ ONLY snapshot is taken that sees both at the same position. The lock goes
 * at once and the long comparison runs in that snapshot: it holds no transaction id, so the projector (whose reads
 * stop at the oldest running transaction) is not held back by it. Catching up inside the comparison's own snapshot
 * would have needed writes there, holding the projector for the whole comparison.
 */
export async function verificarReadModels(vivos: ReadModelsVivos, opcoes: OpcoesVerificacao = {}): Promise<RelatorioVerificacao> {
  const { pool, name } = vivos;
  const exemplos = opcoes.exemplos ?? 5;
  const esquema = novoEsquemaLateral();

  try {
    await criarEsquemaLateral(pool, esquema);
    const replay = await pool.connect();
    const trava = await pool.connect();
    const leitor = await pool.connect();
    const lateral = replayLateral(vivos, replay, esquema, opcoes);
    try {
      // Twice: the live projector moves on during the first (long) pass; the second leaves a short stretch.
      for (let i = 0; i < 2; i++) await lateral.ate(await checkpointVivo(replay, name));
      const alvo = await emTransacao(trava, async () => {
        const alvo = await checkpointVivo(trava, name, 'FOR SHARE');
        await lateral.ate(alvo);
        await leitor.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        // The snapshot is taken by this first statement, while the checkpoint is held.
        const visto = await checkpointVivo(leitor, name);
        if (comparePositions(visto, alvo) !== 0) throw new Error('the live checkpoint moved while it was held');
        return alvo;
      });
      const tabelas = await compararEsquemas(leitor, ESQUEMA_VIVO, esquema, exemplos);
      await leitor.query('COMMIT');
      return {
        identicas: tabelas.every((t) => t.estrutura === null && t.so_vivas === 0 && t.so_refeitas === 0),
        posicao: { commit: alvo.commit.toString(), prepare: alvo.prepare.toString() },
        eventos_reaplicados: lateral.eventos,
        tabelas,
      };
    } finally {
      await leitor.query('ROLLBACK').catch(() => undefined);
      for (const client of [replay, trava, leitor]) client.release();
    }
  } finally {
    await removerEsquemaLateral(pool, esquema);
  }
}
