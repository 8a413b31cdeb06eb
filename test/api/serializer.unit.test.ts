import { Type } from '@sinclair/typebox';
import { buildSerializer, forSerialization } from '../../services/api/src/serializer';

const Endereco = Type.Object({ municipio: Type.String(), uf: Type.String() }, { $id: 'Endereco' });
const Situacao = Type.Union([Type.Literal('rascunho'), Type.Literal('autorizado')], { $id: 'Situacao' });
const Forma = Type.Union([
  Type.Object({ tipo: Type.Literal('a'), x: Type.Integer() }),
  Type.Object({ tipo: Type.Literal('b'), y: Type.String() }),
]);
const Resposta = Type.Object({
  situacao: Type.Ref(Situacao),
  chave: Type.Union([Type.Null(), Type.String()]),
  endereco: Type.Union([Type.Null(), Type.Ref(Endereco)]),
  modo: Type.Union([Type.Literal('1:1'), Type.Literal('pernas')]),
  forma: Forma,
  itens: Type.Array(Type.Union([Type.Null(), Type.Integer()])),
});

describe('response serializer', () => {
  const serializar = buildSerializer({ Endereco, Situacao }, {})({ method: 'GET', url: '/x', httpStatus: '200', schema: Resposta });

  it('writes nullable unions and unions of literals without a branch to pick, and keeps a union of objects', () => {
    const s = forSerialization(Resposta as never, (id) => (id === 'Endereco' ? (Endereco as never) : undefined));
    // As JSON: TypeBox's own (symbol) keys are carried along and say nothing here.
    const p = JSON.parse(JSON.stringify(s.properties)) as Record<string, Record<string, unknown>>;
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
});
