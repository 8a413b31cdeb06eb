import { type DocumentoDistribuicao, type Environment, type ServicoDistribuicao } from '@frete/contracts';
import { habilitadaPorPadrao, NSU_INICIAL, SERVICOS_DISTRIBUICAO } from '@frete/domain';
import { type Sql } from '../projector';
import { ListQuery, type PageRequest } from '../list-query';
import { umaLinha } from '../uma-linha';

/** One service's state, as the events left it (the defaults before any). */
export interface DistribuicaoServicoRow {
  servico: ServicoDistribuicao;
  ultimo_nsu: string;
  max_nsu: string | null;
  proxima_consulta: Date | null;
  bloqueado_ate: Date | null;
  ultimo_cstat: number | null;
  ultimo_motivo: string | null;
  ultima_consulta_em: Date | null;
  /** The consultation asked and not yet answered, as recorded (the domain says when it is taken for lost). */
  consulta_em_andamento: { consulta_id: string; origem: 'agenda' | 'manual'; solicitada_em: Date } | null;
  ultima_falha: { motivo: string; falhou_em: Date } | null;
}

export interface DistribuicaoDaEmpresa {
  /** The company's choice, or the environment's default while it made none. */
  habilitada: boolean;
  /** Whether `habilitada` is the company's choice (false: the environment's default). */
  escolhida: boolean;
  /** Both services, always, in the order of SERVICOS_DISTRIBUICAO. */
  servicos: DistribuicaoServicoRow[];
}

const servicoPadrao = (servico: ServicoDistribuicao): DistribuicaoServicoRow => ({
  servico,
  ultimo_nsu: NSU_INICIAL,
  max_nsu: null,
  proxima_consulta: null,
  bloqueado_ate: null,
  ultimo_cstat: null,
  ultimo_motivo: null,
  ultima_consulta_em: null,
  consulta_em_andamento: null,
  ultima_falha: null,
});

/** The row as read: the consultation in progress and the last failure in columns of their own. */
interface LinhaDistribuicao extends Omit<DistribuicaoServicoRow, 'consulta_em_andamento' | 'ultima_falha'> {
  habilitada: boolean | null;
  consulta_id: string | null;
  consulta_origem: 'agenda' | 'manual' | null;
  consulta_solicitada_em: Date | null;
  ultima_falha_motivo: string | null;
  ultima_falha_em: Date | null;
}

/**
 * The company's distribution: both services, each its row or the defaults (a company without events has no rows),
 * and `habilitada` the company's choice or the environment's default (true in homologação, false in produção).
 */
export async function distribuicaoDe(sql: Sql, companyId: string, environment: Environment): Promise<DistribuicaoDaEmpresa> {
  const { rows } = await sql.query(
    `SELECT servico, habilitada, ultimo_nsu, max_nsu, proxima_consulta, bloqueado_ate, ultimo_cstat, ultimo_motivo, ultima_consulta_em,
            consulta_id, consulta_origem, consulta_solicitada_em, ultima_falha_motivo, ultima_falha_em
       FROM rm.distribuicao WHERE company_id = $1`,
    [companyId],
  );
  const linhas = rows as unknown as LinhaDistribuicao[];
  const escolha = linhas.find((l) => l.habilitada !== null)?.habilitada ?? null;
  return {
    habilitada: escolha ?? habilitadaPorPadrao(environment),
    escolhida: escolha !== null,
    servicos: SERVICOS_DISTRIBUICAO.map((servico) => {
      const l = linhas.find((x) => x.servico === servico);
      if (!l) return servicoPadrao(servico);
      return {
        servico,
        ultimo_nsu: l.ultimo_nsu,
        max_nsu: l.max_nsu,
        proxima_consulta: l.proxima_consulta,
        bloqueado_ate: l.bloqueado_ate,
        ultimo_cstat: l.ultimo_cstat,
        ultimo_motivo: l.ultimo_motivo,
        ultima_consulta_em: l.ultima_consulta_em,
        consulta_em_andamento:
          l.consulta_id !== null && l.consulta_solicitada_em !== null
            ? { consulta_id: l.consulta_id, origem: l.consulta_origem ?? 'agenda', solicitada_em: l.consulta_solicitada_em }
            : null,
        ultima_falha:
          l.ultima_falha_motivo !== null && l.ultima_falha_em !== null
            ? { motivo: l.ultima_falha_motivo, falhou_em: l.ultima_falha_em }
            : null,
      };
    }),
  };
}

/** One document the national distribution delivered to the company. */
export interface DistribuicaoDocumentoRow {
  servico: ServicoDistribuicao;
  nsu: string;
  schema: string;
  chave: string | null;
  sha256: string | null;
  destino: DocumentoDistribuicao['destino'];
  erro: string | null;
  consulta_id: string;
  recebido_em: Date;
}

export interface DistribuicaoDocumentosFilter extends PageRequest {
  servico?: ServicoDistribuicao;
  destino?: DocumentoDistribuicao['destino'];
  chave?: string;
}

const COLUNAS_DOCUMENTO = 'servico, nsu, schema, chave, sha256, destino, erro, consulta_id, recebido_em';

/** The documents the company received by distribution, newest answer first, then by service and NSU (highest first). */
export async function distribuicaoDocumentos(
  sql: Sql,
  companyId: string,
  f: DistribuicaoDocumentosFilter,
): Promise<{ rows: DistribuicaoDocumentoRow[]; total: number; next_cursor: string | null }> {
  const q = new ListQuery('company_id', companyId);
  if (f.servico) q.and(`servico = ${q.param(f.servico)}`);
  if (f.destino) q.and(`destino = ${q.param(f.destino)}`);
  if (f.chave) q.and(`chave = ${q.param(f.chave)}`);
  return q.keysetPage<DistribuicaoDocumentoRow>(
    sql,
    {
      from: 'rm.distribuicao_documentos',
      columns: COLUNAS_DOCUMENTO,
      list: 'distribuicao-documentos',
      keys: [
        { expr: 'recebido_em', dir: 'DESC', type: 'timestamptz' },
        { expr: 'servico', dir: 'ASC', type: 'text' },
        { expr: 'nsu', dir: 'DESC', type: 'text' },
      ],
    },
    f,
  );
}

/** One document of the company by its service and NSU, or null. */
export async function distribuicaoDocumentoDe(
  sql: Sql,
  companyId: string,
  servico: ServicoDistribuicao,
  nsu: string,
): Promise<DistribuicaoDocumentoRow | null> {
  return umaLinha<DistribuicaoDocumentoRow>(
    sql,
    `SELECT ${COLUNAS_DOCUMENTO} FROM rm.distribuicao_documentos WHERE company_id = $1 AND servico = $2 AND nsu = $3`,
    [companyId, servico, nsu],
  );
}
