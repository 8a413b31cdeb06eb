import { type Projector } from '../projector';

export const certificadoProjector: Projector = {
  name: 'certificado',
  tables: ['rm.certificados'],
  async apply(sql, event) {
    switch (event.type) {
      case 'certificado.enviado': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.certificados (company_id, blob_id, sha256, nome_arquivo, titular, cnpj, emissor, serial, valido_de, valido_ate, enviado_em)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
           ON CONFLICT (company_id) DO UPDATE SET blob_id = EXCLUDED.blob_id, sha256 = EXCLUDED.sha256,
             nome_arquivo = EXCLUDED.nome_arquivo, titular = EXCLUDED.titular, cnpj = EXCLUDED.cnpj,
             emissor = EXCLUDED.emissor, serial = EXCLUDED.serial, valido_de = EXCLUDED.valido_de,
             valido_ate = EXCLUDED.valido_ate, enviado_em = EXCLUDED.enviado_em`,
          [
            d.company_id,
            d.blob_id,
            d.sha256,
            d.nome_arquivo,
            d.titular,
            d.cnpj,
            d.emissor,
            d.serial,
            d.valido_de,
            d.valido_ate,
            event.recordedAt,
          ],
        );
        return;
      }
      case 'certificado.removido':
        await sql.query(`DELETE FROM rm.certificados WHERE company_id = $1 AND blob_id = $2`, [event.data.company_id, event.data.blob_id]);
        return;
    }
  },
};
