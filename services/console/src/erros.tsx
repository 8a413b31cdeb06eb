import { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { html } from './contexto';
import { Pagina } from './html/layout';

/** An error page in the panel's layout: never a stack trace, never a JSON envelope. */
export function paginaDeErro(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  titulo: string,
  mensagem: string,
  /** A refusal's code and the handler's own (English) message, for support: shown small, after the text. */
  detalhe?: string,
) {
  // The page needs no form token; a failed CSRF check must not mint a new one either.
  return html(
    reply,
    <Pagina titulo={titulo} sessao={request.sessao} csrf="" area="">
      <p>{mensagem}</p>
      {detalhe && (
        <p class="detalhe-suporte">
          <small>Detalhe para o suporte: {detalhe}</small>
        </p>
      )}
      <p>
        <a href="/console">Voltar ao início</a>
      </p>
    </Pagina>,
    status,
  );
}

/** What the panel answers for an error thrown by a route or hook. */
export function tratarErro(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET') {
    return paginaDeErro(
      request,
      reply,
      403,
      'Formulário expirado',
      'O formulário expirou ou não veio deste painel. Recarregue a página e tente de novo.',
    );
  }
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 413) return paginaDeErro(request, reply, 413, 'Arquivo grande demais', 'O arquivo enviado passa do limite aceito.');
  if (status === 429)
    return paginaDeErro(request, reply, 429, 'Muitas tentativas', 'Muitas requisições em pouco tempo. Aguarde um pouco e tente de novo.');
  if (status < 500)
    return paginaDeErro(request, reply, status, 'Pedido inválido', 'O pedido não pôde ser entendido. Volte e tente de novo.');
  request.log.error({ err: error }, 'console error');
  return paginaDeErro(request, reply, 500, 'Erro interno', 'Algo falhou do nosso lado. Tente de novo em instantes.');
}
