import {
  AUTORIZADOR_CTE_POR_UF,
  autorizadorContingenciaCte,
  autorizadorCte,
  CONTINGENCIA_CTE_POR_UF,
  montarCteXml,
  NOME_HOMOLOGACAO,
  QRCODE_CTE,
  QRCODE_MDFE,
  qrCodeMdfe,
  qrCodePortal,
  readCte,
  UFS,
} from '../src';
import { montarInput, rascunhoCompleto } from '../../test/support/cte-montar';

/** Issue 29, point 2: the facts the builder needs, one table each, with their sources in `fiscal/autorizadores.ts`. */

const AMBIENTES = ['homologacao', 'producao'] as const;
// cUF, AAMM, CNPJ, model, series, number, tpEmis (position 35), cCT, check digit (not checked here).
const chave = (cUF: string, tpEmis: string) => `${cUF}2611` + '11222333000181' + '57' + '001' + '000000001' + tpEmis + '12345678' + '0';

describe('who authorizes, per UF', () => {
  it('names every UF in both tables: its authorizer and its SVC', () => {
    const siglas = UFS.map((u) => u.sigla).sort();
    expect(Object.keys(AUTORIZADOR_CTE_POR_UF).sort()).toEqual(siglas);
    expect(Object.keys(CONTINGENCIA_CTE_POR_UF).sort()).toEqual(siglas);
    expect(['AP', 'PE', 'RR'].map((uf) => autorizadorCte(uf))).toEqual(['SVSP', 'SVSP', 'SVSP']);
    // The SVC table is data, not a rule over the first: MS and MT authorize their own and go to SVC-RS.
    expect(['AP', 'MS', 'MT', 'PE', 'RR', 'SP'].map((uf) => autorizadorContingenciaCte(uf))).toEqual(Array(6).fill('SVC-RS'));
    expect(['MG', 'PR', 'RS', 'BA', 'RJ'].map((uf) => autorizadorContingenciaCte(uf))).toEqual(Array(5).fill('SVC-SP'));
  });
});

describe('QR code portal per authorizer and environment', () => {
  it('gives every authorizer an address in both environments, SVSP and SVC-SP SP’s, SVC-RS and RS SVRS’s', () => {
    for (const autorizador of Object.keys(QRCODE_CTE) as (keyof typeof QRCODE_CTE)[]) {
      for (const ambiente of AMBIENTES) expect(QRCODE_CTE[autorizador][ambiente]).toMatch(/^https?:\/\/[a-z0-9.-]+\.gov\.br\//);
    }
    expect(QRCODE_CTE.SVSP).toEqual(QRCODE_CTE.SP);
    expect(QRCODE_CTE['SVC-SP']).toEqual(QRCODE_CTE.SP);
    expect(QRCODE_CTE['SVC-RS']).toEqual(QRCODE_CTE.SVRS);
    expect(QRCODE_CTE.RS).toEqual(QRCODE_CTE.SVRS);
    expect(QRCODE_CTE.SP).toEqual({
      homologacao: 'https://homologacao.nfe.fazenda.sp.gov.br/CTeConsulta/qrCode',
      producao: 'https://nfe.fazenda.sp.gov.br/CTeConsulta/qrCode',
    });
    expect(QRCODE_CTE.MG.homologacao).toBe('https://portalcte.fazenda.mg.gov.br/portalcte/sistema/qrcode.xhtml');
    expect(QRCODE_CTE.MT).toEqual({
      homologacao: 'https://homologacao.sefaz.mt.gov.br/cte/qrcode',
      producao: 'https://www.sefaz.mt.gov.br/cte/qrcode',
    });
  });

  it('picks, for a key, the portal of the authorizer of its UF, or of its SVC in contingency', () => {
    for (const uf of UFS) {
      for (const ambiente of AMBIENTES) {
        expect(qrCodePortal(chave(uf.codigo_ibge, '1'), ambiente)).toBe(QRCODE_CTE[autorizadorCte(uf.sigla)][ambiente]);
        expect(qrCodePortal(chave(uf.codigo_ibge, '7'), ambiente)).toBe(QRCODE_CTE['SVC-RS'][ambiente]);
        expect(qrCodePortal(chave(uf.codigo_ibge, '8'), ambiente)).toBe(QRCODE_CTE['SVC-SP'][ambiente]);
      }
    }
    expect(qrCodePortal(chave('26', '1'), 'homologacao')).toBe('https://homologacao.nfe.fazenda.sp.gov.br/CTeConsulta/qrCode');
    expect(qrCodePortal(chave('99', '1'), 'producao')).toBeNull();
  });

  it('writes qrCodCTe of a CT-e issued in PE (SVSP) with SP’s portal, in each environment', () => {
    const emitentePe = {
      ...montarInput().emitente,
      endereco: { ...montarInput().emitente.endereco, municipio: 'Recife', uf: 'PE' as const, codigo_ibge: '2611606' },
    };
    for (const [ambiente, tpAmb] of [
      ['homologacao', 2],
      ['producao', 1],
    ] as const) {
      const { chave: ch, xml } = montarCteXml(montarInput({ emitente: emitentePe, ambiente }));
      expect(ch.slice(0, 2)).toBe('26');
      expect(readCte(xml).qr_code).toBe(`${QRCODE_CTE.SVSP[ambiente]}?chCTe=${ch}&tpAmb=${tpAmb}`);
    }
  });

  it('writes qrCodMDFe with SVRS’s portal per environment', () => {
    const k = chave('43', '1');
    expect(qrCodeMdfe(k, 'homologacao')).toBe(`https://dfe-portal.svrs.rs.gov.br/mdfe/qrCode?chMDFe=${k}&tpAmb=2`);
    expect(qrCodeMdfe(k, 'producao')).toBe(`${QRCODE_MDFE.producao}?chMDFe=${k}&tpAmb=1`);
  });
});

describe('the homologação literal (MOC CT-e 4.00 Anexo I, G002–G005)', () => {
  it('is the manual’s, without a hyphen, on rem, exped, receb and dest; never on the emitter; not in produção', () => {
    expect(NOME_HOMOLOGACAO).toBe('CTE EMITIDO EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL');
    const base = rascunhoCompleto();
    const dados = {
      ...base,
      expedidor: { ...base.remetente!, nome: 'EXPEDIDORA LTDA' },
      recebedor: { ...base.remetente!, nome: 'RECEBEDORA LTDA' },
    };
    const lido = readCte(montarCteXml(montarInput({ dados })).xml);
    expect([lido.remetente?.nome, lido.expedidor?.nome, lido.recebedor?.nome, lido.destinatario?.nome]).toEqual(
      Array(4).fill(NOME_HOMOLOGACAO),
    );
    expect(lido.emitente.nome).toBe('TRANSPORTADORA EXEMPLO LTDA');
    const producao = readCte(montarCteXml(montarInput({ dados, ambiente: 'producao' })).xml);
    expect([producao.expedidor?.nome, producao.recebedor?.nome]).toEqual(['EXPEDIDORA LTDA', 'RECEBEDORA LTDA']);
  });
});
