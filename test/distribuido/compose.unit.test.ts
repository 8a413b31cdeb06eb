import { interpolar, lerCompose, nomesDosPapeis, papelDeclarado, VariavelObrigatoria } from '../support/compose';

/** The distributed test reads deploy/compose.yaml through this interpolation: it must read it as `docker compose` does. */
describe("compose's variable interpolation", () => {
  it.each([
    ['${A}', { A: 'x' }, 'x'],
    ['${A}', {}, ''],
    ['${A:-d}', {}, 'd'],
    ['${A:-d}', { A: '' }, 'd'],
    ['${A-d}', { A: '' }, ''],
    ['${A-d}', {}, 'd'],
    ['${A:-d}', { A: 'x' }, 'x'],
    ['http://h:${P:-3000}/x', { P: '41000' }, 'http://h:41000/x'],
    ['${A:-${B:-z}}', { B: 'y' }, 'y'],
    ['$$A and $A', { A: 'x' }, '$A and x'],
    ['${A:?needed}', { A: 'x' }, 'x'],
  ])('%s with %j is %s', (texto, vars, esperado) => {
    expect(interpolar(texto, vars)).toBe(esperado);
  });

  it('refuses a required variable that is unset or empty, naming it', () => {
    expect(() => interpolar('${S:?set S}', {})).toThrow(VariavelObrigatoria);
    expect(() => interpolar('${S:?set S}', { S: '' })).toThrow('S: set S');
    expect(() => interpolar('${S?set S}', { S: '' })).not.toThrow();
  });

  it('reads the repository compose file: roles with their merged environment, and SECRETS_KEY required', () => {
    const compose = lerCompose();
    const api = papelDeclarado(compose, 'api', { SECRETS_KEY: 'k', API_PORT: '4100' });
    expect(api.environment).toMatchObject({ SERVICES: 'api', PORT: '4100', SECRETS_KEY: 'k', KAFKA_BROKERS: 'kafka:9092' });
    expect(api.healthcheck.join(' ')).toContain('http://127.0.0.1:4100/health/ready');
    expect(() => papelDeclarado(compose, 'relay', {})).toThrow(VariavelObrigatoria);
    expect(nomesDosPapeis(compose)).not.toContain('postgres');
  });
});
