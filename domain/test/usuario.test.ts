import { type UsuarioEvent, normalizarEmail, problemaDaSenha, usuarioDecider, usuarioStream } from '../src';
import { scenario } from './given-when-then';

const ID = '0b9c1c55-3f5e-4b8e-9a53-6d0f7e1c2a10';
const OUTRO = '5d1f1a44-8a1e-4a52-9c1e-0f4d7c3b2a99';
const SESSAO = '7a3e2b11-9c4d-4e5f-8a6b-1c2d3e4f5a6b';
const EMPRESA = 'empresa-1';
const chave = { usuario_id: ID, company_id: EMPRESA, email: 'ana@exemplo.com.br' };
const criado: UsuarioEvent = {
  type: 'usuario.criado',
  data: { ...chave, papel: 'operador', criado_por: 'operator', senha_temporaria: true },
};
const desativado: UsuarioEvent = { type: 'usuario.desativado', data: chave };
const totpAtivo: UsuarioEvent = { type: 'usuario.totp_ativado', data: chave };

describe('usuario (panel users)', () => {
  const s = scenario(usuarioDecider);

  it('keeps one user per e-mail, lower case, with a one-time password', () => {
    expect(usuarioStream(normalizarEmail(' Ana@Exemplo.COM.br ')!)).toBe('usuario-ana@exemplo.com.br');
    s.given()
      .when({
        type: 'CriarUsuario',
        usuario_id: ID,
        company_id: EMPRESA,
        email: 'ANA@exemplo.com.br',
        papel: 'operador',
        criado_por: 'operator',
      })
      .then(criado);
    s.given(criado)
      .when({
        type: 'CriarUsuario',
        usuario_id: OUTRO,
        company_id: 'outra',
        email: 'ana@exemplo.com.br',
        papel: 'admin',
        criado_por: 'operator',
      })
      .thenRejects('regra_de_negocio');
    s.given()
      .when({ type: 'CriarUsuario', usuario_id: ID, company_id: EMPRESA, email: 'não é e-mail', papel: 'admin', criado_por: 'operator' })
      .thenRejects('validacao', ['email']);
  });

  it('records password changes, logins, logouts and refused logins without any secret', () => {
    s.given(criado)
      .when({ type: 'AlterarSenha', company_id: EMPRESA, temporaria: false })
      .then({ type: 'usuario.senha_alterada', data: { ...chave, senha_temporaria: false } });
    s.given(criado)
      .when({ type: 'AbrirSessao', company_id: EMPRESA, sessao_id: SESSAO, segundo_fator: false })
      .then({ type: 'usuario.sessao_aberta', data: { ...chave, sessao_id: SESSAO, segundo_fator: false } });
    s.given(criado)
      .when({ type: 'EncerrarSessao', company_id: EMPRESA, sessao_id: SESSAO })
      .then({ type: 'usuario.sessao_encerrada', data: { ...chave, sessao_id: SESSAO } });
    s.given(criado, desativado)
      .when({ type: 'RecusarLogin', company_id: EMPRESA, motivo: 'desativado' })
      .then({ type: 'usuario.login_recusado', data: { ...chave, motivo: 'desativado' } });
    s.given(criado, desativado)
      .when({ type: 'AbrirSessao', company_id: EMPRESA, sessao_id: SESSAO, segundo_fator: false })
      .thenRejects('regra_de_negocio');
    expect(problemaDaSenha('curta')).toMatch(/12/);
    expect(problemaDaSenha('uma senha longa o bastante')).toBeNull();
  });

  it('enables and disables the second factor once', () => {
    s.given(criado).when({ type: 'AtivarTotp', company_id: EMPRESA }).then(totpAtivo);
    s.given(criado, totpAtivo).when({ type: 'AtivarTotp', company_id: EMPRESA }).thenRejects('regra_de_negocio');
    s.given(criado, totpAtivo).when({ type: 'DesativarTotp', company_id: EMPRESA }).then({ type: 'usuario.totp_desativado', data: chave });
    s.given(criado).when({ type: 'DesativarTotp', company_id: EMPRESA }).thenRejects('regra_de_negocio');
  });

  it('lets an admin change roles and deactivate, never their own, never of another company', () => {
    s.given(criado)
      .when({ type: 'AlterarPapel', company_id: EMPRESA, papel: 'leitura', por: OUTRO })
      .then({ type: 'usuario.papel_alterado', data: { ...chave, papel: 'leitura', papel_anterior: 'operador' } });
    s.given(criado).when({ type: 'AlterarPapel', company_id: EMPRESA, papel: 'operador', por: OUTRO }).then();
    s.given(criado).when({ type: 'AlterarPapel', company_id: EMPRESA, papel: 'admin', por: ID }).thenRejects('regra_de_negocio');
    s.given(criado).when({ type: 'AlterarPapel', company_id: 'outra', papel: 'admin', por: OUTRO }).thenRejects('nao_encontrado');
    s.given(criado).when({ type: 'DesativarUsuario', company_id: EMPRESA, por: OUTRO }).then(desativado);
    s.given(criado, desativado).when({ type: 'DesativarUsuario', company_id: EMPRESA, por: OUTRO }).then();
    s.given(criado).when({ type: 'DesativarUsuario', company_id: EMPRESA, por: ID }).thenRejects('regra_de_negocio');
    s.given(criado).when({ type: 'DesativarUsuario', company_id: 'outra', por: OUTRO }).thenRejects('nao_encontrado');
  });

  it('lets an admin give another active user a one-time password, never their own, never of another company', () => {
    s.given(criado)
      .when({ type: 'RedefinirSenha', company_id: EMPRESA, por: OUTRO })
      .then({ type: 'usuario.senha_alterada', data: { ...chave, senha_temporaria: true } });
    s.given(criado).when({ type: 'RedefinirSenha', company_id: EMPRESA, por: ID }).thenRejects('regra_de_negocio');
    s.given(criado, desativado).when({ type: 'RedefinirSenha', company_id: EMPRESA, por: OUTRO }).thenRejects('regra_de_negocio');
    s.given(criado).when({ type: 'RedefinirSenha', company_id: 'outra', por: OUTRO }).thenRejects('nao_encontrado');
  });
});
