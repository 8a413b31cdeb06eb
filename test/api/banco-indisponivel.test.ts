import net from 'node:net';
import { expectError, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { freshDatabase, type TestDatabase } from '../support/db';

/** A TCP relay in front of PostgreSQL that the test can cut and restore, as a database restart or failover would. */
class Relay {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    if (this.server) return;
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server!.address() as net.AddressInfo).port;
  }

  async cut(): Promise<void> {
    const s = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (s ? s.close(() => resolve()) : resolve()));
  }
}

describe('the database unreachable', () => {
  let db: TestDatabase;
  let relay: Relay;
  let app: TestApp;
  let carrier: TestCarrier;

  beforeAll(async () => {
    db = await freshDatabase();
    const target = new URL(db.url);
    relay = new Relay({ host: target.hostname, port: Number(target.port || 5432) });
    await relay.open();
    const through = new URL(db.url);
    through.port = String(relay.port);
    app = await startTestApp({ DATABASE_URL: through.toString() });
    carrier = await app.carrier();
  });
  afterAll(async () => {
    await relay?.open();
    await app?.close();
    await relay?.cut();
    await db?.drop();
  });

  it('answers 503 consulta_indisponivel with Retry-After while it is down, and serves again once it is back', async () => {
    expect((await carrier.call('GET', '/v1/fiscal/configuracao')).status).toBe(200);
    await relay.cut();
    for (const [method, path, body] of [
      ['GET', '/v1/fiscal/configuracao', undefined],
      ['PUT', '/v1/fiscal/configuracao', { rntrc: '12345678' }],
      ['GET', '/v1/fiscal/motoristas', undefined],
    ] as const) {
      const res = await carrier.call(method, path, body);
      expectError(res, 503, 'consulta_indisponivel');
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.text).not.toMatch(/ECONNREFUSED|terminated|127\.0\.0\.1/);
    }
    await relay.open();
    let back = await carrier.call('GET', '/v1/fiscal/configuracao');
    for (let i = 0; i < 50 && back.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      back = await carrier.call('GET', '/v1/fiscal/configuracao');
    }
    expect(back.status).toBe(200);
  });
});
