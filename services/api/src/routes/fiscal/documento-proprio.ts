import { type EspecieDocumento } from '@frete/domain';
import { type Sql } from '@frete/projections';
import { ApiError } from '../../errors';
import { type ApiDeps } from '../../deps';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One own document of a kind, read by the caller's company: a malformed id or another company's document is simply
 * not found (`CT-e not found`, `MDF-e not found`), never told apart from one that does not exist.
 */
export const documentoProprio =
  <R>(fiscal: EspecieDocumento, ler: (sql: Sql, companyId: string, id: string) => Promise<R | null>) =>
  async (deps: ApiDeps, companyId: string, id: string): Promise<R> => {
    const row = UUID.test(id) ? await ler(deps.pool, companyId, id.toLowerCase()) : null;
    if (!row) throw new ApiError('nao_encontrado', `${fiscal.nome} not found`);
    return row;
  };
