import { type CteLido } from '@frete/contracts';
import {
  campoVedadoNaCce,
  CCE_CAMPOS_VEDADOS,
  CCE_CONDICAO_DE_USO,
  cteDecider,
  type CteEvent,
  type CteCommand,
  idEventoCte,
  montarEventoCte,
  Rejection,
} from '../src';
import { scenario } from './given-when-then';

const chave = '35261111222333000181570010000000011000000010';
const nProt = '135260000000001';
// The decider reads only the protocol of a delivered CT-e.
const cte = {
  protocolo: { numero: nProt, recebido_em: '2026-11-20T10:00:05-03:00', status: 100, motivo: 'Autorizado o uso do CT-e', chave },
} as unknown as CteLido;
const recebido: CteEvent = {
  type: 'cte.emitido_recebido',
  data: { cte_id: 'id1', company_id: 'c1', chave, sha256: 's1', tamanho_bytes: 9, situacao: 'autorizado', cte },
};

/** The one correction every CC-e of these scenarios carries (cumulative letters: domain/test/cte-cce-cumulativa.test.ts). */
const OBS = { grupoAlterado: 'compl', campoAlterado: 'xObs', valorAlterado: 'ENTREGAR NA DOCA 3' };
const solicitado = (tp: '110111' | '110110' | '110180' | '110181', seq = 1, extra: { n_prot_ce?: string } = {}): CteEvent => ({
  type: 'cte.evento_solicitado',
  data: {
    cte_id: 'id1',
    company_id: 'c1',
    chave,
    event_key: idEventoCte(tp, chave, seq),
    tp_evento: tp,
    n_seq_evento: seq,
    sha256: `x${tp}${seq}`,
    ...extra,
    ...(tp === '110110' ? { correcoes: [OBS] } : {}),
  },
});
const registrado = (tp: '110111' | '110110' | '110180' | '110181', seq = 1, numero = `1352600000000${seq}${tp.slice(-1)}`): CteEvent => ({
  type: 'cte.evento_registrado',
  data: {
    cte_id: 'id1',
    company_id: 'c1',
    event_key: idEventoCte(tp, chave, seq),
    tp_evento: tp,
    sha256: `p${tp}${seq}`,
    registrado_em: '2026-11-21T13:00:00.000Z',
    protocolo: { numero, registrado_em: '2026-11-21T10:00:00-03:00', cstat: 135, motivo: 'Evento registrado e vinculado a CT-e' },
  },
});
const pedir = (
  tipo: 'cancelamento' | 'carta_correcao' | 'entrega' | 'entrega_cancelamento',
  tp: '110111' | '110110' | '110180' | '110181',
  seq = 1,
  extra: { n_prot_ce?: string } = {},
): CteCommand => ({
  type: 'SolicitarEventoCte',
  tipo,
  data: (solicitado(tp, seq, extra) as Extract<CteEvent, { type: 'cte.evento_solicitado' }>).data,
  ...(tipo === 'carta_correcao' ? { correcoes: [OBS] } : {}),
});

describe('eventoCTe builder', () => {
  const base = { chave, cnpjAutor: '11222333000181', tpAmb: 2 as const, cOrgao: '35', dhEvento: '2026-11-21T10:00:00-03:00' };

  it('cancelamento: the Id, the envelope in order and evCancCTe', () => {
    const { id, xml } = montarEventoCte({
      ...base,
      nSeqEvento: 1,
      detalhe: { tpEvento: '110111', nProt, xJust: 'ERRO  NA EMISSAO & DADOS' },
    });
    expect(id).toBe(`ID110111${chave}001`);
    expect(xml).toBe(
      `<eventoCTe xmlns="http://www.portalfiscal.inf.br/cte" versao="4.00"><infEvento Id="${id}"><cOrgao>35</cOrgao><tpAmb>2</tpAmb>` +
        `<CNPJ>11222333000181</CNPJ><chCTe>${chave}</chCTe><dhEvento>2026-11-21T10:00:00-03:00</dhEvento><tpEvento>110111</tpEvento>` +
        `<nSeqEvento>1</nSeqEvento><detEvento versaoEvento="4.00"><evCancCTe><descEvento>Cancelamento</descEvento><nProt>${nProt}</nProt>` +
        '<xJust>ERRO NA EMISSAO &amp; DADOS</xJust></evCancCTe></detEvento></infEvento></eventoCTe>',
    );
  });

  it('carta de correção: items in order and the exact legal text', () => {
    const { id, xml } = montarEventoCte({
      ...base,
      nSeqEvento: 12,
      detalhe: {
        tpEvento: '110110',
        correcoes: [
          { grupoAlterado: 'compl', campoAlterado: 'xObs', valorAlterado: 'NOVO' },
          { grupoAlterado: 'infQ', campoAlterado: 'qCarga', valorAlterado: '1.0000', nroItemAlterado: 2 },
        ],
      },
    });
    expect(id).toBe(`ID110110${chave}012`);
    expect(xml).toContain(
      '<evCCeCTe><descEvento>Carta de Correcao</descEvento><infCorrecao><grupoAlterado>compl</grupoAlterado><campoAlterado>xObs</campoAlterado><valorAlterado>NOVO</valorAlterado></infCorrecao>',
    );
    expect(xml).toContain('<nroItemAlterado>02</nroItemAlterado></infCorrecao>');
    expect(xml).toContain(`<xCondUso>${CCE_CONDICAO_DE_USO}</xCondUso></evCCeCTe>`);
    expect(CCE_CONDICAO_DE_USO).toMatch(/^A Carta de Correcao e disciplinada pelo Art\. 58-B .*III - a data de emissao ou de saida\.$/);
  });

  it('comprovante de entrega and its cancellation', () => {
    const { xml } = montarEventoCte({
      ...base,
      nSeqEvento: 1,
      detalhe: {
        tpEvento: '110180',
        nProt,
        dhEntrega: '2026-11-21T09:00:00-03:00',
        nDoc: '12345678909',
        xNome: 'FULANO',
        latitude: -23.5,
        longitude: -46.63,
        hashEntrega: Buffer.alloc(20, 1).toString('base64'),
        dhHashEntrega: '2026-11-21T09:00:00-03:00',
        nfes: ['1'.repeat(44)],
      },
    });
    expect(xml).toContain(
      `<evCECTe><descEvento>Comprovante de Entrega do CT-e</descEvento><nProt>${nProt}</nProt><dhEntrega>2026-11-21T09:00:00-03:00</dhEntrega>` +
        '<nDoc>12345678909</nDoc><xNome>FULANO</xNome><latitude>-23.500000</latitude><longitude>-46.630000</longitude>' +
        `<hashEntrega>${Buffer.alloc(20, 1).toString('base64')}</hashEntrega><dhHashEntrega>2026-11-21T09:00:00-03:00</dhHashEntrega>` +
        `<infEntrega><chNFe>${'1'.repeat(44)}</chNFe></infEntrega></evCECTe>`,
    );
    const canc = montarEventoCte({ ...base, nSeqEvento: 1, detalhe: { tpEvento: '110181', nProt, nProtCE: '135260000000099' } });
    expect(canc.xml).toContain(
      `<evCancCECTe><descEvento>Cancelamento do Comprovante de Entrega do CT-e</descEvento><nProt>${nProt}</nProt><nProtCE>135260000000099</nProtCE></evCancCECTe>`,
    );
  });

  it('the fields a CC-e may not correct (MOC §13.1), case-insensitive', () => {
    expect(CCE_CAMPOS_VEDADOS).toHaveLength(57);
    expect(campoVedadoNaCce('vPrest', 'vTPrest')).toBe(true);
    expect(campoVedadoNaCce('EMIT', 'cnpj')).toBe(true);
    expect(campoVedadoNaCce('ide', 'dhEmi')).toBe(true);
    expect(campoVedadoNaCce('compl', 'xObs')).toBe(false);
    expect(campoVedadoNaCce('emit', 'xNome')).toBe(false);
  });
});

describe('CT-e fiscal events in the decider', () => {
  const { given } = scenario(cteDecider);

  it('an authorized CT-e takes a cancellation; registered, it is cancelado and takes nothing more', () => {
    given(recebido).when(pedir('cancelamento', '110111')).then(solicitado('110111'));
    const state = [recebido, solicitado('110111'), registrado('110111')].reduce(cteDecider.evolve, cteDecider.initialState);
    expect(state.situacao).toBe('cancelado');
    expect(state.eventos[idEventoCte('110111', chave, 1)]).toMatchObject({ situacao: 'registrado', protocolo: { cstat: 135 } });
    given(recebido, solicitado('110111'), registrado('110111')).when(pedir('carta_correcao', '110110')).thenRejects('cte_nao_autorizado');
  });

  it("refuses events of a CT-e that is not authorized or not the company's", () => {
    const rascunho: CteEvent = {
      type: 'cte.rascunho_criado',
      data: { cte_id: 'id1', company_id: 'c1', ambiente: 'homologacao', dados: {} },
    };
    given(rascunho).when(pedir('cancelamento', '110111')).thenRejects('cte_nao_autorizado');
    given().when(pedir('cancelamento', '110111')).thenRejects('nao_encontrado');
    given(recebido)
      .when({
        ...pedir('cancelamento', '110111'),
        data: { ...(pedir('cancelamento', '110111') as { data: object }).data, company_id: 'c2' },
      } as CteCommand)
      .thenRejects('nao_encontrado');
  });

  it('cancellation: 862 after a registered delivery proof, 220 after 168 hours, 523 after a correction letter', () => {
    const details = (events: CteEvent[], cmd: CteCommand, now = new Date('2026-11-22T12:00:00Z')) => {
      try {
        cteDecider.decide(cmd, events.reduce(cteDecider.evolve, cteDecider.initialState), { now });
      } catch (e) {
        expect(e).toBeInstanceOf(Rejection);
        return { code: (e as Rejection).code, ...(e as Rejection).details };
      }
      throw new Error('not refused');
    };
    expect(details([recebido, solicitado('110180'), registrado('110180')], pedir('cancelamento', '110111'))).toMatchObject({
      code: 'regra_de_negocio',
      cstat: 862,
      motivo: expect.stringContaining('Comprovante de Entrega'),
    });
    expect(details([recebido], pedir('cancelamento', '110111'), new Date('2026-11-27T13:00:06Z'))).toMatchObject({
      code: 'regra_de_negocio',
      cstat: 220,
    });
    expect(details([recebido, solicitado('110110'), registrado('110110')], pedir('cancelamento', '110111'))).toMatchObject({ cstat: 523 });
    // Within 168 hours (authorized 2026-11-20T13:00:05Z).
    expect(
      cteDecider.decide(pedir('cancelamento', '110111'), cteDecider.evolve(cteDecider.initialState, recebido), {
        now: new Date('2026-11-27T13:00:04Z'),
      }),
    ).toHaveLength(1);
    // A cancelled delivery proof no longer blocks.
    const cancelada = [
      recebido,
      solicitado('110180'),
      registrado('110180', 1, '135260000000180'),
      solicitado('110181', 1, { n_prot_ce: '135260000000180' }),
      registrado('110181'),
    ];
    given(...cancelada)
      .when(pedir('cancelamento', '110111'))
      .then(solicitado('110111'));
    const state = cancelada.reduce(cteDecider.evolve, cteDecider.initialState);
    expect(state.eventos[idEventoCte('110180', chave, 1)]!.situacao).toBe('cancelado');
  });

  it('CC-e sequence 1..20; a rejected attempt gives its sequence back; a pending one blocks a second', () => {
    given(recebido, solicitado('110110', 1), registrado('110110', 1))
      .when(pedir('carta_correcao', '110110', 2))
      .then(solicitado('110110', 2));
    const vinte = Array.from({ length: 20 }, (_, i) => [solicitado('110110', i + 1), registrado('110110', i + 1)]).flat();
    given(recebido, ...vinte)
      .when(pedir('carta_correcao', '110110', 21))
      .thenRejects('regra_de_negocio');
    const rejeitado: CteEvent = {
      type: 'cte.evento_rejeitado',
      data: { cte_id: 'id1', company_id: 'c1', event_key: idEventoCte('110110', chave, 1), tp_evento: '110110', cstat: 236, motivo: 'x' },
    };
    given(recebido, solicitado('110110', 1), rejeitado)
      .when(pedir('carta_correcao', '110110', 1))
      .then(solicitado('110110', 1));
    given(recebido, solicitado('110110', 1))
      .when(pedir('carta_correcao', '110110', 2))
      .thenRejects('regra_de_negocio');
  });

  it('delivery proof: one at a time (870); its cancellation needs a registered one (866) and cites its protocol', () => {
    given(recebido, solicitado('110180'), registrado('110180'))
      .when(pedir('entrega', '110180', 2))
      .thenRejects('regra_de_negocio');
    given(recebido).when(pedir('entrega_cancelamento', '110181')).thenRejects('regra_de_negocio');
    given(recebido, solicitado('110180'), registrado('110180', 1, '135260000000180'))
      .when(pedir('entrega_cancelamento', '110181', 1, { n_prot_ce: '135260000000180' }))
      .then(solicitado('110181', 1, { n_prot_ce: '135260000000180' }));
  });

  it('verdicts are recorded once, only for a pending event', () => {
    const key = idEventoCte('110111', chave, 1);
    const pendente = {
      type: 'RegistrarEventoPendente' as const,
      data: { cte_id: 'id1', company_id: 'c1', event_key: key, tp_evento: '110111' as const, motivo: '105' },
    };
    given(recebido, solicitado('110111')).when(pendente).then({ type: 'cte.evento_pendente', data: pendente.data });
    const reg = registrado('110111') as Extract<CteEvent, { type: 'cte.evento_registrado' }>;
    given(recebido, solicitado('110111'), reg).when({ type: 'RegistrarEventoRegistrado', data: reg.data }).then();
    given(recebido).when(pendente).then();
    // Asking again for a key already requested (and not rejected) appends nothing.
    given(recebido, solicitado('110111')).when(pedir('cancelamento', '110111')).then();
  });
});
