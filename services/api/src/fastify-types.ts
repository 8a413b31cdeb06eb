import { type Principal } from '@frete/platform';
import { type Scope } from '@frete/contracts';
import { type IdempotencyState } from './plugins/idempotency';
import { type ValidationOnDemand } from './validator';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No credential needed (token endpoint, JWKS, docs, health). */
    public?: boolean;
    /** The scope the route needs (spec section 5). */
    scope?: Scope;
    /** Set by the `idempotency` plugin on the routes that take `Idempotency-Key`; `false` on a route opts it out. */
    idempotency?: boolean;
  }
  interface FastifyInstance {
    /** The routes' validators, each compiled on its route's first request (`compileAll` compiles the rest). */
    validation: ValidationOnDemand;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** The request's `Idempotency-Key` claim, once made. */
    idempotency: IdempotencyState | null;
    /** On a multipart POST with a key: claims it with the parts' fingerprint (`readParts` calls it). */
    claimIdempotency: ((fingerprint: string) => Promise<void>) | null;
  }
}
