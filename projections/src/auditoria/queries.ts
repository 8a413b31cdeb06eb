import { type RecursoAuditado } from '@frete/contracts';
import {
  autorizacaoStream,
  ciotStream,
  cteStream,
  caixaCteStream,
  loteStream,
  mdfeStream,
  solicitacaoLoteStream,
  valePedagioStream,
} from '@frete/domain';
import { type Sql } from '../projector';

/**
 * Who may read a resource's history and which streams hold it, by the read models: the same companies its GET
 * answers (a batch: the subcontractor that owns it and the contractor that requested it; a grant: both parties).
 * A batch's events are its owner's: the contractor that requested it reads its own record of the request and its
 * outcome (`solicitacao_lote.*`). Null when the resource does not exist for this company. `repasse` and
 * `conta-operacional` are resolved elsewhere (by the installment document's group, and by the company itself).
 */
export async function streamsDoRecurso(
  sql: Sql,
  recurso: Exclude<RecursoAuditado, 'repasse' | 'conta-operacional'>,
  id: string,
  companyId: string,
): Promise<string[] | null> {
  const um = async (query: string, stream: (r: Record<string, unknown>) => string) => {
    const { rows } = await sql.query(query, [id, companyId]);
    return rows[0] ? [stream(rows[0])] : null;
  };
  switch (recurso) {
    case 'cte':
      return um('SELECT 1 FROM rm.ctes WHERE cte_id = $1 AND company_id = $2', () => cteStream(id));
    case 'mdfe':
      return um('SELECT 1 FROM rm.mdfes WHERE mdfe_id = $1 AND company_id = $2', () => mdfeStream(id));
    case 'lote':
      return um('SELECT company_id FROM rm.lotes WHERE batch_id = $1 AND (company_id = $2 OR solicitante_company_id = $2)', (r) =>
        r.company_id === companyId ? loteStream(id) : solicitacaoLoteStream(id),
      );
    case 'ciot':
      return um('SELECT 1 FROM rm.ciots WHERE ciot_id = $1 AND company_id = $2', () => ciotStream(id));
    case 'vale-pedagio':
      return um('SELECT 1 FROM rm.vales_pedagio WHERE vale_pedagio_id = $1 AND company_id = $2', () => valePedagioStream(companyId, id));
    case 'cte-subcontratacao':
      // An access key is digits and (alphanumeric CNPJ) capitals: the id arrives lower-cased.
      return um('SELECT 1 FROM rm.cte_subcontratacao WHERE chave = upper($1) AND company_id = $2', () =>
        caixaCteStream(companyId, id.toUpperCase()),
      );
    case 'autorizacao':
      return um(
        `SELECT subcontratada_id, contratante_cnpj FROM rm.autorizacoes
          WHERE autorizacao_id = $1 AND (subcontratada_id = $2 OR contratante_id = $2)`,
        (r) => autorizacaoStream(String(r.subcontratada_id), String(r.contratante_cnpj)),
      );
  }
}
