import { type Principal } from '@frete/platform';
import { type Scope } from '@frete/contracts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No credential needed (token endpoint, JWKS, docs, health). */
    public?: boolean;
    /** The scope the route needs (spec section 5). */
    scope?: Scope;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}
