import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type ComponentChildren } from 'preact';
import { paginaDeErro } from '../../erros';
import { dataHora, rotuloSituacao } from './formato';

/** A document id as the lists link it; anything else is simply not found. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const indisponivel = (request: FastifyRequest, reply: FastifyReply) =>
  paginaDeErro(request, reply, 503, 'Arquivo indisponível', 'O XML arquivado não pode ser lido agora. Tente de novo em instantes.');

/** What a CT-e and an MDF-e row share: numbering, situation, key and the authority's answers. */
interface DocumentoFiscal {
  numero: number | string | null;
  serie: number | null;
  situacao: string;
  chave: string | null;
  retorno: { cstat?: string | number | null; motivo: string } | null;
}

export const numeroDe = (r: Pick<DocumentoFiscal, 'numero' | 'serie' | 'situacao'>) =>
  r.numero !== null ? `${r.serie ?? 0}/${r.numero}` : r.situacao === 'rascunho' ? 'Rascunho' : '—';

type Item = [string, ComponentChildren];

/** The head of a fiscal document's page: situation, key and number, then `meio`, then the protocol and the answer. */
export function itensDoDocumento(
  row: DocumentoFiscal,
  protocolo: { numero: string; recebido_em: string } | null | undefined,
  emissao: string | null,
  meio: Item[] = [],
): Item[] {
  return [
    ['Situação', <strong key="s">{rotuloSituacao(row.situacao)}</strong>],
    ['Chave de acesso', row.chave ? <code class="chave">{row.chave}</code> : '—'],
    ['Série/Número', numeroDe(row)],
    ...meio,
    ['Emissão', dataHora(emissao)],
    ['Protocolo', protocolo ? `${protocolo.numero} (${dataHora(protocolo.recebido_em)})` : '—'],
    ...(row.retorno ? ([['Retorno da autoridade', `${row.retorno.cstat ?? ''} ${row.retorno.motivo}`.trim()]] as Item[]) : []),
  ];
}

/** The downloads of an authorized document: its printed form (PDF) and its XML. */
export function Arquivos({ base, pdf, rotuloPdf }: { base: string; pdf: string; rotuloPdf: string }) {
  return (
    <section aria-labelledby="arquivos">
      <h2 id="arquivos">Arquivos</h2>
      <ul class="arquivos">
        <li>
          <a href={`${base}/${pdf}`}>{rotuloPdf}</a>
        </li>
        <li>
          <a href={`${base}/xml`}>Baixar XML</a>
        </li>
      </ul>
    </section>
  );
}
