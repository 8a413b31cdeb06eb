import { type ComponentChildren } from 'preact';
import { type ParteLida } from '@frete/contracts';
import { brlDeCentavos, type Centavos } from '@frete/domain';

/** Money as the panel shows it: the Money module's Brazilian format with the currency sign. */
export const reais = (centavos: Centavos): string => `R$ ${brlDeCentavos(centavos)}`;

const DATA_HORA = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Sao_Paulo' });

/** An instant in Brasília time ("25/11/2026, 09:30"); what cannot be read is shown as written. */
export function dataHora(v: string | Date | null | undefined): string {
  if (v === null || v === undefined || v === '') return '—';
  const d = v instanceof Date ? v : new Date(v);
  return Number.isNaN(d.getTime()) ? String(v) : DATA_HORA.format(d);
}

const ROTULOS: Record<string, string> = {
  rascunho: 'Rascunho',
  em_processamento: 'Em processamento',
  autorizado: 'Autorizado',
  rejeitado: 'Rejeitado',
  denegado: 'Denegado',
  cancelado: 'Cancelado',
  sem_protocolo: 'Sem protocolo',
  encerrado: 'Encerrado',
  recebido: 'Recebido',
  subcontratado: 'Subcontratado',
  subcontratado_em_pernas: 'Subcontratado em pernas',
  registrado: 'Registrado',
  pendente: 'Pendente',
  solicitado: 'Solicitado',
};

export const rotuloSituacao = (s: string): string => ROTULOS[s] ?? s;

const ORIGENS: Record<string, string> = { emissao: 'Emitido aqui', cte_emitido: 'Emitido em outro sistema', contra_cte: 'Contra-CT-e' };
export const rotuloOrigem = (o: string): string => ORIGENS[o] ?? o;

export const opcoesDe = (valores: readonly string[], todos: string) => [
  { valor: '', rotulo: todos },
  ...valores.map((v) => ({ valor: v, rotulo: rotuloSituacao(v) })),
];

export function parteTexto(p: ParteLida | null | undefined): string {
  if (!p) return '—';
  const doc = p.documento ? `${p.tipo_documento ?? 'Doc.'} ${p.documento}` : null;
  return [p.nome, doc].filter(Boolean).join(' · ') || '—';
}

export const lugar = (p: ParteLida | null | undefined): string =>
  p?.endereco?.municipio ? `${p.endereco.municipio}/${p.endereco.uf ?? ''}` : '—';

/** A term/description list of a document's facts. */
export function Fatos({ rotulo, itens }: { rotulo: string; itens: [string, ComponentChildren][] }) {
  return (
    <dl class="fatos" aria-label={rotulo}>
      {itens.map(([t, d]) => (
        <div key={t}>
          <dt>{t}</dt>
          <dd>{d}</dd>
        </div>
      ))}
    </dl>
  );
}
