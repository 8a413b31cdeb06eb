import { type FastifyRequest } from 'fastify';
import { type EventoAuditado, type RecursoAuditado } from '@frete/contracts';
import { Tabela } from '../../html/componentes';
import { type ConsoleDeps } from '../../deps';
import { dataHora } from './formato';

/**
 * The resource's events as recorded (what the audit API's history gives), or null when the log cannot be read here
 * (events kept in EventStoreDB): the rest of the page still shows.
 */
export async function historicoDe(
  request: FastifyRequest,
  deps: Pick<ConsoleDeps, 'auditoria'>,
  companyId: string,
  recurso: RecursoAuditado,
  id: string,
): Promise<EventoAuditado[] | null> {
  try {
    // The CNPJ matters only for the operational account's history, which these pages do not show.
    return await deps.auditoria.historico({ companyId, cnpj: '' }, recurso, id);
  } catch (err) {
    request.log.warn({ err, recurso, id }, 'history not readable for the panel');
    return null;
  }
}

export function Historico({ eventos }: { eventos: EventoAuditado[] | null }) {
  if (eventos === null) return <p class="vazio">O histórico não pode ser lido agora. Tente de novo em instantes.</p>;
  return (
    <Tabela
      legenda="Histórico"
      vazio="Nenhum evento registrado."
      linhas={eventos}
      colunas={[
        { titulo: 'Quando', celula: (e) => dataHora(e.recorded_at) },
        { titulo: 'Evento', celula: (e) => <code>{e.type}</code> },
        { titulo: 'Quem', celula: (e) => e.actor },
      ]}
    />
  );
}
