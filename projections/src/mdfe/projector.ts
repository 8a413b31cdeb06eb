import { type Projector } from '../projector';
import { projecaoDaEmissao } from '../emissao/projecao';

const emissao = projecaoDaEmissao('rm.mdfes', 'mdfe_id');

/** rm.mdfes and rm.mdfe_ctes: the company's MDF-e. */
export const mdfeProjector: Projector = {
  name: 'mdfe',
  tables: ['rm.mdfes', 'rm.mdfe_ctes'],
  async apply(sql, event) {
    switch (event.type) {
      case 'mdfe.criado': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.mdfes (mdfe_id, company_id, ambiente, situacao, dados, condutores, created_at, updated_at)
           VALUES ($1, $2, $3, 'rascunho', $4, $5, $6, $6) ON CONFLICT (mdfe_id) DO NOTHING`,
          [d.mdfe_id, d.company_id, d.ambiente, JSON.stringify(d.dados), JSON.stringify(d.dados.motoristas), event.recordedAt],
        );
        for (const c of d.dados.ctes) {
          await sql.query('INSERT INTO rm.mdfe_ctes (company_id, mdfe_id, cte_id, chave) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
            d.company_id,
            d.mdfe_id,
            c.cte_id,
            c.chave,
          ]);
        }
        return;
      }
      case 'mdfe.emissao_solicitada':
        return emissao.solicitadas(sql, [{ id: event.data.mdfe_id, serie: event.data.serie, at: event.recordedAt }]);
      case 'mdfe.xml_assinado': {
        const d = event.data;
        await sql.query('UPDATE rm.mdfes SET chave = $2, serie = $3, numero = $4, data_emissao = $5, updated_at = $6 WHERE mdfe_id = $1', [
          d.mdfe_id,
          d.chave,
          d.serie,
          d.numero,
          d.data_emissao,
          event.recordedAt,
        ]);
        return;
      }
      case 'mdfe.autorizado': {
        const d = event.data;
        await sql.query(
          `UPDATE rm.mdfes SET situacao = 'autorizado', chave = $2, xml_sha256 = $3, protocolo = $4, retorno = $5, updated_at = $6 WHERE mdfe_id = $1`,
          [
            d.mdfe_id,
            d.chave,
            d.sha256,
            JSON.stringify(d.protocolo),
            JSON.stringify({ cstat: d.protocolo.cstat, motivo: d.protocolo.motivo }),
            event.recordedAt,
          ],
        );
        return;
      }
      case 'mdfe.rejeitado':
        return emissao.rejeitada(sql, event.data.mdfe_id, event.data, event.recordedAt);
      case 'mdfe.resultado_pendente':
        return emissao.pendente(sql, event.data.mdfe_id, event.data.motivo, event.recordedAt);
      case 'mdfe.evento_pendente':
      case 'mdfe.evento_registrado':
      case 'mdfe.evento_rejeitado': {
        const d = event.data;
        const { rows } = await sql.query('SELECT eventos, condutores FROM rm.mdfes WHERE mdfe_id = $1', [d.mdfe_id]);
        if (!rows[0]) return;
        const eventos = (rows[0].eventos as { tp_evento: string; n_seq: number }[]).filter(
          (e) => !(e.tp_evento === d.tp_evento && e.n_seq === d.n_seq),
        );
        let condutores = rows[0].condutores as { cpf: string; nome: string }[];
        let situacao: string | null = null;
        let item: Record<string, unknown>;
        if (event.type === 'mdfe.evento_registrado') {
          const e = event.data;
          item = {
            tipo: e.tipo,
            tp_evento: e.tp_evento,
            n_seq: e.n_seq,
            situacao: 'registrado',
            protocolo: e.protocolo,
            retorno: { cstat: e.protocolo.cstat, motivo: e.protocolo.motivo },
            dados: e.dados,
            sha256: e.sha256,
          };
          if (e.tipo === 'cancelamento') situacao = 'cancelado';
          if (e.tipo === 'encerramento') situacao = 'encerrado';
          const c = e.dados.condutor;
          if (e.tipo === 'condutor' && c && !condutores.some((x) => x.cpf === c.cpf)) condutores = [...condutores, c];
        } else if (event.type === 'mdfe.evento_pendente') {
          const e = event.data;
          item = {
            tipo: e.tipo,
            tp_evento: e.tp_evento,
            n_seq: e.n_seq,
            situacao: 'pendente',
            protocolo: null,
            retorno: { cstat: null, motivo: e.motivo },
            dados: e.dados,
            sha256: null,
          };
        } else {
          const e = event.data;
          item = {
            tipo: e.tipo,
            tp_evento: e.tp_evento,
            n_seq: e.n_seq,
            situacao: 'rejeitado',
            protocolo: null,
            retorno: { cstat: e.cstat, motivo: e.motivo },
            dados: e.dados,
            sha256: null,
          };
        }
        await sql.query(
          'UPDATE rm.mdfes SET eventos = $2, condutores = $3, situacao = COALESCE($4, situacao), updated_at = $5 WHERE mdfe_id = $1',
          [d.mdfe_id, JSON.stringify([...eventos, item]), JSON.stringify(condutores), situacao, event.recordedAt],
        );
        return;
      }
    }
  },
};
