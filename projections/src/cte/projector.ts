import { type Projector } from '../projector';
import { projecaoDaEmissao } from '../emissao/projecao';

const emissao = projecaoDaEmissao('rm.ctes', 'cte_id');

/** dhEmi as an instant, or null when the document wrote it in a shape Date cannot read. */
const instantOf = (text: string): Date | null => {
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** rm.ctes and rm.cte_nfe: the company's own CT-e, whatever way they came in. */
export const cteProjector: Projector = {
  name: 'cte',
  tables: ['rm.ctes', 'rm.cte_nfe'],
  async apply(sql, event) {
    switch (event.type) {
      case 'cte.emitido_recebido': {
        const d = event.data;
        const c = d.cte;
        await sql.query(
          `INSERT INTO rm.ctes (cte_id, company_id, chave, origem, situacao, modelo, serie, numero, service_type, data_emissao, emitido_em,
             ambiente_documento, tomador_papel, tomador_documento, tomador_nome, inicio_municipio, inicio_uf, fim_municipio, fim_uf,
             valor_prestacao_centavos, valor_receber_centavos, xml_sha256, xml_size_bytes, received_count, handoffs, cte, created_at, updated_at)
           VALUES ($1, $2, $3, 'cte_emitido', $4, $5, $6, $7, $8, $9, $23, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $24, 1, 0, $21, $22, $22)`,
          [
            d.cte_id,
            d.company_id,
            d.chave,
            d.situacao,
            c.modelo,
            c.serie,
            c.numero,
            c.tipo_servico,
            c.data_emissao,
            c.ambiente,
            c.tomador.papel,
            c.tomador.parte?.documento ?? null,
            c.tomador.parte?.nome ?? null,
            c.inicio.municipio,
            c.inicio.uf,
            c.fim.municipio,
            c.fim.uf,
            c.valor_prestacao_centavos,
            c.valor_receber_centavos,
            d.sha256,
            JSON.stringify(c),
            event.recordedAt,
            instantOf(c.data_emissao),
            d.tamanho_bytes,
          ],
        );
        for (const nfe of new Set(c.nfe_chaves)) {
          await sql.query(`INSERT INTO rm.cte_nfe (company_id, cte_id, nfe_chave) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
            d.company_id,
            d.cte_id,
            nfe,
          ]);
        }
        return;
      }
      case 'cte.rascunho_criado': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.ctes (cte_id, company_id, origem, situacao, modelo, service_type, ambiente_documento, received_count, handoffs,
             dados, created_at, updated_at)
           VALUES ($1, $2, 'emissao', 'rascunho', '57', $3, $4, 0, 0, $5, $6, $6)`,
          [d.cte_id, d.company_id, d.dados.tipo_servico ?? 0, d.ambiente, JSON.stringify(d.dados), event.recordedAt],
        );
        return;
      }
      case 'cte.contra_cte_criado': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.ctes (cte_id, company_id, origem, situacao, modelo, service_type, ambiente_documento, received_count, handoffs,
             dados, contra_cte, created_at, updated_at)
           VALUES ($1, $2, 'contra_cte', 'rascunho', '57', $3, $4, 0, 0, $5, $6, $7, $7)`,
          [
            d.cte_id,
            d.company_id,
            d.vinculo.tipo_servico,
            d.ambiente,
            JSON.stringify(d.dados),
            JSON.stringify(d.vinculo),
            event.recordedAt,
          ],
        );
        return;
      }
      case 'cte.rascunho_alterado': {
        const d = event.data;
        await sql.query(`UPDATE rm.ctes SET situacao = 'rascunho', dados = $2, service_type = $3, updated_at = $4 WHERE cte_id = $1`, [
          d.cte_id,
          JSON.stringify(d.dados),
          d.dados.tipo_servico ?? 0,
          event.recordedAt,
        ]);
        return;
      }
      case 'cte.emissao_solicitada':
        return emissao.solicitada(sql, event.data.cte_id, event.data.serie, event.recordedAt);
      case 'cte.xml_assinado': {
        const d = event.data;
        await sql.query(
          `UPDATE rm.ctes SET chave = $2, serie = $3, numero = $4, data_emissao = $5, emitido_em = $6, updated_at = $7 WHERE cte_id = $1`,
          [d.cte_id, d.chave, d.serie, d.numero, d.data_emissao, instantOf(d.data_emissao), event.recordedAt],
        );
        return;
      }
      case 'cte.autorizado': {
        const d = event.data;
        const c = d.cte;
        await sql.query(
          `UPDATE rm.ctes SET situacao = 'autorizado', chave = $2, xml_sha256 = $3, cte = $4, retorno = $5,
             tomador_papel = $6, tomador_documento = $7, tomador_nome = $8, inicio_municipio = $9, inicio_uf = $10, fim_municipio = $11,
             fim_uf = $12, valor_prestacao_centavos = $13, valor_receber_centavos = $14, updated_at = $15
           WHERE cte_id = $1`,
          [
            d.cte_id,
            d.chave,
            d.sha256,
            JSON.stringify(c),
            JSON.stringify({ cstat: d.protocolo.cstat, motivo: d.protocolo.motivo }),
            c.tomador.papel,
            c.tomador.parte?.documento ?? null,
            c.tomador.parte?.nome ?? null,
            c.inicio.municipio,
            c.inicio.uf,
            c.fim.municipio,
            c.fim.uf,
            c.valor_prestacao_centavos,
            c.valor_receber_centavos,
            event.recordedAt,
          ],
        );
        for (const nfe of new Set(c.nfe_chaves)) {
          await sql.query(`INSERT INTO rm.cte_nfe (company_id, cte_id, nfe_chave) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
            d.company_id,
            d.cte_id,
            nfe,
          ]);
        }
        return;
      }
      case 'cte.rejeitado':
        return emissao.rejeitada(sql, event.data.cte_id, event.data, event.recordedAt);
      case 'cte.denegado':
        await sql.query(`UPDATE rm.ctes SET situacao = 'denegado', retorno = $2, updated_at = $3 WHERE cte_id = $1`, [
          event.data.cte_id,
          JSON.stringify({ cstat: event.data.protocolo.cstat, motivo: event.data.protocolo.motivo }),
          event.recordedAt,
        ]);
        return;
      case 'cte.resultado_pendente':
        return emissao.pendente(sql, event.data.cte_id, event.data.motivo, event.recordedAt);
      case 'cte.emitido_reenviado':
        await sql.query(`UPDATE rm.ctes SET received_count = received_count + 1, updated_at = $2 WHERE cte_id = $1`, [
          event.data.cte_id,
          event.recordedAt,
        ]);
        return;
      case 'cte.evento_registrado':
        // A registered cancellation (110111) cancels the CT-e; the other events leave its situation as it is.
        if (event.data.tp_evento === '110111') {
          await sql.query(`UPDATE rm.ctes SET situacao = 'cancelado', retorno = $2, updated_at = $3 WHERE cte_id = $1`, [
            event.data.cte_id,
            JSON.stringify({ cstat: event.data.protocolo.cstat, motivo: event.data.protocolo.motivo }),
            event.recordedAt,
          ]);
        }
        return;
      case 'cte.repassado':
        await sql.query(`UPDATE rm.ctes SET handoffs = handoffs + 1, updated_at = $2 WHERE cte_id = $1`, [
          event.data.cte_id,
          event.recordedAt,
        ]);
        return;
    }
  },
};
