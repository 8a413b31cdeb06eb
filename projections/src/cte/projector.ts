import { type ProjectedEvent, type Projector, type Sql } from '../projector';
import { type EmGrupo, emCamadas, type EventoDo } from '../em-camadas';
import { projecaoDaEmissao } from '../emissao/projecao';
import { colunasDoCte } from './colunas';

const emissao = projecaoDaEmissao('rm.ctes', 'cte_id');

/** dhEmi as an instant, or null when the document wrote it in a shape Date cannot read. */
const instantOf = (text: string): Date | null => {
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** A CT-e whose use the authority denied, or whose cancellation it registered: its situation and the protocol's answer. */
async function encerrado(
  sql: Sql,
  cteId: string,
  situacao: 'denegado' | 'cancelado',
  protocolo: { cstat: number; motivo: string },
  at: Date,
): Promise<void> {
  await sql.query(`UPDATE rm.ctes SET situacao = $2, retorno = $3, updated_at = $4 WHERE cte_id = $1`, [
    cteId,
    situacao,
    JSON.stringify({ cstat: protocolo.cstat, motivo: protocolo.motivo }),
    at,
  ]);
}

/** The events of a CT-e's life not written in groups: each alone. */
async function sozinho(sql: Sql, event: ProjectedEvent): Promise<void> {
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
    case 'cte.rejeitado':
      return emissao.rejeitada(sql, event.data.cte_id, event.data, event.recordedAt);
    case 'cte.denegado':
      return encerrado(sql, event.data.cte_id, 'denegado', event.data.protocolo, event.recordedAt);
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
      if (event.data.tp_evento === '110111') await encerrado(sql, event.data.cte_id, 'cancelado', event.data.protocolo, event.recordedAt);
      // A registered CC-e: the corrections in force as the aggregate decided them (the letter's full list), not merged here.
      if (event.data.correcoes_em_vigor) {
        await sql.query(`UPDATE rm.ctes SET correcoes_em_vigor = $2, updated_at = $3 WHERE cte_id = $1`, [
          event.data.cte_id,
          JSON.stringify(event.data.correcoes_em_vigor),
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
}

const nfesDe = (events: EventoDo<'cte.autorizado'>[]) =>
  events.flatMap((e) =>
    [...new Set(e.data.cte.nfe_chaves)].map((nfe) => ({ company_id: e.data.company_id, cte_id: e.data.cte_id, nfe_chave: nfe })),
  );

/**
 * The steps every issued CT-e takes, each written for a whole layer of a batch in one statement (see `emCamadas`): a
 * block of counter-CT-e is created, requested, signed and authorized together.
 */
const emGrupo: EmGrupo = {
  'cte.contra_cte_criado': async (sql, events) => {
    await sql.query(
      `INSERT INTO rm.ctes (cte_id, company_id, origem, situacao, modelo, service_type, ambiente_documento, received_count, handoffs,
         dados, contra_cte, created_at, updated_at)
       SELECT u.cte_id, u.company_id, 'contra_cte', 'rascunho', '57', u.service_type, u.ambiente, 0, 0, u.dados, u.contra_cte, u.at, u.at
       FROM jsonb_to_recordset($1::jsonb) AS u(cte_id text, company_id text, service_type smallint, ambiente text, dados jsonb,
         contra_cte jsonb, at timestamptz)`,
      [
        JSON.stringify(
          events.map(({ data: d, recordedAt }) => ({
            cte_id: d.cte_id,
            company_id: d.company_id,
            service_type: d.vinculo.tipo_servico,
            ambiente: d.ambiente,
            dados: d.dados,
            contra_cte: d.vinculo,
            at: recordedAt,
          })),
        ),
      ],
    );
  },
  'cte.emissao_solicitada': (sql, events) =>
    emissao.solicitadas(
      sql,
      events.map((e) => ({ id: e.data.cte_id, serie: e.data.serie, at: e.recordedAt })),
    ),
  'cte.xml_assinado': async (sql, events) => {
    await sql.query(
      `UPDATE rm.ctes t SET chave = u.chave, serie = u.serie, numero = u.numero, data_emissao = u.data_emissao, emitido_em = u.emitido_em,
         updated_at = u.at
       FROM jsonb_to_recordset($1::jsonb) AS u(cte_id text, chave text, serie integer, numero bigint, data_emissao text,
         emitido_em timestamptz, at timestamptz)
       WHERE t.cte_id = u.cte_id`,
      [
        JSON.stringify(
          events.map(({ data: d, recordedAt }) => ({
            cte_id: d.cte_id,
            chave: d.chave,
            serie: d.serie,
            numero: d.numero,
            data_emissao: d.data_emissao,
            emitido_em: instantOf(d.data_emissao),
            at: recordedAt,
          })),
        ),
      ],
    );
  },
  'cte.autorizado': async (sql, events) => {
    await sql.query(
      `UPDATE rm.ctes t SET situacao = 'autorizado', chave = u.chave, xml_sha256 = u.xml_sha256,
         xml_size_bytes = u.xml_size_bytes, cte = u.cte, retorno = u.retorno,
         tomador_papel = u.tomador_papel, tomador_documento = u.tomador_documento, tomador_nome = u.tomador_nome,
         inicio_municipio = u.inicio_municipio, inicio_uf = u.inicio_uf, fim_municipio = u.fim_municipio, fim_uf = u.fim_uf,
         valor_prestacao_centavos = u.valor_prestacao_centavos, valor_receber_centavos = u.valor_receber_centavos, updated_at = u.at
       FROM jsonb_to_recordset($1::jsonb) AS u(cte_id text, chave text, xml_sha256 text, xml_size_bytes integer, cte jsonb, retorno jsonb, tomador_papel text,
         tomador_documento text, tomador_nome text, inicio_municipio text, inicio_uf text, fim_municipio text, fim_uf text,
         valor_prestacao_centavos bigint, valor_receber_centavos bigint, at timestamptz)
       WHERE t.cte_id = u.cte_id`,
      [
        JSON.stringify(
          events.map(({ data: d, recordedAt }) => ({
            cte_id: d.cte_id,
            chave: d.chave,
            xml_sha256: d.sha256,
            xml_size_bytes: d.tamanho_bytes ?? null,
            cte: d.cte,
            retorno: { cstat: d.protocolo.cstat, motivo: d.protocolo.motivo },
            ...colunasDoCte(d.cte),
            at: recordedAt,
          })),
        ),
      ],
    );
    const nfes = nfesDe(events);
    if (nfes.length === 0) return;
    await sql.query(
      `INSERT INTO rm.cte_nfe (company_id, cte_id, nfe_chave)
       SELECT company_id, cte_id, nfe_chave FROM jsonb_to_recordset($1::jsonb) AS u(company_id text, cte_id text, nfe_chave text)
       ON CONFLICT DO NOTHING`,
      [JSON.stringify(nfes)],
    );
  },
};

/** rm.ctes and rm.cte_nfe: the company's own CT-e, whatever way they came in. Every event of one CT-e is on its row. */
export const cteProjector: Projector = {
  name: 'cte',
  tables: ['rm.ctes', 'rm.cte_nfe'],
  ...emCamadas({
    linha: (e) => (e.type.startsWith('cte.') ? (e.data as { cte_id: string }).cte_id : null),
    emGrupo,
    sozinho,
  }),
};
