import https from 'node:https';
import { type AddressInfo, type Socket } from 'node:net';
import { type Pool } from 'pg';
import {
  AmbienteNacionalSimulado,
  type AutoridadeFiscal,
  AutoridadeFiscalSimulada,
  type ModeloFiscal,
  modeloDoServico,
  VER_APLIC_SIMULADA,
} from '@frete/adapters';
import { FiscalSchemas } from '@frete/documents';
import { Falhas } from './falhas/falhas';
import { SEDE, ufsAtendidas } from './rotas/autorizadores';
import { type Rota } from './rotas/caminhos';
import { tratadorHttp } from './rotas/http';
import { type Balcao } from './servicos';

/**
 * The local authority server: the authorities' SOAP 1.2 web services at their paths, over HTTPS with client
 * certificates, in front of the same rules the sandbox applies in process (`AutoridadeFiscalSimulada`). One
 * implementation of the rules, two front doors: what an integrator (or the `sefaz` adapter) rehearses here is what
 * the simulated authority decides, never a copy of it.
 */

export interface AutoridadeLocalOptions {
  /** The simulated authority's database (its tables come with the platform's migrations). */
  pool: Pool;
  /** A shared validator; one of its own otherwise, stopped by `close()`. */
  schemas?: FiscalSchemas;
  clock?: () => Date;
  tls: {
    /** The server's private key and certificate (PEM; the certificate may be followed by its chain). */
    key: string;
    cert: string;
    /** The CAs whose client certificates (the carriers' A1) it accepts, PEM (a bundle, or several). */
    clientCa: string | readonly string[];
  };
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port (see `url`). */
  port?: number;
  /** The environment it plays: homologação (2, the default) or produção (1). */
  tpAmb?: 1 | 2;
  /** Where the server reports what went wrong (a request that failed inside); console.error by default. */
  log?: (mensagem: string) => void;
}

export interface AutoridadeLocal {
  /** `https://<host>:<port>`: a client's `SEFAZ_BASE_URL` (`<url>/<authorizer>/<Service>`). */
  url: string;
  port: number;
  /** The fault rules in force: `falhas.programar({...})`, `falhas.limpar()` (also over `/_falhas`). */
  falhas: Falhas;
  /**
   * The national environment behind `/AN/CTeDistribuicaoDFe` and `/AN/NFeDistribuicaoDFe`: it distributes what the
   * server's authorities authorize and register; `registrarNfe` (also `POST /_ambiente-nacional/nfe`) adds an NF-e.
   */
  ambienteNacional: AmbienteNacionalSimulado;
  /** The requests that reached each service, by `<authorizer>/<Service>` (a refused certificate reaches none). */
  atendidos(): Record<string, number>;
  /** Stops listening, drops open connections (and pending latencies), then the validator when it is its own. */
  close(): Promise<void>;
}

/** How long `close()` waits for the requests in flight. */
const GRACA_MS = 5_000;

export async function iniciarAutoridadeLocal(o: AutoridadeLocalOptions): Promise<AutoridadeLocal> {
  const tpAmb = o.tpAmb ?? 2;
  const agora = o.clock ?? (() => new Date());
  const schemas = o.schemas ?? new FiscalSchemas();
  const falhas = new Falhas();
  const log = o.log ?? ((m: string) => console.error(m));
  // One national environment for every authorizer: what any of them authorizes is distributed from one place.
  const ambienteNacional = new AmbienteNacionalSimulado({ pool: o.pool, clock: agora, tpAmb });

  // One simulated authority per authorizer and model, each serving its own UFs (226 for others), sharing the
  // database and the validator: the state is one, as the authorities share theirs.
  const balcoes = new Map<string, Balcao>();
  const balcao = (rota: Rota): Balcao => {
    const modelo: ModeloFiscal = modeloDoServico(rota.servico);
    const chave = `${rota.autorizador}:${modelo}`;
    let b = balcoes.get(chave);
    if (!b) {
      const simulada = new AutoridadeFiscalSimulada({
        pool: o.pool,
        schemas,
        clock: agora,
        tpAmb,
        ufsAtendidas: ufsAtendidas(rota.autorizador, modelo),
        ambienteNacional,
      });
      const autoridade: AutoridadeFiscal = simulada;
      b = { autoridade, simulada, schemas, agora, cabecalho: { tpAmb, cUF: SEDE[rota.autorizador], verAplic: VER_APLIC_SIMULADA } };
      balcoes.set(chave, b);
    }
    return b;
  };

  const contagem = new Map<string, number>();
  const esperas = new Set<() => void>();
  const esperar = (ms: number) =>
    new Promise<void>((resolve) => {
      const fim = () => {
        clearTimeout(timer);
        esperas.delete(fim);
        resolve();
      };
      const timer = setTimeout(fim, ms);
      esperas.add(fim);
    });

  const server = https.createServer(
    {
      key: o.tls.key,
      cert: o.tls.cert,
      ca: typeof o.tls.clientCa === 'string' ? o.tls.clientCa : [...o.tls.clientCa],
      // The client certificate is required and verified against `ca` in the handshake: a client without one, or with
      // one the CAs did not issue, gets a TLS alert and never reaches a service. TLS 1.2 (as the authorities serve)
      // decides that before the client sends its request, so the client knows nothing was sent.
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
      maxVersion: 'TLSv1.2',
      // A whole request (2 MB at most) within this; slower clients are cut off.
      requestTimeout: 60_000,
    },
    tratadorHttp({
      balcao,
      falhas,
      esperar,
      log,
      distribuicao: { ambiente: ambienteNacional, schemas, agora, tpAmb },
      contar: (rota) =>
        void contagem.set(`${rota.autorizador}/${rota.servico}`, (contagem.get(`${rota.autorizador}/${rota.servico}`) ?? 0) + 1),
    }),
  );
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  // A handshake that fails (a client that does not trust this server) is the client's to report.
  server.on('tlsClientError', () => undefined);

  const host = o.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const nome = host.includes(':') ? `[${host}]` : host;

  return {
    url: `https://${nome}:${port}`,
    port,
    falhas,
    ambienteNacional,
    atendidos: () => Object.fromEntries(contagem),
    close: async () => {
      const fechado = new Promise<void>((resolve) => server.close(() => resolve()));
      // Requests in flight are answered (a pending latency at once); idle keep-alive connections go as they turn
      // idle, and whatever is still open after the grace period is dropped.
      for (const fim of [...esperas]) fim();
      const ociosas = setInterval(() => server.closeIdleConnections(), 50);
      server.closeIdleConnections();
      const prazo = new Promise<void>((resolve) => setTimeout(resolve, GRACA_MS).unref());
      await Promise.race([fechado, prazo]);
      clearInterval(ociosas);
      for (const s of sockets) s.destroy();
      await fechado;
      if (!o.schemas) await schemas.close();
    },
  };
}
