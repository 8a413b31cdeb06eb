import { type Projector } from '../projector';

/** What every movement carries (`Movimento` in the contract). */
interface Movimento {
  company_id: string;
  sequencia: number;
  saldo_apos_centavos: number;
  registrado_em: string;
}

/** The columns only some movements fill; the others are null. */
interface Detalhe {
  pedagio?: number;
  taxa?: number;
  referencia?: string;
  origem?: string;
  vale?: string;
  motivo?: string;
}

/** A debit and its refund name the same toll pass, toll and fee. */
const doVale = (d: { vale_pedagio_id: string; valor_pedagio_centavos: number; taxa_centavos: number }): Detalhe => ({
  pedagio: d.valor_pedagio_centavos,
  taxa: d.taxa_centavos,
  vale: d.vale_pedagio_id,
});

/** rm.conta_operacional_movimentos: every movement of the operational account's ledger, in ledger order. */
export const contaOperacionalProjector: Projector = {
  name: 'conta-operacional',
  tables: ['rm.conta_operacional_movimentos'],
  async apply(sql, event) {
    const insert = (d: Movimento, tipo: string, valor: number, detalhe: Detalhe) =>
      sql.query(
        `INSERT INTO rm.conta_operacional_movimentos (company_id, sequencia, tipo, valor_centavos, valor_pedagio_centavos, taxa_centavos,
         saldo_apos_centavos, referencia, origem_credito, vale_pedagio_id, motivo_estorno, registrado_em, event_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (company_id, sequencia) DO NOTHING`,
        [
          d.company_id,
          d.sequencia,
          tipo,
          valor,
          detalhe.pedagio ?? null,
          detalhe.taxa ?? null,
          d.saldo_apos_centavos,
          detalhe.referencia ?? null,
          detalhe.origem ?? null,
          detalhe.vale ?? null,
          detalhe.motivo ?? null,
          d.registrado_em,
          event.id,
        ],
      );
    switch (event.type) {
      case 'conta_operacional.credito_registrado': {
        const d = event.data;
        await insert(d, 'credito', d.valor_centavos, { referencia: d.referencia, origem: d.origem });
        return;
      }
      case 'conta_operacional.debito_registrado': {
        const d = event.data;
        await insert(d, 'debito', -d.valor_centavos, doVale(d));
        return;
      }
      case 'conta_operacional.estorno_registrado': {
        const d = event.data;
        await insert(d, 'estorno', d.valor_centavos, { ...doVale(d), motivo: d.motivo });
        return;
      }
    }
  },
};
