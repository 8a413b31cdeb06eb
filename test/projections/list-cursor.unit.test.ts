import { afterClause, CursorInvalido, decodeCursor, encodeCursor, type OrderKey } from '@frete/projections';

const KEYS: OrderKey[] = [
  { expr: 'created_at', dir: 'DESC', type: 'timestamptz' },
  { expr: 'cte_id', dir: 'ASC', type: 'text' },
];

describe('list cursors', () => {
  it('round-trip: what a page encodes, the next decodes, to the microsecond', () => {
    const values = ['2026-11-24 18:09:41.123456+00', 'a1b2'];
    const c = encodeCursor('cte', values);
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor('cte', c, KEYS)).toEqual(values);
  });

  it('"after" follows each key in its own direction, ties broken by the next key', () => {
    const params: unknown[] = [];
    const sql = afterClause(KEYS, ['2026-11-24 18:09:41+00', 'x'], (v) => {
      params.push(v);
      return `$${params.length + 1}`;
    });
    expect(sql).toBe('((created_at < $2::timestamptz) OR (created_at = $2::timestamptz AND cte_id > $3::text))');
    expect(params).toEqual(['2026-11-24 18:09:41+00', 'x']);
    expect(afterClause([{ expr: 'id', dir: 'ASC', type: 'integer' }], ['7'], () => '$9')).toBe('((id > $9::bigint))');
  });

  it.each([
    ['another list', encodeCursor('mdfe', ['2026-11-24 18:09:41+00', 'x'])],
    ['too few values', encodeCursor('cte', ['2026-11-24 18:09:41+00'])],
    ['a day that does not exist', encodeCursor('cte', ['2026-02-30 10:00:00+00', 'x'])],
    ['an hour out of range', encodeCursor('cte', ['2026-11-24 24:00:00+00', 'x'])],
    ['an offset out of range', encodeCursor('cte', ['2026-11-24 10:00:00+16', 'x'])],
    ['year zero', encodeCursor('cte', ['0000-01-01 10:00:00+00', 'x'])],
    ['a control character', encodeCursor('cte', ['2026-11-24 10:00:00+00', 'a\u0001'])],
    ['a value too long', encodeCursor('cte', ['2026-11-24 10:00:00+00', 'x'.repeat(201)])],
    ['not JSON', Buffer.from('{').toString('base64url')],
    ['JSON but not a cursor', Buffer.from('[1,2]').toString('base64url')],
  ])('refuses %s', (_what, cursor) => {
    expect(() => decodeCursor('cte', cursor, KEYS)).toThrow(CursorInvalido);
  });

  it('integers: digits only, at most 18 (bigint takes them all)', () => {
    const keys: OrderKey[] = [{ expr: 'id', dir: 'ASC', type: 'integer' }];
    expect(decodeCursor('m', encodeCursor('m', ['-123456789012345678']), keys)).toEqual(['-123456789012345678']);
    for (const v of ['1234567890123456789', '1e3', '0x10', ' 1', ''])
      expect(() => decodeCursor('m', encodeCursor('m', [v]), keys)).toThrow(CursorInvalido);
  });
});
