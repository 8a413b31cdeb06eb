import { type FastifyRequest } from 'fastify';
import { type ContextoEmpresa } from '@frete/application';
import { type ApiDeps } from './deps';

/** Who acts and why, for the events a request appends. */
export function commandContext(request: FastifyRequest, deps: ApiDeps): ContextoEmpresa {
  const p = request.principal;
  if (!p) throw new Error('command outside an authenticated route');
  return {
    companyId: p.companyId,
    correlationId: request.id,
    causationId: null,
    requestId: request.id,
    actor: `credential:${p.credentialId}`,
    now: deps.clock(),
  };
}

export const principalOf = (request: FastifyRequest) => {
  if (!request.principal) throw new Error('route without principal');
  return request.principal;
};
