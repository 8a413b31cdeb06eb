import { type FastifyInstance } from 'fastify';
import { avisoDe, csrfDe, html, sessaoDe } from '../contexto';
import { AREAS, Pagina } from '../html/layout';
import { type ConsoleDeps } from '../deps';

export function inicio(app: FastifyInstance, _deps: ConsoleDeps) {
  app.get('/', async (request, reply) => {
    const sessao = sessaoDe(request);
    return html(
      reply,
      <Pagina titulo="Início" sessao={sessao} csrf={csrfDe(reply)} area="/console" aviso={avisoDe(request)}>
        <ul class="grade">
          {AREAS.filter((a) => a.href !== '/console' && (!a.so || a.so === sessao.papel)).map((a) => (
            <li key={a.href} class="cartao">
              <a href={a.href}>{a.rotulo}</a>
            </li>
          ))}
        </ul>
      </Pagina>,
    );
  });
}
