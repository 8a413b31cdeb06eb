import { spawnSync } from 'node:child_process';
import { humanLogLine } from '@frete/platform';
import { banner } from '../../services/server/src/banner';

/** Issue 28, point 2: on a terminal the start speaks to a person; JSON lines stay for everything else. */
describe('the start at a terminal', () => {
  const facts = {
    environment: 'homologacao',
    services: ['api', 'projector'],
    eventStore: 'PostgreSQL',
    database: 'embedded PostgreSQL in /tmp/frete',
    bus: 'event store subscriptions',
    url: 'http://127.0.0.1:3000',
    opsUrl: null,
    demo: { cnpj: '11222333000181', api_key: 'fk_hml_abc-DEF_123' },
  };

  it('prints where things are and a curl that a shell reads as written (no escaped quotes)', () => {
    const text = banner(facts);
    expect(text).toContain('homologacao (sandbox)');
    expect(text).toMatch(/data\s+embedded PostgreSQL in \/tmp\/frete/);
    expect(text).toMatch(/API\s+http:\/\/127\.0\.0\.1:3000\/v1\n/);
    expect(text).toMatch(/docs\s+http:\/\/127\.0\.0\.1:3000\/v1\/docs/);
    expect(text).toMatch(/panel\s+http:\/\/127\.0\.0\.1:3000\/console/);
    expect(text).toMatch(/CNPJ\s+11222333000181/);
    const curl = text.match(/try\s+(curl .+)/)![1]!;
    expect(curl).not.toContain('\\');
    // bash splits it into exactly the words curl must get.
    const words = spawnSync('bash', ['-c', `printf '%s\\n' ${curl}`])
      .stdout.toString()
      .trim()
      .split('\n');
    expect(words).toEqual(['curl', '-H', 'Authorization: Bearer fk_hml_abc-DEF_123', 'http://127.0.0.1:3000/v1/fiscal/status']);
    expect(banner({ ...facts, demo: null, url: null })).not.toMatch(/curl|Demo carrier|API\s/);
  });

  it('turns each JSON log line into one line for a person, a request in its own words and an error with its stack', () => {
    const line = (o: object) => humanLogLine(JSON.stringify({ time: '2026-11-29T13:45:01.123Z', pid: 1, hostname: 'h', ...o }));
    expect(line({ level: 'info', msg: 'stopped api', step: 'api' })).toBe('13:45:01  info   stopped api  step=api\n');
    expect(
      line({
        level: 'info',
        msg: 'request completed',
        req: { method: 'GET', url: '/v1/x' },
        res: { statusCode: 404 },
        responseTime: 12.4,
        request_id: 'r1',
      }),
    ).toBe('13:45:01  info   request completed  GET /v1/x 404 12 ms  request_id=r1\n');
    const err = line({
      level: 'error',
      msg: 'projector failed',
      err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x' },
      note: 'a b',
    });
    expect(err).toBe('13:45:01  error  projector failed  note="a b"\n    Error: boom\n        at x\n');
    expect(humanLogLine('{"level":"warn","msg":"x"}', true)).toBe('\u001b[33mwarn \u001b[0m  x\n');
    expect(humanLogLine('not json')).toBe('not json\n');
  });
});
