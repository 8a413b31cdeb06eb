import { type Endereco } from '@frete/contracts';
import { type ConfiguracaoState } from '@frete/domain';
import { type Sql } from '../projector';

export interface ConfiguracaoRow extends Omit<ConfiguracaoState, 'percentual_frete_contra_cte_centesimos'> {
  /** Percent with two decimals, as the API answers it (12.5). */
  percentual_frete_contra_cte: number | null;
  atualizado_em: Date | null;
}

/** The company's fiscal configuration from rm.configuracoes_fiscais (all null before the first update). */
export async function configuracaoOf(sql: Sql, companyId: string): Promise<ConfiguracaoRow> {
  const { rows } = await sql.query(`SELECT * FROM rm.configuracoes_fiscais WHERE company_id = $1`, [companyId]);
  const r = rows[0];
  if (!r) {
    return {
      inscricao_estadual: null,
      regime_tributario: null,
      rntrc: null,
      serie_cte: null,
      serie_mdfe: null,
      endereco: null,
      percentual_frete_contra_cte: null,
      atualizado_em: null,
    };
  }
  const endereco: Endereco | null =
    r.logradouro === null
      ? null
      : {
          logradouro: r.logradouro as string,
          numero: r.numero as string,
          complemento: (r.complemento as string | null) ?? null,
          bairro: r.bairro as string,
          municipio: r.municipio as string,
          uf: r.uf as Endereco['uf'],
          codigo_ibge: r.codigo_ibge as string,
          cep: r.cep as string,
        };
  return {
    inscricao_estadual: r.inscricao_estadual as string | null,
    regime_tributario: r.regime_tributario as number | null,
    rntrc: r.rntrc as string | null,
    serie_cte: r.serie_cte as number | null,
    serie_mdfe: r.serie_mdfe as number | null,
    endereco,
    percentual_frete_contra_cte: r.percentual_frete_contra_cte === null ? null : Number(r.percentual_frete_contra_cte),
    atualizado_em: r.atualizado_em as Date,
  };
}
