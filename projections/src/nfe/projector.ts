import { type NfeArquivoRecebido, type NfeLida } from '@frete/contracts';
import { accessKeyParts, ufByCode } from '@frete/domain';
import { type Projector, type Sql } from '../projector';
import { searchable } from '../search';

/** The columns an XML fills (or replaces): everything read from it, and the archived file. */
function xmlColumns(nfe: NfeLida, arquivo: NfeArquivoRecebido): Record<string, unknown> {
  return {
    xml_disponivel: true,
    modelo: nfe.modelo,
    serie: nfe.serie,
    numero: nfe.numero,
    uf: ufByCode(nfe.chave.slice(0, 2))?.sigla ?? null,
    data_emissao: nfe.data_emissao,
    ambiente_documento: nfe.ambiente,
    natureza_operacao: nfe.natureza_operacao,
    emitente_documento: nfe.emitente.documento ?? accessKeyParts(nfe.chave).emitente,
    emitente_tipo_documento: nfe.emitente.tipo_documento,
    emitente_nome: nfe.emitente.nome,
    emitente_busca: searchable(nfe.emitente.nome),
    emitente_uf: nfe.emitente.endereco?.uf ?? null,
    emitente_municipio: nfe.emitente.endereco?.municipio ?? null,
    destinatario_documento: nfe.destinatario?.documento ?? null,
    destinatario_nome: nfe.destinatario?.nome ?? null,
    destinatario_busca: searchable(nfe.destinatario?.nome),
    valor_total_centavos: nfe.valor_total_centavos,
    protocolo_numero: nfe.protocolo?.numero ?? null,
    protocolo_status: nfe.protocolo?.status ?? null,
    xml_sha256: arquivo.sha256,
    xml_arquivo: JSON.stringify(arquivo),
    nfe: JSON.stringify(nfe),
  };
}

/** What the key alone tells (positions: cUF, AAMM, issuer CNPJ, model, series, number). */
function keyColumns(chave: string): Record<string, unknown> {
  const k = accessKeyParts(chave);
  return {
    xml_disponivel: false,
    modelo: k.modelo,
    serie: k.serie,
    numero: k.numero,
    uf: ufByCode(k.cUF)?.sigla ?? null,
    emitente_documento: k.emitente,
    emitente_uf: ufByCode(k.cUF)?.sigla ?? null,
  };
}

/** `origem` is the first arrival's: written by the insert, kept by a later one (a key read from a PDF keeps `importacao`). */
async function upsert(
  sql: Sql,
  key: { company_id: string; chave: string },
  columns: Record<string, unknown>,
  at: Date,
  origem: 'importacao' | 'distribuicao' = 'importacao',
): Promise<void> {
  const names = Object.keys(columns);
  const params = [key.company_id, key.chave, ...Object.values(columns), at, origem];
  const at$ = `$${params.length - 1}`;
  await sql.query(
    `INSERT INTO rm.nfes (company_id, chave, ${names.join(', ')}, recebimentos, importada_em, atualizada_em, origem)
     VALUES ($1, $2, ${names.map((_, i) => `$${i + 3}`).join(', ')}, 1, ${at$}, ${at$}, $${params.length})
     ON CONFLICT (company_id, chave) DO UPDATE SET ${names.map((n) => `${n} = EXCLUDED.${n}`).join(', ')},
       recebimentos = rm.nfes.recebimentos + 1, atualizada_em = EXCLUDED.atualizada_em`,
    params,
  );
}

async function update(sql: Sql, key: { company_id: string; chave: string }, columns: Record<string, unknown>, at: Date): Promise<void> {
  const names = Object.keys(columns);
  const params = [key.company_id, key.chave, at, ...Object.values(columns)];
  await sql.query(
    `UPDATE rm.nfes SET ${names.map((n, i) => `${n} = $${i + 4}, `).join('')}recebimentos = recebimentos + 1, atualizada_em = $3
      WHERE company_id = $1 AND chave = $2`,
    params,
  );
}

/** rm.nfes: the NF-e each company imported, by XML or by the key of a PDF. */
export const nfeProjector: Projector = {
  name: 'nfe',
  tables: ['rm.nfes'],
  async apply(sql, event) {
    switch (event.type) {
      case 'nfe.importada':
        // A key-only row keeps its first receipt time and its PDF; the XML fills the rest.
        await upsert(sql, event.data, xmlColumns(event.data.nfe, event.data.arquivo), event.recordedAt, event.data.canal ?? 'importacao');
        return;
      case 'nfe.chave_importada':
        await upsert(
          sql,
          event.data,
          {
            ...keyColumns(event.data.chave),
            pdf_sha256: event.data.arquivo.sha256,
            pdf_arquivo: JSON.stringify(event.data.arquivo),
          },
          event.recordedAt,
        );
        return;
      case 'nfe.reimportada': {
        const d = event.data;
        const columns =
          d.substituiu_xml && d.nfe
            ? xmlColumns(d.nfe, d.arquivo)
            : d.origem === 'pdf'
              ? { pdf_sha256: d.arquivo.sha256, pdf_arquivo: JSON.stringify(d.arquivo) }
              : {};
        await update(sql, d, columns, event.recordedAt);
        return;
      }
      case 'nfe.removida':
        await sql.query(`DELETE FROM rm.nfes WHERE company_id = $1 AND chave = $2`, [event.data.company_id, event.data.chave]);
        return;
    }
  },
};
