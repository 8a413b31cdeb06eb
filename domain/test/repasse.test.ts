import { type EventData, type ParcelaRepasse } from '@frete/contracts';
import { emSequencia, evoluirTodos, fold, type RepasseCommand, type RepasseEvent, repasseDecider, regraDeRepasse } from '../src';
import { scenario } from './given-when-then';

const NOW = '2026-11-22T12:00:00.000Z';
const { given } = scenario(repasseDecider, { now: new Date(NOW) });
const C = 'company-1';
const G = 'lote:L1:52998224725';
const CPF = '52998224725';
const R602020: ParcelaRepasse[] = [
  { posicao: 1, percentual: 60, dias: 0 },
  { posicao: 2, percentual: 20, dias: 10 },
  { posicao: 3, percentual: 20, dias: 30 },
];
const alvo = (cte_id: string) => ({ company_id: C, grupo: G, cte_id });

const dados = (cte_id: string, posicao: number, over: Partial<EventData<'repasse.documento_registrado'>> = {}) => ({
  ...alvo(cte_id),
  chave: `K-${cte_id}`,
  chave_original: `O-${cte_id}`,
  documento_financeiro: null,
  lote_id: 'L1',
  posicao,
  motorista_cpf: CPF,
  valor_centavos: 10001,
  regra: regraDeRepasse(R602020, null),
  modo: 'automatico' as const,
  ...over,
});
const registrado = (cte_id: string, posicao: number, over: Partial<EventData<'repasse.documento_registrado'>> = {}): RepasseEvent => ({
  type: 'repasse.documento_registrado',
  data: { ...dados(cte_id, posicao, over), registrado_em: NOW },
});
const manual = (cte_id: string, posicao: number) => registrado(cte_id, posicao, { modo: 'manual' });
const parcela = (posicao: number, percentual: number, valor_centavos: number, dias: number) => ({
  posicao,
  percentual,
  valor_centavos,
  dias,
});
const geradas = (cte_id: string, n: number, ordem: number, ...parcelas: ReturnType<typeof parcela>[]): RepasseEvent => ({
  type: 'repasse.parcelas_geradas',
  data: { ...alvo(cte_id), bipado_em: NOW, documentos_no_grupo: n, ordem_no_grupo: ordem, parcelas },
});
const liberada = (
  cte_id: string,
  posicao: number,
  gatilho: 'bipagem' | 'conclusao' | 'prestacao_contas' | 'manual',
  vencimento = '2026-11-22',
): RepasseEvent => ({ type: 'repasse.parcela_liberada', data: { ...alvo(cte_id), posicao, gatilho, liberada_em: NOW, vencimento } });
const solicitado = (cte_id: string, posicao: number, valor_centavos: number, ordem_id = 'ordem-1'): RepasseEvent => ({
  type: 'repasse.pagamento_solicitado',
  data: { ...alvo(cte_id), posicao, ordem_id, motorista_cpf: CPF, valor_centavos, solicitado_em: NOW },
});
const paga = (cte_id: string, posicao: number, valor_centavos: number, ordem_id = 'ordem-1'): RepasseEvent => ({
  type: 'repasse.parcela_paga',
  data: { ...alvo(cte_id), chave_original: `O-${cte_id}`, posicao, ordem_id, valor_centavos, paga_em: NOW },
});
type Mantido = NonNullable<EventData<'repasse.documento_cancelado'>['parcelas_pagas']>[number];
const canceladoComPagas = (cte_id: string, parcelas_canceladas: number[], parcelas_pagas: Mantido[], event_key?: string): RepasseEvent => ({
  type: 'repasse.documento_cancelado',
  data: { ...alvo(cte_id), cancelado_em: NOW, parcelas_canceladas, parcelas_pagas, ...(event_key ? { event_key } : {}) },
});
const cancelado = (cte_id: string, ...parcelas_canceladas: number[]) => canceladoComPagas(cte_id, parcelas_canceladas, []);
const enviado = (cte_id: string, posicao: number, ordem_id = 'ordem-1'): RepasseEvent => ({
  type: 'repasse.pagamento_enviado',
  data: { ...alvo(cte_id), posicao, ordem_id, enviado_em: NOW },
});
const retirado = (
  cte_id: string,
  posicao: number,
  valor_centavos: number,
  motivo: 'cancelamento_solicitado' | 'documento_cancelado',
  ordem_id = 'ordem-1',
): RepasseEvent => ({
  type: 'repasse.pagamento_retirado',
  data: { ...alvo(cte_id), posicao, ordem_id, valor_centavos, motivo, retirado_em: NOW },
});
const cancelamentoSolicitado = (cte_id: string, event_key: string): RepasseEvent => ({
  type: 'repasse.cancelamento_solicitado',
  data: { ...alvo(cte_id), event_key, solicitado_em: NOW },
});
const cancelamentoRecusado = (cte_id: string, event_key: string): RepasseEvent => ({
  type: 'repasse.cancelamento_recusado',
  data: { ...alvo(cte_id), event_key, recusado_em: NOW },
});
const solicitar = (cte_id: string, event_key: string): RepasseCommand => ({ type: 'SolicitarCancelamento', ...alvo(cte_id), event_key });
const recusar = (cte_id: string, event_key: string): RepasseCommand => ({ type: 'RecusarCancelamento', ...alvo(cte_id), event_key });
const enviar = (cte_id: string, posicao: number, ordem_id = 'ordem-1'): RepasseCommand => ({
  type: 'EnviarPagamento',
  ...alvo(cte_id),
  posicao,
  ordem_id,
});
const cmd = (type: 'Bipar' | 'Concluir' | 'PrestarContas' | 'CancelarDocumento', cte_id: string): RepasseCommand => ({
  type,
  ...alvo(cte_id),
});
const liberar = (cte_id: string, posicao: number): RepasseCommand => ({ type: 'Liberar', ...alvo(cte_id), posicao });
const pagar = (cte_id: string, posicao: number, ordem_id = 'ordem-1'): RepasseCommand => ({
  type: 'Pagar',
  ...alvo(cte_id),
  posicao,
  ordem_id,
});

/** A single document split 60/20/20 (a group of one, fewer documents than installments), scanned. */
const split = [registrado('a', 0), geradas('a', 1, 1, parcela(1, 60, 6001, 0), parcela(2, 20, 2000, 10), parcela(3, 20, 2000, 30))];

describe('repasse decider: registration', () => {
  it('registers a document once per counter-CT-e', () => {
    given()
      .when({ type: 'RegistrarDocumento', dados: dados('a', 0) })
      .then(registrado('a', 0));
    given(registrado('a', 0))
      .when({ type: 'RegistrarDocumento', dados: dados('a', 0) })
      .then();
  });

  it('records a failed financial step once; never after a registration', () => {
    const falha = { ...dados('a', 0), code: 'motorista_nao_encontrado', message: 'driver gone' };
    const { regra: _r, modo: _m, ...semRegra } = falha;
    const ev: RepasseEvent = { type: 'repasse.registro_falhou', data: { ...semRegra, falhou_em: NOW } };
    given().when({ type: 'RegistrarFalha', dados: semRegra }).then(ev);
    given(ev).when({ type: 'RegistrarFalha', dados: semRegra }).then();
    given(registrado('a', 0)).when({ type: 'RegistrarFalha', dados: semRegra }).then();
  });
});

describe('repasse decider: scan (bipagem)', () => {
  it('N < k: the document is split by the percentages, exact to the cent; automatic mode releases position 1 at once', () =>
    given(registrado('a', 0))
      .when(cmd('Bipar', 'a'))
      .then(geradas('a', 1, 1, parcela(1, 60, 6001, 0), parcela(2, 20, 2000, 10), parcela(3, 20, 2000, 30)), liberada('a', 1, 'bipagem')));

  it('N ≥ k: the whole document falls in the bucket of its rank (3 documents 60/20/20 → 1/1/1, by batch order)', () => {
    const docs = [registrado('c', 2), registrado('a', 0), registrado('b', 1)];
    given(...docs)
      .when(cmd('Bipar', 'a'))
      .then(geradas('a', 3, 1, parcela(1, 100, 10001, 0)), liberada('a', 1, 'bipagem'));
    given(...docs)
      .when(cmd('Bipar', 'b'))
      .then(geradas('b', 3, 2, parcela(2, 100, 10001, 10)));
    given(...docs)
      .when(cmd('Bipar', 'c'))
      .then(geradas('c', 3, 3, parcela(3, 100, 10001, 30)));
  });

  it('4 documents 60/20/20 → 2/1/1: the second document is still at position 1', () => {
    const docs = [registrado('a', 0), registrado('b', 1), registrado('c', 2), registrado('d', 3)];
    given(...docs)
      .when(cmd('Bipar', 'b'))
      .then(geradas('b', 4, 2, parcela(1, 100, 10001, 0)), liberada('b', 1, 'bipagem'));
    given(...docs)
      .when(cmd('Bipar', 'c'))
      .then(geradas('c', 4, 3, parcela(2, 100, 10001, 10)));
  });

  it('cancelled documents leave the group: the next scan counts N-1', () =>
    given(registrado('a', 0), registrado('b', 1), registrado('c', 2), cancelado('a'))
      .when(cmd('Bipar', 'b'))
      .then(geradas('b', 2, 1, parcela(1, 60, 6001, 0), parcela(2, 20, 2000, 10), parcela(3, 20, 2000, 30)), liberada('b', 1, 'bipagem')));

  it('manual mode: the scan creates the installments and releases nothing', () =>
    given(manual('a', 0))
      .when(cmd('Bipar', 'a'))
      .then(geradas('a', 1, 1, parcela(1, 60, 6001, 0), parcela(2, 20, 2000, 10), parcela(3, 20, 2000, 30))));

  it('is idempotent; refuses an unknown or cancelled document', () => {
    given(...split)
      .when(cmd('Bipar', 'a'))
      .then();
    given().when(cmd('Bipar', 'a')).thenRejects('nao_encontrado');
    given(registrado('a', 0), cancelado('a')).when(cmd('Bipar', 'a')).thenRejects('documento_cancelado');
  });
});

describe('repasse decider: completion and accountability', () => {
  it('automatic: completion releases 2, accountability releases 3, each once', () => {
    given(...split, liberada('a', 1, 'bipagem'))
      .when(cmd('Concluir', 'a'))
      .then(
        { type: 'repasse.conclusao_registrada', data: { ...alvo('a'), concluido_em: NOW } },
        liberada('a', 2, 'conclusao', '2026-12-02'),
      );
    const concluido: RepasseEvent = { type: 'repasse.conclusao_registrada', data: { ...alvo('a'), concluido_em: NOW } };
    given(...split, concluido)
      .when(cmd('Concluir', 'a'))
      .then();
    given(...split)
      .when(cmd('PrestarContas', 'a'))
      .then(
        { type: 'repasse.prestacao_contas_registrada', data: { ...alvo('a'), prestado_contas_em: NOW } },
        liberada('a', 3, 'prestacao_contas', '2026-12-22'),
      );
    given(...split, { type: 'repasse.prestacao_contas_registrada', data: { ...alvo('a'), prestado_contas_em: NOW } })
      .when(cmd('PrestarContas', 'a'))
      .then();
  });

  it('automatic: an act whose position this document lacks (whole-document bucket) only records the act', () =>
    given(registrado('a', 0), registrado('b', 1), registrado('c', 2), geradas('a', 3, 1, parcela(1, 100, 10001, 0)))
      .when(cmd('Concluir', 'a'))
      .then({ type: 'repasse.conclusao_registrada', data: { ...alvo('a'), concluido_em: NOW } }));

  it('automatic: a position already released by hand is not released again', () =>
    given(...split, liberada('a', 2, 'manual'))
      .when(cmd('Concluir', 'a'))
      .then({ type: 'repasse.conclusao_registrada', data: { ...alvo('a'), concluido_em: NOW } }));

  it('manual: the acts are recorded and release nothing', () => {
    const m = [manual('a', 0), geradas('a', 1, 1, parcela(1, 60, 6001, 0), parcela(2, 20, 2000, 10), parcela(3, 20, 2000, 30))];
    given(...m)
      .when(cmd('Concluir', 'a'))
      .then({ type: 'repasse.conclusao_registrada', data: { ...alvo('a'), concluido_em: NOW } });
    given(...m)
      .when(cmd('PrestarContas', 'a'))
      .then({ type: 'repasse.prestacao_contas_registrada', data: { ...alvo('a'), prestado_contas_em: NOW } });
  });

  it('refuses before the scan, for a cancelled or unknown document', () => {
    given(registrado('a', 0)).when(cmd('Concluir', 'a')).thenRejects('parcelas_nao_geradas');
    given(registrado('a', 0)).when(cmd('PrestarContas', 'a')).thenRejects('parcelas_nao_geradas');
    given(...split, cancelado('a', 1, 2, 3))
      .when(cmd('Concluir', 'a'))
      .thenRejects('documento_cancelado');
    given(...split, cancelado('a', 1, 2, 3))
      .when(cmd('PrestarContas', 'a'))
      .thenRejects('documento_cancelado');
    given().when(cmd('PrestarContas', 'a')).thenRejects('nao_encontrado');
  });
});

describe('repasse decider: release (liberar)', () => {
  it('releases a pending installment, due on release day plus dias', () =>
    given(manual('a', 0), geradas('a', 1, 1, parcela(1, 60, 6001, 0), parcela(2, 20, 2000, 10), parcela(3, 20, 2000, 30)))
      .when(liberar('a', 2))
      .then(liberada('a', 2, 'manual', '2026-12-02')));

  it('refuses: twice, unknown position, before the scan, cancelled, unknown document', () => {
    given(...split, liberada('a', 1, 'bipagem'))
      .when(liberar('a', 1))
      .thenRejects('parcela_ja_liberada');
    given(...split, liberada('a', 1, 'bipagem'), solicitado('a', 1, 6001), paga('a', 1, 6001))
      .when(liberar('a', 1))
      .thenRejects('parcela_ja_liberada');
    given(registrado('a', 0), registrado('b', 1), registrado('c', 2), geradas('a', 3, 1, parcela(1, 100, 10001, 0)))
      .when(liberar('a', 2))
      .thenRejects('parcela_nao_encontrada');
    given(registrado('a', 0)).when(liberar('a', 1)).thenRejects('parcelas_nao_geradas');
    given(...split, cancelado('a', 1, 2, 3))
      .when(liberar('a', 2))
      .thenRejects('parcela_cancelada');
    given().when(liberar('a', 1)).thenRejects('nao_encontrado');
  });
});

describe('repasse decider: payment (pagar, settlement)', () => {
  const released = [...split, liberada('a', 1, 'bipagem')];

  it('orders payment of a released installment with its value', () =>
    given(...released)
      .when(pagar('a', 1))
      .then(solicitado('a', 1, 6001)));

  it('refuses: not released, already ordered, already paid, cancelled, before the scan, unknown position', () => {
    given(...split)
      .when(pagar('a', 2))
      .thenRejects('parcela_nao_liberada');
    given(...released, solicitado('a', 1, 6001))
      .when(pagar('a', 1, 'ordem-2'))
      .thenRejects('parcela_ja_paga');
    given(...released, solicitado('a', 1, 6001), paga('a', 1, 6001))
      .when(pagar('a', 1, 'ordem-2'))
      .thenRejects('parcela_ja_paga');
    given(...split, cancelado('a', 1, 2, 3))
      .when(pagar('a', 1))
      .thenRejects('parcela_cancelada');
    given(registrado('a', 0)).when(pagar('a', 1)).thenRejects('parcelas_nao_geradas');
    given(registrado('a', 0), registrado('b', 1), registrado('c', 2), geradas('a', 3, 1, parcela(1, 100, 10001, 0)))
      .when(pagar('a', 3))
      .thenRejects('parcela_nao_encontrada');
  });

  it('a retry of the same order (same ordem_id) adds nothing', () =>
    given(...released, solicitado('a', 1, 6001))
      .when(pagar('a', 1, 'ordem-1'))
      .then());

  it('hands an ordered installment to the rail once, and settles only what it handed over', () => {
    const settle = (ordem_id: string): RepasseCommand => ({ type: 'LiquidarPagamento', ...alvo('a'), posicao: 1, ordem_id });
    given(...released, solicitado('a', 1, 6001))
      .when(enviar('a', 1))
      .then(enviado('a', 1));
    given(...released, solicitado('a', 1, 6001), enviado('a', 1))
      .when(enviar('a', 1))
      .then();
    given(...released, solicitado('a', 1, 6001))
      .when(enviar('a', 1, 'ordem-x'))
      .then();
    given(...released, solicitado('a', 1, 6001), enviado('a', 1))
      .when(settle('ordem-1'))
      .then(paga('a', 1, 6001));
    // Never handed to the rail: nothing settled.
    given(...released, solicitado('a', 1, 6001))
      .when(settle('ordem-1'))
      .then();
    given(...released, solicitado('a', 1, 6001), enviado('a', 1), paga('a', 1, 6001))
      .when(settle('ordem-1'))
      .then();
    given(...released, solicitado('a', 1, 6001), enviado('a', 1))
      .when(settle('ordem-x'))
      .then();
    given().when(settle('ordem-1')).then();
  });
});

describe('repasse decider: cancellation of the counter-CT-e', () => {
  it('cancels pending and released installments; paid and handed-over ones stay, listed as kept', () =>
    given(...split, liberada('a', 1, 'bipagem'), solicitado('a', 1, 6001), enviado('a', 1), liberada('a', 2, 'manual'))
      .when(cmd('CancelarDocumento', 'a'))
      .then(canceladoComPagas('a', [2, 3], [{ posicao: 1, ordem_id: 'ordem-1', valor_centavos: 6001, situacao: 'pagamento_enviado' }])));

  it('withdraws an order not yet handed to the rail and cancels its installment', () =>
    given(...split, liberada('a', 1, 'bipagem'), solicitado('a', 1, 6001))
      .when(cmd('CancelarDocumento', 'a'))
      .then(retirado('a', 1, 6001, 'documento_cancelado'), cancelado('a', 1, 2, 3)));

  it('before the scan there is nothing to cancel but the document leaves the group', () =>
    given(registrado('a', 0)).when(cmd('CancelarDocumento', 'a')).then(cancelado('a')));

  it('is idempotent; a document not registered yet is cancelled all the same', () => {
    given(...split, cancelado('a', 1, 2, 3))
      .when(cmd('CancelarDocumento', 'a'))
      .then();
    given().when(cmd('CancelarDocumento', 'a')).then(cancelado('a'));
    given(cancelado('a')).when(cmd('CancelarDocumento', 'a')).then();
  });

  it('a paid installment survives the cancellation: paying it again is refused as paid', () =>
    given(...split, liberada('a', 1, 'bipagem'), solicitado('a', 1, 6001), enviado('a', 1), paga('a', 1, 6001), cancelado('a', 2, 3))
      .when(pagar('a', 1, 'ordem-2'))
      .thenRejects('parcela_ja_paga'));

  it('once cancelled, no order is handed over nor settled, and nothing is released or ordered', () => {
    const history = [
      ...split,
      liberada('a', 1, 'bipagem'),
      solicitado('a', 1, 6001),
      retirado('a', 1, 6001, 'documento_cancelado'),
      cancelado('a', 1, 2, 3),
    ];
    given(...history)
      .when(enviar('a', 1))
      .then();
    given(...history)
      .when(pagar('a', 1, 'ordem-2'))
      .thenRejects('parcela_cancelada');
    given(...history)
      .when(liberar('a', 2))
      .thenRejects('parcela_cancelada');
  });
});

describe('repasse decider: a cancellation at the authority holds the document', () => {
  const released = [...split, liberada('a', 1, 'bipagem')];
  /** Ordered, then held: the order not handed to the rail was withdrawn with the hold. */
  const held = [
    ...released,
    solicitado('a', 1, 6001),
    cancelamentoSolicitado('a', 'K1'),
    retirado('a', 1, 6001, 'cancelamento_solicitado'),
  ];

  it('the request holds the document and withdraws orders not handed to the rail; handed-over ones go on', () => {
    given(...released, solicitado('a', 1, 6001))
      .when(solicitar('a', 'K1'))
      .then(cancelamentoSolicitado('a', 'K1'), retirado('a', 1, 6001, 'cancelamento_solicitado'));
    given(...released, solicitado('a', 1, 6001), enviado('a', 1))
      .when(solicitar('a', 'K1'))
      .then(cancelamentoSolicitado('a', 'K1'));
  });

  it('while held, nothing is released or ordered, and a withdrawn order is never handed over', () => {
    given(...held)
      .when(pagar('a', 1, 'ordem-2'))
      .thenRejects('documento_em_cancelamento');
    given(...held)
      .when(liberar('a', 2))
      .thenRejects('documento_em_cancelamento');
    given(...held)
      .when(enviar('a', 1))
      .then();
  });

  it('the driver app still reports while held', () =>
    given(...released, cancelamentoSolicitado('a', 'K1'))
      .when(cmd('Concluir', 'a'))
      .then(
        { type: 'repasse.conclusao_registrada', data: { ...alvo('a'), concluido_em: NOW } },
        liberada('a', 2, 'conclusao', '2026-12-02'),
      ));

  it('a refusal lets the document go: the installment can be ordered again', () => {
    given(...held)
      .when(recusar('a', 'K1'))
      .then(cancelamentoRecusado('a', 'K1'));
    given(...held, cancelamentoRecusado('a', 'K1'))
      .when(pagar('a', 1, 'ordem-2'))
      .then(solicitado('a', 1, 6001, 'ordem-2'));
    // A verdict about another request, or a refusal repeated, changes nothing.
    given(...held)
      .when(recusar('a', 'K0'))
      .then();
    given(...held, cancelamentoRecusado('a', 'K1'))
      .when(recusar('a', 'K1'))
      .then();
  });

  it('a late echo of a request already decided does not hold the document again', () => {
    given(...released, cancelamentoSolicitado('a', 'K1'), cancelamentoRecusado('a', 'K1'))
      .when(solicitar('a', 'K1'))
      .then();
    given(...released, cancelamentoSolicitado('a', 'K1'))
      .when(solicitar('a', 'K1'))
      .then();
    given(...released, cancelamentoSolicitado('a', 'K1'), cancelado('a', 2, 3))
      .when(solicitar('a', 'K1'))
      .then();
  });

  it('registration ends the hold in cancellation', () =>
    given(...released, cancelamentoSolicitado('a', 'K1'))
      .when({ type: 'CancelarDocumento', ...alvo('a'), event_key: 'K1' })
      .then(canceladoComPagas('a', [1, 2, 3], [], 'K1')));

  it('a document registered after its cancellation was decided enters the group held or cancelled', () => {
    given(cancelamentoSolicitado('a', 'K1'))
      .when({ type: 'RegistrarDocumento', dados: dados('a', 0) })
      .then(registrado('a', 0), cancelamentoSolicitado('a', 'K1'));
    given(cancelado('a'))
      .when({ type: 'RegistrarDocumento', dados: dados('a', 0) })
      .then(registrado('a', 0), cancelado('a'));
  });
});

describe('repasse: folding a whole history', () => {
  it('fold (on one copy: emLugar) gives the same state as evolving event by event', () => {
    const history: RepasseEvent[] = [
      registrado('a', 0),
      registrado('b', 1),
      manual('c', 2),
      geradas('a', 3, 0, parcela(1, 100, 1000, 0)),
      liberada('a', 1, 'bipagem'),
      solicitado('a', 1, 1000),
      paga('a', 1, 1000),
      cancelado('b'),
    ];
    expect(fold(repasseDecider, history)).toEqual(history.reduce(repasseDecider.evolve, repasseDecider.initialState));
  });
});

describe('a group of a thousand documents is folded on one copy (emLugar)', () => {
  /** Frozen all the way down: folding into it in place would throw. */
  const congelado = <T>(x: T): T => {
    if (x && typeof x === 'object') {
      Object.values(x).forEach(congelado);
      Object.freeze(x);
    }
    return x;
  };
  const historia: RepasseEvent[] = [
    registrado('a', 0),
    registrado('b', 1),
    { type: 'repasse.registro_falhou', data: { ...dados('c', 2), code: 'motorista_nao_encontrado', message: 'x', falhou_em: NOW } },
    geradas('a', 2, 1, parcela(1, 60, 6000, 0), parcela(2, 20, 2000, 10), parcela(3, 20, 2001, 30)),
    liberada('a', 1, 'bipagem'),
    solicitado('a', 1, 6000),
    enviado('a', 1),
    paga('a', 1, 6000),
    cancelamentoSolicitado('b', 'k1'),
    cancelamentoRecusado('b', 'k1'),
    registrado('c', 2),
    cancelado('c'),
  ];

  it('gives what evolving event by event gives, from the start and from a state it leaves untouched', () => {
    const umAUm = historia.reduce(repasseDecider.evolve, repasseDecider.initialState);
    expect(fold(repasseDecider, historia)).toEqual(umAUm);
    const meio = congelado(historia.slice(0, 5).reduce(repasseDecider.evolve, repasseDecider.initialState));
    const copia = structuredClone(meio);
    expect(evoluirTodos(repasseDecider, meio, historia.slice(5))).toEqual(umAUm);
    expect(meio).toEqual(copia);
  });

  it('a group of registrations decides, one after another on one copy, what each would decide alone', () => {
    const inicio = congelado(fold(repasseDecider, [registrado('a', 0)]));
    const comandos: RepasseCommand[] = ['a', 'b', 'c', 'b'].map((id, i) => ({ type: 'RegistrarDocumento', dados: dados(id, i) }));
    const ctx = { now: new Date(NOW) };
    const sozinhos: RepasseEvent[] = [];
    let estado = inicio;
    for (const c of comandos) {
      const novos = repasseDecider.decide(c, estado, ctx);
      estado = novos.reduce(repasseDecider.evolve, estado);
      sozinhos.push(...novos);
    }
    // 'a' is already registered and the second 'b' repeats the first: two registrations.
    expect(sozinhos.map((e) => (e.data as { cte_id: string }).cte_id)).toEqual(['b', 'c']);
    expect(emSequencia(repasseDecider).decide(comandos, inicio, ctx)).toEqual(sozinhos);
  });
});
