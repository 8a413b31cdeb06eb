import { type Projector } from '../projector';

/** The panel's users: a row per user, its timestamps from the events. */
export const usuarioProjector: Projector = {
  name: 'usuario',
  tables: ['rm.usuarios'],
  async apply(sql, event) {
    const at = event.recordedAt;
    switch (event.type) {
      case 'usuario.criado': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.usuarios (usuario_id, company_id, email, papel, ativo, senha_temporaria, totp, criado_por, criado_em)
           VALUES ($1, $2, $3, $4, true, $5, false, $6, $7) ON CONFLICT (usuario_id) DO NOTHING`,
          [d.usuario_id, d.company_id, d.email, d.papel, d.senha_temporaria, d.criado_por, at],
        );
        return;
      }
      case 'usuario.senha_alterada':
        await sql.query(`UPDATE rm.usuarios SET senha_temporaria = $2 WHERE usuario_id = $1`, [
          event.data.usuario_id,
          event.data.senha_temporaria,
        ]);
        return;
      case 'usuario.sessao_aberta':
        await sql.query(`UPDATE rm.usuarios SET ultimo_acesso_em = $2 WHERE usuario_id = $1`, [event.data.usuario_id, at]);
        return;
      case 'usuario.totp_ativado':
      case 'usuario.totp_desativado':
        await sql.query(`UPDATE rm.usuarios SET totp = $2 WHERE usuario_id = $1`, [
          event.data.usuario_id,
          event.type === 'usuario.totp_ativado',
        ]);
        return;
      case 'usuario.papel_alterado':
        await sql.query(`UPDATE rm.usuarios SET papel = $2 WHERE usuario_id = $1`, [event.data.usuario_id, event.data.papel]);
        return;
      case 'usuario.desativado':
        await sql.query(`UPDATE rm.usuarios SET ativo = false, desativado_em = $2 WHERE usuario_id = $1`, [event.data.usuario_id, at]);
        return;
    }
  },
};
