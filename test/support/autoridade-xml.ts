import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NOME_HOMOLOGACAO, accessKeyCheckDigit } from '@frete/domain';
import { FISCAL_SCHEMAS_DIR, signFiscalXml } from '@frete/documents';

/**
 * CT-e 4.00, MDF-e 3.00 and their events for the simulated authority's tests, built from
 * `test/fixtures/cte/minimo-v4.00.xml` (a schema-valid CT-e of emitter 11222333000181, RS) with a new number, code
 * and access key whose check digit is right.
 */

export const CTE_NS = 'http://www.portalfiscal.inf.br/cte';
export const MDFE_NS = 'http://www.portalfiscal.inf.br/mdfe';
export const EMITENTE = '11222333000181';
/** The NF-e the fixture's CT-e carries. */
export const NFE_DO_CTE = '43261145997418000153550010000001231527903812';

const MINIMO = readFileSync(path.join(__dirname, '..', 'fixtures', 'cte', 'minimo-v4.00.xml'), 'utf8');

export interface Chave {
  cUF?: string;
  aamm?: string;
  cnpj?: string;
  mod?: string;
  serie?: number;
  numero: number;
  tpEmis?: string;
  codigo: string;
}

/** The 44-character key with its check digit. */
export function chaveDe(c: Chave): string {
  const first43 =
    (c.cUF ?? '43') +
    (c.aamm ?? '2611') +
    (c.cnpj ?? EMITENTE) +
    (c.mod ?? '57') +
    String(c.serie ?? 1).padStart(3, '0') +
    String(c.numero).padStart(9, '0') +
    (c.tpEmis ?? '1') +
    c.codigo;
  return first43 + accessKeyCheckDigit(first43);
}

export interface CteOpcoes {
  numero: number;
  /** cCT, 8 digits (default derived from the number). */
  codigo?: string;
  serie?: number;
  /** Text of `compl/xObs` (where the sentinels go). */
  xObs?: string;
  cnpj?: string;
  tpAmb?: '1' | '2';
  tpServ?: string;
  /** tpCTe 1 (complement of `referencia`) or 3 (substitute of `referencia`). */
  tpCTe?: '0' | '1' | '3';
  referencia?: string;
  /** Last touch on the unsigned XML (to break something on purpose). */
  alterar?: (xml: string) => string;
}

/** The sample's sender, its taker (toma3 0). */
const TOMADOR = '45997418000153';

export const codigoDe = (numero: number) => String(40_000_000 + ((numero * 7919) % 9_999_999)).padStart(8, '0');

/** An unsigned CT-e and its key. */
export function cteXml(o: CteOpcoes): { chave: string; xml: string } {
  const codigo = o.codigo ?? codigoDe(o.numero);
  const serie = o.serie ?? 1;
  const cnpj = o.cnpj ?? EMITENTE;
  const chave = chaveDe({ numero: o.numero, codigo, serie, cnpj });
  let xml = MINIMO.replace('Id="CTe43261111222333000181570010000000011403085211"', `Id="CTe${chave}"`)
    .replace('<cCT>40308521</cCT>', `<cCT>${codigo}</cCT>`)
    .replace('<serie>1</serie>', `<serie>${serie}</serie>`)
    .replace('<nCT>1</nCT>', `<nCT>${o.numero}</nCT>`)
    .replace('<cDV>1</cDV>', `<cDV>${chave.slice(43)}</cDV>`)
    .replace('chCTe=43261111222333000181570010000000011403085211&amp;tpAmb=2', `chCTe=${chave}&amp;tpAmb=${o.tpAmb ?? '2'}`)
    .replace('<tpAmb>2</tpAmb>', `<tpAmb>${o.tpAmb ?? '2'}</tpAmb>`)
    .replace(`<emit><CNPJ>${EMITENTE}</CNPJ>`, `<emit><CNPJ>${cnpj}</CNPJ>`);
  // MOC 4.00 G002–G005: in homologação the parties' names are the manual's literal.
  if ((o.tpAmb ?? '2') === '2')
    xml = xml
      .replace('<xNome>REMETENTE INDUSTRIA LTDA</xNome>', `<xNome>${NOME_HOMOLOGACAO}</xNome>`)
      .replace('<xNome>DESTINATARIO COMERCIO SA</xNome>', `<xNome>${NOME_HOMOLOGACAO}</xNome>`);
  if (o.tpServ) xml = xml.replace('<tpServ>0</tpServ>', `<tpServ>${o.tpServ}</tpServ>`);
  if (o.tpServ && o.tpServ !== '0') {
    // Subcontracting and redispatch reference the taker's CT-e (G059, G062, G063): the taker here is the sender.
    const anterior = chaveDe({ numero: o.numero, codigo: codigoDe(o.numero + 1), serie: 1, cnpj: TOMADOR });
    xml = xml.replace(
      '</infDoc>',
      `</infDoc><docAnt><emiDocAnt><CNPJ>${TOMADOR}</CNPJ><IE>0960000029</IE><UF>RS</UF><xNome>REMETENTE</xNome>` +
        `<idDocAnt><idDocAntEle><chCTe>${anterior}</chCTe></idDocAntEle></idDocAnt></emiDocAnt></docAnt>`,
    );
  }
  if (o.xObs !== undefined) xml = xml.replace('</ide>', `</ide><compl><xObs>${o.xObs}</xObs></compl>`);
  if (o.tpCTe === '1') {
    xml = xml
      .replace('<tpCTe>0</tpCTe>', '<tpCTe>1</tpCTe>')
      .replace(/<infCTeNorm>.*<\/infCTeNorm>/, `<infCteComp><chCTe>${o.referencia}</chCTe></infCteComp>`);
  } else if (o.tpCTe === '3') {
    xml = xml
      .replace('<tpCTe>0</tpCTe>', '<tpCTe>3</tpCTe>')
      .replace('</infModal>', `</infModal><infCteSub><chCte>${o.referencia}</chCte></infCteSub>`);
  }
  if (o.alterar) xml = o.alterar(xml);
  return { chave, xml };
}

export interface Assinante {
  privateKeyPem: string;
  certificatePem: string;
}

export const assinar = (xml: string, element: string, a: Assinante) =>
  signFiscalXml(xml, { element, privateKeyPem: a.privateKeyPem, certificatePem: a.certificatePem });

export interface EventoOpcoes {
  chave: string;
  tpEvento: string;
  nSeq?: number;
  det: string;
  cnpj?: string;
  cOrgao?: string;
  tpAmb?: string;
  /** The Id as written (default: the right one). */
  id?: string;
}

export function eventoCteXml(o: EventoOpcoes): string {
  const seq = o.nSeq ?? 1;
  const id = o.id ?? `ID${o.tpEvento}${o.chave}${String(seq).padStart(3, '0')}`;
  return (
    `<eventoCTe xmlns="${CTE_NS}" versao="4.00"><infEvento Id="${id}"><cOrgao>${o.cOrgao ?? o.chave.slice(0, 2)}</cOrgao>` +
    `<tpAmb>${o.tpAmb ?? '2'}</tpAmb><CNPJ>${o.cnpj ?? EMITENTE}</CNPJ><chCTe>${o.chave}</chCTe><dhEvento>2026-11-20T11:00:00-03:00</dhEvento>` +
    `<tpEvento>${o.tpEvento}</tpEvento><nSeqEvento>${seq}</nSeqEvento><detEvento versaoEvento="4.00">${o.det}</detEvento></infEvento></eventoCTe>`
  );
}

export const evCancCTe = (nProt: string, xJust = 'ERRO NA EMISSAO DO CONHECIMENTO') =>
  `<evCancCTe><descEvento>Cancelamento</descEvento><nProt>${nProt}</nProt><xJust>${xJust}</xJust></evCancCTe>`;

const COND_USO = /<xs:enumeration value="(A Carta de Correcao e disciplinada[^"]*)"\/>/.exec(
  readFileSync(path.join(FISCAL_SCHEMAS_DIR, 'cte-4.00', 'evCCeCTe_v4.00.xsd'), 'utf8'),
)![1]!;

export const evCCeCTe = (correcoes: { grupo: string; campo: string; valor: string }[]) =>
  '<evCCeCTe><descEvento>Carta de Correcao</descEvento>' +
  correcoes
    .map(
      (c) =>
        `<infCorrecao><grupoAlterado>${c.grupo}</grupoAlterado><campoAlterado>${c.campo}</campoAlterado><valorAlterado>${c.valor}</valorAlterado></infCorrecao>`,
    )
    .join('') +
  `<xCondUso>${COND_USO}</xCondUso></evCCeCTe>`;

export const evCECTe = (nProt: string, nfes: string[] = [NFE_DO_CTE], xNome = 'FULANO RECEBEDOR') =>
  `<evCECTe><descEvento>Comprovante de Entrega do CT-e</descEvento><nProt>${nProt}</nProt><dhEntrega>2026-11-20T12:00:00-03:00</dhEntrega>` +
  `<nDoc>12345678909</nDoc><xNome>${xNome}</xNome><hashEntrega>${Buffer.alloc(20, 9).toString('base64')}</hashEntrega>` +
  `<dhHashEntrega>2026-11-20T12:00:00-03:00</dhHashEntrega>${nfes.map((k) => `<infEntrega><chNFe>${k}</chNFe></infEntrega>`).join('')}</evCECTe>`;

export const evCancCECTe = (nProt: string, nProtCE: string) =>
  `<evCancCECTe><descEvento>Cancelamento do Comprovante de Entrega do CT-e</descEvento><nProt>${nProt}</nProt><nProtCE>${nProtCE}</nProtCE></evCancCECTe>`;

export interface MdfeOpcoes {
  numero: number;
  codigo?: string;
  /** CT-e keys it carries. */
  ctes: string[];
  infCpl?: string;
  tpAmb?: '1' | '2';
  alterar?: (xml: string) => string;
}

const INF_PAG =
  '<infPag><xNome>REMETENTE INDUSTRIA LTDA</xNome><CNPJ>45997418000153</CNPJ><Comp><tpComp>99</tpComp><vComp>1500.00</vComp><xComp>FRETE</xComp></Comp>' +
  '<vContrato>1500.00</vContrato><indPag>0</indPag><infBanc><PIX>financeiro@exemplo.com.br</PIX></infBanc></infPag>';
const PROD_PRED = '<prodPred><tpCarga>05</tpCarga><xProd>PECAS AUTOMOTIVAS</xProd><NCM>87089990</NCM></prodPred>';

/** An unsigned MDF-e 3.00 (road) carrying `ctes`, and its key. */
export function mdfeXml(o: MdfeOpcoes): { chave: string; xml: string } {
  const codigo = o.codigo ?? codigoDe(o.numero + 500_000);
  const chave = chaveDe({ mod: '58', numero: o.numero, codigo });
  const tpAmb = o.tpAmb ?? '2';
  // One CT-e is a "carga lotação": NT 2025.001 v1.03 F55a/F55b (301/302) require the product's NCM and the payment.
  const lotacao = o.ctes.length === 1;
  let xml =
    `<?xml version="1.0" encoding="UTF-8"?><MDFe xmlns="${MDFE_NS}"><infMDFe Id="MDFe${chave}" versao="3.00"><ide><cUF>43</cUF><tpAmb>${tpAmb}</tpAmb>` +
    `<tpEmit>1</tpEmit><mod>58</mod><serie>1</serie><nMDF>${o.numero}</nMDF><cMDF>${codigo}</cMDF><cDV>${chave.slice(43)}</cDV><modal>1</modal>` +
    '<dhEmi>2026-11-20T10:30:00-03:00</dhEmi><tpEmis>1</tpEmis><procEmi>0</procEmi><verProc>frete-fiscal 0.1.0</verProc><UFIni>RS</UFIni><UFFim>SC</UFFim>' +
    '<infMunCarrega><cMunCarrega>4314902</cMunCarrega><xMunCarrega>PORTO ALEGRE</xMunCarrega></infMunCarrega></ide>' +
    `<emit><CNPJ>${EMITENTE}</CNPJ><IE>0960000011</IE><xNome>TRANSPORTADORA EXEMPLO LTDA</xNome><enderEmit><xLgr>AVENIDA DO TRANSPORTE</xLgr>` +
    '<nro>1000</nro><xBairro>HUMAITA</xBairro><cMun>4314902</cMun><xMun>PORTO ALEGRE</xMun><CEP>90250000</CEP><UF>RS</UF></enderEmit></emit>' +
    `<infModal versaoModal="3.00"><rodo><infANTT><RNTRC>12345678</RNTRC>${lotacao ? INF_PAG : ''}</infANTT><veicTracao><placa>ABC1D23</placa><tara>8000</tara>` +
    '<capKG>20000</capKG><condutor><xNome>MOTORISTA TESTE</xNome><CPF>12345678909</CPF></condutor><tpRod>03</tpRod><tpCar>02</tpCar><UF>RS</UF>' +
    '</veicTracao></rodo></infModal><infDoc><infMunDescarga><cMunDescarga>4205407</cMunDescarga><xMunDescarga>FLORIANOPOLIS</xMunDescarga>' +
    o.ctes.map((k) => `<infCTe><chCTe>${k}</chCTe></infCTe>`).join('') +
    '</infMunDescarga></infDoc>' +
    (lotacao ? PROD_PRED : '') +
    `<tot><qCTe>${o.ctes.length}</qCTe><vCarga>25000.00</vCarga><cUnid>01</cUnid><qCarga>1000.0000</qCarga></tot>` +
    (o.infCpl !== undefined ? `<infAdic><infCpl>${o.infCpl}</infCpl></infAdic>` : '') +
    `</infMDFe><infMDFeSupl><qrCodMDFe>https://dfe-portal.svrs.rs.gov.br/mdfe/qrCode?chMDFe=${chave}&amp;tpAmb=${tpAmb}</qrCodMDFe></infMDFeSupl></MDFe>`;
  if (o.alterar) xml = o.alterar(xml);
  return { chave, xml };
}

export function eventoMdfeXml(o: EventoOpcoes): string {
  const seq = o.nSeq ?? 1;
  const id = o.id ?? `ID${o.tpEvento}${o.chave}${String(seq).padStart(2, '0')}`;
  return (
    `<eventoMDFe xmlns="${MDFE_NS}" versao="3.00"><infEvento Id="${id}"><cOrgao>${o.cOrgao ?? '43'}</cOrgao><tpAmb>${o.tpAmb ?? '2'}</tpAmb>` +
    `<CNPJ>${o.cnpj ?? EMITENTE}</CNPJ><chMDFe>${o.chave}</chMDFe><dhEvento>2026-11-20T11:00:00-03:00</dhEvento><tpEvento>${o.tpEvento}</tpEvento>` +
    `<nSeqEvento>${seq}</nSeqEvento><detEvento versaoEvento="3.00">${o.det}</detEvento></infEvento></eventoMDFe>`
  );
}

export const evCancMDFe = (nProt: string, xJust = 'MDF-E EMITIDO POR ENGANO') =>
  `<evCancMDFe><descEvento>Cancelamento</descEvento><nProt>${nProt}</nProt><xJust>${xJust}</xJust></evCancMDFe>`;
export const evEncMDFe = (nProt: string) =>
  `<evEncMDFe><descEvento>Encerramento</descEvento><nProt>${nProt}</nProt><dtEnc>2026-11-20</dtEnc><cUF>42</cUF><cMun>4205407</cMun></evEncMDFe>`;
export const evIncCondutorMDFe = (cpf: string, xNome = 'SEGUNDO MOTORISTA') =>
  `<evIncCondutorMDFe><descEvento>Inclusao Condutor</descEvento><condutor><xNome>${xNome}</xNome><CPF>${cpf}</CPF></condutor></evIncCondutorMDFe>`;
