import fs from 'node:fs';
import path from 'node:path';
import { documentoFiscalLeve, lerCteEmitido, signFiscalXml } from '@frete/documents';
import { readPkcs12 } from '@frete/platform';
import { CTE_XML, montarCteXml, readCte } from '@frete/domain';
import { fiscalXmlParser } from '../../domain/src/xml/fiscal-xml';
import { makeA1 } from '../support/certificates';
import { buildCteXml } from '../support/cte-xml';
import { montarInput, rascunhoCompleto } from '../support/cte-montar';

/**
 * The light reading of a document this service signed must be the general reading's tree exactly (the readers are
 * written against fast-xml-parser's shape), and must step aside for whatever it cannot read the same way.
 */
const geral = fiscalXmlParser(CTE_XML, (refusal, message) => new Error(`${refusal}: ${message}`));

const SENHA = 'senha';
const a1 = makeA1({ cnpj: '11222333000181', razao: 'TRANSPORTADORA EXEMPLO LTDA', password: SENHA, cnpjIn: 'otherName' });
const { privateKeyPem, certificatePem } = readPkcs12(a1.pfx, SENHA);
const assinado = (xml: string) => signFiscalXml(xml, { element: 'infCte', privateKeyPem, certificatePem });
const PROT =
  '<protCTe versao="4.00"><infProt Id="CTe135260000000001"><tpAmb>2</tpAmb><verAplic>SIM</verAplic><chCTe>{chave}</chCTe>' +
  '<dhRecbto>2026-11-29T12:00:00-03:00</dhRecbto><nProt>135260000000001</nProt><digVal>abc=</digVal><cStat>100</cStat>' +
  '<xMotivo>Autorizado o uso do CT-e</xMotivo></infProt></protCTe>';
const emProc = (cte: string, chave: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><cteProc xmlns="http://www.portalfiscal.inf.br/cte" versao="4.00">${cte.replace(/^<\?xml[^>]*>/, '')}${PROT.replace('{chave}', chave)}</cteProc>`;

const contratante = {
  documento: '60701190000104',
  ie: '250000001',
  nome: 'CONTRATANTE & FILHOS "SA"',
  endereco: rascunhoCompleto().remetente!.endereco,
};
const proprios = [
  montarInput(),
  montarInput({ ambiente: 'producao' }),
  montarInput({ dados: { ...rascunhoCompleto(), tomador: { papel: 'outros', parte: contratante }, tipo_servico: 1 } }),
].map((input) => {
  const { chave, xml } = montarCteXml(input);
  return emProc(assinado(xml), chave);
});

describe('documentoFiscalLeve: the light DOM read in fast-xml-parser’s shape', () => {
  it('reads the CT-e this service signs, in its cteProc, as the general reading does', () => {
    for (const xml of proprios) {
      const leve = documentoFiscalLeve(xml, CTE_XML);
      expect(leve).not.toBeNull();
      expect(leve).toEqual(geral(xml));
      expect(lerCteEmitido(xml)).toEqual(readCte(xml));
    }
  });

  it('gives the general tree, or steps aside, for real CT-e and the test builder’s', () => {
    const dir = path.resolve(__dirname, '../../../shared/fixtures/samples/cte');
    const amostras = fs
      .readdirSync(dir)
      .filter((f) => /\.xml$/i.test(f))
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
    const construidos = [
      buildCteXml({ emitenteCnpj: '45997418000153', protocolo: true }),
      buildCteXml({ emitenteCnpj: '45997418000153', protocolo: false }),
      buildCteXml({ emitenteCnpj: '45997418000153', toma: 4 }),
    ].map((c) => c.xml);
    let lidos = 0;
    for (const xml of [...amostras, ...construidos]) {
      const leve = documentoFiscalLeve(xml, CTE_XML);
      if (leve === null) continue;
      lidos++;
      expect(leve).toEqual(geral(xml));
    }
    expect(lidos).toBeGreaterThanOrEqual(construidos.length);
  });

  it('keeps attributes beside text, empty elements, repeated and listed tags, and entities as the general reading', () => {
    const xml =
      '<CTe xmlns="http://www.portalfiscal.inf.br/cte">\n  <infCte versao="4.00" Id="CTe1">\n    <a>1</a><b/><c></c><d k="v"/>' +
      '<e k="v">  t  </e><Comp><x>1</x></Comp><h>1</h><h>2</h><f>a &amp; b &lt; c</f><g k="&quot;q&quot;"> </g>\n  </infCte>\n</CTe>';
    expect(documentoFiscalLeve(xml, CTE_XML)).toEqual(geral(xml));
  });

  it('steps aside for what it cannot read the same way: mixed content, CDATA, comments, DOCTYPE, depth, another document', () => {
    const fundo = (n: number) => '<a>'.repeat(n) + '1' + '</a>'.repeat(n);
    for (const xml of [
      '<CTe><infCte>texto<a>1</a></infCte></CTe>',
      '<CTe><infCte><a><![CDATA[x]]></a></infCte></CTe>',
      '<CTe><infCte><!-- c --><a>1</a></infCte></CTe>',
      '<!DOCTYPE CTe [<!ENTITY e "x">]><CTe><infCte><a>&e;</a></infCte></CTe>',
      '<CTe><infCte><a>&#65;</a></infCte></CTe>',
      `<CTe><infCte>${fundo(60)}</infCte></CTe>`,
      '<NFe><infNFe/></NFe>',
      '<CTe>1</CTe>',
      '<CTe><infCte><a>1</a></infCte>',
    ]) {
      expect(documentoFiscalLeve(xml, CTE_XML)).toBeNull();
    }
  });
});
