import { buildSerializer, forSerialization } from '../../services/api/src/serializer';

// What TypeBox writes for the contracts' shapes: a reference, a nullable union, a union of literals, of objects.
const Endereco = {
  $id: 'Endereco',
  type: 'object',
  properties: { municipio: { type: 'string' }, uf: { type: 'string' } },
  required: ['municipio', 'uf'],
};
const literal = (v: string) => ({ const: v, type: 'string' });
const Situacao = { $id: 'Situacao', anyOf: [literal('rascunho'), literal('autorizado')] };
const objeto = (tipo: string, campo: string, type: string) => ({
  type: 'object',
  properties: { tipo: literal(tipo), [campo]: { type } },
  required: ['tipo', campo],
});
const Resposta = {
  type: 'object',
  properties: {
    situacao: { $ref: 'Situacao' },
    chave: { anyOf: [{ type: 'null' }, { type: 'string' }] },
    endereco: { anyOf: [{ type: 'null' }, { $ref: 'Endereco' }] },
    modo: { anyOf: [literal('1:1'), literal('pernas')] },
    forma: { anyOf: [objeto('a', 'x', 'integer'), objeto('b', 'y', 'string')] },
    itens: { type: 'array', items: { anyOf: [{ type: 'null' }, { type: 'integer' }] } },
  },
  required: ['situacao', 'chave', 'endereco', 'modo', 'forma', 'itens'],
};

describe('response serializer', () => {
  const serializar = buildSerializer({ Endereco, Situacao }, {})({ method: 'GET', url: '/x', httpStatus: '200', schema: Resposta });

  it('writes nullable unions and unions of literals without a branch to pick, and keeps a union of objects', () => {
    const s = forSerialization(Resposta, (id) => (id === 'Endereco' ? Endereco : undefined));
    const p = s.properties as Record<string, Record<string, unknown>>;
    expect(p.chave).toEqual({ type: 'string', nullable: true });
    expect(p.endereco).toMatchObject({ type: 'object', nullable: true, required: ['municipio', 'uf'] });
    expect(p.endereco!.$id).toBeUndefined();
    expect(p.modo).toEqual({ type: 'string' });
    expect(p.forma!.anyOf).toHaveLength(2);
    expect((p.itens!.items as Record<string, unknown>).nullable).toBe(true);
  });

  it('writes what JSON.stringify writes, null or not, and the branch of a union of objects that fits', () => {
    const cheio = {
      situacao: 'autorizado',
      chave: '35',
      endereco: { municipio: 'Campinas', uf: 'SP' },
      modo: 'pernas',
      forma: { tipo: 'b', y: 'z' },
      itens: [1, null],
    };
    const vazio = { situacao: 'rascunho', chave: null, endereco: null, modo: '1:1', forma: { tipo: 'a', x: 2 }, itens: [] };
    for (const v of [cheio, vazio]) expect(JSON.parse(serializar(v))).toEqual(v);
  });

  it('gives a response only the shared schemas it reaches, through other shared schemas too, and compiles a schema object once', () => {
    const Parada = { $id: 'Parada', type: 'object', properties: { local: { $ref: 'Endereco' } }, required: ['local'] };
    // Never reached by the route below: were it given to fast-json-stringify, its meta-schema check would refuse it.
    const Quebrado = { $id: 'Quebrado', type: 'no-such-type' };
    const Viagem = { type: 'object', properties: { paradas: { type: 'array', items: { $ref: 'Parada' } } }, required: ['paradas'] };
    const compilar = buildSerializer({ Endereco, Parada, Quebrado }, {});
    const rota = (url: string) => ({ method: 'GET', url, httpStatus: '200', schema: Viagem });
    const escrever = compilar(rota('/a'));
    const v = { paradas: [{ local: { municipio: 'Campinas', uf: 'SP' } }] };
    expect(JSON.parse(escrever(v))).toEqual(v);
    expect(compilar(rota('/b'))).toBe(escrever);
    expect(() => buildSerializer({ Quebrado }, {})({ ...rota('/c'), schema: { $ref: 'Quebrado' } })).toThrow();
  });
});
