import { type DomainEventOf, type FieldError, isWebhookEventType, WEBHOOK_EVENT_TYPES } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';

/** One stream per endpoint. */
export const webhookStream = (webhookId: string) => `webhook-${webhookId}`;

export type WebhookEvent =
  | DomainEventOf<'webhook.criado'>
  | DomainEventOf<'webhook.atualizado'>
  | DomainEventOf<'webhook.segredo_rotacionado'>
  | DomainEventOf<'webhook.removido'>
  | DomainEventOf<'webhook.desativado'>
  | DomainEventOf<'webhook.reativado'>;

interface Alvo {
  webhook_id: string;
  company_id: string;
}

export type WebhookCommand =
  | (Alvo & {
      type: 'CriarWebhook';
      url: string;
      eventos: string[];
      descricao: string | null;
      segredo_impressao: string;
    })
  | (Alvo & { type: 'AtualizarWebhook'; url?: string; eventos?: string[]; descricao?: string | null })
  | (Alvo & { type: 'RotacionarSegredo'; segredo_versao: number; segredo_impressao: string })
  | (Alvo & { type: 'RemoverWebhook' })
  | (Alvo & { type: 'DesativarWebhook'; motivo: string })
  | (Alvo & { type: 'ReativarWebhook' });

export interface WebhookState {
  existe: boolean;
  removido: boolean;
  company_id: string | null;
  url: string;
  eventos: string[];
  descricao: string | null;
  ativo: boolean;
  segredo_versao: number;
}

const INICIAL: WebhookState = {
  existe: false,
  removido: false,
  company_id: null,
  url: '',
  eventos: [],
  descricao: null,
  ativo: false,
  segredo_versao: 0,
};

const invalid = (fields: FieldError[]): Rejection =>
  new Rejection('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });

/** Known types, each once, in the order given; every unknown one is named at once. */
export function normalizarEventos(eventos: string[]): string[] {
  const fields: FieldError[] = [];
  eventos.forEach((e, i) => {
    if (!isWebhookEventType(e)) {
      fields.push({ field: `eventos.${i}`, message: `unknown event type '${e.slice(0, 64)}' (known: ${WEBHOOK_EVENT_TYPES.join(', ')})` });
    }
  });
  if (fields.length > 0) throw invalid(fields);
  return [...new Set(eventos)];
}

/**
 * The URL's shape: absolute http(s), no credentials in it (they would travel in every delivery's log) and no fragment
 * (never sent). Whether the target may be reached (HTTPS, public address) is the application's check, which resolves it.
 */
export function normalizarUrl(raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    throw invalid([{ field: 'url', message: 'not an absolute URL' }]);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw invalid([{ field: 'url', message: 'the scheme must be https' }]);
  if (parsed.username || parsed.password) throw invalid([{ field: 'url', message: 'credentials in the URL are not accepted' }]);
  if (parsed.hash) throw invalid([{ field: 'url', message: 'a fragment (#…) is never sent: remove it' }]);
  return parsed.toString();
}

const naoEncontrado = (id: string) => new Rejection('nao_encontrado', `no webhook ${id.slice(0, 64)}`);

/** Endpoint management; delivery itself is operational state outside the log. */
export const webhookDecider: Decider<WebhookCommand, WebhookState, WebhookEvent> = {
  initialState: INICIAL,
  decide(command, state) {
    const ids = { webhook_id: command.webhook_id, company_id: command.company_id };
    if (command.type === 'CriarWebhook') {
      if (state.existe) return [];
      return [
        {
          type: 'webhook.criado',
          data: {
            ...ids,
            url: normalizarUrl(command.url),
            eventos: normalizarEventos(command.eventos),
            descricao: command.descricao,
            segredo_versao: 1,
            segredo_impressao: command.segredo_impressao,
          },
        },
      ];
    }
    // Another company's endpoint is not found, exactly as one that does not exist.
    if (!state.existe || state.removido || state.company_id !== command.company_id) throw naoEncontrado(command.webhook_id);
    switch (command.type) {
      case 'AtualizarWebhook': {
        const url = command.url === undefined ? state.url : normalizarUrl(command.url);
        const eventos = command.eventos === undefined ? state.eventos : normalizarEventos(command.eventos);
        const descricao = command.descricao === undefined ? state.descricao : command.descricao;
        if (url === state.url && descricao === state.descricao && eventos.join(',') === state.eventos.join(',')) return [];
        return [{ type: 'webhook.atualizado', data: { ...ids, url, eventos, descricao } }];
      }
      case 'RotacionarSegredo':
        if (command.segredo_versao !== state.segredo_versao + 1) {
          throw new Rejection('consulta_indisponivel', 'the secret was rotated meanwhile: retry');
        }
        return [
          {
            type: 'webhook.segredo_rotacionado',
            data: { ...ids, segredo_versao: command.segredo_versao, segredo_impressao: command.segredo_impressao },
          },
        ];
      case 'RemoverWebhook':
        return [{ type: 'webhook.removido', data: ids }];
      case 'DesativarWebhook':
        return state.ativo ? [{ type: 'webhook.desativado', data: { ...ids, motivo: command.motivo } }] : [];
      case 'ReativarWebhook':
        return state.ativo ? [] : [{ type: 'webhook.reativado', data: ids }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'webhook.criado': {
        const d = event.data;
        return {
          existe: true,
          removido: false,
          company_id: d.company_id,
          url: d.url,
          eventos: d.eventos,
          descricao: d.descricao,
          ativo: true,
          segredo_versao: d.segredo_versao,
        };
      }
      case 'webhook.atualizado':
        return { ...state, url: event.data.url, eventos: event.data.eventos, descricao: event.data.descricao };
      case 'webhook.segredo_rotacionado':
        return { ...state, segredo_versao: event.data.segredo_versao };
      case 'webhook.removido':
        return { ...state, removido: true, ativo: false };
      case 'webhook.desativado':
        return { ...state, ativo: false };
      case 'webhook.reativado':
        return { ...state, ativo: true };
    }
  },
};
