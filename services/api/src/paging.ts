import { type Environment } from '@frete/contracts';
import { ApiError } from './errors';

/**
 * Ruling 9: `page` from 1 (default 1), `per_page` default 20; the schema already bounds both. A list that offers a
 * cursor takes `cursor` along (its query schema admits it; the read model decodes it).
 */
export const pageOf = (q: { page?: number; per_page?: number; cursor?: string }) => ({
  page: q.page ?? 1,
  per_page: q.per_page ?? 20,
  ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
});

/** The list envelope of ruling 9; `next_cursor` on the lists that offer a cursor (null on the last page). */
export const listOf = <T>(
  data: T[],
  paging: { page: number; per_page: number },
  total: number,
  environment: Environment,
  next_cursor?: string | null,
) => ({
  data,
  meta: { page: paging.page, per_page: paging.per_page, total, ...(next_cursor !== undefined ? { next_cursor } : {}) },
  environment,
});

/** `from` after `to` can match nothing: it is an input mistake, said so rather than answered with an empty list. */
export function checkDateRange(from?: string, to?: string): void {
  if (from && to && from > to) {
    throw new ApiError('validacao', 'from: must not be after `to`', {
      fields: [{ field: 'querystring.from', message: 'must not be after `to`' }],
    });
  }
}
