import { randomUUID } from 'node:crypto';
import { type Pool } from 'pg';
import { type PapelUsuario, type Position } from '@frete/contracts';
import {
  normalizarEmail,
  problemaDaSenha,
  Rejection,
  type UsuarioCommand,
  usuarioDecider,
  type UsuarioState,
  usuarioStream,
} from '@frete/domain';
import { usuarioPorId } from '@frete/projections';
import { type SecretCipher } from '@frete/platform';
import { type CommandContext, type CommandDeps, type ContextoEmpresa, execute, load } from '../commands/execute';
import { CredenciaisUsuario } from './credenciais';
import {
  passoDoCodigo,
  conferirSemUsuario,
  hashDaSenha,
  novoSegredoTotp,
  provisionamentoTotp,
  senhaConfere,
  senhaTemporaria,
} from './segredos';
import { TentativasLogin } from './tentativas';

export interface UsuarioHandlerDeps extends CommandDeps {
  pool: Pool;
  cipher: Pick<SecretCipher, 'seal' | 'open'>;
  clock: () => Date;
}

/** Who logged in (or is half-way: a new password or a code still to give): the user's state, less its status. */
export type UsuarioAutenticado = Omit<Exclude<UsuarioState, { status: 'none' }>, 'status'>;

/** A login step's outcome. Unknown e-mail and wrong password are the same `recusado`, on purpose. */
export type ResultadoLogin =
  | { tipo: 'limitado'; tentar_apos_s: number }
  | { tipo: 'recusado' }
  | { tipo: 'aceito'; usuario: UsuarioAutenticado };

export interface UsuarioNovo {
  usuario_id: string;
  company_id: string;
  email: string;
  papel: PapelUsuario;
  /** Shown once, to be changed at the first login. */
  senha_temporaria: string;
  position: Position | null;
}

/** Who a panel user's own actions are signed by. */
export const atorDoUsuario = (usuarioId: string) => `usuario:${usuarioId}`;

const invalido = (field: string, message: string) => new Rejection('validacao', `${field}: ${message}`, { fields: [{ field, message }] });

function emailValido(email: string): string {
  const e = normalizarEmail(email);
  if (!e) throw invalido('email', 'não é um e-mail');
  return e;
}

function senhaValida(senha: string, campo = 'nova'): void {
  const problema = problemaDaSenha(senha);
  if (problema) throw invalido(campo, problema);
}

/** Field by field, so that what the state may gain later does not leave with a login by itself. */
const autenticado = (s: Exclude<UsuarioState, { status: 'none' }>): UsuarioAutenticado => ({
  usuario_id: s.usuario_id,
  company_id: s.company_id,
  email: s.email,
  papel: s.papel,
  senha_temporaria: s.senha_temporaria,
  totp: s.totp,
});

/**
 * The company panel's users: the decider keeps the history (one stream per e-mail), the password hashes and TOTP
 * secrets stay in console_credenciais, failed logins in console_tentativas. Sessions themselves are the panel's.
 */
export const usuarioHandler = (deps: UsuarioHandlerDeps) => {
  const credenciais = new CredenciaisUsuario(deps.pool, deps.cipher, deps.clock);
  const tentativas = new TentativasLogin(deps.pool, deps.clock);
  // The dummy hash is made now, not on the first unknown e-mail (whose answer would otherwise take twice as long).
  void conferirSemUsuario('');
  const run = (ctx: CommandContext, email: string, command: UsuarioCommand) =>
    execute({ store: deps.store, readYourWrites: deps.readYourWrites }, usuarioStream(email), usuarioDecider, command, ctx);
  const estado = (email: string) => load(deps.store, usuarioStream(email), usuarioDecider);
  /** A code of the secret whose time step this user has not used yet; the step is then used. */
  const codigoNovo = async (usuarioId: string, segredo: string, email: string, codigo: string): Promise<boolean> => {
    const passo = passoDoCodigo(segredo, email, codigo, deps.clock());
    return passo !== null && (await credenciais.usarPasso(usuarioId, passo));
  };
  /** The user's own context, for what they do before a session exists (login steps). */
  const proprio = (u: { usuario_id: string; company_id: string }): ContextoEmpresa => {
    const id = randomUUID();
    return {
      companyId: u.company_id,
      correlationId: id,
      causationId: null,
      requestId: null,
      actor: atorDoUsuario(u.usuario_id),
      now: deps.clock(),
    };
  };
  const usuarioDoAtor = (ctx: CommandContext) => (ctx.actor.startsWith('usuario:') ? ctx.actor.slice('usuario:'.length) : ctx.actor);
  /** A user of the context's company, by id (an admin's pages name users by id). */
  const daEmpresa = async (ctx: ContextoEmpresa, usuarioId: string) => {
    const u = await usuarioPorId(deps.pool, ctx.companyId, usuarioId);
    if (!u) throw new Rejection('nao_encontrado', 'usuário não encontrado');
    return u;
  };
  /** The context's actor is an active admin of its company (or the operator tool), as its stream says now. */
  const administrador = async (ctx: ContextoEmpresa): Promise<void> => {
    if (ctx.actor === 'operator') return;
    const ator = await usuarioPorId(deps.pool, ctx.companyId, usuarioDoAtor(ctx));
    const s = ator ? await estado(ator.email) : null;
    if (s?.status !== 'ativo' || s.company_id !== ctx.companyId || s.papel !== 'admin')
      throw new Rejection('escopo_nao_habilitado', 'só um administrador da empresa redefine a senha de um usuário');
  };
  // A refused login's event is appended after the answer: awaiting it would make a wrong password answer slower than
  // an unknown e-mail, and the difference would tell which e-mails have a user. The throttle counts it either way.
  const pendentes = new Set<Promise<void>>();
  const registrarRecusa = (email: string, motivo: 'senha' | 'codigo' | 'desativado') => {
    const p: Promise<void> = (async () => {
      const s = await estado(email);
      if (s.status !== 'none') await run(proprio(s), email, { type: 'RecusarLogin', company_id: s.company_id, motivo });
    })()
      // Only the audit event is lost then; the failure is already counted in console_tentativas.
      .catch(() => undefined)
      .finally(() => pendentes.delete(p));
    pendentes.add(p);
  };
  const recusar = async (email: string, ip: string, motivo: 'senha' | 'codigo' | 'desativado') => {
    await tentativas.registrarFalha(email, ip);
    registrarRecusa(email, motivo);
    return { tipo: 'recusado' } as const;
  };

  const criar = async (ctx: CommandContext, input: { company_id: string; email: string; papel: PapelUsuario }): Promise<UsuarioNovo> => {
    const email = emailValido(input.email);
    const usuario_id = randomUUID();
    const senha = senhaTemporaria();
    const senha_hash = await hashDaSenha(senha);
    // The event first: its stream is what makes the e-mail unique; the hash row follows.
    const { events, position } = await run(ctx, email, {
      type: 'CriarUsuario',
      usuario_id,
      company_id: input.company_id,
      email,
      papel: input.papel,
      criado_por: ctx.actor,
    });
    if (events.length === 0) throw new Error('user not created');
    await credenciais.criar({ usuario_id, email, company_id: input.company_id, senha_hash });
    return { usuario_id, company_id: input.company_id, email, papel: input.papel, senha_temporaria: senha, position };
  };

  return {
    /** Until the events of the refused logins answered so far are appended (tests; a process closing). */
    async registrosPendentes(): Promise<void> {
      await Promise.all([...pendentes]);
    },

    /** The operator tool's creation (actor `operator`), of any company. */
    criar,

    /** An admin invites a user to their own company; the one-time password is shown to the admin once. */
    convidar: (ctx: ContextoEmpresa, input: { email: string; papel: PapelUsuario }) => criar(ctx, { ...input, company_id: ctx.companyId }),

    /**
     * The login's first step. Throttled before anything is checked; an unknown e-mail costs a hash like a wrong
     * password does. `aceito` may still need a new password (`senha_temporaria`) or a code (`totp`).
     */
    async autenticar(emailDigitado: string, senha: string, ip: string): Promise<ResultadoLogin> {
      const email = normalizarEmail(emailDigitado) ?? emailDigitado.trim().toLowerCase().slice(0, 320);
      const espera = await tentativas.bloqueio(email, ip);
      if (espera > 0) return { tipo: 'limitado', tentar_apos_s: espera };
      const row = await credenciais.porEmail(email);
      if (!row) {
        await conferirSemUsuario(senha);
        await tentativas.registrarFalha(email, ip);
        return { tipo: 'recusado' };
      }
      if (!(await senhaConfere(row.senha_hash, senha))) return recusar(email, ip, 'senha');
      const s = await estado(email);
      if (s.status !== 'ativo') return recusar(email, ip, 'desativado');
      return { tipo: 'aceito', usuario: autenticado(s) };
    },

    /** The login's second step when TOTP is on: the code of the user's app. */
    async conferirCodigo(email: string, codigo: string, ip: string): Promise<ResultadoLogin> {
      const espera = await tentativas.bloqueio(email, ip);
      if (espera > 0) return { tipo: 'limitado', tentar_apos_s: espera };
      const s = await estado(email);
      if (s.status !== 'ativo') return recusar(email, ip, 'desativado');
      const segredo = s.totp ? await credenciais.totp(s.usuario_id, 'ativo') : null;
      if (!segredo || !(await codigoNovo(s.usuario_id, segredo, email, codigo))) return recusar(email, ip, 'codigo');
      return { tipo: 'aceito', usuario: autenticado(s) };
    },

    /** The forced change after a one-time password (the login step proved the old one). */
    async definirSenhaInicial(email: string, nova: string): Promise<UsuarioAutenticado> {
      senhaValida(nova);
      const s = await estado(email);
      if (s.status !== 'ativo' || !s.senha_temporaria) throw new Rejection('regra_de_negocio', 'não há senha provisória a trocar');
      await credenciais.trocarSenha(s.usuario_id, await hashDaSenha(nova));
      const { state } = await run(proprio(s), email, { type: 'AlterarSenha', company_id: s.company_id, temporaria: false });
      if (state.status === 'none') throw new Error('user vanished');
      return autenticado(state);
    },

    /** A login went through: its event, and the e-mail's failed attempts are forgiven. */
    async sessaoAberta(usuario: UsuarioAutenticado, sessao_id: string, segundo_fator: boolean): Promise<void> {
      await run(proprio(usuario), usuario.email, { type: 'AbrirSessao', company_id: usuario.company_id, sessao_id, segundo_fator });
      await tentativas.limpar(usuario.email);
    },

    async sessaoEncerrada(ctx: ContextoEmpresa, email: string, sessao_id: string): Promise<void> {
      await run(ctx, email, { type: 'EncerrarSessao', company_id: ctx.companyId, sessao_id });
    },

    /** The user changes their own password, giving the current one. */
    /** `ip`: the current password is guessed no faster here than at the login (same throttle, same count). */
    async trocarSenha(ctx: ContextoEmpresa, email: string, atual: string, nova: string, ip: string): Promise<void> {
      senhaValida(nova);
      const espera = await tentativas.bloqueio(email, ip);
      if (espera > 0) throw new Rejection('limite_requisicoes', `muitas tentativas com a senha errada; tente de novo em ${espera} s`);
      const row = await credenciais.porEmail(email);
      if (!row || !(await senhaConfere(row.senha_hash, atual))) {
        await tentativas.registrarFalha(email, ip);
        throw new Rejection('validacao', 'atual: a senha atual não confere', {
          fields: [{ field: 'atual', message: 'a senha atual não confere' }],
        });
      }
      if (atual === nova) throw invalido('nova', 'a nova senha precisa ser diferente da atual');
      await credenciais.trocarSenha(row.usuario_id, await hashDaSenha(nova));
      await run(ctx, email, { type: 'AlterarSenha', company_id: ctx.companyId, temporaria: false });
    },

    /** A new TOTP secret to show (QR code and text); it takes effect once a code of it is confirmed. */
    async iniciarTotp(ctx: ContextoEmpresa, email: string): Promise<{ segredo: string; uri: string; svg: string }> {
      const s = await estado(email);
      if (s.status !== 'ativo' || s.company_id !== ctx.companyId) throw new Rejection('nao_encontrado', 'usuário não encontrado');
      if (s.totp) throw new Rejection('regra_de_negocio', 'a verificação em duas etapas já está ativa');
      const segredo = novoSegredoTotp();
      await credenciais.guardarTotpPendente(s.usuario_id, segredo);
      return provisionamentoTotp(segredo, email);
    },

    /** The secret shown and not yet confirmed, shown again after a wrong code; null when there is none. */
    async totpPendente(ctx: ContextoEmpresa, email: string): Promise<{ segredo: string; uri: string; svg: string } | null> {
      const s = await estado(email);
      if (s.status !== 'ativo' || s.company_id !== ctx.companyId || s.totp) return null;
      const pendente = await credenciais.totp(s.usuario_id, 'pendente');
      return pendente ? provisionamentoTotp(pendente, email) : null;
    },

    async ativarTotp(ctx: ContextoEmpresa, email: string, codigo: string): Promise<void> {
      const s = await estado(email);
      if (s.status === 'none' || s.company_id !== ctx.companyId) throw new Rejection('nao_encontrado', 'usuário não encontrado');
      const pendente = await credenciais.totp(s.usuario_id, 'pendente');
      if (!pendente) throw new Rejection('regra_de_negocio', 'gere o código QR de novo antes de confirmar');
      if (!(await codigoNovo(s.usuario_id, pendente, email, codigo))) throw invalido('codigo', 'código incorreto');
      await run(ctx, email, { type: 'AtivarTotp', company_id: ctx.companyId });
      await credenciais.confirmarTotp(s.usuario_id);
    },

    async desativarTotp(ctx: ContextoEmpresa, email: string, codigo: string): Promise<void> {
      const s = await estado(email);
      if (s.status === 'none' || s.company_id !== ctx.companyId) throw new Rejection('nao_encontrado', 'usuário não encontrado');
      if (!s.totp) throw new Rejection('regra_de_negocio', 'a verificação em duas etapas não está ativa');
      const segredo = await credenciais.totp(s.usuario_id, 'ativo');
      if (!segredo || !(await codigoNovo(s.usuario_id, segredo, email, codigo))) throw invalido('codigo', 'código incorreto');
      await run(ctx, email, { type: 'DesativarTotp', company_id: ctx.companyId });
      await credenciais.apagarTotp(s.usuario_id);
    },

    /** An admin changes another user's role; returns whether it changed. */
    async alterarPapel(ctx: ContextoEmpresa, usuarioId: string, papel: PapelUsuario): Promise<boolean> {
      const u = await daEmpresa(ctx, usuarioId);
      const { events } = await run(ctx, u.email, { type: 'AlterarPapel', company_id: ctx.companyId, papel, por: usuarioDoAtor(ctx) });
      return events.length > 0;
    },

    /**
     * An admin gives another user of the company a one-time password, returned to be shown once; the user must change
     * it at the next login, and the e-mail's failed attempts are forgiven (a locked-out user is who asks for this).
     * Recorded as `usuario.senha_alterada` with `senha_temporaria` by the admin. The caller ends the user's sessions.
     */
    async redefinirSenha(
      ctx: ContextoEmpresa,
      usuarioId: string,
    ): Promise<{ usuario_id: string; email: string; senha_temporaria: string }> {
      await administrador(ctx);
      const u = await daEmpresa(ctx, usuarioId);
      const senha = senhaTemporaria();
      const senha_hash = await hashDaSenha(senha);
      // The decision first (an active user, not the admin themself): a refused reset leaves the password as it was.
      await run(ctx, u.email, { type: 'RedefinirSenha', company_id: ctx.companyId, por: usuarioDoAtor(ctx) });
      await credenciais.trocarSenha(u.usuario_id, senha_hash);
      await tentativas.limpar(u.email);
      return { usuario_id: u.usuario_id, email: u.email, senha_temporaria: senha };
    },

    /** An admin deactivates another user: they can no longer log in. */
    async desativar(ctx: ContextoEmpresa, usuarioId: string): Promise<boolean> {
      const u = await daEmpresa(ctx, usuarioId);
      const { events } = await run(ctx, u.email, { type: 'DesativarUsuario', company_id: ctx.companyId, por: usuarioDoAtor(ctx) });
      return events.length > 0;
    },
  };
};
export type UsuarioHandler = ReturnType<typeof usuarioHandler>;
