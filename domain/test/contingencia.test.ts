import { type ContingenciaCommand, type ContingenciaEvent, contingenciaDecider, contingenciaStream } from '../src';
import { scenario } from './given-when-then';

// 12:00 UTC is 09:00 in São Paulo.
const { given } = scenario(contingenciaDecider, { now: new Date('2026-11-22T12:00:00Z') });
const motivo = 'SEFAZ-SP FORA DO AR DESDE AS 08:30';
const ativar: ContingenciaCommand = { type: 'AtivarContingencia', uf: 'SP', justificativa: motivo };
const desativar: ContingenciaCommand = { type: 'DesativarContingencia', uf: 'SP' };
const ativada: ContingenciaEvent = {
  type: 'contingencia.ativada',
  data: { uf: 'SP', autorizador: 'SVC-RS', tp_emis: 7, dh_cont: '2026-11-22T09:00:00-03:00', justificativa: motivo },
};
const desativada = (dh_fim: string): ContingenciaEvent => ({
  type: 'contingencia.desativada',
  data: { uf: 'SP', autorizador: 'SVC-RS', tp_emis: 7, dh_cont: '2026-11-22T09:00:00-03:00', dh_fim },
});

describe('contingencia decider', () => {
  it('activates a UF with dhCont in São Paulo time and the justification', () => given().when(ativar).then(ativada));

  it('keeps the justification as the CT-e carry it: trimmed, blanks collapsed', () =>
    given()
      .when({ ...ativar, justificativa: `   SEFAZ-SP   FORA DO AR\n DESDE AS 08:30  ` })
      .then(ativada));

  it('deactivates an active UF, repeating the period that ended', () => {
    given(ativada).when(desativar).then(desativada('2026-11-22T09:00:00-03:00'));
    const later = scenario(contingenciaDecider, { now: new Date('2026-11-22T15:30:05Z') });
    later.given(ativada).when(desativar).then(desativada('2026-11-22T12:30:05-03:00'));
  });

  it('activates again after a deactivation', () =>
    given(ativada, desativada('2026-11-22T10:00:00-03:00'))
      .when({ ...ativar, uf: 'SP' })
      .then(ativada));

  it("takes the UF's SVC from the table with its tpEmis: SVC-SP (8) for BA, SVC-RS (7) for MT", () => {
    given()
      .when({ type: 'AtivarContingencia', uf: 'BA', justificativa: motivo })
      .then({ type: 'contingencia.ativada', data: { ...ativada.data, uf: 'BA', autorizador: 'SVC-SP', tp_emis: 8 } });
    given()
      .when({ type: 'AtivarContingencia', uf: 'MT', justificativa: motivo })
      .then({ type: 'contingencia.ativada', data: { ...ativada.data, uf: 'MT', autorizador: 'SVC-RS', tp_emis: 7 } });
  });

  it('refuses to activate an active UF (contingencia_ja_ativa)', () => given(ativada).when(ativar).thenRejects('contingencia_ja_ativa'));

  it('refuses to deactivate an inactive UF (contingencia_nao_ativa)', () => {
    given().when(desativar).thenRejects('contingencia_nao_ativa');
    given(ativada, desativada('2026-11-22T10:00:00-03:00')).when(desativar).thenRejects('contingencia_nao_ativa');
  });

  it('refuses a UF that does not exist (validacao on uf)', () => {
    for (const uf of ['XX', 'sp', '', 'S P', 'SP'.repeat(500)]) {
      given()
        .when({ ...ativar, uf })
        .thenRejects('validacao', ['uf']);
      given().when({ type: 'DesativarContingencia', uf }).thenRejects('validacao', ['uf']);
    }
  });

  it('refuses a justification under 15 or over 255 characters after trimming (validacao on justificativa)', () => {
    given()
      .when({ ...ativar, justificativa: '   CURTA DEMAIS   ' })
      .thenRejects('validacao', ['justificativa']);
    given()
      .when({ ...ativar, justificativa: '' })
      .thenRejects('validacao', ['justificativa']);
    given()
      .when({ ...ativar, justificativa: 'X'.repeat(256) })
      .thenRejects('validacao', ['justificativa']);
    given()
      .when({ ...ativar, justificativa: `  ${'X'.repeat(255)}  ` })
      .then({ type: 'contingencia.ativada', data: { ...ativada.data, justificativa: 'X'.repeat(255) } });
    given()
      .when({ ...ativar, justificativa: `  ${'X'.repeat(15)}  ` })
      .then({ type: 'contingencia.ativada', data: { ...ativada.data, justificativa: 'X'.repeat(15) } });
  });

  it('refuses a justification that a CT-e cannot carry in 15 characters (emoji are dropped)', () =>
    given()
      .when({ ...ativar, justificativa: `FORA DO AR ${'🔥'.repeat(10)}` })
      .thenRejects('validacao', ['justificativa']));

  it('names one stream per UF', () => expect(contingenciaStream('SP')).toBe('contingencia-SP'));
});
