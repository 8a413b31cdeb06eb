import { type CteLido } from '@frete/contracts';
import {
  cartaCumulativa,
  cartasSemLista,
  CCE_MAX_CORRECOES,
  type CorrecaoCte,
  correcoesDaCartaAssinada,
  correcoesEmVigor,
  cteDecider,
  type CteCommand,
  type CteEvent,
  idEventoCte,
  montarEventoCte,
  Rejection,
} from '../src';
import { scenario } from './given-when-then';

/** Issue 29, point 1: each CC-e carries every correction in force (the authority keeps the one with the highest nSeqEvento). */

const chave = '35261111222333000181570010000000011000000010';
const cte = {
  protocolo: { numero: '135260000000001', recebido_em: '2026-11-20T10:00:05-03:00', status: 100, motivo: 'Autorizado', chave },
} as unknown as CteLido;
const recebido: CteEvent = {
  type: 'cte.emitido_recebido',
  data: { cte_id: 'id1', company_id: 'c1', chave, sha256: 's1', tamanho_bytes: 9, situacao: 'autorizado', cte },
};

const OBS = { grupoAlterado: 'compl', campoAlterado: 'xObs', valorAlterado: 'ENTREGAR NA DOCA 3' };
const OBS2 = { grupoAlterado: 'compl', campoAlterado: 'xObs', valorAlterado: 'ENTREGAR NA DOCA 4' };
const QCARGA1 = { grupoAlterado: 'infQ', campoAlterado: 'qCarga', valorAlterado: '1000.0000', nroItemAlterado: 1 };
const QCARGA2 = { grupoAlterado: 'infQ', campoAlterado: 'qCarga', valorAlterado: '20.0000', nroItemAlterado: 2 };
const PLACA = { grupoAlterado: 'rodo', campoAlterado: 'RNTRC', valorAlterado: '12345678' };

const key = (seq: number) => idEventoCte('110110', chave, seq);
const solicitado = (seq: number, correcoes: CorrecaoCte[]): CteEvent => ({
  type: 'cte.evento_solicitado',
  data: {
    cte_id: 'id1',
    company_id: 'c1',
    chave,
    event_key: key(seq),
    tp_evento: '110110',
    n_seq_evento: seq,
    sha256: `x${seq}`,
    correcoes,
  },
});
const protocolo = (seq: number, cstat = 135) => ({
  numero: `13526000000010${seq}`,
  registrado_em: '2026-11-21T10:00:00-03:00',
  cstat,
  motivo: cstat === 135 ? 'Evento registrado e vinculado a CT-e' : 'Evento registrado, mas não vinculado a CT-e',
});
const registrarCmd = (seq: number, cstat = 135) =>
  ({
    type: 'RegistrarEventoRegistrado',
    data: {
      cte_id: 'id1',
      company_id: 'c1',
      event_key: key(seq),
      tp_evento: '110110',
      sha256: `p${seq}`,
      registrado_em: '2026-11-21T13:00:00.000Z',
      protocolo: protocolo(seq, cstat),
    },
  }) as const satisfies CteCommand;
/** A letter the authority registered, as the decider records it (its event alone says what is in force). */
const registrada = (historia: CteEvent[], seq: number, cstat = 135): CteEvent => {
  const [evento] = cteDecider.decide(registrarCmd(seq, cstat), historia.reduce(cteDecider.evolve, cteDecider.initialState), {
    now: new Date('2026-11-22T12:00:00Z'),
  });
  return evento!;
};
const rejeitada = (seq: number): CteEvent => ({
  type: 'cte.evento_rejeitado',
  data: { cte_id: 'id1', company_id: 'c1', event_key: key(seq), tp_evento: '110110', cstat: 236, motivo: 'Rejeição: chave inválida' },
});
/** The CC-e request: the corrections asked, and the list the signed letter carries. */
const pedir = (seq: number, novas: CorrecaoCte[], carta: CorrecaoCte[], legadas?: Record<string, CorrecaoCte[]>): CteCommand => ({
  type: 'SolicitarEventoCte',
  tipo: 'carta_correcao',
  correcoes: novas,
  data: (solicitado(seq, carta) as Extract<CteEvent, { type: 'cte.evento_solicitado' }>).data,
  ...(legadas ? { correcoes_legadas: legadas } : {}),
});

const rejeicao = (f: () => unknown): Rejection => {
  try {
    f();
  } catch (e) {
    if (e instanceof Rejection) return e;
    throw e;
  }
  throw new Error('not refused');
};

describe('cartaCumulativa: the corrections a new letter carries', () => {
  it('every earlier correction in its place, a new value of the same field in place of the old, new fields appended', () => {
    expect(cartaCumulativa([OBS, QCARGA1], [QCARGA2, OBS2, PLACA])).toEqual([OBS2, QCARGA1, QCARGA2, PLACA]);
    expect(cartaCumulativa([], [OBS])).toEqual([OBS]);
    // The same field twice in one letter: the later value, once.
    expect(cartaCumulativa([OBS], [OBS2, { ...OBS, valorAlterado: 'DOCA 5' }])).toEqual([{ ...OBS, valorAlterado: 'DOCA 5' }]);
    // A field in a list is told apart by its item; a field without item is another than item 1.
    expect(cartaCumulativa([QCARGA1], [{ ...QCARGA1, nroItemAlterado: undefined }]).length).toBe(2);
  });

  it('compares and records the value as the XML writes it (textoFiscal)', () => {
    expect(cartaCumulativa([OBS], [{ ...OBS, valorAlterado: '  ENTREGAR   NA DOCA 3 ' }])).toEqual([OBS]);
  });

  it(`refuses a letter over ${CCE_MAX_CORRECOES} corrections or a field over the schema's length: 422 carta_correcao_excede_limite`, () => {
    const trinta = Array.from({ length: 30 }, (_, i) => ({
      grupoAlterado: 'compl',
      campoAlterado: 'xObs',
      valorAlterado: `V${i}`,
      nroItemAlterado: i + 1,
    }));
    const vinte = Array.from({ length: 20 }, (_, i) => ({ ...PLACA, nroItemAlterado: i + 1 }));
    expect(cartaCumulativa(trinta, vinte)).toHaveLength(50);
    const r = rejeicao(() => cartaCumulativa(trinta, [...vinte, OBS]));
    expect(r.code).toBe('carta_correcao_excede_limite');
    expect(r.details).toMatchObject({ correcoes: 51, em_vigor: 30, maximo: 50 });
    // Replacing in place does not count twice.
    expect(cartaCumulativa([...trinta, ...vinte], [{ ...PLACA, nroItemAlterado: 3, valorAlterado: '999' }])).toHaveLength(50);
    expect(rejeicao(() => cartaCumulativa([], [{ ...OBS, campoAlterado: 'x'.repeat(21) }])).details).toMatchObject({
      campo: 'campoAlterado',
      maximo: 20,
    });
    expect(rejeicao(() => cartaCumulativa([], [{ ...OBS, valorAlterado: 'x'.repeat(501) }])).code).toBe('carta_correcao_excede_limite');
    expect(rejeicao(() => cartaCumulativa([], [{ ...OBS, valorAlterado: '   ' }])).details).toMatchObject({ campo: 'valorAlterado' });
    expect(rejeicao(() => cartaCumulativa([], [{ ...QCARGA1, nroItemAlterado: 100 }])).details).toMatchObject({ campo: 'nroItemAlterado' });
  });
});

describe('correcoesEmVigor: what the registered letters leave in force', () => {
  it('the last letter wins; a value it repeats unchanged keeps the letter that set it', () => {
    expect(
      correcoesEmVigor([
        { n_seq_evento: 2, event_key: key(2), correcoes: [OBS2, QCARGA1] },
        { n_seq_evento: 1, event_key: key(1), correcoes: [OBS, QCARGA1] },
      ]),
    ).toEqual([
      { grupo: 'compl', campo: 'xObs', valor: 'ENTREGAR NA DOCA 4', item: null, n_seq_evento: 2, event_key: key(2) },
      { grupo: 'infQ', campo: 'qCarga', valor: '1000.0000', item: 1, n_seq_evento: 1, event_key: key(1) },
    ]);
    expect(correcoesEmVigor([])).toEqual([]);
  });
});

describe('the CT-e decider: given events / when a CC-e / then the event carries the whole letter', () => {
  const { given } = scenario(cteDecider);
  const um = [recebido, solicitado(1, [OBS, QCARGA1])];
  const umRegistrado = [...um, registrada(um, 1)];

  it('the first letter carries its own corrections; registered, its event says what is in force', () => {
    given(recebido)
      .when(pedir(1, [OBS, QCARGA1], [OBS, QCARGA1]))
      .then(solicitado(1, [OBS, QCARGA1]));
    expect(umRegistrado[2]).toMatchObject({
      type: 'cte.evento_registrado',
      data: {
        correcoes_em_vigor: [
          { grupo: 'compl', campo: 'xObs', valor: 'ENTREGAR NA DOCA 3', item: null, n_seq_evento: 1, event_key: key(1) },
          { grupo: 'infQ', campo: 'qCarga', valor: '1000.0000', item: 1, n_seq_evento: 1, event_key: key(1) },
        ],
      },
    });
  });

  it('the second letter repeats the first (a field corrected again in place) with the next nSeqEvento', () => {
    given(...umRegistrado)
      .when(pedir(2, [PLACA, OBS2], [OBS2, QCARGA1, PLACA]))
      .then(solicitado(2, [OBS2, QCARGA1, PLACA]));
  });

  it('the third letter: three letters, one field corrected twice, each correction with the letter that set it', () => {
    const dois = [...umRegistrado, solicitado(2, [OBS2, QCARGA1, PLACA])];
    const doisRegistrado = [...dois, registrada(dois, 2)];
    given(...doisRegistrado)
      .when(pedir(3, [QCARGA2], [OBS2, QCARGA1, PLACA, QCARGA2]))
      .then(solicitado(3, [OBS2, QCARGA1, PLACA, QCARGA2]));
    const tres = [...doisRegistrado, solicitado(3, [OBS2, QCARGA1, PLACA, QCARGA2])];
    given(...tres)
      .when(registrarCmd(3))
      .then({
        type: 'cte.evento_registrado',
        data: {
          ...registrarCmd(3).data,
          correcoes_em_vigor: [
            { grupo: 'compl', campo: 'xObs', valor: 'ENTREGAR NA DOCA 4', item: null, n_seq_evento: 2, event_key: key(2) },
            { grupo: 'infQ', campo: 'qCarga', valor: '1000.0000', item: 1, n_seq_evento: 1, event_key: key(1) },
            { grupo: 'rodo', campo: 'RNTRC', valor: '12345678', item: null, n_seq_evento: 2, event_key: key(2) },
            { grupo: 'infQ', campo: 'qCarga', valor: '20.0000', item: 2, n_seq_evento: 3, event_key: key(3) },
          ],
        },
      });
  });

  it('a letter signed without the corrections in force (only its own, as before) is refused; so is one without corrections', () => {
    given(...umRegistrado)
      .when(pedir(2, [PLACA], [PLACA]))
      .thenRejects('regra_de_negocio');
    given(...umRegistrado)
      .when(pedir(2, [], [OBS, QCARGA1]))
      .thenRejects('regra_de_negocio');
  });

  it('only letters the authority registered (135/136) count: a rejected or pending letter does not', () => {
    // The second letter was rejected: the next one takes its sequence back and repeats only the first.
    const rejeitado = [...umRegistrado, solicitado(2, [OBS, QCARGA1, PLACA]), rejeitada(2)];
    given(...rejeitado)
      .when(pedir(2, [OBS2], [OBS2, QCARGA1]))
      .then(solicitado(2, [OBS2, QCARGA1]));
    // A pending letter blocks another one (it is reconciled, not sent again).
    given(...umRegistrado, solicitado(2, [OBS, QCARGA1, PLACA]))
      .when(pedir(3, [PLACA], [OBS, QCARGA1, PLACA]))
      .thenRejects('regra_de_negocio');
    // 136 (registered, not linked) is registered too.
    const n136 = [...um, registrada(um, 1, 136)];
    given(...n136)
      .when(pedir(2, [PLACA], [OBS, QCARGA1, PLACA]))
      .then(solicitado(2, [OBS, QCARGA1, PLACA]));
    // Any other cStat recorded as registered leaves the corrections in force as they were.
    const outro = [...um, registrada(um, 1, 134)];
    expect(outro[2]).toMatchObject({ data: { correcoes_em_vigor: [] } });
    given(...outro)
      .when(pedir(2, [PLACA], [PLACA]))
      .then(solicitado(2, [PLACA]));
  });

  it('nSeqEvento only increases: a sequence already used appends nothing, a skipped one is refused', () => {
    given(...umRegistrado)
      .when(pedir(1, [PLACA], [OBS, QCARGA1, PLACA]))
      .then();
    const dois = [...umRegistrado, solicitado(2, [OBS, QCARGA1, PLACA])];
    given(...dois, registrada(dois, 2))
      .when(pedir(2, [OBS2], [OBS2, QCARGA1, PLACA]))
      .then();
    given(...dois, registrada(dois, 2))
      .when(pedir(4, [OBS2], [OBS2, QCARGA1, PLACA]))
      .thenRejects('regra_de_negocio');
  });

  it('a letter that would pass 50 corrections with those in force is refused: 422 carta_correcao_excede_limite', () => {
    const trinta = Array.from({ length: 30 }, (_, i) => ({ ...OBS, valorAlterado: `V${i}`, nroItemAlterado: i + 1 }));
    const vinteUm = Array.from({ length: 21 }, (_, i) => ({ ...PLACA, nroItemAlterado: i + 1 }));
    const h = [recebido, solicitado(1, trinta)];
    given(...h, registrada(h, 1))
      .when(pedir(2, vinteUm, [...trinta, ...vinteUm]))
      .thenRejects('carta_correcao_excede_limite');
  });
});

describe('letters registered before their events carried their list', () => {
  const { given } = scenario(cteDecider);
  // A letter recorded before this change: its event has no `correcoes`.
  const { correcoes: _semLista, ...dadosLegados } = (solicitado(1, []) as Extract<CteEvent, { type: 'cte.evento_solicitado' }>).data;
  const legado = [recebido, { type: 'cte.evento_solicitado', data: dadosLegados } as CteEvent];
  const legadoRegistrado = [...legado, registrada(legado, 1)];

  it('are named by cartasSemLista and repeated from what their signed XML carries (correcoes_legadas)', () => {
    const state = legadoRegistrado.reduce(cteDecider.evolve, cteDecider.initialState);
    expect(cartasSemLista(state.eventos).map((e) => e.event_key)).toEqual([key(1)]);
    given(...legadoRegistrado)
      .when(pedir(2, [PLACA], [OBS, QCARGA1, PLACA], { [key(1)]: [OBS, QCARGA1] }))
      .then(solicitado(2, [OBS, QCARGA1, PLACA]));
    // Without their list the letter carries only what is known from the events.
    given(...legadoRegistrado)
      .when(pedir(2, [PLACA], [PLACA]))
      .then(solicitado(2, [PLACA]));
    // A list given for a letter whose event has its own is ignored: the events win.
    given(...umRegistradoDeFora())
      .when(pedir(2, [PLACA], [OBS, QCARGA1, PLACA], { [key(1)]: [OBS2] }))
      .then(solicitado(2, [OBS, QCARGA1, PLACA]));
  });

  it('correcoesDaCartaAssinada reads back the infCorrecao of a letter montarEventoCte built, escaped text and items included', () => {
    const correcoes = [
      { grupoAlterado: 'compl', campoAlterado: 'xObs', valorAlterado: 'DOCA 3 & <FUNDOS> "A" \'B\' ÇÃO' },
      QCARGA1,
      { ...QCARGA2, nroItemAlterado: 12 },
    ];
    const { xml } = montarEventoCte({
      chave,
      cnpjAutor: '11222333000181',
      tpAmb: 2,
      cOrgao: '35',
      nSeqEvento: 1,
      dhEvento: '2026-11-21T10:00:00-03:00',
      detalhe: { tpEvento: '110110', correcoes },
    });
    expect(correcoesDaCartaAssinada(xml)).toEqual(correcoes);
    expect(correcoesDaCartaAssinada('<eventoCTe/>')).toEqual([]);
  });
});

function umRegistradoDeFora(): CteEvent[] {
  const um = [recebido, solicitado(1, [OBS, QCARGA1])];
  return [...um, registrada(um, 1)];
}
