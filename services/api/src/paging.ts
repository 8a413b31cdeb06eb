import { type Environment } from '@frete/contracts';
import { ApiError } from './errors';

/** Ruling 9: `page` from 1 (default 1), `per_page` default 20; the schema already bounds both. */
export const pageOf = (q: { page?: number; per_page?: number }) => ({ page: q.page ?? 1, per_page: q.per_page ?? 20 });

/** The list envelope of ruling 9. */
export const listOf = <T>(data: T[], paging: { page: number; per_page: number }, total: number, environment: Environment) => ({
  data,
  meta: { ...paging, total },
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
