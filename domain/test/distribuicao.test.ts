import {
  type DistribuicaoCommand,
  type DistribuicaoEvent,
  distribuicaoDecider,
  consultaPermitidaApos,
  fold,
  NSU_INICIAL,
  CONSULTA_ESQUECIDA_MS,
} from '../src';
import { scenario } from './given-when-then';

const agora = new Date('2026-11-29T12:00:00Z');
const { given } = scenario(distribuicaoDecider, { now: agora });
const em = (ms: number) => new Date(agora.getTime() + ms).toISOString();
const HORA = 3_600_000;
const nsu = (n: number) => String(n).padStart(15, '0');

const solicitar = (
  consulta_id = 'c1',
  extra: Partial<Extract<DistribuicaoCommand, { type: 'SolicitarConsulta' }>> = {},
): DistribuicaoCommand => ({
  type: 'SolicitarConsulta',
  company_id: 'co',
  environment: 'homologacao',
  servico: 'cte',
  consulta_id,
  origem: 'agenda',
  documento: '11222333000181',
  c_uf_autor: '35',
  ...extra,
});
const solicitada = (consulta_id = 'c1', ult_nsu = NSU_INICIAL, solicitada_em = agora.toISOString()): DistribuicaoEvent => ({
  type: 'distribuicao.consulta_solicitada',
  data: {
    company_id: 'co',
    servico: 'cte',
    consulta_id,
    ult_nsu,
    documento: '11222333000181',
    c_uf_autor: '35',
    origem: 'agenda',
    solicitada_em,
  },
});
const doc = (n: number) => ({
  nsu: nsu(n),
  schema: 'procCTe_v4.00.xsd',
  chave: null,
  sha256: 'ab',
  destino: 'caixa_cte' as const,
  erro: null,
});
const registrar = (
  resultado: Extract<DistribuicaoCommand, { type: 'RegistrarConsulta' }>['resultado'],
  consulta_id = 'c1',
): DistribuicaoCommand => ({ type: 'RegistrarConsulta', company_id: 'co', servico: 'cte', consulta_id, resultado });
/** The answer with documents 1 and 2 (cStat 138), up to `max_nsu`: as the command records it, and the same fields in the event. */
const doisLocalizados = (max_nsu: string) => ({
  cstat: 138,
  motivo: 'Documento localizado',
  ult_nsu: nsu(2),
  max_nsu,
  documentos: [doc(1), doc(2)],
});
const consultada = (over: Partial<Extract<DistribuicaoEvent, { type: 'distribuicao.consultada' }>['data']>): DistribuicaoEvent => ({
  type: 'distribuicao.consultada',
  data: {
    company_id: 'co',
    servico: 'cte',
    consulta_id: 'c1',
    cstat: 137,
    motivo: 'Nenhum documento localizado',
    ult_nsu: NSU_INICIAL,
    max_nsu: NSU_INICIAL,
    documentos: [],
    consultada_em: agora.toISOString(),
    proxima_consulta: em(HORA),
    bloqueado_ate: null,
    ...over,
  },
});

describe('distribuicao decider: asking', () => {
  it('asks from the first NSU in the sandbox, enabled by default', () => given().when(solicitar()).then(solicitada()));

  it('refuses in production until the company turns it on', () => {
    given()
      .when(solicitar('c1', { environment: 'producao' }))
      .thenRejects('distribuicao_desabilitada');
    given({ type: 'distribuicao.alterada', data: { company_id: 'co', habilitada: true } })
      .when(solicitar('c1', { environment: 'producao' }))
      .then(solicitada());
  });

  it('refuses a company that turned it off, and records the switch only when it changes', () => {
    const off: DistribuicaoEvent = { type: 'distribuicao.alterada', data: { company_id: 'co', habilitada: false } };
    given(off).when(solicitar()).thenRejects('distribuicao_desabilitada');
    given(off).when({ type: 'AlterarDistribuicao', company_id: 'co', environment: 'homologacao', habilitada: false }).then();
    given()
      .when({ type: 'AlterarDistribuicao', company_id: 'co', environment: 'homologacao', habilitada: true })
      .then({ type: 'distribuicao.alterada', data: { company_id: 'co', habilitada: true } });
  });

  it('continues from the NSU reached, and never asks twice for the same consultation or while one is in progress', () => {
    const antes = {
      ...consultada({ cstat: 138, ult_nsu: nsu(50), max_nsu: nsu(70), documentos: [], proxima_consulta: agora.toISOString() }),
    };
    given(solicitada(), antes)
      .when(solicitar('c2'))
      .then(solicitada('c2', nsu(50)));
    given(solicitada(), antes).when(solicitar('c1')).then();
    given(solicitada()).when(solicitar('c2')).then();
  });

  it('takes a consultation left unanswered for long as lost', () => {
    const velha = solicitada('c1', NSU_INICIAL, new Date(agora.getTime() - CONSULTA_ESQUECIDA_MS - 1).toISOString());
    given(velha).when(solicitar('c2')).then(solicitada('c2'));
  });

  it('refuses during the wait after 137 and during a 656 block, saying until when', () => {
    given(solicitada(), consultada({})).when(solicitar('c2')).thenRejects('consulta_bloqueada');
    const bloqueio = consultada({ cstat: 656, motivo: 'Consumo Indevido', proxima_consulta: em(HORA), bloqueado_ate: em(HORA) });
    given(solicitada(), bloqueio).when(solicitar('c2')).thenRejects('consulta_bloqueada');
    const state = fold(distribuicaoDecider, [solicitada(), bloqueio]);
    expect(consultaPermitidaApos(state.servicos.cte, agora)).toBe(em(HORA));
    expect(consultaPermitidaApos(state.servicos.cte, new Date(agora.getTime() + HORA))).toBeNull();
    expect(consultaPermitidaApos(state.servicos.nfe, agora)).toBeNull();
  });
});

/** The consultation c1 that got no answer (`motivo`), to be asked again at `proxima_consulta`. */
const falhou = (motivo: string, proxima_consulta: string): DistribuicaoEvent => ({
  type: 'distribuicao.consulta_falhou',
  data: { company_id: 'co', servico: 'cte', consulta_id: 'c1', motivo, falhou_em: agora.toISOString(), proxima_consulta },
});

describe('distribuicao decider: answers', () => {
  it('continues at once while documents remain below maxNSU', () =>
    given(solicitada())
      .when(registrar({ tipo: 'consultado', ...doisLocalizados(nsu(9)) }))
      .then(consultada({ ...doisLocalizados(nsu(9)), proxima_consulta: agora.toISOString() })));

  it('waits an hour after an answer that reached maxNSU, and after 137', () => {
    given(solicitada())
      .when(registrar({ tipo: 'consultado', ...doisLocalizados(nsu(2)) }))
      .then(consultada(doisLocalizados(nsu(2))));
    given(solicitada())
      .when(
        registrar({
          tipo: 'consultado',
          cstat: 137,
          motivo: 'Nenhum documento localizado',
          ult_nsu: NSU_INICIAL,
          max_nsu: NSU_INICIAL,
          documentos: [],
        }),
      )
      .then(consultada({}));
  });

  it('blocks for an hour on 656 without moving the NSU', () =>
    given(solicitada('c1', nsu(4)))
      .when(registrar({ tipo: 'rejeitado', cstat: 656, motivo: 'Rejeicao: Consumo Indevido' }))
      .then(
        consultada({ cstat: 656, motivo: 'Rejeicao: Consumo Indevido', ult_nsu: NSU_INICIAL, max_nsu: null, bloqueado_ate: em(HORA) }),
      ));

  it('never moves the NSU backwards, and refuses documents outside the range asked', () => {
    const c2 = solicitada('c2', nsu(10));
    const na10 = consultada({ cstat: 138, ult_nsu: nsu(10), max_nsu: nsu(10), documentos: [] });
    given(solicitada(), na10, c2)
      .when(registrar({ tipo: 'consultado', cstat: 137, motivo: 'Nada', ult_nsu: nsu(3), max_nsu: nsu(10), documentos: [] }, 'c2'))
      .then(consultada({ consulta_id: 'c2', cstat: 137, motivo: 'Nada', ult_nsu: nsu(10), max_nsu: nsu(10) }));
    given(solicitada(), na10, c2)
      .when(registrar({ tipo: 'consultado', cstat: 138, motivo: 'x', ult_nsu: nsu(12), max_nsu: nsu(12), documentos: [doc(9)] }, 'c2'))
      .thenRejects('regra_de_negocio');
    given(solicitada())
      .when(registrar({ tipo: 'consultado', cstat: 138, motivo: 'x', ult_nsu: nsu(2), max_nsu: nsu(2), documentos: [doc(3)] }))
      .thenRejects('regra_de_negocio');
  });

  it('records a consultation without answer and tries again later, NSU untouched', () => {
    given(solicitada())
      .when(registrar({ tipo: 'falhou', motivo: 'timeout', tentar_apos: null }))
      .then(falhou('timeout', em(300_000)));
    given(solicitada())
      .when(registrar({ tipo: 'falhou', motivo: '108', tentar_apos: em(HORA) }))
      .then(falhou('108', em(HORA)));
  });

  it('answers only the consultation in progress, once', () => {
    const r = registrar({ tipo: 'consultado', cstat: 137, motivo: 'Nada', ult_nsu: NSU_INICIAL, max_nsu: NSU_INICIAL, documentos: [] });
    given(solicitada(), consultada({})).when(r).then();
    given().when(r).then();
    given(solicitada('c2')).when(r).then();
  });
});
