import { type SessaoConsole } from './sessao/sessao';

declare module 'fastify' {
  interface FastifyRequest {
    /** The panel's user, on /console routes once logged in. */
    sessao: SessaoConsole | null;
  }
  interface FastifyContextConfig {
    /** A /console page reachable without a session (login, assets). */
    semSessao?: boolean;
  }
}
