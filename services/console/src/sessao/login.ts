import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type UsuarioAutenticado } from '@frete/application';
import { type ConsoleDeps } from '../deps';
import { COOKIE_SESSAO, cookieSessao } from '../seguranca';

/** A login half-way: the password was right, a new password or a TOTP code is still to come. Signed, 10 minutes. */
export const COOKIE_LOGIN = 'frete_login';
const LOGIN_S = 10 * 60;

export type Etapa = 'senha' | 'codigo';
interface LoginPendente {
  email: string;
  etapa: Etapa;
  expira: number;
}

export function guardarLoginPendente(reply: FastifyReply, email: string, etapa: Etapa, agora: Date): void {
  const valor: LoginPendente = { email, etapa, expira: agora.getTime() + LOGIN_S * 1000 };
  reply.setCookie(COOKIE_LOGIN, JSON.stringify(valor), { ...cookieSessao, signed: true, maxAge: LOGIN_S });
}

/** The pending login of this step, or null (none, tampered with, expired or of another step). */
export function loginPendente(request: FastifyRequest, etapa: Etapa, agora: Date): LoginPendente | null {
  const bruto = request.cookies[COOKIE_LOGIN];
  if (!bruto) return null;
  const assinado = request.unsignCookie(bruto);
  if (!assinado.valid || !assinado.value) return null;
  try {
    const v = JSON.parse(assinado.value) as Partial<LoginPendente>;
    if (typeof v.email !== 'string' || v.etapa !== etapa || typeof v.expira !== 'number' || v.expira <= agora.getTime()) return null;
    return { email: v.email, etapa, expira: v.expira };
  } catch {
    return null;
  }
}

/** Only a path of the panel itself: never another site, never a scheme-relative or backslashed path. */
export function destinoSeguro(volta: unknown): string {
  return typeof volta === 'string' && /^\/console\/[^\\\s]*$/.test(volta) && !volta.startsWith('/console/entrar') ? volta : '/console';
}

/** The login is complete: a session, its event, its cookie; the pending step's cookie goes. */
export async function abrirSessao(
  reply: FastifyReply,
  deps: ConsoleDeps,
  usuario: UsuarioAutenticado,
  segundoFator: boolean,
): Promise<void> {
  const { token, sessao } = await deps.sessoes.abrir({
    usuario_id: usuario.usuario_id,
    company_id: usuario.company_id,
    email: usuario.email,
    papel: usuario.papel,
  });
  await deps.handlers.usuario.sessaoAberta(usuario, sessao.sessao_id, segundoFator);
  reply.setCookie(COOKIE_SESSAO, token, cookieSessao);
  reply.clearCookie(COOKIE_LOGIN, cookieSessao);
}
