import { type RegraTributacaoDados, type RegraTributacaoInput } from '@frete/contracts';
import { type RegraTributacaoEvent, type Rejection, chaveRegraTributacao, fold, regraAplicavel, regraTributacaoDecider } from '../src';
import { scenario } from './given-when-then';

const { given } = scenario(regraTributacaoDecider);
const C = 'c1';

const minima: RegraTributacaoInput = { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '00', aliquota: 12 } };
const dadosMinima: RegraTributacaoDados = {
  uf_origem: 'SP',
  uf_destino: 'RJ',
  tp_serv: null,
  cfop: null,
  icms: { cst: '00', aliquota_centesimos: 1200, reducao_base_centesimos: null },
  ibs_cbs: null,
};
const criada = (regra_id: number, regra: RegraTributacaoDados = dadosMinima): RegraTributacaoEvent => ({
  type: 'regra_tributacao.criada',
  data: { company_id: C, regra_id, regra },
});
const criar = (regra: RegraTributacaoInput) => ({ type: 'CriarRegraTributacao' as const, company_id: C, regra });
const alterar = (regra_id: number, regra: RegraTributacaoInput) => ({
  type: 'AlterarRegraTributacao' as const,
  company_id: C,
  regra_id,
  regra,
});
const remover = (regra_id: number) => ({ type: 'RemoverRegraTributacao' as const, company_id: C, regra_id });
const icms = (i: RegraTributacaoInput['icms']): RegraTributacaoInput => ({ ...minima, icms: i });

describe('regra de tributação decider', () => {
  it('creates the smallest rule with id 1, rates in hundredths', () => given().when(criar(minima)).then(criada(1)));

  it('creates a full rule: tp_serv, cfop, reduced base and IBS/CBS', () =>
    given(criada(1))
      .when(
        criar({
          uf_origem: 'SP',
          uf_destino: 'SP',
          tp_serv: 1,
          cfop: '5360',
          icms: { cst: '20', aliquota: 18, reducao_base: 33.33 },
          ibs_cbs: { cst: '000', cclass_trib: '000001', aliquota_ibs_uf: 0.1, aliquota_ibs_mun: 0, aliquota_cbs: 0.9 },
        }),
      )
      .then(
        criada(2, {
          uf_origem: 'SP',
          uf_destino: 'SP',
          tp_serv: 1,
          cfop: '5360',
          icms: { cst: '20', aliquota_centesimos: 1800, reducao_base_centesimos: 3333 },
          ibs_cbs: {
            cst: '000',
            cclass_trib: '000001',
            aliquota_ibs_uf_centesimos: 10,
            aliquota_ibs_mun_centesimos: 0,
            aliquota_cbs_centesimos: 90,
          },
        }),
      ));

  it('never reuses an id after a removal', () =>
    given(criada(1), criada(2, { ...dadosMinima, tp_serv: 1 }), { type: 'regra_tributacao.removida', data: { company_id: C, regra_id: 2 } })
      .when(criar({ ...minima, tp_serv: 1 }))
      .then(criada(3, { ...dadosMinima, tp_serv: 1 })));

  it('refuses a second rule of the same UF pair and service type', () => {
    given(criada(1)).when(criar(minima)).thenRejects('regra_tributacao_duplicada');
    given(criada(1, { ...dadosMinima, tp_serv: 2 }))
      .when(criar({ ...minima, tp_serv: 2 }))
      .thenRejects('regra_tributacao_duplicada');
  });

  it('accepts a tp_serv rule beside the general one, and the reverse pair', () => {
    given(criada(1))
      .when(criar({ ...minima, tp_serv: 0 }))
      .then(criada(2, { ...dadosMinima, tp_serv: 0 }));
    given(criada(1))
      .when(criar({ ...minima, uf_origem: 'RJ', uf_destino: 'SP' }))
      .then(criada(2, { ...dadosMinima, uf_origem: 'RJ', uf_destino: 'SP' }));
  });

  it('a removed rule frees its key', () =>
    given(criada(1), { type: 'regra_tributacao.removida', data: { company_id: C, regra_id: 1 } })
      .when(criar(minima))
      .then(criada(2)));

  describe('ICMS by CST', () => {
    it('00 and 60 need a rate above 0', () => {
      given()
        .when(criar(icms({ cst: '00' })))
        .thenRejects('validacao', ['icms.aliquota']);
      given()
        .when(criar(icms({ cst: '00', aliquota: 0 })))
        .thenRejects('validacao', ['icms.aliquota']);
      given()
        .when(criar(icms({ cst: '60', aliquota: 0 })))
        .thenRejects('validacao', ['icms.aliquota']);
      given()
        .when(criar(icms({ cst: '60', aliquota: 12 })))
        .then(criada(1, { ...dadosMinima, icms: { cst: '60', aliquota_centesimos: 1200, reducao_base_centesimos: null } }));
    });
    it('20 needs a base reduction strictly between 0 and 100', () => {
      given()
        .when(criar(icms({ cst: '20', aliquota: 12 })))
        .thenRejects('validacao', ['icms.reducao_base']);
      given()
        .when(criar(icms({ cst: '20', aliquota: 12, reducao_base: 0 })))
        .thenRejects('validacao', ['icms.reducao_base']);
      given()
        .when(criar(icms({ cst: '20', aliquota: 12, reducao_base: 100 })))
        .thenRejects('validacao', ['icms.reducao_base']);
    });
    it('40, 41, 51 and SN carry no rate and no reduction', () => {
      for (const cst of ['40', '41', '51', 'SN'] as const) {
        const sem: RegraTributacaoDados = { ...dadosMinima, icms: { cst, aliquota_centesimos: 0, reducao_base_centesimos: null } };
        given()
          .when(criar(icms({ cst })))
          .then(criada(1, sem));
        given()
          .when(criar(icms({ cst, aliquota: 0 })))
          .then(criada(1, sem));
        given()
          .when(criar(icms({ cst, aliquota: 12 })))
          .thenRejects('validacao', ['icms.aliquota']);
        given()
          .when(criar(icms({ cst, reducao_base: 10 })))
          .thenRejects('validacao', ['icms.reducao_base']);
      }
    });
    it('90 needs a rate (0 allowed) and may reduce the base', () => {
      given()
        .when(criar(icms({ cst: '90' })))
        .thenRejects('validacao', ['icms.aliquota']);
      given()
        .when(criar(icms({ cst: '90', aliquota: 0, reducao_base: 20 })))
        .then(criada(1, { ...dadosMinima, icms: { cst: '90', aliquota_centesimos: 0, reducao_base_centesimos: 2000 } }));
    });
    it('00 refuses a base reduction', () =>
      given()
        .when(criar(icms({ cst: '00', aliquota: 12, reducao_base: 10 })))
        .thenRejects('validacao', ['icms.reducao_base']));
    it('refuses more than two decimals, naming every field', () =>
      given()
        .when(
          criar({
            ...minima,
            icms: { cst: '00', aliquota: 12.345 },
            ibs_cbs: { cst: '000', cclass_trib: '000001', aliquota_ibs_uf: 0.001, aliquota_ibs_mun: 0, aliquota_cbs: 0.9 },
          }),
        )
        .thenRejects('validacao', ['icms.aliquota', 'ibs_cbs.aliquota_ibs_uf']));
    it('accepts rates whose binary form is inexact (0.07, 17.99)', () => {
      given()
        .when(criar(icms({ cst: '00', aliquota: 17.99 })))
        .then(criada(1, { ...dadosMinima, icms: { cst: '00', aliquota_centesimos: 1799, reducao_base_centesimos: null } }));
      given()
        .when(criar(icms({ cst: '00', aliquota: 0.07 })))
        .then(criada(1, { ...dadosMinima, icms: { cst: '00', aliquota_centesimos: 7, reducao_base_centesimos: null } }));
    });
  });

  it('CFOP agrees with the route: 5xxx same UF, 6xxx other UF', () => {
    given()
      .when(criar({ ...minima, cfop: '5360' }))
      .thenRejects('validacao', ['cfop']);
    given()
      .when(criar({ ...minima, uf_destino: 'SP', cfop: '6360' }))
      .thenRejects('validacao', ['cfop']);
    given()
      .when(criar({ ...minima, cfop: '7360' }))
      .thenRejects('validacao', ['cfop']);
    given()
      .when(criar({ ...minima, cfop: '6932' }))
      .then(criada(1, { ...dadosMinima, cfop: '6932' }));
  });

  describe('change and removal', () => {
    it('replaces the rule as a whole', () =>
      given(criada(1))
        .when(alterar(1, { ...minima, icms: { cst: '00', aliquota: 7 } }))
        .then({
          type: 'regra_tributacao.alterada',
          data: {
            company_id: C,
            regra_id: 1,
            regra: { ...dadosMinima, icms: { cst: '00', aliquota_centesimos: 700, reducao_base_centesimos: null } },
          },
        }));
    it('an identical replacement appends nothing, whatever the key order of the stored event', () => {
      given(criada(1)).when(alterar(1, minima)).then();
      const reordenada = JSON.parse(
        JSON.stringify({
          ibs_cbs: null,
          icms: { reducao_base_centesimos: null, aliquota_centesimos: 1200, cst: '00' },
          cfop: null,
          tp_serv: null,
          uf_destino: 'RJ',
          uf_origem: 'SP',
        }),
      ) as RegraTributacaoDados;
      given(criada(1, reordenada)).when(alterar(1, minima)).then();
    });
    it("may keep its own key but not take another rule's", () => {
      given(criada(1), criada(2, { ...dadosMinima, tp_serv: 1 }))
        .when(alterar(2, minima))
        .thenRejects('regra_tributacao_duplicada');
      given(criada(1), criada(2, { ...dadosMinima, tp_serv: 1 }))
        .when(alterar(2, { ...minima, tp_serv: 3 }))
        .then({ type: 'regra_tributacao.alterada', data: { company_id: C, regra_id: 2, regra: { ...dadosMinima, tp_serv: 3 } } });
    });
    it('a changed key frees the old one', () =>
      given(criada(1), { type: 'regra_tributacao.alterada', data: { company_id: C, regra_id: 1, regra: { ...dadosMinima, tp_serv: 1 } } })
        .when(criar(minima))
        .then(criada(2)));
    it('unknown ids are not found', () => {
      given().when(alterar(1, minima)).thenRejects('nao_encontrado');
      given().when(remover(1)).thenRejects('nao_encontrado');
      given(criada(1), { type: 'regra_tributacao.removida', data: { company_id: C, regra_id: 1 } })
        .when(remover(1))
        .thenRejects('nao_encontrado');
    });
    it('removes', () =>
      given(criada(1))
        .when(remover(1))
        .then({ type: 'regra_tributacao.removida', data: { company_id: C, regra_id: 1 } }));
  });

  it('keys the general rule apart from each service type', () => {
    expect(chaveRegraTributacao({ uf_origem: 'SP', uf_destino: 'RJ', tp_serv: null })).toBe('SP>RJ:*');
    expect(chaveRegraTributacao({ uf_origem: 'SP', uf_destino: 'RJ', tp_serv: 0 })).toBe('SP>RJ:0');
  });
});

describe('regraAplicavel', () => {
  const geral = { id: 'geral', uf_origem: 'SP', uf_destino: 'RJ', tp_serv: null };
  const sub = { id: 'sub', uf_origem: 'SP', uf_destino: 'RJ', tp_serv: 1 };
  const normal = { id: 'normal', uf_origem: 'SP', uf_destino: 'RJ', tp_serv: 0 };
  const outraRota = { id: 'outra', uf_origem: 'RJ', uf_destino: 'SP', tp_serv: 1 };
  const regras = [outraRota, geral, sub, normal];

  it('the tp_serv rule wins over the general one', () => {
    expect(regraAplicavel(regras, 'SP', 'RJ', 1)?.id).toBe('sub');
    expect(regraAplicavel(regras, 'SP', 'RJ', 0)?.id).toBe('normal');
  });
  it('the general rule applies when no rule has that tp_serv, or none is given', () => {
    expect(regraAplicavel(regras, 'SP', 'RJ', 2)?.id).toBe('geral');
    expect(regraAplicavel(regras, 'SP', 'RJ')?.id).toBe('geral');
    expect(regraAplicavel(regras, 'SP', 'RJ', null)?.id).toBe('geral');
  });
  it("none applies without a rule of the pair (another pair's rule never does)", () => {
    expect(regraAplicavel(regras, 'RJ', 'SP', 2)).toBeNull();
    expect(regraAplicavel(regras, 'RJ', 'SP', 1)?.id).toBe('outra');
    expect(regraAplicavel([sub], 'SP', 'RJ', 2)).toBeNull();
    expect(regraAplicavel([sub], 'SP', 'RJ')).toBeNull();
    expect(regraAplicavel([], 'SP', 'RJ', 1)).toBeNull();
  });
});

describe('regra de tributação: IBS/CBS rates the authority rejects (NT 2025.001 v1.11a, 316/321/326)', () => {
  const ibsCbs = (aliquota_ibs_uf: number, aliquota_ibs_mun: number, aliquota_cbs: number, inscricao_suframa?: string) => ({
    cst: '000',
    cclass_trib: '000001',
    aliquota_ibs_uf,
    aliquota_ibs_mun,
    aliquota_cbs,
    ...(inscricao_suframa ? { inscricao_suframa } : {}),
  });
  const recusa = (
    command: Parameters<typeof regraTributacaoDecider.decide>[0],
    now = new Date('2026-11-22T12:00:00Z'),
    historia = [criada(1)],
  ) => {
    try {
      regraTributacaoDecider.decide(command, fold(regraTributacaoDecider, historia), { now });
    } catch (err) {
      return err as Rejection;
    }
    throw new Error('not refused');
  };

  it('refuses a rule with the IBS UF rate of a full year (17.7%) in 2026: 422 naming the rule and the 316', () => {
    const r = recusa(criar({ ...minima, uf_destino: 'MG', ibs_cbs: ibsCbs(17.7, 0, 0.9) }));
    expect(r.code).toBe('aliquota_rejeitada_autoridade');
    expect(r.message).toContain('rule 2 (SP → MG (general rule))');
    expect(r.details).toMatchObject({ regra_id: 2, cStat: '316', xMotivo: 'Rejeição: Alíquota do IBS da UF inválida' });
    expect(String(r.details?.fonte)).toContain('NT 2025.001');
  });

  it('refuses an update to another municipal (321) or CBS (326) rate', () => {
    expect(recusa(alterar(1, { ...minima, ibs_cbs: ibsCbs(0.1, 0.05, 0.9) })).details).toMatchObject({ regra_id: 1, cStat: '321' });
    expect(recusa(alterar(1, { ...minima, ibs_cbs: ibsCbs(0.1, 0, 8.8) })).details).toMatchObject({ regra_id: 1, cStat: '326' });
  });

  it('judges by the date of the command: 0.05% + 0.05% is 2027’s, refused in 2026, accepted in 2027', () => {
    const r2027 = criar({ ...minima, uf_destino: 'MG', ibs_cbs: ibsCbs(0.05, 0.05, 0.9) });
    expect(recusa(r2027).details).toMatchObject({ cStat: '316' });
    const { given: em2027 } = scenario(regraTributacaoDecider, { now: new Date('2027-02-01T12:00:00Z') });
    em2027(criada(1))
      .when(r2027)
      .then(
        criada(2, {
          ...dadosMinima,
          uf_destino: 'MG',
          ibs_cbs: {
            cst: '000',
            cclass_trib: '000001',
            aliquota_ibs_uf_centesimos: 5,
            aliquota_ibs_mun_centesimos: 5,
            aliquota_cbs_centesimos: 90,
          },
        }),
      );
  });

  it('CBS at 0 only between UFs of the ZFM/ALC, and there with the SUFRAMA registration (emit/ISUFEmit)', () => {
    expect(recusa(criar({ ...minima, uf_destino: 'MG', ibs_cbs: ibsCbs(0.1, 0, 0) })).details).toMatchObject({ cStat: '326' });
    given()
      .when(criar({ uf_origem: 'AM', uf_destino: 'AC', icms: { cst: '00', aliquota: 12 }, ibs_cbs: ibsCbs(0.1, 0, 0) }))
      .thenRejects('validacao', ['ibs_cbs.inscricao_suframa']);
    given()
      .when(criar({ uf_origem: 'AM', uf_destino: 'AC', icms: { cst: '00', aliquota: 12 }, ibs_cbs: ibsCbs(0.1, 0, 0, '12345') }))
      .thenRejects('validacao', ['ibs_cbs.inscricao_suframa']);
    given()
      .when(criar({ uf_origem: 'AM', uf_destino: 'AC', icms: { cst: '00', aliquota: 12 }, ibs_cbs: ibsCbs(0.1, 0, 0, '200123456') }))
      .then({
        type: 'regra_tributacao.criada',
        data: {
          company_id: C,
          regra_id: 1,
          regra: {
            ...dadosMinima,
            uf_origem: 'AM',
            uf_destino: 'AC',
            ibs_cbs: {
              cst: '000',
              cclass_trib: '000001',
              aliquota_ibs_uf_centesimos: 10,
              aliquota_ibs_mun_centesimos: 0,
              aliquota_cbs_centesimos: 0,
              inscricao_suframa: '200123456',
            },
          },
        },
      });
  });

  it('a rule without IBS/CBS and a removal are not judged', () => {
    given(criada(1))
      .when(remover(1))
      .then({ type: 'regra_tributacao.removida', data: { company_id: C, regra_id: 1 } });
    given().when(criar(minima)).then(criada(1));
  });
});
