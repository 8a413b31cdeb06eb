import { type Projector, type Sql } from '../projector';

type Historico = { evento: string; em: string; protocolo: string | null; motivo: string | null };

/** Appends one entry to the operation's history and sets the given columns. */
async function atualizar(
  sql: Sql,
  ciotId: string,
  em: Date,
  entrada: Omit<Historico, 'em'> & { em?: string },
  set: Record<string, unknown>,
): Promise<void> {
  const cols = Object.keys(set);
  const item: Historico = {
    em: entrada.em ?? em.toISOString(),
    evento: entrada.evento,
    protocolo: entrada.protocolo,
    motivo: entrada.motivo,
  };
  await sql.query(
    `UPDATE rm.ciots SET ${cols.map((c, i) => `${c} = $${i + 4}`).join(', ')}${cols.length ? ', ' : ''}
       historico = historico || $2::jsonb, updated_at = $3 WHERE ciot_id = $1`,
    [ciotId, JSON.stringify([item]), em, ...cols.map((c) => set[c])],
  );
}

/** rm.ciots: every CIOT operation of the company, with its declaration, status, numbers and history. */
export const ciotProjector: Projector = {
  name: 'ciot',
  tables: ['rm.ciots'],
  async apply(sql, event) {
    switch (event.type) {
      case 'ciot.declarada': {
        const d = event.data;
        const x = d.declaracao;
        const historico: Historico[] = [{ evento: 'declarada', em: event.recordedAt.toISOString(), protocolo: null, motivo: null }];
        await sql.query(
          `INSERT INTO rm.ciots (ciot_id, company_id, ambiente, origem, cte_id, cte_chave, cte_sequencia, referencia_externa, status, tipo_carga,
             contratado_documento, motorista_cpf, motorista_nome, origem_codigo_ibge, origem_municipio, origem_uf, destino_codigo_ibge,
             destino_municipio, destino_uf, placas, qtd_documentos, valor_frete_centavos, peso_gramas, declaracao, historico, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'sent', $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $25)
           ON CONFLICT (ciot_id) DO NOTHING`,
          [
            d.ciot_id,
            d.company_id,
            d.ambiente,
            d.ancora ? 'cte' : 'declaracao',
            d.ancora?.cte_id ?? null,
            d.ancora?.chave ?? null,
            d.ancora?.sequencia ?? null,
            d.referencia_externa,
            x.carga.tipo,
            x.contratado.documento,
            x.motorista.cpf,
            x.motorista.nome,
            x.rota.origem.codigo_ibge,
            x.rota.origem.municipio,
            x.rota.origem.uf,
            x.rota.destino.codigo_ibge,
            x.rota.destino.municipio,
            x.rota.destino.uf,
            x.veiculos.map((v) => v.placa),
            x.documentos_fiscais.length,
            x.valores.frete_centavos,
            x.carga.peso_gramas,
            JSON.stringify(x),
            JSON.stringify(historico),
            event.recordedAt,
          ],
        );
        return;
      }
      case 'ciot.bloqueada':
        await atualizar(
          sql,
          event.data.ciot_id,
          event.recordedAt,
          { evento: 'bloqueada', protocolo: null, motivo: event.data.motivo },
          { status: 'bloqueado', motivo_codigo: event.data.codigo, motivo: event.data.motivo },
        );
        return;
      case 'ciot.pendente':
        await atualizar(
          sql,
          event.data.ciot_id,
          event.recordedAt,
          { evento: 'pendente', protocolo: event.data.protocolo, motivo: event.data.motivo },
          { motivo: event.data.motivo, protocolo: event.data.protocolo, tentativas_sem_veredito: event.data.tentativa },
        );
        return;
      case 'ciot.registrada': {
        const d = event.data;
        await atualizar(
          sql,
          d.ciot_id,
          event.recordedAt,
          { evento: 'registrada', em: d.registrada_em, protocolo: d.protocolo, motivo: null },
          {
            status: 'registrado',
            ciot: d.ciot,
            codigo_verificacao: d.codigo_verificacao,
            protocolo: d.protocolo,
            motivo: null,
            motivo_codigo: null,
            registrado_em: d.registrada_em,
          },
        );
        return;
      }
      case 'ciot.recusada':
        await atualizar(
          sql,
          event.data.ciot_id,
          event.recordedAt,
          { evento: 'recusada', protocolo: null, motivo: event.data.motivo },
          { status: 'recusado', motivo_codigo: event.data.codigo, motivo: event.data.motivo },
        );
        return;
      case 'ciot.viagem_iniciada':
        await atualizar(
          sql,
          event.data.ciot_id,
          event.recordedAt,
          { evento: 'viagem_iniciada', em: event.data.iniciada_em, protocolo: null, motivo: null },
          { viagem_iniciada_em: event.data.iniciada_em },
        );
        return;
      case 'ciot.cancelada': {
        const d = event.data;
        await atualizar(
          sql,
          d.ciot_id,
          event.recordedAt,
          { evento: 'cancelada', em: d.cancelada_em, protocolo: d.protocolo, motivo: d.justificativa },
          { status: 'cancelado', protocolo: d.protocolo, cancelado_em: d.cancelada_em, justificativa_cancelamento: d.justificativa },
        );
        return;
      }
      case 'ciot.retificada': {
        const d = event.data;
        const x = d.declaracao;
        const { rows } = await sql.query('SELECT retificacoes FROM rm.ciots WHERE ciot_id = $1', [d.ciot_id]);
        if (!rows[0]) return;
        await atualizar(
          sql,
          d.ciot_id,
          event.recordedAt,
          { evento: 'retificada', em: d.retificada_em, protocolo: d.protocolo, motivo: null },
          {
            status: 'retificado',
            protocolo: d.protocolo,
            retificacoes: Number(rows[0].retificacoes) + 1,
            declaracao: JSON.stringify(x),
            motorista_cpf: x.motorista.cpf,
            motorista_nome: x.motorista.nome,
            placas: x.veiculos.map((v) => v.placa),
            valor_frete_centavos: x.valores.frete_centavos,
            peso_gramas: x.carga.peso_gramas,
          },
        );
        return;
      }
      case 'ciot.encerrada': {
        const d = event.data;
        await atualizar(
          sql,
          d.ciot_id,
          event.recordedAt,
          { evento: 'encerrada', em: d.encerrada_em, protocolo: d.protocolo, motivo: null },
          { status: 'encerrado', protocolo: d.protocolo, encerrado_em: d.encerrada_em, peso_entregue_gramas: d.peso_entregue_gramas },
        );
        return;
      }
    }
  },
};
