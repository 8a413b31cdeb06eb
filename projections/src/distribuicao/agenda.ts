import { type ServicoDistribuicao } from '@frete/contracts';
import { type Sql } from '../projector';

/** A company's service whose consultation is due, with what the schedule derives its request's id from. */
export interface DistribuicaoDevida {
  company_id: string;
  servico: ServicoDistribuicao;
  /** The wait the last answer set (null before any): the same for every look until an answer moves it. */
  proxima_consulta: Date | null;
  /** A consultation asked long ago and never answered (taken for lost), else null. */
  consulta_perdida: string | null;
}

/**
 * The carriers whose distribution is on (their choice, or the environment's default) and whose service may be asked
 * now: no wait, no block, no consultation in progress (or one asked so long ago that it is taken for lost), and a
 * fiscal address (the request names its UF). Only a list to ask: the decider refuses what is not due.
 */
export async function distribuicoesDevidas(
  sql: Sql,
  opcoes: { habilitadaPorPadrao: boolean; agora: Date; esquecidaMs: number; limite: number },
): Promise<DistribuicaoDevida[]> {
  const { rows } = await sql.query(
    `SELECT c.company_id, s.servico, d.proxima_consulta, d.consulta_id
       FROM rm.companies c
       JOIN rm.configuracoes_fiscais f ON f.company_id = c.company_id AND f.uf IS NOT NULL
      CROSS JOIN (VALUES ('cte'), ('nfe')) AS s (servico)
       LEFT JOIN rm.distribuicao d ON d.company_id = c.company_id AND d.servico = s.servico
      WHERE c.carrier
        AND COALESCE(d.habilitada, $1)
        AND (d.proxima_consulta IS NULL OR d.proxima_consulta <= $2)
        AND (d.bloqueado_ate IS NULL OR d.bloqueado_ate <= $2)
        AND (d.consulta_id IS NULL OR d.consulta_solicitada_em <= $2::timestamptz - make_interval(secs => $3 / 1000.0))
      ORDER BY d.proxima_consulta NULLS FIRST, c.company_id, s.servico
      LIMIT $4`,
    [opcoes.habilitadaPorPadrao, opcoes.agora, opcoes.esquecidaMs, opcoes.limite],
  );
  return rows.map((r) => ({
    company_id: r.company_id as string,
    servico: r.servico as ServicoDistribuicao,
    proxima_consulta: (r.proxima_consulta as Date | null) ?? null,
    consulta_perdida: (r.consulta_id as string | null) ?? null,
  }));
}
