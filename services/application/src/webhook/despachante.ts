import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { type ConfigWebhooks, PeriodicLoop } from '@frete/platform';
import { DestinoRecusado, liberado, lookupSeguro, verificarDestino } from './destino';
import { type EntregaReivindicada, type EntregasWebhook, type ResultadoTentativa } from './entregas';
import { type SegredosWebhook } from './segredos';

/** What of an answer is logged: its first characters. The rest is read only up to `LEITURA_MAX` and dropped. */
export const RESPOSTA_MAX = 1024;
const LEITURA_MAX = 64 * 1024;

export interface DespachanteDeps {
  entregas: EntregasWebhook;
  segredos: SegredosWebhook;
  config: ConfigWebhooks;
  clock: () => Date;
  /** Disables an endpoint that failed for a whole window (appends `webhook.desativado`). */
  desativar: (companyId: string, webhookId: string, motivo: string, causa: string) => Promise<void>;
  onError?: (err: unknown) => void;
  random?: () => number;
}

/** A window as people read it: `3 days`, `6 h`, `90 s`. */
export const duracao = (ms: number): string =>
  ms >= 86_400_000 && ms % 86_400_000 === 0
    ? `${ms / 86_400_000} days`
    : ms >= 3_600_000
      ? `${Math.round(ms / 360_000) / 10} h`
      : `${Math.round(ms / 100) / 10} s`;

/** The pause before attempt n + 1 after n failures: exponential, capped, with jitter (a factor in [0.5, 1]). */
export function pausaDepois(falhas: number, config: Pick<ConfigWebhooks, 'retryBaseMs' | 'retryMaxMs'>, random: () => number): number {
  const teto = Math.min(config.retryMaxMs, config.retryBaseMs * 2 ** Math.min(falhas - 1, 40));
  return Math.round(teto * (0.5 + random() / 2));
}

/**
 * Sends due deliveries, apart from the webhooks processor (which only records them) and from everything else: a loop of
 * its own, at most `concurrency` requests in flight (and `concurrencyPerEndpoint` per endpoint), each bounded by
 * `timeoutMs`. A slow or dead receiver costs only its own slots. At least once: a claim is a lease, and a crash before
 * the outcome is written lets the delivery be claimed again once it passes.
 */
export class DespachanteWebhooks {
  private readonly laco: PeriodicLoop;
  private readonly emVoo = new Map<string, number>();
  private total = 0;
  private readonly envios = new Set<Promise<void>>();
  private readonly random: () => number;

  constructor(private readonly deps: DespachanteDeps) {
    this.random = deps.random ?? Math.random;
    this.laco = new PeriodicLoop(() => this.rodada(), deps.config.pollMs, deps.onError);
  }

  start(): void {
    this.laco.start();
  }

  async stop(): Promise<void> {
    await this.laco.stop();
    await Promise.allSettled([...this.envios]);
  }

  /** One look for due deliveries; what it claims is sent in the background. */
  async rodada(): Promise<void> {
    const { config, entregas, clock } = this.deps;
    const livres = config.concurrency - this.total;
    if (livres <= 0) return;
    const leaseMs = config.timeoutMs * 2 + 30_000;
    const claimed = await entregas.reivindicar(clock(), livres, leaseMs, (w) => config.concurrencyPerEndpoint - (this.emVoo.get(w) ?? 0));
    for (const e of claimed) {
      this.emVoo.set(e.webhook_id, (this.emVoo.get(e.webhook_id) ?? 0) + 1);
      this.total++;
      const envio = this.entregar(e)
        .catch((err: unknown) => this.deps.onError?.(err))
        .finally(() => {
          const n = (this.emVoo.get(e.webhook_id) ?? 1) - 1;
          if (n <= 0) this.emVoo.delete(e.webhook_id);
          else this.emVoo.set(e.webhook_id, n);
          this.total--;
          this.envios.delete(envio);
        });
      this.envios.add(envio);
    }
  }

  private async entregar(e: EntregaReivindicada): Promise<void> {
    const { config, entregas, clock } = this.deps;
    const resultado = await this.tentar(e);
    const sucesso = resultado.status_http !== null && resultado.status_http >= 200 && resultado.status_http < 300;
    let proxima: Date | null = null;
    const agora = clock();
    if (!sucesso) {
      const pausa = pausaDepois(e.tentativas + 1, config, this.random);
      const fim = e.janela_desde.getTime() + config.janelaMs;
      if (agora.getTime() + pausa < fim) proxima = new Date(agora.getTime() + pausa);
    }
    await entregas.registrarTentativa(e, resultado, sucesso, proxima);
    // Exhausted: the endpoint is disabled when nothing reached it during the whole window of this delivery.
    if (!sucesso && proxima === null && !(await entregas.entregouDesde(e.webhook_id, e.janela_desde))) {
      await this.deps.desativar(
        e.company_id,
        e.webhook_id,
        `every delivery failed for ${duracao(config.janelaMs)} (last: ${resultado.erro ?? `HTTP ${resultado.status_http}`})`,
        e.id,
      );
    }
  }

  /** One signed POST; never throws (the outcome says what went wrong). */
  private async tentar(e: EntregaReivindicada): Promise<ResultadoTentativa> {
    const { config, segredos, clock } = this.deps;
    const iniciada_em = clock();
    const inicio = process.hrtime.bigint();
    const fim = (parcial: Omit<ResultadoTentativa, 'iniciada_em' | 'duracao_ms'>): ResultadoTentativa => ({
      iniciada_em,
      duracao_ms: Number((process.hrtime.bigint() - inicio) / 1_000_000n),
      ...parcial,
    });
    try {
      const url = await verificarDestino(e.url, config.allowedHosts);
      const segredo = await segredos.abrir(e.company_id, e.webhook_id, e.segredo_versao);
      if (!segredo) return fim({ status_http: null, resposta: null, erro: 'the signing secret is missing' });
      const corpo = JSON.stringify(e.payload);
      const assinatura = new Webhook(segredo).sign(e.id, iniciada_em, corpo);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'frete-fiscal-webhooks/1',
        'webhook-id': e.id,
        'webhook-timestamp': String(Math.floor(iniciada_em.getTime() / 1000)),
        'webhook-signature': assinatura,
      };
      const { status, texto } = await postar(url, corpo, headers, config.timeoutMs, !liberado(url, config.allowedHosts));
      return fim({ status_http: status, resposta: texto.slice(0, RESPOSTA_MAX), erro: null });
    } catch (err) {
      const erro =
        err instanceof DestinoRecusado
          ? `target refused: ${err.message}`
          : err instanceof Error
            ? `${(err as NodeJS.ErrnoException).code ?? err.name}: ${err.message}`
            : String(err);
      return fim({ status_http: null, resposta: null, erro: erro.slice(0, RESPOSTA_MAX) });
    }
  }
}

/** POSTs and reads the answer (up to `LEITURA_MAX`), all within `timeoutMs`; redirects are not followed. */
function postar(
  url: URL,
  corpo: string,
  headers: Record<string, string>,
  timeoutMs: number,
  seguro: boolean,
): Promise<{ status: number; texto: string }> {
  return new Promise((resolve, reject) => {
    const signal = AbortSignal.timeout(timeoutMs);
    const options: https.RequestOptions = {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(corpo)) },
      signal,
      agent: false,
      ...(seguro ? { lookup: lookupSeguro as unknown as https.RequestOptions['lookup'] } : {}),
    };
    const req = (url.protocol === 'https:' ? https : http).request(url, options, (res) => {
      const partes: Buffer[] = [];
      let lidos = 0;
      res.on('data', (chunk: Buffer) => {
        if (lidos < LEITURA_MAX) partes.push(chunk);
        lidos += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, texto: Buffer.concat(partes).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', (err) =>
      reject(signal.aborted ? Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'TIMEOUT' }) : err),
    );
    req.end(corpo);
  });
}
