import { type AutorizadorContingencia, type DomainEventOf, type TpEmisContingencia, type Uf } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { dhSaoPaulo } from '../fiscal/datas';
import { ufBySigla } from '../fiscal/ufs';
import { autorizadorContingenciaCte, TP_EMIS_CONTINGENCIA } from '../fiscal/autorizadores';
import { textoFiscal } from '../cte/xml/montar';
import { excerpt } from '../xml/excerpt';

export type ContingenciaEvent = DomainEventOf<'contingencia.ativada'> | DomainEventOf<'contingencia.desativada'>;

/**
 * The operator's switch of one UF (for the whole deployment). Which SVC serves the UF is read from the table with its
 * sources (`fiscal/autorizadores.ts`, CONTINGENCIA_CTE_POR_UF) once the UF is known to exist, with the manual's
 * `tpEmis` of that SVC (7 SVC-RS, 8 SVC-SP).
 */
export type ContingenciaCommand =
  | { type: 'AtivarContingencia'; uf: string; justificativa: string }
  | { type: 'DesativarContingencia'; uf: string };

export interface ContingenciaAtiva {
  autorizador: AutorizadorContingencia;
  tp_emis: TpEmisContingencia;
  dh_cont: string;
  justificativa: string;
}

export interface ContingenciaState {
  ativa: ContingenciaAtiva | null;
}

/** One stream per UF: two operators switching different states never contend. */
export const contingenciaStream = (uf: string) => `contingencia-${uf}`;

/** `xJust` of cteTiposBasico_v4.00.xsd is 15–256; the manual and the API's other justifications say 255. */
export const JUSTIFICATIVA_MIN = 15;
export const JUSTIFICATIVA_MAX = 255;

const invalido = (field: string, message: string) => new Rejection('validacao', message, { fields: [{ field, message }] });

function ufValida(uf: string): Uf {
  const found = ufBySigla(uf);
  if (!found) throw invalido('uf', `'${excerpt(uf)}' is not a Brazilian state (UF)`);
  return found.sigla;
}

/**
 * The justification as every CT-e will carry it: trimmed, then reduced to what the schema's TString admits. The
 * event keeps that form, so that the auditor reads exactly what the documents say.
 */
function justificativaValida(texto: string): string {
  const aparada = texto.trim();
  if (aparada.length < JUSTIFICATIVA_MIN || aparada.length > JUSTIFICATIVA_MAX) {
    throw invalido(
      'justificativa',
      `the justification must have ${JUSTIFICATIVA_MIN} to ${JUSTIFICATIVA_MAX} characters, not ${aparada.length}`,
    );
  }
  const fiscal = textoFiscal(aparada, JUSTIFICATIVA_MAX);
  // Characters a CT-e cannot carry (emoji, controls) are dropped: what is left must still say enough.
  if (fiscal.length < JUSTIFICATIVA_MIN) {
    throw invalido(
      'justificativa',
      `the justification has ${fiscal.length} characters once reduced to what a CT-e can carry ('${excerpt(fiscal)}'); ${JUSTIFICATIVA_MIN} are needed`,
    );
  }
  return fiscal;
}

export const contingenciaDecider: Decider<ContingenciaCommand, ContingenciaState, ContingenciaEvent> = {
  initialState: { ativa: null },
  decide(command, state, { now }) {
    const uf = ufValida(command.uf);
    switch (command.type) {
      case 'AtivarContingencia': {
        const autorizador = autorizadorContingenciaCte(uf);
        const justificativa = justificativaValida(command.justificativa);
        if (state.ativa) {
          throw new Rejection(
            'contingencia_ja_ativa',
            `${uf} is already in contingency through ${state.ativa.autorizador} since ${state.ativa.dh_cont}: deactivate it first`,
          );
        }
        return [
          {
            type: 'contingencia.ativada',
            data: { uf, autorizador, tp_emis: TP_EMIS_CONTINGENCIA[autorizador], dh_cont: dhSaoPaulo(now), justificativa },
          },
        ];
      }
      case 'DesativarContingencia': {
        if (!state.ativa) throw new Rejection('contingencia_nao_ativa', `${uf} is not in contingency: there is nothing to deactivate`);
        const { autorizador, tp_emis, dh_cont } = state.ativa;
        return [{ type: 'contingencia.desativada', data: { uf, autorizador, tp_emis, dh_cont, dh_fim: dhSaoPaulo(now) } }];
      }
    }
  },
  evolve(_state, event) {
    if (event.type === 'contingencia.desativada') return { ativa: null };
    const { autorizador, tp_emis, dh_cont, justificativa } = event.data;
    return { ativa: { autorizador, tp_emis, dh_cont, justificativa } };
  },
};
