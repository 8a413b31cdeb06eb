import { type Projector } from '../projector';

/**
 * rm.vales_pedagio: one row per toll pass bought, with its plazas, passages, cancellation and refund (the refund is
 * the account's event `conta_operacional.estorno_registrado`, written here too so that analysts see it beside the
 * toll pass).
 */
export const valePedagioProjector: Projector = {
  name: 'vale-pedagio',
  tables: ['rm.vales_pedagio'],
  async apply(sql, event) {
    switch (event.type) {
      case 'vale_pedagio.emitido': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.vales_pedagio (company_id, vale_pedagio_id, numero, referencia_externa, situacao, origem_codigo_ibge, origem_municipio,
             origem_uf, destino_codigo_ibge, destino_municipio, destino_uf, categoria, eixos, placa, tipo, motorista_cpf, motorista_nome, cte, mdfe,
             fornecedor_cnpj, fornecedor_nome, fornecedor_simulado, pagador_cnpj, distancia_km, quantidade_pracas, pracas, valor_pedagio_centavos,
             taxa_centavos, valor_total_centavos, emitido_em, cancelavel_ate)
           VALUES ($1, $2, $3, $4, 'emitido', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25,
             $26, $27, $28, $29, $30)
           ON CONFLICT (company_id, vale_pedagio_id) DO NOTHING`,
          [
            d.company_id,
            d.vale_pedagio_id,
            d.numero,
            d.referencia_externa,
            d.origem.codigo_ibge,
            d.origem.municipio,
            d.origem.uf,
            d.destino.codigo_ibge,
            d.destino.municipio,
            d.destino.uf,
            d.categoria,
            d.eixos,
            d.placa,
            d.tipo,
            d.motorista?.cpf ?? null,
            d.motorista?.nome ?? null,
            d.cte,
            d.mdfe,
            d.fornecedor.cnpj,
            d.fornecedor.nome,
            d.fornecedor.simulado,
            d.pagador_cnpj,
            d.distancia_km,
            d.pracas.length,
            JSON.stringify(d.pracas),
            d.valor_pedagio_centavos,
            d.taxa_centavos,
            d.valor_total_centavos,
            d.emitido_em,
            d.cancelavel_ate,
          ],
        );
        return;
      }
      case 'vale_pedagio.passagem_registrada': {
        const d = event.data;
        await sql.query(
          `UPDATE rm.vales_pedagio
              SET situacao = CASE WHEN situacao = 'cancelado' THEN situacao ELSE 'em_uso' END,
                  primeira_passagem_em = LEAST(COALESCE(primeira_passagem_em, $4::timestamptz), $4::timestamptz),
                  passagens = passagens || jsonb_build_object($3::text, $4::text)
            WHERE company_id = $1 AND vale_pedagio_id = $2`,
          [d.company_id, d.vale_pedagio_id, d.praca_codigo, d.passou_em],
        );
        return;
      }
      case 'vale_pedagio.cancelado':
        await sql.query(
          `UPDATE rm.vales_pedagio SET situacao = 'cancelado', cancelado_em = $3 WHERE company_id = $1 AND vale_pedagio_id = $2`,
          [event.data.company_id, event.data.vale_pedagio_id, event.data.cancelado_em],
        );
        return;
      case 'conta_operacional.estorno_registrado':
        await sql.query(
          `UPDATE rm.vales_pedagio SET estornado_em = $3, estorno_centavos = $4 WHERE company_id = $1 AND vale_pedagio_id = $2`,
          [event.data.company_id, event.data.vale_pedagio_id, event.data.registrado_em, event.data.valor_centavos],
        );
        return;
    }
  },
};
