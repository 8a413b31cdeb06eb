import fs from 'node:fs';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { CteLido } from '@frete/contracts';
import { CteReadError, readCte, toCents } from '../src';

const sample = (name: string) => fs.readFileSync(path.join(__dirname, '..', '..', 'test', 'fixtures', 'cte', name), 'utf8');
const refused = (xml: string, code: string) => {
  let caught: unknown;
  try {
    readCte(xml);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(CteReadError);
  expect((caught as CteReadError).code).toBe(code);
};

describe('CT-e reader on public samples', () => {
  it('reads a cteProc of layout 3.00 with its protocol (sandbox, toma3 = remetente, 31 NF-e)', () => {
    const c = readCte(sample('cte_hom_com_prot.xml'));
    expect(c).toMatchObject({
      chave: '41181028796029000140570260000000081486169211',
      versao: '3.00',
      modelo: '57',
      serie: 26,
      numero: 8,
      codigo_numerico: '48616921',
      cfop: '7358',
      data_emissao: '2018-10-31T17:47:16-03:00',
      ambiente: 'homologacao',
      tipo_cte: 0,
      tipo_servico: 0,
      modal: '01',
      emitente: {
        documento: '28796029000140',
        tipo_documento: 'CNPJ',
        ie: '9076273739',
        nome: 'EMPRESA DEMONSTRACAO LTDA',
        endereco: { municipio: 'Francisco Beltrao', uf: 'PR', cep: '85601000' },
      },
      tomador: { codigo: 0, papel: 'remetente', parte: { documento: '01234567890', tipo_documento: 'CPF' } },
      inicio: { codigo_ibge: '4108403', municipio: 'Francisco Beltrao', uf: 'PR' },
      fim: { codigo_ibge: '9999999', municipio: 'Exterior', uf: 'EX' },
      valor_prestacao_centavos: 10000,
      valor_receber_centavos: 10000,
      icms: { grupo: 'ICMSSN', cst: '90' },
      protocolo: { numero: '141180000090673', status: 100, chave: '41181028796029000140570260000000081486169211' },
    });
    expect(c.nfe_chaves).toHaveLength(31);
    expect(c.nfe_chaves.every((k) => k.length === 44)).toBe(true);
  });

  it('reads a bare CTe without protocol', () => {
    const c = readCte(sample('cte_hom_sem_prot.xml'));
    expect(c.chave).toBe('41191022545265000108570260000000091993403666');
    expect(c.protocolo).toBeNull();
  });

  it('reads a production CT-e: taker dest, ICMS20 values in cents, interstate route', () => {
    const c = readCte(sample('24210231626841000132570010000007811746401259.xml'));
    expect(c).toMatchObject({
      ambiente: 'producao',
      serie: 1,
      numero: 781,
      cfop: '6353',
      emitente: { documento: '31626841000132' },
      tomador: { codigo: 3, papel: 'destinatario', parte: { documento: '01318353000105' } },
      inicio: { codigo_ibge: '2408003', uf: 'RN' },
      fim: { codigo_ibge: '1100304', municipio: 'Vilhena', uf: 'RO' },
      valor_prestacao_centavos: 484042,
      icms: { grupo: 'ICMS20', cst: '20', base_centavos: 242021, aliquota: '12.00', valor_centavos: 29042 },
      protocolo: { numero: '324210000930048' },
    });
    expect(c.nfe_chaves).toHaveLength(1);
  });

  it('refuses the samples whose access key has a wrong check digit', () => {
    refused(sample('43120178408960000182570010000000041000000047-cte.xml'), 'chave_invalida');
    refused(sample('35190602427026001207570040000522031000522035-cte-multimodal.xml'), 'chave_invalida');
  });

  it('refuses a CT-e OS (model 67) as not a CT-e', () =>
    refused(sample('35170799999999999999670000000000261309301440-cte-of.xml'), 'documento_nao_e_cte'));
});

describe('CT-e reader on hostile or wrong input', () => {
  const good = sample('cte_hom_sem_prot.xml');
  it('refuses DOCTYPE and entity declarations before parsing', () => {
    refused('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><CTe>&b;</CTe>', 'xml_hostil');
    refused(good.replace('<CTe', '<!DOCTYPE CTe SYSTEM "http://evil/x.dtd"><CTe'), 'xml_hostil');
  });
  it('refuses absurd nesting', () => refused('<a>'.repeat(5000) + '</a>'.repeat(5000), 'xml_hostil'));
  it('refuses malformed XML', () => refused(good.slice(0, good.length / 2), 'xml_malformado'));
  it('refuses other documents', () => refused('<nfeProc versao="4.00"><NFe/></nfeProc>', 'documento_nao_e_cte'));
  it('refuses layouts older than 3.00', () => refused(good.replace(/versao="3.00"/g, 'versao="2.00"'), 'layout_nao_suportado'));
  it('refuses a key whose check digit is wrong', () =>
    refused(
      good.replace('Id="CTe41191022545265000108570260000000091993403666"', 'Id="CTe41191022545265000108570260000000091993403667"'),
      'chave_invalida',
    ));
});

describe('what the reader gives is what the events record', () => {
  it('matches the CteLido contract schema on every readable sample', () => {
    for (const name of [
      'cte_hom_com_prot.xml',
      'cte_hom_sem_prot.xml',
      '24210231626841000132570010000007811746401259.xml',
      '51160624686092000173570010000000031000000020-cte.XML',
    ]) {
      const read = readCte(sample(name));
      expect([name, [...Value.Errors(CteLido, read)].map((e) => `${e.path}: ${e.message}`)]).toEqual([name, []]);
    }
  });
});

describe('money', () => {
  it('turns decimal strings into exact cents', () => {
    expect(toCents('0.1')).toBe(10);
    expect(toCents('1234.56')).toBe(123456);
    expect(toCents('4840.42')).toBe(484042);
    expect(toCents('7')).toBe(700);
    expect(() => toCents('1.234')).toThrow(CteReadError);
  });
});

describe('what the DACTE prints besides the fiscal data', () => {
  it('reads cargo, observations, the road modal RNTRC, emission type, base reduction and the QR code text', () => {
    const c = readCte(sample('24210231626841000132570010000007811746401259.xml'));
    expect(c).toMatchObject({
      tipo_emissao: 1,
      // The sample writes it in a CDATA section with blanks around it.
      qr_code: 'https://dfe-portal.svrs.rs.gov.br/cte/qrCode?chCTe=24210231626841000132570010000007811746401259&tpAmb=1',
      carga: {
        valor_centavos: 171600,
        produto_predominante: 'SAL',
        outras_caracteristicas: null,
        quantidades: [{ unidade: '01', tipo_medida: 'Peso Bruto', quantidade: '13000.0000' }],
      },
      rntrc: '51054788',
      icms: { reducao_base: '50.00' },
      campos_observacao: [],
      outros_documentos: [],
    });
    expect(c.observacoes).toMatch(/^\* CONTRIBUINTE SUBSTITUTO/);
  });

  it('reads other originating documents, and has no QR code text when the document has none', () => {
    const withOthers = readCte(sample('51160624686092000173570010000000031000000020-cte.XML'));
    expect(withOthers.outros_documentos).toEqual([
      {
        tipo: 'outros',
        modelo: '99',
        descricao: 'NOTA FISCAL MANUAL',
        serie: null,
        numero: '123456',
        emissao: '2016-06-05',
        valor_centavos: 7940000,
      },
    ]);
    expect(withOthers.qr_code).toBeNull();
    expect(readCte(sample('cte_hom_com_prot.xml'))).toMatchObject({
      qr_code: null,
      rntrc: '12345678',
      carga: { valor_centavos: 0, produto_predominante: 'PRODUTO FRETE' },
    });
  });

  it('reads ObsCont and ObsFisco fields and paper invoices (infNF)', () => {
    const xml = sample('cte_hom_sem_prot.xml')
      .replace(
        '</compl>',
        '<ObsCont xCampo="PEDIDO"><xTexto>PED-77</xTexto></ObsCont><ObsFisco xCampo="BENEFICIO"><xTexto>ART 5</xTexto></ObsFisco></compl>',
      )
      .replace(
        '<infDoc>',
        '<infDoc><infNF><mod>01</mod><serie>2</serie><nDoc>3301</nDoc><dEmi>2019-10-01</dEmi><vBC>0.00</vBC><vICMS>0.00</vICMS>' +
          '<vBCST>0.00</vBCST><vST>0.00</vST><vProd>250.00</vProd><vNF>250.00</vNF><nCFOP>5102</nCFOP></infNF>',
      );
    const c = readCte(xml);
    expect(c.campos_observacao).toEqual([
      { destino: 'contribuinte', campo: 'PEDIDO', texto: 'PED-77' },
      { destino: 'fisco', campo: 'BENEFICIO', texto: 'ART 5' },
    ]);
    expect(c.outros_documentos?.[0]).toEqual({
      tipo: 'nf',
      modelo: '01',
      descricao: null,
      serie: '2',
      numero: '3301',
      emissao: '2019-10-01',
      valor_centavos: 25000,
    });
  });

  it('never refuses a document over these groups: an odd cargo value or emission type is read as missing', () => {
    const xml = sample('cte_hom_sem_prot.xml')
      .replace('<vCarga>0.00</vCarga>', '<vCarga>1.234,56</vCarga>')
      .replace('<tpEmis>1</tpEmis>', '<tpEmis>X</tpEmis>');
    expect(readCte(xml)).toMatchObject({ tipo_emissao: null, carga: { valor_centavos: null } });
  });

  it('events recorded before these fields were read stay valid', () => {
    const read = readCte(sample('24210231626841000132570010000007811746401259.xml')) as Record<string, unknown>;
    const before = Object.fromEntries(
      Object.entries(read).filter(
        ([k]) =>
          !['tipo_emissao', 'contingencia', 'qr_code', 'observacoes', 'campos_observacao', 'carga', 'outros_documentos', 'rntrc'].includes(
            k,
          ),
      ),
    );
    delete (before.icms as Record<string, unknown>).reducao_base;
    expect([...Value.Errors(CteLido, before)]).toEqual([]);
  });
});
