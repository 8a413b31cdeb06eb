import { type CteLido } from '@frete/contracts';
import {
  cfopContraCte,
  planejarContraCte,
  type PedidoContraCte,
  readCte,
  type RegraContraCte,
  type ChaveSubcontratadaEvent,
  chaveSubcontratadaDecider,
} from '../src';
import { buildCteXml, nfeKey } from '../../test/support/cte-xml';
import { type CteContratante, cteContratanteXml } from '../../test/support/cte-contratante';
import { scenario } from './given-when-then';

const CONTRATANTE = '11222333000181';
const SUBCONTRATADA = '45723174000110';
const CAMPINAS = { codigo_ibge: '3509502', municipio: 'Campinas', uf: 'SP' };
const SAO_PAULO = { codigo_ibge: '3550308', municipio: 'São Paulo', uf: 'SP' };
const RIO = { codigo_ibge: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ' };
const CURITIBA = { codigo_ibge: '4106902', municipio: 'Curitiba', uf: 'PR' };

/** The contractor's CT-e, SP (Campinas) → RJ, as the inbox holds it. */
const original = (over: Parameters<typeof buildCteXml>[0] = { emitenteCnpj: CONTRATANTE }): CteLido =>
  readCte(
    buildCteXml({
      inicio: { codigoIbge: CAMPINAS.codigo_ibge, municipio: CAMPINAS.municipio, uf: 'SP' },
      fim: { codigoIbge: RIO.codigo_ibge, municipio: RIO.municipio, uf: 'RJ' },
      nfeChaves: [nfeKey(), nfeKey()],
      ...over,
    }).xml,
  );

const pedido = (over: Partial<PedidoContraCte> = {}): PedidoContraCte => ({
  tipo_servico: 1,
  origem: null,
  destino: null,
  valor_centavos: 123_45,
  motorista_cpf: '52998224725',
  placa: 'ABC1D23',
  ...over,
});
const geral = (uf_origem: string, uf_destino: string, cfop: string | null = null): RegraContraCte => ({
  uf_origem,
  uf_destino,
  tp_serv: null,
  cfop,
});
const REGRAS = [geral('SP', 'RJ'), geral('SP', 'SP'), geral('RJ', 'RJ'), geral('RJ', 'SP'), geral('PR', 'RJ')];
const emitenteSP = { cnpj: SUBCONTRATADA, uf: 'SP', environment: 'homologacao' as const };

describe('counter-CT-e CFOP (batch rule 4)', () => {
  it.each([
    ['SP', 'SP', 'SP', null, '5360'],
    ['SP', 'SP', 'RJ', null, '6360'],
    ['SP', 'RJ', 'RJ', null, '5932'],
    ['SP', 'RJ', 'SP', null, '6932'],
  ])('emitter %s, %s → %s, general rule: %s', (ufEmitente, ufInicio, ufFim, _r, cfop) => {
    expect(cfopContraCte({ ufEmitente, ufInicio, ufFim, regra: { tp_serv: null, cfop: '6353' } })).toBe(cfop);
  });

  it("a tp_serv rule's CFOP is kept when the service starts in the emitter's UF, and 5932/6932 still rule elsewhere", () => {
    expect(cfopContraCte({ ufEmitente: 'SP', ufInicio: 'SP', ufFim: 'RJ', regra: { tp_serv: 1, cfop: '6352' } })).toBe('6352');
    expect(cfopContraCte({ ufEmitente: 'SP', ufInicio: 'PR', ufFim: 'RJ', regra: { tp_serv: 1, cfop: '6352' } })).toBe('6932');
    expect(cfopContraCte({ ufEmitente: 'SP', ufInicio: 'SP', ufFim: 'SP', regra: { tp_serv: 1, cfop: null } })).toBe('5360');
  });
});

describe('counter-CT-e of an export (UF fim EX)', () => {
  it('CFOP 7358 (G050: an export starts with 7; G051/G052 do not apply), or a 7xxx of a rule for the type', () => {
    expect(cfopContraCte({ ufEmitente: 'SP', ufInicio: 'SP', ufFim: 'EX', regra: { tp_serv: null, cfop: null } })).toBe('7358');
    expect(cfopContraCte({ ufEmitente: 'SP', ufInicio: 'PR', ufFim: 'EX', regra: { tp_serv: null, cfop: null } })).toBe('7358');
    expect(cfopContraCte({ ufEmitente: 'SP', ufInicio: 'SP', ufFim: 'EX', regra: { tp_serv: 1, cfop: '7949' } })).toBe('7949');
    expect(cfopContraCte({ ufEmitente: 'SP', ufInicio: 'SP', ufFim: 'EX', regra: { tp_serv: null, cfop: '7949' } })).toBe('7358');
  });

  it("the contractor's route to EXTERIOR/EX (cMun 9999999) is inherited, and the rule for EX applies", () => {
    const exterior = { codigoIbge: '9999999', municipio: 'EXTERIOR', uf: 'EX' };
    const cte = original({ emitenteCnpj: CONTRATANTE, inicio: { codigoIbge: '3509502', municipio: 'CAMPINAS', uf: 'SP' }, fim: exterior });
    expect(planejarContraCte(cte, emitenteSP, pedido(), REGRAS)).toMatchObject({ ok: false, code: 'sem_regra_tributacao' });
    const plano = planejarContraCte(cte, emitenteSP, pedido(), [...REGRAS, geral('SP', 'EX')]);
    if (!plano.ok) throw new Error(plano.message);
    expect(plano.dados.fim).toEqual({ codigo_ibge: '9999999', municipio: 'EXTERIOR', uf: 'EX' });
    expect(plano.cfop).toBe('7358');
  });
});

describe('planejarContraCte: a municipality is its IBGE code, the name informative', () => {
  it("a mis-encoded name (MossorÃ³) with a valid code: the counter-CT-e writes the table's name for that code", () => {
    const mossoro = { codigoIbge: '2408003', municipio: 'MossorÃ³', uf: 'RN' };
    const cte = original({
      emitenteCnpj: CONTRATANTE,
      fim: mossoro,
      destinatario: { cnpj: '45997418000153', nome: 'DESTINATARIO', municipio: 'MossorÃ³', codigoIbge: '2408003', uf: 'RN' },
    });
    const plano = planejarContraCte(cte, emitenteSP, pedido(), [...REGRAS, geral('SP', 'RN')]);
    if (!plano.ok) throw new Error(plano.message);
    expect(plano.dados.fim).toEqual({ codigo_ibge: '2408003', municipio: 'Mossoró', uf: 'RN' });
    expect(plano.dados.destinatario?.endereco).toMatchObject({ codigo_ibge: '2408003', municipio: 'Mossoró', uf: 'RN' });
  });

  it('a code of another UF names nothing: cte_original_invalido, naming the field', () => {
    const cte = original({ emitenteCnpj: CONTRATANTE, fim: { codigoIbge: '2408003', municipio: 'MOSSORO', uf: 'RJ' } });
    expect(planejarContraCte(cte, emitenteSP, pedido(), REGRAS)).toEqual({
      ok: false,
      code: 'cte_original_invalido',
      message: "the contractor's CT-e gives data a CT-e cannot carry: ide/cMunFim: 2408003 is no IBGE municipality of RJ",
    });
  });
});

describe('planejarContraCte', () => {
  it("makes the subcontractor's CT-e of the contractor's: toma4 = contractor, docAnt = its key, its parties and NF-e, the route inherited", () => {
    const cte = original();
    const plano = planejarContraCte(cte, emitenteSP, pedido(), REGRAS);
    if (!plano.ok) throw new Error(plano.message);
    const d = plano.dados;
    expect(d.tipo_servico).toBe(1);
    expect(d.cfop).toBe('6360');
    expect(d.inicio).toEqual(CAMPINAS);
    expect(d.fim).toEqual(RIO);
    expect(d.tomador).toMatchObject({ papel: 'outros', parte: { documento: CONTRATANTE } });
    expect(d.documentos_anteriores).toEqual([
      { emitente: expect.objectContaining({ cnpj: CONTRATANTE, uf: 'SP' }), chaves_cte: [cte.chave] },
    ]);
    expect(d.remetente?.documento).toBe(cte.remetente?.documento);
    expect(d.destinatario?.documento).toBe(cte.destinatario?.documento);
    expect(cte.nfe_chaves).toHaveLength(2);
    expect(d.documentos?.nfe?.map((n) => n.chave)).toEqual(cte.nfe_chaves);
    expect(d.valores).toEqual({ total: 123.45, a_receber: 123.45, componentes: [{ nome: 'FRETE', valor: 123.45 }] });
  });

  it("passes on the contractor's other documents (infOutros) as the draft's documentos.outros; paper invoices (infNF) are not", () => {
    const doc = { serie: null, numero: '123456', emissao: '2016-06-05', valor_centavos: 7_940_000 };
    const cte: CteLido = {
      ...original(),
      nfe_chaves: [],
      outros_documentos: [
        { tipo: 'outros', modelo: '99', descricao: 'NOTA FISCAL MANUAL', ...doc },
        { tipo: 'outros', modelo: '00', descricao: null, serie: null, numero: null, emissao: '05/06/2016', valor_centavos: null },
        { tipo: 'outros', modelo: '99', descricao: null, serie: null, numero: null, emissao: null, valor_centavos: null },
        { tipo: 'nf', modelo: '01', descricao: null, ...doc, serie: '1' },
      ],
    };
    const plano = planejarContraCte(cte, emitenteSP, pedido(), REGRAS);
    if (!plano.ok) throw new Error(plano.message);
    expect(plano.dados.documentos).toEqual({
      outros: [
        { tipo_documento: '99', descricao: 'NOTA FISCAL MANUAL', numero: '123456', data_emissao: '2016-06-05', valor: 79400 },
        { tipo_documento: '00' },
        { tipo_documento: '99', descricao: 'OUTROS' },
      ],
    });
    const soPapel = planejarContraCte({ ...cte, outros_documentos: [cte.outros_documentos![3]!] }, emitenteSP, pedido(), REGRAS);
    expect(soPapel.ok && soPapel.dados.documentos).toBeUndefined();
  });

  it('a declared leg is the route; the CFOP follows its start', () => {
    const plano = planejarContraCte(original(), emitenteSP, pedido({ tipo_servico: 2, origem: CURITIBA, destino: RIO }), REGRAS);
    expect(plano).toMatchObject({ ok: true, inicio: CURITIBA, fim: RIO, cfop: '6932', dados: { tipo_servico: 2 } });
  });

  it('redispatch needs a route, and not the whole trip: redespacho_exige_rota', () => {
    expect(planejarContraCte(original(), emitenteSP, pedido({ tipo_servico: 2 }), REGRAS)).toMatchObject({
      ok: false,
      code: 'redespacho_exige_rota',
    });
    expect(planejarContraCte(original(), emitenteSP, pedido({ tipo_servico: 3, origem: CAMPINAS, destino: RIO }), REGRAS)).toMatchObject({
      ok: false,
      code: 'redespacho_exige_rota',
    });
    expect(
      planejarContraCte(original(), emitenteSP, pedido({ tipo_servico: 3, origem: CAMPINAS, destino: SAO_PAULO }), REGRAS),
    ).toMatchObject({ ok: true });
  });

  it('intermediate redispatch names the expedidor and recebedor (G055/G056)', () => {
    const plano = planejarContraCte(original(), emitenteSP, pedido({ tipo_servico: 3, origem: CAMPINAS, destino: SAO_PAULO }), REGRAS);
    expect(plano.ok && plano.dados.expedidor && plano.dados.recebedor).toBeTruthy();
  });

  it("what CT-e 4.00 makes optional is carried when the contractor's CT-e has it and left out when not: never invented", () => {
    const endereco = (CEP?: string, xCpl?: string) => ({
      xLgr: 'RUA DAS FLORES',
      nro: '100',
      xBairro: 'CENTRO',
      municipio: { cMun: '3509502', xMun: 'CAMPINAS', UF: 'SP' },
      CEP,
      xCpl,
    });
    const base: CteContratante = {
      cUF: '35',
      serie: 1,
      numero: 1,
      tpAmb: 2,
      tpServ: 0,
      inicio: { cMun: '3509502', xMun: 'CAMPINAS', UF: 'SP' },
      fim: { cMun: '3304557', xMun: 'RIO DE JANEIRO', UF: 'RJ' },
      toma: 0,
      emit: {
        CNPJ: CONTRATANTE,
        xNome: 'CONTRATANTE TRANSPORTES SA',
        ender: { ...endereco(), municipio: { cMun: '3550308', xMun: 'SAO PAULO', UF: 'SP' } },
        CRT: '3',
      },
      rem: { CNPJ: '45997418000153', xNome: 'REMETENTE LTDA', ender: endereco() },
      dest: { CPF: '52998224725', IE: '7', xNome: 'JOSE DESTINATARIO', fone: '1133334444', ender: endereco('13010000', 'SALA 2') },
      vTPrest: 1000_00,
      componentes: [],
      icms: { grupo: 'ICMSSN' },
      carga: {
        proPred: 'PECAS',
        infQ: Array.from({ length: 21 }, (_, i) => ({ cUnid: '01', tpMed: 'PESO BRUTO', qCarga: `${i + 1}.0000` })),
      },
      RNTRC: '12345678',
      qrCode: false,
    };
    const plano = planejarContraCte(readCte(cteContratanteXml(base).xml), emitenteSP, pedido(), REGRAS);
    if (!plano.ok) throw new Error(plano.message);
    const d = plano.dados;
    expect(d.remetente).toEqual({
      documento: '45997418000153',
      nome: 'REMETENTE LTDA',
      // The municipality of its code, with the IBGE table's name (the contractor wrote CAMPINAS).
      endereco: { logradouro: 'RUA DAS FLORES', numero: '100', bairro: 'CENTRO', municipio: 'Campinas', uf: 'SP', codigo_ibge: '3509502' },
    });
    expect(d.destinatario).toMatchObject({ ie: '7', telefone: '1133334444', endereco: { cep: '13010000', complemento: 'SALA 2' } });
    expect(d.tomador).toMatchObject({ papel: 'outros', parte: { documento: CONTRATANTE } });
    expect(d.tomador?.papel === 'outros' && d.tomador.parte.endereco).not.toHaveProperty('cep');
    expect(d.carga).not.toHaveProperty('valor');
    expect(d.carga?.quantidades).toHaveLength(21);
    expect(d.documentos).toBeUndefined();

    const comVCarga = planejarContraCte(
      readCte(cteContratanteXml({ ...base, carga: { ...base.carga, vCarga: '0.00' } }).xml),
      emitenteSP,
      pedido(),
      REGRAS,
    );
    expect(comVCarga.ok && comVCarga.dados.carga?.valor).toBe(0);
  });

  it("the carrier's own CT-e: cte_proprio; multimodal (tpServ 4): origem_incompativel_com_tipo", () => {
    expect(planejarContraCte(original({ emitenteCnpj: SUBCONTRATADA }), emitenteSP, pedido(), REGRAS)).toMatchObject({
      ok: false,
      code: 'cte_proprio',
    });
    expect(planejarContraCte(original({ emitenteCnpj: CONTRATANTE, tpServ: 4 }), emitenteSP, pedido(), REGRAS)).toMatchObject({
      ok: false,
      code: 'origem_incompativel_com_tipo',
    });
  });

  it('no rule for the route and type: sem_regra_tributacao; a tp_serv rule applies to its type only', () => {
    expect(planejarContraCte(original(), emitenteSP, pedido(), [geral('SP', 'SP')])).toMatchObject({
      ok: false,
      code: 'sem_regra_tributacao',
    });
    const soRedespacho: RegraContraCte = { uf_origem: 'SP', uf_destino: 'RJ', tp_serv: 2, cfop: '6352' };
    expect(planejarContraCte(original(), emitenteSP, pedido(), [soRedespacho])).toMatchObject({ ok: false, code: 'sem_regra_tributacao' });
    const leg = planejarContraCte(original(), emitenteSP, pedido({ tipo_servico: 2, origem: SAO_PAULO, destino: RIO }), [soRedespacho]);
    expect(leg).toMatchObject({ ok: true, cfop: '6352' });
  });
});

describe('subcontratacao: one mode per contractor key (batch rule 7)', () => {
  const { given } = scenario(chaveSubcontratadaDecider);
  const C = 'company-1';
  const K = '35261111222333000181570010000000011000000010';
  const reservada = (
    cte_id: string,
    modo: '1a1' | 'pernas',
    inicio = CAMPINAS.codigo_ibge,
    fim = RIO.codigo_ibge,
  ): ChaveSubcontratadaEvent => ({
    type: 'subcontratacao.reservada',
    data: { company_id: C, chave: K, modo, cte_id, inicio_ibge: inicio, fim_ibge: fim },
  });
  const reservar = (cte_id: string, modo: '1a1' | 'pernas', inicio = CAMPINAS.codigo_ibge, fim = RIO.codigo_ibge) => ({
    type: 'ReservarSubcontratacao' as const,
    company_id: C,
    chave: K,
    modo,
    cte_id,
    inicio_ibge: inicio,
    fim_ibge: fim,
  });
  const liberada = (cte_id: string): ChaveSubcontratadaEvent => ({
    type: 'subcontratacao.liberada',
    data: { company_id: C, chave: K, cte_id, motivo: 'cancelado' },
  });

  it('a free key takes a full counter-CT-e; asking again for the same one is a no-op', () => {
    given().when(reservar('a', '1a1')).then(reservada('a', '1a1'));
    given(reservada('a', '1a1')).when(reservar('a', '1a1')).then();
  });
  it('a second full counter-CT-e is duplicated, naming the existing one', () => {
    given(reservada('a', '1a1')).when(reservar('b', '1a1')).thenRejects('duplicated');
  });
  it('full refuses legs and legs refuse full; cancelling frees the other mode', () => {
    given(reservada('a', '1a1'))
      .when(reservar('b', 'pernas', SAO_PAULO.codigo_ibge))
      .thenRejects('origem_ja_subcontratada_1a1');
    given(reservada('a', 'pernas', SAO_PAULO.codigo_ibge))
      .when(reservar('b', '1a1'))
      .thenRejects('origem_ja_subcontratada_em_pernas');
    given(reservada('a', '1a1'), liberada('a'))
      .when(reservar('b', 'pernas', SAO_PAULO.codigo_ibge))
      .then(reservada('b', 'pernas', SAO_PAULO.codigo_ibge));
  });
  it('legs: another leg is welcome, the same leg again is duplicated', () => {
    given(reservada('a', 'pernas', CAMPINAS.codigo_ibge, SAO_PAULO.codigo_ibge))
      .when(reservar('b', 'pernas', SAO_PAULO.codigo_ibge, RIO.codigo_ibge))
      .then(reservada('b', 'pernas', SAO_PAULO.codigo_ibge, RIO.codigo_ibge));
    given(reservada('a', 'pernas', CAMPINAS.codigo_ibge, SAO_PAULO.codigo_ibge))
      .when(reservar('b', 'pernas', CAMPINAS.codigo_ibge, SAO_PAULO.codigo_ibge))
      .thenRejects('duplicated');
  });
  it('a paid full counter-CT-e, even cancelled, keeps the key from becoming legs (ruling 8); paying a leg changes nothing', () => {
    const paga: ChaveSubcontratadaEvent = { type: 'subcontratacao.paga', data: { company_id: C, chave: K, cte_id: 'a' } };
    given(reservada('a', '1a1')).when({ type: 'MarcarSubcontratacaoPaga', company_id: C, chave: K, cte_id: 'a', modo: '1a1' }).then(paga);
    given(reservada('a', '1a1'), paga, liberada('a'))
      .when(reservar('b', 'pernas', SAO_PAULO.codigo_ibge))
      .thenRejects('origem_ja_paga');
    given(reservada('a', '1a1'), paga, liberada('a')).when(reservar('b', '1a1')).then(reservada('b', '1a1'));
    given(reservada('a', 'pernas')).when({ type: 'MarcarSubcontratacaoPaga', company_id: C, chave: K, cte_id: 'a', modo: 'pernas' }).then();
  });
  it('freeing a counter-CT-e that holds nothing records nothing', () => {
    given().when({ type: 'LiberarSubcontratacao', company_id: C, chave: K, cte_id: 'x', motivo: 'rejeitado' }).then();
  });
});
