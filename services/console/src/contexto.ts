import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type VNode } from 'preact';
import { type ContextoEmpresa } from '@frete/application';
import { documento } from './html/render';
import { type ConsoleDeps } from './deps';
import { type SessaoConsole } from './sessao/sessao';

/** The session of a route that requires one (the plugin's hook has already turned away requests without). */
export function sessaoDe(request: FastifyRequest): SessaoConsole {
  if (!request.sessao) throw new Error('console route without a session');
  return request.sessao;
}

/** Who acts and why, for the events a panel action appends: the user is the actor. */
export function contextoDe(request: FastifyRequest, deps: Pick<ConsoleDeps, 'clock'>): ContextoEmpresa {
  const s = sessaoDe(request);
  return {
    companyId: s.company_id,
    correlationId: request.id,
    causationId: null,
    requestId: request.id,
    actor: `usuario:${s.usuario_id}`,
    now: deps.clock(),
  };
}

/** The form token of this response: every page renders it into its forms. */
export const csrfDe = (reply: FastifyReply): string => reply.generateCsrf();

/** Sends a whole page. */
export function html(reply: FastifyReply, pagina: VNode, status = 200): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').send(documento(pagina));
}

/** After a POST: back to a page with a one-line notice (Post/Redirect/Get). */
export function redirecionar(reply: FastifyReply, para: string, aviso?: string): FastifyReply {
  const url = aviso ? `${para}${para.includes('?') ? '&' : '?'}aviso=${encodeURIComponent(aviso)}` : para;
  return reply.redirect(url, 303);
}

/** The notice of `?aviso=`, bounded (it is only ever text the panel wrote). */
export function avisoDe(request: FastifyRequest): string | null {
  const q = request.query as { aviso?: unknown } | undefined;
  return typeof q?.aviso === 'string' ? q.aviso.slice(0, 300) : null;
}
