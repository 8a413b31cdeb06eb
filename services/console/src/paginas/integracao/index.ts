import { type FastifyInstance } from 'fastify';
import { sessaoDe } from '../../contexto';
import { type ConsoleDeps } from '../../deps';
import { paginaDeErro } from '../../erros';
import { podeAdministrar } from '../../sessao/sessao';
import { credenciais } from './credenciais';
import { webhooks } from './webhooks';

/** Integration settings (issue 18, point 2): the company's API credentials and webhooks, for its admins only. */
export async function integracao(app: FastifyInstance, deps: ConsoleDeps) {
  await app.register(
    async (area) => {
      // Every page and form of the area, GET and POST alike: other roles get the 403 page, not a hidden button only.
      area.addHook('preHandler', async (request, reply) => {
        if (!podeAdministrar(sessaoDe(request).papel)) {
          return paginaDeErro(request, reply, 403, 'Acesso negado', 'A área de integração é só para administradores da empresa.');
        }
      });
      credenciais(area, deps);
      webhooks(area, deps);
    },
    { prefix: '/integracao' },
  );
}
