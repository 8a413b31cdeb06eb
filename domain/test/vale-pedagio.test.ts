import {
  type DadosEmissaoValePedagio,
  type DocumentosReferidos,
  type ValePedagioCommand,
  type ValePedagioEvent,
  PRAZO_CANCELAMENTO_MS,
  referenciaNaoEncontrada,
  taxaServicoCentavos,
  tpValePed,
  valePedagioDecider,
  valePedagioStream,
  valoresValePedagio,
} from '../src';
import { scenario } from './given-when-then';

const T0 = new Date('2026-11-22T12:00:00Z');
const C = 'company-1';
const V = '9b2f3c4e-1111-4222-8333-444455556666';
const at = (ms: number) => new Date(T0.getTime() + ms);
const H = 60 * 60 * 1000;

const dados: DadosEmissaoValePedagio = {
  company_id: C,
  vale_pedagio_id: V,
  numero: '91234567890123456789',
  referencia_externa: null,
  origem: { codigo_ibge: '3509502', municipio: 'Campinas', uf: 'SP' },
  destino: { codigo_ibge: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ' },
  categoria: '07',
  eixos: 5,
  placa: 'ABC1D23',
  tipo: 'TAG',
  motorista: null,
  cte: null,
  mdfe: null,
  fornecedor: { cnpj: '99887766000100', nome: 'FVPO', simulado: true },
  pagador_cnpj: '11222333000181',
  distancia_km: 500,
  pracas: [
    { ordem: 1, codigo: 'P1', nome: 'P1', rodovia: 'BR-116', km: 10, uf: 'SP', concessionaria: 'X', tarifa_centavos: 4_500 },
    { ordem: 2, codigo: 'P2', nome: 'P2', rodovia: 'BR-116', km: 120, uf: 'RJ', concessionaria: 'X', tarifa_centavos: 6_000 },
  ],
  valor_pedagio_centavos: 10_500,
  taxa_centavos: 158,
  valor_total_centavos: 10_658,
};
const emitido: ValePedagioEvent = {
  type: 'vale_pedagio.emitido',
  data: { ...dados, emitido_em: T0.toISOString(), cancelavel_ate: at(3 * H).toISOString() },
};
const passou = (codigo: string, ordem: number, ms: number): ValePedagioEvent => ({
  type: 'vale_pedagio.passagem_registrada',
  data: { company_id: C, vale_pedagio_id: V, praca_codigo: codigo, praca_ordem: ordem, passou_em: at(ms).toISOString() },
});
const cancelado = (ms: number): ValePedagioEvent => ({
  type: 'vale_pedagio.cancelado',
  data: { company_id: C, vale_pedagio_id: V, cancelado_em: at(ms).toISOString() },
});
const nenhum: DocumentosReferidos = { cte: null, mdfe: null };
const emitir = (d: DadosEmissaoValePedagio = dados, documentos: DocumentosReferidos = nenhum): ValePedagioCommand => ({
  type: 'Emitir',
  dados: d,
  documentos,
});
const CTE = '6f1c2b9e-1111-4222-8333-444455556666';
const CHAVE_MDFE = '35261111222333000181580070000000011000000013';
const cancelar: ValePedagioCommand = { type: 'Cancelar', company_id: C, vale_pedagio_id: V };
const passar = (praca?: string): ValePedagioCommand => ({
  type: 'RegistrarPassagem',
  company_id: C,
  vale_pedagio_id: V,
  praca_codigo: praca,
});
const when = (ms: number) => scenario(valePedagioDecider, { now: at(ms) }).given;

describe('toll pass values', () => {
  it('fee: 1.5% of the toll, half up to the cent, at least 1.00', () => {
    expect(taxaServicoCentavos(10_500)).toBe(158); // 157.5 → 158
    expect(taxaServicoCentavos(10_433)).toBe(156); // 156.495 → 156
    expect(taxaServicoCentavos(1_000)).toBe(100); // 15 → minimum 100
    expect(valoresValePedagio([4_500, 6_000])).toEqual({
      valor_pedagio_centavos: 10_500,
      taxa_centavos: 158,
      valor_total_centavos: 10_658,
    });
  });
  it('MDF-e tpValePed: TAG 01, placa 04', () => expect([tpValePed('TAG'), tpValePed('placa')]).toEqual(['01', '04']));
});

describe('toll pass decider', () => {
  it('uses one stream per toll pass, named by company', () => expect(valePedagioStream(C, V)).toBe(`vale-pedagio-company-1-${V}`));

  it('issues with emitido_em = the clock and cancelavel_ate = + 3 h', () => when(0)().when(emitir()).then(emitido));

  it('issues once: the same toll pass again appends nothing', () => when(5_000)(emitido).when(emitir()).then());

  it('refuses values that do not add up, and a route without plazas', () => {
    when(0)()
      .when(emitir({ ...dados, taxa_centavos: 100, valor_total_centavos: 10_600 }))
      .thenRejects('regra_de_negocio');
    when(0)()
      .when(emitir({ ...dados, pracas: [], valor_pedagio_centavos: 0, taxa_centavos: 100, valor_total_centavos: 100 }))
      .thenRejects('rota_sem_pracas');
  });

  describe("the CT-e and MDF-e references name the company's own documents", () => {
    const comRefs = { ...dados, cte: CTE, mdfe: CHAVE_MDFE };
    const proprios = { cte: { id: CTE, company_id: C }, mdfe: { id: 'mdfe-1', company_id: C } };

    it('issues when each reference names a document of the company', () => {
      when(0)()
        .when(emitir(comRefs, proprios))
        .then({ ...emitido, data: { ...emitido.data, cte: CTE, mdfe: CHAVE_MDFE } } as ValePedagioEvent);
      expect(referenciaNaoEncontrada(comRefs, proprios)).toBeNull();
      expect(referenciaNaoEncontrada(dados, nenhum)).toBeNull();
    });

    it('refuses a reference that names no document: nao_encontrado naming it', () => {
      when(0)()
        .when(emitir(comRefs, { ...proprios, cte: null }))
        .thenRejects('nao_encontrado', ['cte']);
      when(0)()
        .when(emitir(comRefs, { ...proprios, mdfe: null }))
        .thenRejects('nao_encontrado', ['mdfe']);
      when(0)().when(emitir(comRefs, nenhum)).thenRejects('nao_encontrado', ['cte', 'mdfe']);
    });

    it("refuses another company's document exactly as an unknown one", () => {
      const alheio = { ...proprios, cte: { id: CTE, company_id: 'company-2' } };
      when(0)().when(emitir(comRefs, alheio)).thenRejects('nao_encontrado', ['cte']);
      expect(referenciaNaoEncontrada(comRefs, alheio)?.message).toBe(referenciaNaoEncontrada(comRefs, { ...proprios, cte: null })?.message);
    });

    it('a repeated purchase appends nothing before it asks', () => when(5_000)(emitido).when(emitir(comRefs, nenhum)).then());
  });

  describe('cancellation: strictly within 3 hours and before the first passage', () => {
    it('at issue, at 2h59m59.999s: cancelled', () => {
      when(0)(emitido).when(cancelar).then(cancelado(0));
      when(3 * H - 1)(emitido)
        .when(cancelar)
        .then(cancelado(3 * H - 1));
    });
    it('at exactly 3h00m00s and after: cancelamento_fora_do_prazo', () => {
      expect(PRAZO_CANCELAMENTO_MS).toBe(3 * H);
      when(3 * H)(emitido)
        .when(cancelar)
        .thenRejects('cancelamento_fora_do_prazo');
      when(30 * H)(emitido)
        .when(cancelar)
        .thenRejects('cancelamento_fora_do_prazo');
    });
    it('after a passage, even within the 3 hours: passagem_registrada', () =>
      when(H)(emitido, passou('P1', 1, 30 * 60 * 1000))
        .when(cancelar)
        .thenRejects('passagem_registrada'));
    it('twice: vale_pedagio_ja_cancelado', () => when(H)(emitido, cancelado(10)).when(cancelar).thenRejects('vale_pedagio_ja_cancelado'));
    it('unknown: nao_encontrado', () => when(0)().when(cancelar).thenRejects('nao_encontrado'));
  });

  describe('passages (the supplier reports them)', () => {
    it('records the first plaza not passed when none is named, then the next', () => {
      when(1_000)(emitido)
        .when(passar())
        .then(passou('P1', 1, 1_000));
      when(2_000)(emitido, passou('P1', 1, 1_000))
        .when(passar())
        .then(passou('P2', 2, 2_000));
    });
    it('records a named plaza; the same plaza again appends nothing; every plaza passed appends nothing', () => {
      when(1_000)(emitido)
        .when(passar('P2'))
        .then(passou('P2', 2, 1_000));
      when(2_000)(emitido, passou('P2', 2, 1_000))
        .when(passar('P2'))
        .then();
      when(3_000)(emitido, passou('P1', 1, 1_000), passou('P2', 2, 2_000))
        .when(passar())
        .then();
    });
    it('refuses a plaza that is not on the toll pass, a cancelled toll pass and an unknown one', () => {
      when(0)(emitido).when(passar('P9')).thenRejects('praca_fora_do_vale', ['praca']);
      when(0)(emitido, cancelado(0)).when(passar()).thenRejects('vale_pedagio_ja_cancelado');
      when(0)().when(passar()).thenRejects('nao_encontrado');
    });
    it('a passage after the 3 hours is still recorded', () =>
      when(5 * H)(emitido)
        .when(passar())
        .then(passou('P1', 1, 5 * H)));
  });
});
