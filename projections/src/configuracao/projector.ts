import { type Projector } from '../projector';

const SIMPLE = ['inscricao_estadual', 'regime_tributario', 'rntrc', 'serie_cte', 'serie_mdfe'] as const;
const ENDERECO = ['logradouro', 'numero', 'complemento', 'bairro', 'municipio', 'uf', 'codigo_ibge', 'cep'] as const;

export const configuracaoProjector: Projector = {
  name: 'configuracao',
  tables: ['rm.configuracoes_fiscais'],
  async apply(sql, event) {
    if (event.type !== 'configuracao.atualizada') return;
    const { company_id, changes } = event.data;
    const columns: string[] = [];
    const values: unknown[] = [];
    for (const f of SIMPLE) {
      if (f in changes) {
        columns.push(f);
        values.push(changes[f] ?? null);
      }
    }
    if ('percentual_frete_contra_cte_centesimos' in changes) {
      // The column is the percentage itself (numeric(5,2)): exact from the integer, never through a double.
      const c = changes.percentual_frete_contra_cte_centesimos ?? null;
      columns.push('percentual_frete_contra_cte');
      values.push(c === null ? null : `${Math.trunc(c / 100)}.${String(c % 100).padStart(2, '0')}`);
    }
    if ('endereco' in changes) {
      const e = changes.endereco ?? null;
      for (const f of ENDERECO) {
        columns.push(f);
        values.push(e ? (e[f] ?? null) : null);
      }
    }
    columns.push('atualizado_em');
    values.push(event.recordedAt);
    const placeholders = columns.map((_, i) => `$${i + 2}`);
    await sql.query(
      `INSERT INTO rm.configuracoes_fiscais (company_id, ${columns.join(', ')}) VALUES ($1, ${placeholders.join(', ')})
       ON CONFLICT (company_id) DO UPDATE SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`,
      [company_id, ...values],
    );
  },
};
