import { type ServicoDistribuicao } from '@frete/contracts';
import { NSU_INICIAL, SERVICOS_DISTRIBUICAO } from '@frete/domain';
import { type Projector, type Sql } from '../projector';

/**
 * The row of a service exists from the company's first event on: a consultation may come before any choice (the
 * schedule in the sandbox), a choice names both services.
 */
const garantir = (sql: Sql, companyId: string, servico: ServicoDistribuicao, at: Date) =>
  sql.query(
    `INSERT INTO rm.distribuicao (company_id, servico, ultimo_nsu, atualizado_em) VALUES ($1, $2, $3, $4)
     ON CONFLICT (company_id, servico) DO NOTHING`,
    [companyId, servico, NSU_INICIAL, at],
  );

/** The company's distribution state and the documents it received, copied from the events of `distribuicao-<id>`. */
export const distribuicaoProjector: Projector = {
  name: 'distribuicao',
  tables: ['rm.distribuicao', 'rm.distribuicao_documentos'],
  async apply(sql, event) {
    const at = event.recordedAt;
    switch (event.type) {
      case 'distribuicao.alterada': {
        const d = event.data;
        for (const servico of SERVICOS_DISTRIBUICAO) await garantir(sql, d.company_id, servico, at);
        await sql.query(`UPDATE rm.distribuicao SET habilitada = $2, atualizado_em = $3 WHERE company_id = $1`, [
          d.company_id,
          d.habilitada,
          at,
        ]);
        return;
      }
      case 'distribuicao.consulta_solicitada': {
        const d = event.data;
        await garantir(sql, d.company_id, d.servico, at);
        await sql.query(
          `UPDATE rm.distribuicao SET consulta_id = $3, consulta_origem = $4, consulta_solicitada_em = $5, atualizado_em = $6
            WHERE company_id = $1 AND servico = $2`,
          [d.company_id, d.servico, d.consulta_id, d.origem, d.solicitada_em, at],
        );
        return;
      }
      case 'distribuicao.consultada': {
        const d = event.data;
        await garantir(sql, d.company_id, d.servico, at);
        await sql.query(
          `UPDATE rm.distribuicao SET ultimo_nsu = $3, max_nsu = $4, proxima_consulta = $5, bloqueado_ate = $6, ultimo_cstat = $7,
             ultimo_motivo = $8, ultima_consulta_em = $9, consulta_id = NULL, consulta_origem = NULL, consulta_solicitada_em = NULL,
             atualizado_em = $10
            WHERE company_id = $1 AND servico = $2`,
          [d.company_id, d.servico, d.ult_nsu, d.max_nsu, d.proxima_consulta, d.bloqueado_ate, d.cstat, d.motivo, d.consultada_em, at],
        );
        if (d.documentos.length > 0) {
          // One statement for the answer's documents (at most 50); a repeated NSU (a replayed answer) is kept as first recorded.
          await sql.query(
            `INSERT INTO rm.distribuicao_documentos (company_id, servico, nsu, schema, chave, sha256, destino, erro, consulta_id, recebido_em)
             SELECT $1, $2, x.nsu, x.schema, x.chave, x.sha256, x.destino, x.erro, $3, $4
               FROM jsonb_to_recordset($5::jsonb) AS x(nsu text, schema text, chave text, sha256 text, destino text, erro text)
             ON CONFLICT (company_id, servico, nsu) DO NOTHING`,
            [d.company_id, d.servico, d.consulta_id, d.consultada_em, JSON.stringify(d.documentos)],
          );
        }
        return;
      }
      case 'distribuicao.consulta_falhou': {
        const d = event.data;
        await garantir(sql, d.company_id, d.servico, at);
        await sql.query(
          `UPDATE rm.distribuicao SET proxima_consulta = $3, ultima_falha_motivo = $4, ultima_falha_em = $5, consulta_id = NULL,
             consulta_origem = NULL, consulta_solicitada_em = NULL, atualizado_em = $6
            WHERE company_id = $1 AND servico = $2`,
          [d.company_id, d.servico, d.proxima_consulta, d.motivo, d.falhou_em, at],
        );
        return;
      }
    }
  },
};
