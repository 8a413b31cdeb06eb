import { type Projector } from '../projector';

/** rm.conta_operacional_movimentos: every movement of the operational account's ledger, in ledger order. */
export const contaOperacionalProjector: Projector = {
  name: 'conta-operacional',
  tables: ['rm.conta_operacional_movimentos'],
  async apply(sql, event) {
    const insert = (row: {
      company_id: string;
      sequencia: number;
      tipo: string;
      valor: number;
      pedagio: number | null;
      taxa: number | null;
      saldo: number;
      referencia: string | null;
      origem: string | null;
      vale: string | null;
      motivo: string | null;
      em: string;
    }) =>
      sql.query(
        `INSERT INTO rm.conta_operacional_movimentos (company_id, sequencia, tipo, valor_centavos, valor_pedagio_centavos, taxa_centavos,
         saldo_apos_centavos, referencia, origem_credito, vale_pedagio_id, motivo_estorno, registrado_em, event_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (company_id, sequencia) DO NOTHING`,
        [
          row.company_id,
          row.sequencia,
          row.tipo,
          row.valor,
          row.pedagio,
          row.taxa,
          row.saldo,
          row.referencia,
          row.origem,
          row.vale,
          row.motivo,
          row.em,
          event.id,
        ],
      );
    switch (event.type) {
      case 'conta_operacional.credito_registrado': {
        const d = event.data;
        await insert({
          company_id: d.company_id,
          sequencia: d.sequencia,
          tipo: 'credito',
          valor: d.valor_centavos,
          pedagio: null,
          taxa: null,
          saldo: d.saldo_apos_centavos,
          referencia: d.referencia,
          origem: d.origem,
          vale: null,
          motivo: null,
          em: d.registrado_em,
        });
        return;
      }
      case 'conta_operacional.debito_registrado': {
        const d = event.data;
        await insert({
          company_id: d.company_id,
          sequencia: d.sequencia,
          tipo: 'debito',
          valor: -d.valor_centavos,
          pedagio: d.valor_pedagio_centavos,
          taxa: d.taxa_centavos,
          saldo: d.saldo_apos_centavos,
          referencia: null,
          origem: null,
          vale: d.vale_pedagio_id,
          motivo: null,
          em: d.registrado_em,
        });
        return;
      }
      case 'conta_operacional.estorno_registrado': {
        const d = event.data;
        await insert({
          company_id: d.company_id,
          sequencia: d.sequencia,
          tipo: 'estorno',
          valor: d.valor_centavos,
          pedagio: d.valor_pedagio_centavos,
          taxa: d.taxa_centavos,
          saldo: d.saldo_apos_centavos,
          referencia: null,
          origem: null,
          vale: d.vale_pedagio_id,
          motivo: d.motivo,
          em: d.registrado_em,
        });
        return;
      }
    }
  },
};
