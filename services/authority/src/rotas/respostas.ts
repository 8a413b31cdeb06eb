import { type ServerResponse } from 'node:http';
import { envelopeDaResposta, envelopeDeFalha, SOAP12_CONTENT_TYPE, type ServicoSefaz } from '@frete/adapters';

export function responder(res: ServerResponse, status: number, corpo: string, cabecalhos: Record<string, string> = {}): void {
  const bytes = Buffer.from(corpo, 'utf8');
  res.writeHead(status, { 'Content-Type': SOAP12_CONTENT_TYPE, 'Content-Length': String(bytes.length), ...cabecalhos });
  res.end(bytes);
}

/** The service's answer element in its SOAP answer (HTTP 200). */
export const responderRetorno = (res: ServerResponse, servico: ServicoSefaz, retorno: string): void =>
  responder(res, 200, envelopeDaResposta(servico, retorno));

/**
 * A SOAP 1.2 fault: `Sender` for what the client must change (4xx), `Receiver` for the server's own failure (500).
 * `fechar` closes the connection after it (a body left unread).
 */
export function responderFalha(
  res: ServerResponse,
  status: number,
  motivo: string,
  o: { fechar?: boolean; cabecalhos?: Record<string, string> } = {},
): void {
  const cabecalhos = { ...(o.cabecalhos ?? {}), ...(o.fechar ? { Connection: 'close' } : {}) };
  responder(res, status, envelopeDeFalha(status >= 500 ? 'Receiver' : 'Sender', motivo), cabecalhos);
}

export function responderJson(res: ServerResponse, status: number, corpo: unknown): void {
  const bytes = Buffer.from(JSON.stringify(corpo), 'utf8');
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(bytes.length) });
  res.end(bytes);
}
