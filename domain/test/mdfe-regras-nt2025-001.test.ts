import { type FatosMdfeNt2025001, rejeicoesMdfeNt2025001, regraF55a, regraF113b } from '../src/mdfe/regras-nt2025-001';

const lotacao: FatosMdfeNt2025001 = {
  modal: '1',
  tpEmit: '1',
  tpTranspInformado: false,
  qtdDfe: 1,
  ncmProdPred: '10019900',
  qtdInfPag: 1,
  infBancEmTodos: true,
  rntrcDeTac: false,
  qtdInfCiot: 0,
};

describe('MDF-e NT 2025.001 v1.03 rules F55a/F55b/F113a/F113b (301–304)', () => {
  test('a complete carga lotação passes', () => {
    expect(rejeicoesMdfeNt2025001(lotacao)).toEqual([]);
  });

  test('one DF-e without NCM is 301, without infPag 302', () => {
    expect(rejeicoesMdfeNt2025001({ ...lotacao, ncmProdPred: null, qtdInfPag: 0 }).map((r) => r.cStat)).toEqual(['301', '302']);
    expect(regraF55a({ ...lotacao, ncmProdPred: null })?.xMotivo).toBe(
      'Rejeição: O NCM do produto predominante da carga lotação deve ser informado',
    );
  });

  test('two DF-e are not a carga lotação; tpEmit 2 only with tpTransp', () => {
    expect(rejeicoesMdfeNt2025001({ ...lotacao, qtdDfe: 2, ncmProdPred: null, qtdInfPag: 0 })).toEqual([]);
    const proprio = { ...lotacao, tpEmit: '2', ncmProdPred: null };
    expect(regraF55a(proprio)).toBeNull();
    expect(regraF55a({ ...proprio, tpTranspInformado: true })?.cStat).toBe('301');
    expect(regraF55a({ ...lotacao, tpEmit: '3', ncmProdPred: null })?.cStat).toBe('301');
  });

  test('an RNTRC of a TAC needs infPag with infBanc (303) and infCIOT (304)', () => {
    const tac = { ...lotacao, qtdDfe: 3, rntrcDeTac: true, qtdInfPag: 0 };
    expect(rejeicoesMdfeNt2025001(tac).map((r) => r.cStat)).toEqual(['303', '304']);
    expect(rejeicoesMdfeNt2025001({ ...tac, qtdInfPag: 1, infBancEmTodos: false }).map((r) => r.cStat)).toEqual(['303', '304']);
    expect(rejeicoesMdfeNt2025001({ ...tac, qtdInfPag: 1, qtdInfCiot: 1 })).toEqual([]);
    expect(regraF113b(tac)?.xMotivo).toBe('Rejeição: CIOT deve ser informado para TAC e equiparado a TAC');
  });

  test('other modals are not judged', () => {
    expect(rejeicoesMdfeNt2025001({ ...lotacao, modal: '2', ncmProdPred: null, qtdInfPag: 0, rntrcDeTac: true })).toEqual([]);
  });
});
