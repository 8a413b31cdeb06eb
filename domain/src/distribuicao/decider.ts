import { type DocumentoDistribuidoRegistrado, type DomainEventOf, type Environment, type ServicoDistribuicao } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';

export type DistribuicaoEvent =
  | DomainEventOf<'distribuicao.alterada'>
  | DomainEventOf<'distribuicao.consulta_solicitada'>
  | DomainEventOf<'distribuicao.consultada'>
  | DomainEventOf<'distribuicao.consulta_falhou'>;

export const SERVICOS_DISTRIBUICAO: readonly ServicoDistribuicao[] = ['cte', 'nfe'];

/** `distNSU/ultNSU` of a party's first consultation. */
export const NSU_INICIAL = '000000000000000';

/**
 * The hour the service asks a party to wait after "nothing new" (137), after an answer that reached `maxNSU`, and the
 * block after 656 (restarted by any call during it). Sources: NT 2014.002 (NF-e distribution) §3.11 and the CT-e
 * distribution's answers as sped-cte/Java_CTe handle them; docs/fatos-autoridades.md "Distribution".
 */
export const ESPERA_DISTRIBUICAO_MS = 3_600_000;
/** After a consultation without an answer (a timeout, a broken channel), the next one waits this long at least. */
export const ESPERA_APOS_FALHA_MS = 5 * 60_000;
/**
 * A consultation asked and never answered (its processor lost it for good) stops holding the service after this long,
 * so the schedule can ask again; a normal one ends in seconds.
 */
export const CONSULTA_ESQUECIDA_MS = 15 * 60_000;

/** A request repeats one of the last few at most (the schedule derives its ids from the last consultation). */
export const CONSULTAS_LEMBRADAS = 20;

export const CSTAT_NADA_ENCONTRADO = 137;
export const CSTAT_DOCUMENTOS_ENCONTRADOS = 138;
export const CSTAT_CONSUMO_INDEVIDO = 656;

export interface ConsultaEmAndamento {
  consulta_id: string;
  solicitada_em: string;
}

export interface EstadoServicoDistribuicao {
  ult_nsu: string;
  max_nsu: string | null;
  proxima_consulta: string | null;
  bloqueado_ate: string | null;
  em_andamento: ConsultaEmAndamento | null;
  /** The latest consultations asked (`CONSULTAS_LEMBRADAS`), so a repeated request (a redelivery) decides nothing new. */
  consultas: string[];
}

export interface DistribuicaoState {
  /** Null until the company chooses: the environment's default (`habilitadaPorPadrao`). */
  habilitada: boolean | null;
  servicos: Record<ServicoDistribuicao, EstadoServicoDistribuicao>;
}

/** The outcome of one consultation, as the processor saw it at the port. */
export type ResultadoConsulta =
  | {
      tipo: 'consultado';
      cstat: number;
      motivo: string;
      ult_nsu: string;
      max_nsu: string;
      documentos: DocumentoDistribuidoRegistrado[];
    }
  | { tipo: 'rejeitado'; cstat: number; motivo: string }
  /** No answer, or the channel refused: nothing changed at the service. `tentar_apos` when the channel said when. */
  | { tipo: 'falhou'; motivo: string; tentar_apos: string | null };

export type DistribuicaoCommand =
  | { type: 'AlterarDistribuicao'; company_id: string; environment: Environment; habilitada: boolean }
  | {
      type: 'SolicitarConsulta';
      company_id: string;
      environment: Environment;
      servico: ServicoDistribuicao;
      consulta_id: string;
      origem: 'agenda' | 'manual';
      documento: string;
      c_uf_autor: string;
    }
  | { type: 'RegistrarConsulta'; company_id: string; servico: ServicoDistribuicao; consulta_id: string; resultado: ResultadoConsulta };

export const distribuicaoStream = (companyId: string) => `distribuicao-${companyId}`;

/** The sandbox consults by default; production only once the company turns it on (issue 30). */
export const habilitadaPorPadrao = (environment: Environment): boolean => environment === 'homologacao';

export const distribuicaoHabilitada = (state: DistribuicaoState, environment: Environment): boolean =>
  state.habilitada ?? habilitadaPorPadrao(environment);

const NSU = /^[0-9]{15}$/;

/** NSUs are 15 digits, so their order is the strings' order. */
const maiorNsu = (a: string, b: string): string => (b > a ? b : a);

const mais = (agora: Date, ms: number) => new Date(agora.getTime() + ms).toISOString();

const servicoInicial = (): EstadoServicoDistribuicao => ({
  ult_nsu: NSU_INICIAL,
  max_nsu: null,
  proxima_consulta: null,
  bloqueado_ate: null,
  em_andamento: null,
  consultas: [],
});

/**
 * When the service may be asked again, or null when it may be now: the later of the wait the last answer asked for
 * and a block's end. A consultation in progress holds it too (until it is forgotten).
 */
export function consultaPermitidaApos(s: EstadoServicoDistribuicao, agora: Date): string | null {
  const limites = [s.proxima_consulta, s.bloqueado_ate].filter((t): t is string => t !== null && Date.parse(t) > agora.getTime());
  return limites.length === 0 ? null : limites.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
}

/** A consultation asked and not yet answered, unless it was asked so long ago that it is taken for lost. */
export const consultaEmAndamento = (s: EstadoServicoDistribuicao, agora: Date): ConsultaEmAndamento | null =>
  s.em_andamento && Date.parse(s.em_andamento.solicitada_em) + CONSULTA_ESQUECIDA_MS > agora.getTime() ? s.em_andamento : null;

/**
 * What the answer asks of the next consultation: at once while documents remain (138 below `maxNSU`); an hour after
 * 137 or an answer that reached `maxNSU`; an hour of block after 656 (the service restarts it on any call, so the
 * poller never calls during it); an hour after any other rejection (a wrong certificate or environment does not heal
 * by itself); a few minutes after no answer at all.
 */
function proximaDe(s: EstadoServicoDistribuicao, r: ResultadoConsulta, agora: Date) {
  if (r.tipo === 'falhou') {
    const minimo = mais(agora, ESPERA_APOS_FALHA_MS);
    return {
      proxima: r.tentar_apos && Date.parse(r.tentar_apos) > Date.parse(minimo) ? r.tentar_apos : minimo,
      bloqueado: s.bloqueado_ate,
    };
  }
  if (r.tipo === 'rejeitado') {
    const hora = mais(agora, ESPERA_DISTRIBUICAO_MS);
    return { proxima: hora, bloqueado: r.cstat === CSTAT_CONSUMO_INDEVIDO ? hora : null };
  }
  const restam = r.cstat === CSTAT_DOCUMENTOS_ENCONTRADOS && r.ult_nsu < r.max_nsu;
  return { proxima: restam ? agora.toISOString() : mais(agora, ESPERA_DISTRIBUICAO_MS), bloqueado: null };
}

function validarResposta(pedido: string, r: Extract<ResultadoConsulta, { tipo: 'consultado' }>) {
  if (!NSU.test(r.ult_nsu) || !NSU.test(r.max_nsu))
    throw new Rejection('regra_de_negocio', `the service answered NSUs that are not 15 digits (${r.ult_nsu}, ${r.max_nsu})`);
  for (const d of r.documentos) {
    // A document at or below the NSU asked was recorded before, or would move the party backwards: never taken.
    if (!NSU.test(d.nsu) || d.nsu <= pedido || d.nsu > r.ult_nsu)
      throw new Rejection('regra_de_negocio', `document NSU ${d.nsu} is outside the answer's range (${pedido}, ${r.ult_nsu}]`);
  }
}

export const distribuicaoDecider: Decider<DistribuicaoCommand, DistribuicaoState, DistribuicaoEvent> = {
  initialState: { habilitada: null, servicos: { cte: servicoInicial(), nfe: servicoInicial() } },

  decide(c, state, ctx) {
    switch (c.type) {
      case 'AlterarDistribuicao':
        return distribuicaoHabilitada(state, c.environment) === c.habilitada && state.habilitada !== null
          ? []
          : [{ type: 'distribuicao.alterada', data: { company_id: c.company_id, habilitada: c.habilitada } }];

      case 'SolicitarConsulta': {
        const s = state.servicos[c.servico];
        if (s.consultas.includes(c.consulta_id)) return [];
        if (!distribuicaoHabilitada(state, c.environment))
          throw new Rejection('distribuicao_desabilitada', 'the consultation of the national distribution is turned off for this company');
        const andamento = consultaEmAndamento(s, ctx.now);
        if (andamento) return [];
        const apos = consultaPermitidaApos(s, ctx.now);
        if (apos) {
          throw new Rejection('consulta_bloqueada', `the ${c.servico} distribution service may be consulted again only after ${apos}`, {
            tentar_apos: apos,
            servicos: [c.servico],
            bloqueado: s.bloqueado_ate !== null && Date.parse(s.bloqueado_ate) > ctx.now.getTime(),
          });
        }
        return [
          {
            type: 'distribuicao.consulta_solicitada',
            data: {
              company_id: c.company_id,
              servico: c.servico,
              consulta_id: c.consulta_id,
              ult_nsu: s.ult_nsu,
              documento: c.documento,
              c_uf_autor: c.c_uf_autor,
              origem: c.origem,
              solicitada_em: ctx.now.toISOString(),
            },
          },
        ];
      }

      case 'RegistrarConsulta': {
        const s = state.servicos[c.servico];
        // Only the consultation in progress is answered, once: a redelivered or a late answer decides nothing.
        if (s.em_andamento?.consulta_id !== c.consulta_id) return [];
        const r = c.resultado;
        const { proxima, bloqueado } = proximaDe(s, r, ctx.now);
        if (r.tipo === 'falhou') {
          return [
            {
              type: 'distribuicao.consulta_falhou',
              data: {
                company_id: c.company_id,
                servico: c.servico,
                consulta_id: c.consulta_id,
                motivo: r.motivo,
                falhou_em: ctx.now.toISOString(),
                proxima_consulta: proxima,
              },
            },
          ];
        }
        if (r.tipo === 'consultado') validarResposta(s.ult_nsu, r);
        return [
          {
            type: 'distribuicao.consultada',
            data: {
              company_id: c.company_id,
              servico: c.servico,
              consulta_id: c.consulta_id,
              cstat: r.cstat,
              motivo: r.motivo,
              // Always continue from the returned ultNSU, never below where the party stands.
              ult_nsu: r.tipo === 'consultado' ? maiorNsu(s.ult_nsu, r.ult_nsu) : s.ult_nsu,
              max_nsu: r.tipo === 'consultado' ? r.max_nsu : s.max_nsu,
              documentos: r.tipo === 'consultado' ? r.documentos : [],
              consultada_em: ctx.now.toISOString(),
              proxima_consulta: proxima,
              bloqueado_ate: bloqueado,
            },
          },
        ];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'distribuicao.alterada':
        return { ...state, habilitada: event.data.habilitada };
      case 'distribuicao.consulta_solicitada': {
        const d = event.data;
        const s = state.servicos[d.servico];
        return comServico(state, d.servico, {
          ...s,
          em_andamento: { consulta_id: d.consulta_id, solicitada_em: d.solicitada_em },
          consultas: [...s.consultas.slice(-(CONSULTAS_LEMBRADAS - 1)), d.consulta_id],
        });
      }
      case 'distribuicao.consultada': {
        const d = event.data;
        return comServico(state, d.servico, {
          ...state.servicos[d.servico],
          ult_nsu: d.ult_nsu,
          max_nsu: d.max_nsu,
          proxima_consulta: d.proxima_consulta,
          bloqueado_ate: d.bloqueado_ate,
          em_andamento: null,
        });
      }
      case 'distribuicao.consulta_falhou': {
        const d = event.data;
        return comServico(state, d.servico, { ...state.servicos[d.servico], proxima_consulta: d.proxima_consulta, em_andamento: null });
      }
    }
  },
};

const comServico = (state: DistribuicaoState, servico: ServicoDistribuicao, s: EstadoServicoDistribuicao): DistribuicaoState => ({
  ...state,
  servicos: { ...state.servicos, [servico]: s },
});
