import {
  accessKeyCheckDigit,
  calcularIbsCbs,
  calcularIcms,
  cfopDaPrestacao,
  chaveDeAcesso,
  codigoNumerico,
  codigoNumericoValido,
  isValidAccessKey,
  montarCteXml,
  NOME_HOMOLOGACAO,
  pendenciasEmissao,
  readCte,
  validarRascunho,
} from '../src';
import { chaveTeste, EMITENTE_CNPJ, montarInput, rascunhoCompleto } from '../../test/support/cte-montar';

describe('chaveDeAcesso', () => {
  it("computes the manual's worked example (MOC 4.00 §7.3: DV 5)", () => {
    expect(accessKeyCheckDigit('5206043300991100250655012000000780026730161')).toBe(5);
    const chave = chaveDeAcesso({
      cUF: '52',
      aamm: '0604',
      cnpj: '33009911002506',
      modelo: '57',
      serie: 12,
      numero: 780,
      tpEmis: 1,
      cCT: '26730161',
    });
    // Same digits as the manual's example except the model (57 instead of 55): a different but valid key.
    expect(chave.slice(0, 43)).toBe('5206043300991100250657012000000780126730161');
    expect(isValidAccessKey(chave)).toBe(true);
  });

  it('pads serie and number, prefixes a CPF with 000, refuses malformed parts', () => {
    const k = chaveDeAcesso({
      cUF: '43',
      aamm: '2611',
      cnpj: '52998224725',
      modelo: '57',
      serie: 920,
      numero: 1,
      tpEmis: 1,
      cCT: '40308521',
    });
    expect(k.slice(6, 20)).toBe('00052998224725');
    expect(k.slice(22, 34)).toBe('920000000001');
    expect(() =>
      chaveDeAcesso({ cUF: '43', aamm: '2613', cnpj: EMITENTE_CNPJ, modelo: '57', serie: 1, numero: 1, tpEmis: 1, cCT: '40308521' }),
    ).toThrow(/AAMM/);
    expect(() =>
      chaveDeAcesso({ cUF: '43', aamm: '2611', cnpj: EMITENTE_CNPJ, modelo: '57', serie: 1, numero: 1, tpEmis: 1, cCT: '123' }),
    ).toThrow(/cCT/);
  });
});

describe('cCT', () => {
  it('refuses nCT itself, repeated digits and sequences', () => {
    expect(codigoNumericoValido('40308521', 1)).toBe(true);
    expect(codigoNumericoValido('00000042', 42)).toBe(false);
    expect(codigoNumericoValido('77777777', 1)).toBe(false);
    expect(codigoNumericoValido('12345678', 1)).toBe(false);
    expect(codigoNumericoValido('98765432', 1)).toBe(false);
    expect(codigoNumericoValido('1234567', 1)).toBe(false);
  });

  it('is deterministic for a seed and draws again past invalid codes', () => {
    const a = codigoNumerico('0b9f6f3e-2d5c-4a43-9d3c-5e1f7f0d1a22', 0);
    expect(a).toMatch(/^[0-9]{8}$/);
    expect(codigoNumerico('0b9f6f3e-2d5c-4a43-9d3c-5e1f7f0d1a22', 0)).toBe(a);
    expect(codigoNumerico('outro', 0)).not.toBe(a);
    const draws = [0.12345678, 0.00000042, 0.5];
    expect(codigoNumerico(() => draws.shift()!, 42)).toBe('50000000');
  });
});

describe('CFOP and ICMS', () => {
  it('decides the CFOP: draft, then 5932/6932 outside the emitter UF, then the rule, then 5353/6353', () => {
    expect(cfopDaPrestacao({ cfopRascunho: '6352', cfopRegra: '6353', ufEmitente: 'RS', ufInicio: 'SC', ufFim: 'PR' })).toBe('6352');
    expect(cfopDaPrestacao({ cfopRegra: '6353', ufEmitente: 'RS', ufInicio: 'SC', ufFim: 'PR' })).toBe('6932');
    expect(cfopDaPrestacao({ ufEmitente: 'RS', ufInicio: 'SC', ufFim: 'SC' })).toBe('5932');
    expect(cfopDaPrestacao({ cfopRegra: '6352', ufEmitente: 'RS', ufInicio: 'RS', ufFim: 'SC' })).toBe('6352');
    expect(cfopDaPrestacao({ ufEmitente: 'RS', ufInicio: 'RS', ufFim: 'SC' })).toBe('6353');
    expect(cfopDaPrestacao({ ufEmitente: 'RS', ufInicio: 'RS', ufFim: 'RS' })).toBe('5353');
  });

  it('computes base and value to the cent, half up', () => {
    expect(calcularIcms({ cst: '00', aliquota: 12 }, 150050)).toMatchObject({
      grupo: 'ICMS00',
      base_centavos: 150050,
      valor_centavos: 18006,
    });
    // 333.33 × 7% = 23.3331 → 23.33; reduced 20: base 1000.00 − 33.33% = 666.70, × 12% = 80.004 → 80.00
    expect(calcularIcms({ cst: '00', aliquota: 7 }, 33333).valor_centavos).toBe(2333);
    expect(calcularIcms({ cst: '20', aliquota: 12, reducao_base: 33.33 }, 100000)).toMatchObject({
      grupo: 'ICMS20',
      base_centavos: 66670,
      valor_centavos: 8000,
    });
    expect(calcularIcms({ cst: '00', aliquota: 12.5 }, 100)).toMatchObject({ valor_centavos: 13 }); // 12.5 → half up
    expect(calcularIcms({ cst: '41' }, 100).grupo).toBe('ICMS45');
    expect(calcularIcms({ cst: 'SN' }, 100)).toMatchObject({ grupo: 'ICMSSN', cst: '90' });
    expect(calcularIcms({ cst: '60', aliquota: 12 }, 100000)).toMatchObject({
      grupo: 'ICMS60',
      base_centavos: 100000,
      valor_centavos: 12000,
    });
  });
});

describe('IBS/CBS (imp/IBSCBS)', () => {
  const ibsCbs = { cst: '000', cclass_trib: '000001', aliquota_ibs_uf: 17.7, aliquota_ibs_mun: 0.0125, aliquota_cbs: 8.8 };

  it('computes each value on vTPrest to the cent, half up, and vIBS = vIBSUF + vIBSMun', () => {
    // 1500.50 × 17.7% = 265.5885 → 265.59; × 0.0125% = 0.1875625 → 0.19; × 8.8% = 132.044 → 132.04
    expect(calcularIbsCbs(ibsCbs, 150050)).toEqual({
      cst: '000',
      cclass_trib: '000001',
      base_centavos: 150050,
      aliquota_ibs_uf: 177_000,
      aliquota_ibs_mun: 125,
      aliquota_cbs: 88_000,
      valor_ibs_uf_centavos: 26559,
      valor_ibs_mun_centavos: 19,
      valor_ibs_centavos: 26578,
      valor_cbs_centavos: 13204,
    });
    expect(calcularIbsCbs({ ...ibsCbs, aliquota_cbs: 12.5 }, 100).valor_cbs_centavos).toBe(13); // 0.125 → half up
    // Integer arithmetic: no loss for the largest vTPrest.
    expect(calcularIbsCbs({ ...ibsCbs, aliquota_cbs: 99.9999 }, 999_999_999_999_999).valor_cbs_centavos).toBe(999_998_999_999_999);
  });

  it('writes imp/IBSCBS after ICMS, vTotTrib and infAdFisco, in the layout order; nothing without IBS/CBS', () => {
    const dados = {
      ...rascunhoCompleto(),
      impostos: { icms: { cst: '00' as const, aliquota: 12 }, valor_total_tributos: 10, informacoes_fisco: 'FISCO' },
    };
    const { xml } = montarCteXml(montarInput({ dados, ibsCbs }));
    expect(xml).toContain(
      '<vTotTrib>10.00</vTotTrib><infAdFisco>FISCO</infAdFisco>' +
        '<IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib><gIBSCBS><vBC>1500.50</vBC>' +
        '<gIBSUF><pIBSUF>17.70</pIBSUF><vIBSUF>265.59</vIBSUF></gIBSUF>' +
        '<gIBSMun><pIBSMun>0.0125</pIBSMun><vIBSMun>0.19</vIBSMun></gIBSMun>' +
        '<vIBS>265.78</vIBS><gCBS><pCBS>8.80</pCBS><vCBS>132.04</vCBS></gCBS></gIBSCBS></IBSCBS></imp>',
    );
    const zero = montarCteXml(montarInput({ ibsCbs: { ...ibsCbs, aliquota_ibs_uf: 0, aliquota_ibs_mun: 100, aliquota_cbs: 0.1 } })).xml;
    expect(zero).toContain('<pIBSUF>0.00</pIBSUF><vIBSUF>0.00</vIBSUF>');
    expect(zero).toContain('<pIBSMun>100.00</pIBSMun><vIBSMun>1500.50</vIBSMun>');
    expect(zero).toContain('<pCBS>0.10</pCBS><vCBS>1.50</vCBS>');
    expect(readCte(xml).ibs_cbs).toEqual({
      cst: '000',
      cclass_trib: '000001',
      base_centavos: 150050,
      aliquota_ibs_uf: '17.70',
      valor_ibs_uf_centavos: 26559,
      aliquota_ibs_mun: '0.0125',
      valor_ibs_mun_centavos: 19,
      valor_ibs_centavos: 26578,
      aliquota_cbs: '8.80',
      valor_cbs_centavos: 13204,
    });
    expect(montarCteXml(montarInput()).xml).not.toContain('IBSCBS');
    expect(readCte(montarCteXml(montarInput()).xml)).not.toHaveProperty('ibs_cbs');
    expect(montarCteXml(montarInput({ ibsCbs: null })).xml).not.toContain('IBSCBS');
  });
});

describe('montarCteXml', () => {
  it('writes a compact CT-e with the key in Id, escaped and trimmed texts, and reads back through readCte', () => {
    const { chave, xml } = montarCteXml(montarInput({ ambiente: 'producao' }));
    expect(isValidAccessKey(chave)).toBe(true);
    expect(chave.slice(0, 6)).toBe('432611');
    expect(
      xml.startsWith(
        `<CTe xmlns="http://www.portalfiscal.inf.br/cte"><infCte versao="4.00" Id="CTe${chave}"><ide><cUF>43</cUF><cCT>40308521</cCT><CFOP>6353</CFOP>`,
      ),
    ).toBe(true);
    expect(xml).not.toMatch(/>\s+</);
    expect(xml).not.toContain('Signature');
    expect(xml).toContain('<xNome>REMETENTE INDUSTRIA &amp; CIA LTDA</xNome>');
    expect(xml).toContain('<proPred>PECAS &lt;AUTOMOTIVAS&gt;</proPred>');
    expect(xml).toContain('<xObs>ENTREGAR NA DOCA 2</xObs>');
    expect(xml).toContain('<qCarga>1000.1234</qCarga>');
    expect(xml).toContain('<vTPrest>1500.50</vTPrest>');
    expect(xml).toContain(`<qrCodCTe>https://dfe-portal.svrs.rs.gov.br/cte/qrCode?chCTe=${chave}&amp;tpAmb=1</qrCodCTe>`);

    const lido = readCte(xml);
    expect(lido).toMatchObject({
      chave,
      numero: 42,
      serie: 1,
      codigo_numerico: '40308521',
      cfop: '6353',
      ambiente: 'producao',
      tipo_servico: 0,
      emitente: { documento: EMITENTE_CNPJ, nome: 'TRANSPORTADORA EXEMPLO LTDA' },
      remetente: { documento: '45997418000153', nome: 'REMETENTE INDUSTRIA & CIA LTDA' },
      destinatario: { documento: '52998224725', tipo_documento: 'CPF', nome: 'JOSÉ DESTINATÁRIO' },
      tomador: { codigo: 0, papel: 'remetente' },
      inicio: { codigo_ibge: '4314902', uf: 'RS' },
      fim: { codigo_ibge: '4205407', uf: 'SC' },
      valor_prestacao_centavos: 150050,
      valor_receber_centavos: 150050,
      componentes: [
        { nome: 'FRETE PESO', valor_centavos: 140050 },
        { nome: 'PEDAGIO', valor_centavos: 10000 },
      ],
      icms: { grupo: 'ICMS00', cst: '00', base_centavos: 150050, valor_centavos: 18006 },
      nfe_chaves: [chaveTeste('45997418000153', 123)],
      rntrc: '12345678',
    });
  });

  it('in contingency: tpEmis 7 or 8 in ide and in the key, dhCont and xJust after the taker, read back', () => {
    const contingencia = { tpEmis: 7 as const, dhCont: '2026-11-20T09:30:00-03:00', xJust: '  SEFAZ   FORA DO AR & SEM PREVISAO ' };
    const { chave, xml } = montarCteXml(montarInput({ contingencia }));
    expect(isValidAccessKey(chave)).toBe(true);
    expect(chave[34]).toBe('7');
    expect(xml).toContain('<tpEmis>7</tpEmis>');
    expect(xml).toContain(
      '<toma3><toma>0</toma></toma3><dhCont>2026-11-20T09:30:00-03:00</dhCont><xJust>SEFAZ FORA DO AR &amp; SEM PREVISAO</xJust></ide>',
    );
    expect(readCte(xml)).toMatchObject({
      chave,
      tipo_emissao: 7,
      contingencia: { dh_cont: '2026-11-20T09:30:00-03:00', justificativa: 'SEFAZ FORA DO AR & SEM PREVISAO' },
    });
    // SVC-RS's QR code portal (the key's tpEmis picks it).
    expect(readCte(xml).qr_code).toMatch(/^https:\/\/dfe-portal\.svrs\.rs\.gov\.br\/cte\/qrCode\?chCTe=/);
    const svcSp = montarCteXml(montarInput({ contingencia: { ...contingencia, tpEmis: 8 } }));
    expect(svcSp.chave[34]).toBe('8');
    expect(svcSp.chave.slice(0, 34)).toBe(chave.slice(0, 34));
    expect(svcSp.xml).toContain('<tpEmis>8</tpEmis>');
  });

  it('normal issue: tpEmis 1, no dhCont nor xJust', () => {
    for (const contingencia of [undefined, null]) {
      const { chave, xml } = montarCteXml(montarInput({ contingencia }));
      expect(chave[34]).toBe('1');
      expect(xml).toContain('<tpEmis>1</tpEmis>');
      expect(xml).not.toMatch(/dhCont|xJust/);
      expect(readCte(xml)).toMatchObject({ tipo_emissao: 1, contingencia: null });
    }
  });

  it('in homologação: tpAmb 2 and the homologação name for rem and dest', () => {
    const { xml } = montarCteXml(montarInput());
    const lido = readCte(xml);
    expect(lido.ambiente).toBe('homologacao');
    expect(lido.remetente?.nome).toBe(NOME_HOMOLOGACAO);
    expect(lido.destinatario?.nome).toBe(NOME_HOMOLOGACAO);
    expect(lido.emitente.nome).toBe('TRANSPORTADORA EXEMPLO LTDA');
    expect(lido.qr_code).toMatch(/&tpAmb=2$/);
  });

  it('toma4, subcontracting with docAnt, many NF-e', () => {
    const dados = rascunhoCompleto();
    const contratante = {
      documento: '60701190000104',
      ie: '250000001',
      nome: 'CONTRATANTE TRANSPORTES SA',
      endereco: dados.remetente!.endereco,
    };
    const anterior = chaveTeste('60701190000104', 77, '57');
    const nfes = Array.from({ length: 30 }, (_, k) => ({ chave: chaveTeste('45997418000153', 1000 + k) }));
    const { xml } = montarCteXml(
      montarInput({
        ambiente: 'producao',
        dados: {
          ...dados,
          tipo_servico: 1,
          tomador: { papel: 'outros', parte: contratante },
          documentos: { nfe: nfes },
          documentos_anteriores: [
            { emitente: { cnpj: '60701190000104', ie: '250000001', uf: 'SC', nome: 'CONTRATANTE TRANSPORTES SA' }, chaves_cte: [anterior] },
          ],
        },
      }),
    );
    expect(xml).toContain('<toma4><toma>4</toma><CNPJ>60701190000104</CNPJ>');
    expect(xml).toContain(
      `<docAnt><emiDocAnt><CNPJ>60701190000104</CNPJ><IE>250000001</IE><UF>SC</UF><xNome>CONTRATANTE TRANSPORTES SA</xNome><idDocAnt><idDocAntEle><chCTe>${anterior}</chCTe>`,
    );
    const lido = readCte(xml);
    expect(lido.tomador).toMatchObject({
      codigo: 4,
      papel: 'outros',
      parte: { documento: '60701190000104', nome: 'CONTRATANTE TRANSPORTES SA' },
    });
    expect(lido.tipo_servico).toBe(1);
    expect(lido.cte_anteriores).toEqual([anterior]);
    expect(lido.nfe_chaves).toEqual(nfes.map((n) => n.chave));
  });

  it('other transported documents: infDoc/infOutros in the layout order, read back; none for tpServ 3', () => {
    const outros = [
      { tipo_documento: '99' as const, descricao: 'NOTA FISCAL MANUAL', numero: '123456', data_emissao: '2026-11-05', valor: 79400 },
      { tipo_documento: '00' as const, data_prevista_entrega: '2026-11-30' },
    ];
    const dados = { ...rascunhoCompleto(), documentos: { outros } };
    const { xml } = montarCteXml(montarInput({ dados }));
    expect(xml).toContain(
      '<infDoc><infOutros><tpDoc>99</tpDoc><descOutros>NOTA FISCAL MANUAL</descOutros><nDoc>123456</nDoc><dEmi>2026-11-05</dEmi>' +
        '<vDocFisc>79400.00</vDocFisc></infOutros><infOutros><tpDoc>00</tpDoc><dPrev>2026-11-30</dPrev></infOutros></infDoc>',
    );
    expect(readCte(xml).outros_documentos).toEqual([
      {
        tipo: 'outros',
        modelo: '99',
        descricao: 'NOTA FISCAL MANUAL',
        serie: null,
        numero: '123456',
        emissao: '2026-11-05',
        valor_centavos: 7_940_000,
      },
      { tipo: 'outros', modelo: '00', descricao: null, serie: null, numero: null, emissao: null, valor_centavos: null },
    ]);
    expect(montarCteXml(montarInput({ dados: { ...dados, tipo_servico: 3 } })).xml).not.toContain('<infDoc>');
  });

  it('validarRascunho: NF-e keys mixed with other documents, and tpDoc 99 without its description, are refused', () => {
    const nfe = [{ chave: chaveTeste('45997418000153', 1000) }];
    const { fields } = validarRascunho({
      documentos: { nfe, outros: [{ tipo_documento: '99' }, { tipo_documento: '99', descricao: '  ' }, { tipo_documento: '65' }] },
    });
    expect(fields.map((f) => f.field)).toEqual(['documentos', 'documentos.outros.0.descricao', 'documentos.outros.1.descricao']);
    expect(validarRascunho({ documentos: { outros: [{ tipo_documento: '99', descricao: 'ROMANEIO' }] } }).fields).toEqual([]);
  });

  it('indIEToma by the taker IE: 1, 2 (ISENTO), 9 (none)', () => {
    const ind = (ie: string | null) => {
      const dados = rascunhoCompleto();
      dados.remetente = { ...dados.remetente!, ie };
      return /<indIEToma>(\d)<\/indIEToma>/.exec(montarCteXml(montarInput({ dados })).xml)![1];
    };
    expect([ind('0960000029'), ind('ISENTO'), ind(null)]).toEqual(['1', '2', '9']);
  });
});

describe('pendenciasEmissao', () => {
  const now = new Date('2026-11-20T13:00:00Z');
  const configuracao = {
    inscricao_estadual: '0960000011',
    regime_tributario: 3,
    rntrc: '12345678',
    serie_cte: 1,
    endereco: montarInput().emitente.endereco,
  };
  const certificado = { valido_de: new Date('2026-01-01T00:00:00Z'), valido_ate: new Date('2027-01-01T00:00:00Z') };
  const campos = (p: { campo: string }[]) => p.map((x) => x.campo);

  it('none for a complete draft with configuration and certificate', () => {
    expect(pendenciasEmissao({ dados: rascunhoCompleto(), configuracao, certificado, regra: null, now })).toEqual([]);
  });

  it('an empty draft lists configuration, certificate and every group', () => {
    const vazia = { inscricao_estadual: null, regime_tributario: null, rntrc: null, serie_cte: null, endereco: null };
    expect(campos(pendenciasEmissao({ dados: {}, configuracao: vazia, certificado: null, regra: null, now }))).toEqual([
      'configuracao.inscricao_estadual',
      'configuracao.regime_tributario',
      'configuracao.serie_cte',
      'configuracao.endereco',
      'configuracao.rntrc',
      'certificado',
      'inicio',
      'fim',
      'remetente',
      'destinatario',
      'tomador',
      'valores.total',
      'carga',
      'documentos',
      'impostos.icms',
    ]);
  });

  it('an expired certificate, components that do not add up, subcontracting without docAnt, a forbidden CFOP, no tax rule', () => {
    const dados = rascunhoCompleto();
    dados.valores!.componentes = [{ nome: 'FRETE', valor: 1 }];
    dados.tipo_servico = 1;
    dados.cfop = '6932';
    delete dados.impostos;
    const p = pendenciasEmissao({
      dados,
      configuracao,
      certificado: { ...certificado, valido_ate: new Date('2026-11-01T00:00:00Z') },
      regra: null,
      now,
    });
    expect(campos(p)).toEqual(['certificado', 'valores.componentes', 'documentos_anteriores', 'impostos.icms', 'cfop']);
    expect(p.find((x) => x.campo === 'impostos.icms')!.mensagem).toMatch(/^sem_regra_tributacao/);
    expect(
      pendenciasEmissao({
        dados: { ...rascunhoCompleto(), impostos: undefined },
        configuracao,
        certificado,
        regra: { icms_cst: '00' },
        now,
      }),
    ).toEqual([]);
  });

  it('G036 (693): the transported documents are NF-e keys or other documents (infOutros); none is pending', () => {
    const pend = (documentos: object | undefined, tipo_servico = 0) =>
      campos(
        pendenciasEmissao({ dados: { ...rascunhoCompleto(), tipo_servico, documentos }, configuracao, certificado, regra: null, now }),
      );
    expect(pend({ outros: [{ tipo_documento: '00' }] })).toEqual([]);
    expect(pend({ nfe: [], outros: [] })).toEqual(['documentos']);
    expect(pend(undefined)).toEqual(['documentos']);
  });

  it('the taker role must be present', () => {
    const dados = { ...rascunhoCompleto(), tomador: { papel: 'expedidor' as const } };
    expect(campos(pendenciasEmissao({ dados, configuracao, certificado, regra: null, now }))).toEqual(['expedidor']);
  });
});
