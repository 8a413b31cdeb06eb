import { type DomainEventOf, type EventData, type PapelUsuario } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { validarChavePix } from '../fiscal/pix';

export const PAPEIS_USUARIO: readonly PapelUsuario[] = ['admin', 'operador', 'leitura'];
export const isPapelUsuario = (p: unknown): p is PapelUsuario => typeof p === 'string' && (PAPEIS_USUARIO as string[]).includes(p);

/** The panel's password rule: long rather than clever. */
export const SENHA_MIN = 12;
export const SENHA_MAX = 200;

/** The e-mail as the product keeps it (lower case), or null when it is not one (the PIX directory's one rule). */
export function normalizarEmail(email: string): string | null {
  const v = validarChavePix('email', email.trim().toLowerCase());
  return v.ok ? v.valor.toLowerCase() : null;
}

/** One stream per e-mail: appending its first event with no_stream is what keeps an e-mail to one user. */
export const usuarioStream = (emailNormalizado: string) => `usuario-${emailNormalizado}`;

/** Why a password is refused, or null when it is acceptable. */
export function problemaDaSenha(senha: string): string | null {
  if (senha.length < SENHA_MIN) return `a senha precisa de pelo menos ${SENHA_MIN} caracteres`;
  if (senha.length > SENHA_MAX) return `a senha pode ter no máximo ${SENHA_MAX} caracteres`;
  return null;
}

export type UsuarioEvent =
  | DomainEventOf<'usuario.criado'>
  | DomainEventOf<'usuario.senha_alterada'>
  | DomainEventOf<'usuario.sessao_aberta'>
  | DomainEventOf<'usuario.sessao_encerrada'>
  | DomainEventOf<'usuario.login_recusado'>
  | DomainEventOf<'usuario.totp_ativado'>
  | DomainEventOf<'usuario.totp_desativado'>
  | DomainEventOf<'usuario.papel_alterado'>
  | DomainEventOf<'usuario.desativado'>;

export type UsuarioCommand =
  | { type: 'CriarUsuario'; usuario_id: string; company_id: string; email: string; papel: PapelUsuario; criado_por: string }
  /** `temporaria`: an admin or the operator set it, to be changed at the next login. */
  | { type: 'AlterarSenha'; company_id: string; temporaria: boolean }
  | { type: 'AbrirSessao'; company_id: string; sessao_id: string; segundo_fator: boolean }
  | { type: 'EncerrarSessao'; company_id: string; sessao_id: string }
  | { type: 'RecusarLogin'; company_id: string; motivo: 'senha' | 'codigo' | 'desativado' }
  | { type: 'AtivarTotp'; company_id: string }
  | { type: 'DesativarTotp'; company_id: string }
  /** `por`: the admin's own user id; an admin does not change their own role (the company would risk having none). */
  | { type: 'AlterarPapel'; company_id: string; papel: PapelUsuario; por: string }
  | { type: 'DesativarUsuario'; company_id: string; por: string }
  /** An admin (`por`) gives another user a one-time password, to be changed at the next login; their own goes through `AlterarSenha`. */
  | { type: 'RedefinirSenha'; company_id: string; por: string };

export type UsuarioState =
  | { status: 'none' }
  | {
      status: 'ativo' | 'desativado';
      usuario_id: string;
      company_id: string;
      email: string;
      papel: PapelUsuario;
      senha_temporaria: boolean;
      totp: boolean;
    };

type Existente = Exclude<UsuarioState, { status: 'none' }>;

/** The user of the command's company; another company's user is not found, as none would be. */
function doUsuario(state: UsuarioState, companyId: string): Existente {
  if (state.status === 'none' || state.company_id !== companyId) throw new Rejection('nao_encontrado', 'usuário não encontrado');
  return state;
}

function ativo(state: UsuarioState, companyId: string): Existente {
  const u = doUsuario(state, companyId);
  if (u.status !== 'ativo') throw new Rejection('regra_de_negocio', 'o usuário está desativado');
  return u;
}

const chave = (u: Existente): EventData<'usuario.totp_ativado'> => ({ usuario_id: u.usuario_id, company_id: u.company_id, email: u.email });

export const usuarioDecider: Decider<UsuarioCommand, UsuarioState, UsuarioEvent> = {
  initialState: { status: 'none' },
  decide(command, state) {
    switch (command.type) {
      case 'CriarUsuario': {
        if (state.status !== 'none') throw new Rejection('regra_de_negocio', 'já existe um usuário com este e-mail');
        const email = normalizarEmail(command.email);
        if (!email)
          throw new Rejection('validacao', 'email: não é um e-mail', { fields: [{ field: 'email', message: 'não é um e-mail' }] });
        if (!isPapelUsuario(command.papel)) {
          throw new Rejection('validacao', 'papel: admin, operador ou leitura', {
            fields: [{ field: 'papel', message: 'admin, operador ou leitura' }],
          });
        }
        return [
          {
            type: 'usuario.criado',
            data: {
              usuario_id: command.usuario_id,
              company_id: command.company_id,
              email,
              papel: command.papel,
              criado_por: command.criado_por,
              senha_temporaria: true,
            },
          },
        ];
      }
      case 'AlterarSenha': {
        const u = ativo(state, command.company_id);
        return [{ type: 'usuario.senha_alterada', data: { ...chave(u), senha_temporaria: command.temporaria } }];
      }
      case 'AbrirSessao': {
        const u = ativo(state, command.company_id);
        return [
          { type: 'usuario.sessao_aberta', data: { ...chave(u), sessao_id: command.sessao_id, segundo_fator: command.segundo_fator } },
        ];
      }
      case 'EncerrarSessao': {
        const u = doUsuario(state, command.company_id);
        return [{ type: 'usuario.sessao_encerrada', data: { ...chave(u), sessao_id: command.sessao_id } }];
      }
      case 'RecusarLogin': {
        const u = doUsuario(state, command.company_id);
        return [{ type: 'usuario.login_recusado', data: { ...chave(u), motivo: command.motivo } }];
      }
      case 'AtivarTotp': {
        const u = ativo(state, command.company_id);
        if (u.totp) throw new Rejection('regra_de_negocio', 'a verificação em duas etapas já está ativa');
        return [{ type: 'usuario.totp_ativado', data: chave(u) }];
      }
      case 'DesativarTotp': {
        const u = ativo(state, command.company_id);
        if (!u.totp) throw new Rejection('regra_de_negocio', 'a verificação em duas etapas não está ativa');
        return [{ type: 'usuario.totp_desativado', data: chave(u) }];
      }
      case 'AlterarPapel': {
        const u = ativo(state, command.company_id);
        if (!isPapelUsuario(command.papel)) {
          throw new Rejection('validacao', 'papel: admin, operador ou leitura', {
            fields: [{ field: 'papel', message: 'admin, operador ou leitura' }],
          });
        }
        if (u.usuario_id === command.por) throw new Rejection('regra_de_negocio', 'você não pode alterar o seu próprio papel');
        if (u.papel === command.papel) return [];
        return [{ type: 'usuario.papel_alterado', data: { ...chave(u), papel: command.papel, papel_anterior: u.papel } }];
      }
      case 'RedefinirSenha': {
        const u = ativo(state, command.company_id);
        if (u.usuario_id === command.por)
          throw new Rejection('regra_de_negocio', 'para trocar a sua própria senha use Minha conta, com a senha atual');
        return [{ type: 'usuario.senha_alterada', data: { ...chave(u), senha_temporaria: true } }];
      }
      case 'DesativarUsuario': {
        const u = doUsuario(state, command.company_id);
        if (u.usuario_id === command.por) throw new Rejection('regra_de_negocio', 'você não pode desativar a si mesmo');
        if (u.status === 'desativado') return [];
        return [{ type: 'usuario.desativado', data: chave(u) }];
      }
    }
  },
  evolve(state, event) {
    if (event.type === 'usuario.criado') {
      const d = event.data;
      return {
        status: 'ativo',
        usuario_id: d.usuario_id,
        company_id: d.company_id,
        email: d.email,
        papel: d.papel,
        senha_temporaria: d.senha_temporaria,
        totp: false,
      };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'usuario.senha_alterada':
        return { ...state, senha_temporaria: event.data.senha_temporaria };
      case 'usuario.totp_ativado':
        return { ...state, totp: true };
      case 'usuario.totp_desativado':
        return { ...state, totp: false };
      case 'usuario.papel_alterado':
        return { ...state, papel: event.data.papel };
      case 'usuario.desativado':
        return { ...state, status: 'desativado' };
      default:
        return state;
    }
  },
};
