import { randomBytes } from 'node:crypto';
import { loadConfig } from '@frete/platform';
import { buildApi } from './app';
import { type ApiDeps } from './deps';

/** A dependency the document must not need: touching it while the routes register is a bug, said by name. */
const ausente = (name: string): unknown =>
  new Proxy(
    {},
    {
      get: (_target, prop) => {
        // Promise resolution and inspection probe these; they are not uses.
        if (typeof prop === 'symbol' || prop === 'then' || prop === 'toJSON') return undefined;
        throw new Error(`building the OpenAPI document used ${name}.${prop}: the document must come from the route schemas alone`);
      },
    },
  );

/**
 * The OpenAPI document the service serves at `GET /v1/openapi.json`, built from the same routes without a database or
 * any outside party (for code generation in CI: `pnpm client:check`). Route plugins keep references to their
 * handlers when they register; nothing is called.
 */
export async function documentoOpenApi(env: NodeJS.ProcessEnv = {}): Promise<Record<string, unknown>> {
  const config = loadConfig({ APP_ENVIRONMENT: 'homologacao', SECRETS_KEY: randomBytes(32).toString('base64'), ...env });
  const handlers = new Proxy({}, { get: (_target, prop) => (typeof prop === 'symbol' ? undefined : ausente(`handlers.${prop}`)) });
  const deps = new Proxy(
    { config, handlers, clock: () => new Date(), ready: () => false },
    { get: (target, prop) => (prop in target ? target[prop as keyof typeof target] : ausente(String(prop))) },
  ) as unknown as ApiDeps;
  const app = await buildApi(deps);
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
  }
}
