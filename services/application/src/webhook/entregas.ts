import { randomUUID } from 'node:crypto';
import { type Pool } from 'pg';
import { type EntregaStatus, type EntregaWebhook, type TentativaEntrega, type WebhookPayload } from '@frete/contracts';

/** A delivery to record: one endpoint × one notification. */
export interface NovaEntrega {
  id: string;
  company_id: string;
  webhook_id: string;
  evento_id: string;
  tipo: string;
  recurso: string;
  payload: WebhookPayload;
  criada_em: Date;
}

/** A delivery the dispatcher claimed, with what sending it needs. */
export interface EntregaReivindicada {
  id: string;
  company_id: string;
  webhook_id: string;
  tipo: string;
  payload: WebhookPayload;
  tentativas: number;
  janela_desde: Date;
  url: string;
  segredo_versao: number;
}

export interface ResultadoTentativa {
  iniciada_em: Date;
  status_http: number | null;
  resposta: string | null;
  erro: string | null;
  duracao_ms: number;
}

interface EntregaRow {
  id: string;
  webhook_id: string;
  tipo: string;
  evento_id: string;
  status: EntregaStatus;
  tentativas: number;
  proxima_em: Date | null;
  criada_em: Date;
  entregue_em: Date | null;
  ultimo_status_http: number | null;
  ultima_resposta: string | null;
  ultimo_erro: string | null;
  ultima_duracao_ms: number | null;
  payload: WebhookPayload;
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

const toEntrega = (r: EntregaRow): EntregaWebhook => ({
  id: r.id,
  webhook_id: r.webhook_id,
  tipo: r.tipo,
  evento_id: r.evento_id,
  status: r.status,
  tentativas: r.tentativas,
  proxima_tentativa_em: r.status === 'pendente' ? iso(r.proxima_em) : null,
  criada_em: r.criada_em.toISOString(),
  entregue_em: iso(r.entregue_em),
  ultimo_status_http: r.ultimo_status_http,
  ultima_resposta: r.ultima_resposta,
  ultimo_erro: r.ultimo_erro,
  ultima_duracao_ms: r.ultima_duracao_ms,
  payload: r.payload,
});

const COLUMNS = `id, webhook_id, tipo, evento_id, status, tentativas, proxima_em, criada_em, entregue_em, ultimo_status_http,
  ultima_resposta, ultimo_erro, ultima_duracao_ms, payload`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The deliveries and their attempts (platform tables `webhook_entregas`, `webhook_tentativas`). */
export class EntregasWebhook {
  constructor(private readonly pool: Pool) {}

  /** Records deliveries; one already recorded for the endpoint, event and type is left as it is. */
  async registrar(entregas: NovaEntrega[]): Promise<void> {
    if (entregas.length === 0) return;
    await this.pool.query(
      `INSERT INTO webhook_entregas (id, company_id, webhook_id, evento_id, tipo, recurso, payload, criada_em, janela_desde, proxima_em)
       SELECT u.id, u.company_id, u.webhook_id, u.evento_id, u.tipo, u.recurso, u.payload, u.criada_em, u.criada_em, u.criada_em
         FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::timestamptz[])
              AS u (id, company_id, webhook_id, evento_id, tipo, recurso, payload, criada_em)
       ON CONFLICT (webhook_id, evento_id, tipo) DO NOTHING`,
      [
        entregas.map((e) => e.id),
        entregas.map((e) => e.company_id),
        entregas.map((e) => e.webhook_id),
        entregas.map((e) => e.evento_id),
        entregas.map((e) => e.tipo),
        entregas.map((e) => e.recurso),
        entregas.map((e) => JSON.stringify(e.payload)),
        entregas.map((e) => e.criada_em),
      ],
    );
  }

  /**
   * Claims due deliveries of active endpoints, oldest first, for `leaseMs`: none while an earlier one of the same endpoint
   * and resource is pending (in order per resource), and at most `vagas(webhook)` per endpoint. Rows another dispatcher
   * holds are skipped, not waited for.
   */
  async reivindicar(agora: Date, limite: number, leaseMs: number, vagas: (webhookId: string) => number): Promise<EntregaReivindicada[]> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<EntregaReivindicada>(
        `SELECT e.id, e.company_id, e.webhook_id, e.tipo, e.payload, e.tentativas, e.janela_desde, w.url, w.segredo_versao
           FROM webhook_entregas e
           JOIN rm.webhooks w ON w.webhook_id = e.webhook_id AND w.ativo AND w.removido_em IS NULL
          WHERE e.status = 'pendente' AND e.proxima_em <= $1 AND (e.bloqueada_ate IS NULL OR e.bloqueada_ate <= $1)
            AND NOT EXISTS (SELECT 1 FROM webhook_entregas p
                             WHERE p.webhook_id = e.webhook_id AND p.recurso = e.recurso AND p.status = 'pendente' AND p.seq < e.seq)
          ORDER BY e.proxima_em, e.seq
          LIMIT $2
          FOR UPDATE OF e SKIP LOCKED`,
        [agora, limite * 4],
      );
      const usadas = new Map<string, number>();
      const escolhidas = rows.filter((r) => {
        const n = usadas.get(r.webhook_id) ?? 0;
        if (n >= vagas(r.webhook_id)) return false;
        usadas.set(r.webhook_id, n + 1);
        return true;
      });
      const levadas = escolhidas.slice(0, limite);
      if (levadas.length > 0) {
        await client.query(`UPDATE webhook_entregas SET bloqueada_ate = $2 WHERE id = ANY ($1::uuid[])`, [
          levadas.map((r) => r.id),
          new Date(agora.getTime() + leaseMs),
        ]);
      }
      await client.query('COMMIT');
      return levadas;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * Logs an attempt and moves the delivery on: `entregue`, pending again at `proxima` or, with `proxima` null after a
   * failure, `falhou` (its window is over).
   */
  async registrarTentativa(entrega: EntregaReivindicada, r: ResultadoTentativa, sucesso: boolean, proxima: Date | null): Promise<void> {
    const numero = entrega.tentativas + 1;
    const status: EntregaStatus = sucesso ? 'entregue' : proxima ? 'pendente' : 'falhou';
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO webhook_tentativas (entrega_id, numero, iniciada_em, status_http, resposta, erro, duracao_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (entrega_id, numero) DO NOTHING`,
        [entrega.id, numero, r.iniciada_em, r.status_http, r.resposta, r.erro, r.duracao_ms],
      );
      // A delivery ended meanwhile (its endpoint removed) stays ended; the attempt is logged all the same.
      await client.query(
        `UPDATE webhook_entregas SET status = $2, tentativas = $3, proxima_em = $4, bloqueada_ate = NULL,
                entregue_em = CASE WHEN $5 THEN $6::timestamptz ELSE entregue_em END,
                ultimo_status_http = $7, ultima_resposta = $8, ultimo_erro = $9, ultima_duracao_ms = $10
          WHERE id = $1 AND status = 'pendente'`,
        [
          entrega.id,
          status,
          numero,
          sucesso ? null : proxima,
          sucesso,
          new Date(r.iniciada_em.getTime() + r.duracao_ms),
          r.status_http,
          r.resposta,
          r.erro,
          r.duracao_ms,
        ],
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /** Whether the endpoint had a delivery accepted at or after `desde`. */
  async entregouDesde(webhookId: string, desde: Date): Promise<boolean> {
    const { rows } = await this.pool.query(`SELECT 1 FROM webhook_entregas WHERE webhook_id = $1 AND entregue_em >= $2 LIMIT 1`, [
      webhookId,
      desde,
    ]);
    return rows.length > 0;
  }

  /** A removed endpoint's pending deliveries end as failed, with the reason. */
  async encerrar(webhookId: string, motivo: string): Promise<void> {
    await this.pool.query(
      `UPDATE webhook_entregas SET status = 'falhou', proxima_em = NULL, bloqueada_ate = NULL, ultimo_erro = $2
        WHERE webhook_id = $1 AND status = 'pendente'`,
      [webhookId, motivo],
    );
  }

  /** A re-enabled endpoint's pending deliveries start a new window, due now. */
  async retomar(webhookId: string, agora: Date): Promise<void> {
    await this.pool.query(
      `UPDATE webhook_entregas SET proxima_em = $2, janela_desde = $2, bloqueada_ate = NULL WHERE webhook_id = $1 AND status = 'pendente'`,
      [webhookId, agora],
    );
  }

  /** Sends a delivery again, due now, with a new retry window; false when the company has no such delivery. */
  async reenviar(companyId: string, webhookId: string, entregaId: string, agora: Date): Promise<boolean> {
    if (!UUID.test(entregaId)) return false;
    const r = await this.pool.query(
      // An attempt in flight keeps its lease: the delivery is not sent twice at once.
      `UPDATE webhook_entregas SET status = 'pendente', proxima_em = $4, janela_desde = $4
        WHERE id = $1 AND webhook_id = $2 AND company_id = $3`,
      [entregaId, webhookId, companyId, agora],
    );
    return (r.rowCount ?? 0) > 0;
  }

  async listar(
    companyId: string,
    webhookId: string,
    f: { status?: EntregaStatus; page: number; per_page: number },
  ): Promise<{ rows: EntregaWebhook[]; total: number }> {
    const where = `company_id = $1 AND webhook_id = $2 AND ($3::text IS NULL OR status = $3)`;
    const params = [companyId, webhookId, f.status ?? null];
    const [{ rows }, count] = await Promise.all([
      this.pool.query<EntregaRow>(`SELECT ${COLUMNS} FROM webhook_entregas WHERE ${where} ORDER BY seq DESC LIMIT $4 OFFSET $5`, [
        ...params,
        f.per_page,
        (f.page - 1) * f.per_page,
      ]),
      this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_entregas WHERE ${where}`, params),
    ]);
    return { rows: rows.map(toEntrega), total: Number(count.rows[0]!.n) };
  }

  /** One delivery with every attempt, or null (another company's, another endpoint's, or none). */
  async ler(companyId: string, webhookId: string, entregaId: string): Promise<EntregaWebhook | null> {
    if (!UUID.test(entregaId)) return null;
    const { rows } = await this.pool.query<EntregaRow>(
      `SELECT ${COLUMNS} FROM webhook_entregas WHERE id = $1 AND webhook_id = $2 AND company_id = $3`,
      [entregaId, webhookId, companyId],
    );
    if (!rows[0]) return null;
    const tentativas = await this.pool.query<{
      numero: number;
      iniciada_em: Date;
      status_http: number | null;
      resposta: string | null;
      erro: string | null;
      duracao_ms: number;
    }>(
      `SELECT numero, iniciada_em, status_http, resposta, erro, duracao_ms FROM webhook_tentativas WHERE entrega_id = $1 ORDER BY numero`,
      [entregaId],
    );
    const historico: TentativaEntrega[] = tentativas.rows.map((t) => ({ ...t, iniciada_em: t.iniciada_em.toISOString() }));
    return { ...toEntrega(rows[0]), historico };
  }

  /** A test delivery for the endpoint (`webhook.teste`), due now. */
  async teste(companyId: string, webhookId: string, payload: WebhookPayload, agora: Date): Promise<string> {
    const id = randomUUID();
    await this.registrar([
      {
        id,
        company_id: companyId,
        webhook_id: webhookId,
        evento_id: id,
        tipo: payload.type,
        recurso: `teste-${id}`,
        payload,
        criada_em: agora,
      },
    ]);
    return id;
  }
}
