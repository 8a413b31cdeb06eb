import { type Sql } from '../projector';

/**
 * The steps of an issue as the read model of an issued document (CT-e in `rm.ctes`, MDF-e in `rm.mdfes`) records
 * them: requested, refused (the key is given back), or still without a verdict (the reason shown while polling).
 */
export const projecaoDaEmissao = (tabela: 'rm.ctes' | 'rm.mdfes', coluna: 'cte_id' | 'mdfe_id') => ({
  /** Many documents' requests in one statement (a layer of a batch: one per document). */
  async solicitadas(sql: Sql, pedidos: { id: string; serie: number; at: Date }[]): Promise<void> {
    await sql.query(
      `UPDATE ${tabela} t SET situacao = 'em_processamento', serie = u.serie, retorno = NULL, updated_at = u.at
       FROM jsonb_to_recordset($1::jsonb) AS u(id text, serie integer, at timestamptz) WHERE t.${coluna} = u.id`,
      [JSON.stringify(pedidos)],
    );
  },
  async rejeitada(sql: Sql, id: string, retorno: { cstat: number; motivo: string }, at: Date): Promise<void> {
    await sql.query(`UPDATE ${tabela} SET situacao = 'rejeitado', chave = NULL, retorno = $2, updated_at = $3 WHERE ${coluna} = $1`, [
      id,
      JSON.stringify({ cstat: retorno.cstat, motivo: retorno.motivo }),
      at,
    ]);
  },
  async pendente(sql: Sql, id: string, motivo: string, at: Date): Promise<void> {
    await sql.query(`UPDATE ${tabela} SET retorno = $2, updated_at = $3 WHERE ${coluna} = $1`, [
      id,
      JSON.stringify({ cstat: null, motivo }),
      at,
    ]);
  },
});
