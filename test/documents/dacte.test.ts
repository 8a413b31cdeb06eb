import fs from 'node:fs';
import path from 'node:path';
import { type CteLido } from '@frete/contracts';
import { montarCteXml, readCte } from '@frete/domain';
import { pdfPagesText, qrCodePortal, qrCodeText, renderDacte } from '@frete/documents';
import { buildCteXml, nfeKey } from '../support/cte-xml';
import { montarInput } from '../support/cte-montar';

const sample = (name: string): CteLido => readCte(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'cte', name), 'utf8'));
const grouped = (key: string) => key.replace(/(.{4})(?=.)/g, '$1 ');
/** The text of every sheet, blanks collapsed: pdf.js splits and joins runs in its own way. */
const sheets = async (pdf: Buffer) => (await pdfPagesText(pdf, { maxPages: 50 })).map((p) => p.replace(/\s+/g, ' '));
/** Images drawn, not counting the soft masks pdfkit adds for PNG transparency (themselves image objects). */
const imagesIn = (pdf: Buffer) => {
  const raw = pdf.toString('latin1');
  return (raw.match(/\/Subtype \/Image/g) ?? []).length - (raw.match(/\/SMask \d+ 0 R/g) ?? []).length;
};

describe('renderDacte', () => {
  it('draws the public sandbox sample with its 31 NF-e keys on one A4 sheet, with the sandbox marking', async () => {
    const cte = sample('cte_hom_com_prot.xml');
    expect(cte.nfe_chaves).toHaveLength(31);
    const pdf = await renderDacte(cte, { environment: 'homologacao' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
    expect(imagesIn(pdf)).toBe(2); // the key's Code-128 barcode and the QR code

    const pages = await sheets(pdf);
    expect(pages).toHaveLength(1);
    const text = pages[0]!;
    for (const expected of [
      'DACTE',
      grouped(cte.chave),
      'EMPRESA DEMONSTRACAO LTDA',
      '28.796.029/0001-40',
      'REMETENTE',
      'DESTINATÁRIO',
      'TOMADOR DO SERVIÇO',
      'Francisco Beltrao - PR',
      'Exterior - EX',
      '7358 - Prestacao de servico de transporte',
      '100,00',
      'SIMPLES NACIONAL',
      'PRODUTO FRETE',
      'RNTRC DA EMPRESA',
      '12345678',
      '141180000090673 - 31/10/2018 17:47:28',
      '31/10/2018 17:47:16',
      'SEM VALOR FISCAL',
      'AMBIENTE DE HOMOLOGAÇÃO',
      'DOCUMENTOS ORIGINÁRIOS',
      'OPTANTE PELO SIMPLES NACIONAL',
      '1/1',
    ])
      expect(text).toContain(expected);
    for (const key of new Set(cte.nfe_chaves)) expect(text).toContain(key);
    expect(text).not.toContain('CANCELADO');
    expect(text).not.toContain('CONTINUA');
  });

  it('puts what does not fit on the first sheet on numbered continuation sheets', async () => {
    const cte = sample('24210231626841000132570010000007811746401259.xml');
    const keys = Array.from({ length: 230 }, (_, i) => nfeKey('11222333000181', 1000 + i));
    const many: CteLido = {
      ...cte,
      nfe_chaves: keys,
      componentes: Array.from({ length: 30 }, (_, i) => ({ nome: `COMPONENTE ${i + 1}`, valor_centavos: 1000 + i })),
      observacoes: 'Observação do contribuinte que não cabe no quadro. '.repeat(60),
    };
    const pdf = await renderDacte(many, { environment: 'producao' });
    const pages = await sheets(pdf);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages.length).toBeLessThanOrEqual(4);
    const all = pages.join(' ');
    for (const key of keys) expect(all.split(key).length - 1).toBe(1); // each key once, none lost
    expect(pages[0]).toContain('DOCUMENTOS ORIGINÁRIOS (CONTINUA NA FOLHA 2)');
    expect(pages[0]).toContain(`1/${pages.length}`);
    pages.slice(1).forEach((p, i) => {
      expect(p).toContain('CONTINUAÇÃO');
      expect(p).toContain(grouped(cte.chave));
      expect(p).toContain(`${i + 2}/${pages.length}`);
    });
    expect(all).toContain('COMPONENTE 30: 10,29');
    expect(all).toContain('OBSERVAÇÕES (CONTINUAÇÃO)');
    // A production CT-e in production: no sandbox marking.
    expect(all).not.toContain('SEM VALOR FISCAL');
  });

  it('prints accented Portuguese as is, reduces what the standard fonts lack, and marks a cancelled CT-e', async () => {
    const { xml } = buildCteXml({
      emitenteCnpj: '11222333000181',
      emitenteNome: 'TRANSPORTES SÃO JOÃO AÇAÍ &amp; CIA LTDA',
      destinatario: { cnpj: '45997418000153', nome: 'DISTRIBUIDORA GDAŃSK 🚚 LTDA', municipio: 'MOSSORÓ', uf: 'RN' },
      vTPrest: '1500.00',
      tpAmb: 1,
    });
    const cte = readCte(xml);
    const text = (await sheets(await renderDacte(cte, { environment: 'producao', cancelado: true }))).join(' ');
    expect(text).toContain('TRANSPORTES SÃO JOÃO AÇAÍ & CIA LTDA');
    expect(text).toContain('DISTRIBUIDORA GDANSK ? LTDA'); // Ń loses its accent; the emoji has no glyph
    expect(text).toContain('MOSSORÓ');
    expect(text).toContain('1.500,00');
    expect(text).toContain('CANCELADO');
    expect(text).not.toContain('SEM VALOR FISCAL');
  });

  it('marks a CT-e issued in contingency as the manual and the schema word it, when the issuer entered contingency and why', async () => {
    const xJust = 'SEFAZ AUTORIZADORA FORA DO AR DESDE AS 09:00';
    for (const [tpEmis, svc] of [
      [7, 'SVC-RS'],
      [8, 'SVC-SP'],
    ] as const) {
      const contingencia = { tpEmis, dhCont: '2026-11-20T09:30:00-03:00', xJust };
      const cte = readCte(montarCteXml(montarInput({ ambiente: 'producao', contingencia })).xml);
      const text = (await sheets(await renderDacte(cte, { environment: 'producao' }))).join(' ');
      // tpEmis 7/8 are "Autorização pela SVC-RS/SP" (cteTiposBasico_v4.00.xsd), a contingency (MOC §11.1).
      const aviso = `EMISSÃO EM CONTINGÊNCIA - AUTORIZAÇÃO PELA ${svc}`;
      expect(text).toContain(aviso);
      expect(text).toContain(`${aviso} - ENTRADA EM CONTINGÊNCIA: 20/11/2026 09:30:00 - JUSTIFICATIVA: ${xJust}`);
      expect(text).toMatch(new RegExp(`FORMA DE EMISSÃO AUTORIZAÇÃO PELA ${svc}`));
      expect(text).toContain('ENTREGAR NA DOCA 2'); // the carrier's own observations follow
    }
    const normal = readCte(montarCteXml(montarInput({ ambiente: 'producao' })).xml);
    const text = (await sheets(await renderDacte(normal, { environment: 'producao' }))).join(' ');
    expect(text).not.toContain('CONTINGÊNCIA');
    expect(text).toMatch(/FORMA DE EMISSÃO NORMAL/);
    // FS-DA (5): the expression of MOC Visão Geral §11.3.2, "DACTE em Contingência - impresso em decorrência de
    // problemas técnicos".
    const fsda = (await sheets(await renderDacte({ ...normal, tipo_emissao: 5 }, { environment: 'producao' }))).join(' ');
    expect(fsda).toContain('DACTE EM CONTINGÊNCIA - IMPRESSO EM DECORRÊNCIA DE PROBLEMAS TÉCNICOS');
    expect(fsda).toMatch(/FORMA DE EMISSÃO CONTINGÊNCIA FSDA/);
  });

  it('marks a sandbox deployment even for a document that says production', async () => {
    const cte = readCte(buildCteXml({ emitenteCnpj: '11222333000181', tpAmb: 1 }).xml);
    expect((await sheets(await renderDacte(cte, { environment: 'homologacao' }))).join(' ')).toContain('SEM VALOR FISCAL');
  });
});

describe('QR code text of the DACTE', () => {
  it("prints the document's own qrCodCTe", () => {
    const cte = sample('24210231626841000132570010000007811746401259.xml');
    expect(qrCodeText(cte)).toBe(cte.qr_code);
  });

  it('rebuilds the standard text when the document has none, matching what authorizers wrote on the samples', () => {
    // The PR sample and the RN (SVRS) sample carry their qrCodCTe: the rebuilt text is the same.
    const pr = sample('cte_hom_sem_prot.xml');
    expect(qrCodeText({ ...pr, qr_code: null })).toBe(pr.qr_code);
    const rn = sample('24210231626841000132570010000007811746401259.xml');
    expect(qrCodeText({ ...rn, qr_code: null })).toBe(rn.qr_code);
  });

  it("picks the portal by the issuer's state and environment, and the virtual authorizer in contingency", () => {
    // cUF, AAMM, CNPJ, model, series, number, tpEmis (position 35), cCT, check digit (not checked here).
    const key = (uf: string, tpEmis: string) => `${uf}2611` + '11222333000181' + '57' + '001' + '000000001' + tpEmis + '12345678' + '0';
    expect(qrCodeText({ chave: key('35', '1'), ambiente: 'homologacao' })).toBe(
      `https://homologacao.nfe.fazenda.sp.gov.br/CTeConsulta/qrCode?chCTe=${key('35', '1')}&tpAmb=2`,
    );
    expect(qrCodePortal(key('35', '1'), 'producao')).toBe('https://nfe.fazenda.sp.gov.br/CTeConsulta/qrCode');
    expect(qrCodePortal(key('43', '1'), 'producao')).toBe('https://dfe-portal.svrs.rs.gov.br/cte/qrCode');
    expect(qrCodePortal(key('31', '1'), 'producao')).toBe('https://portalcte.fazenda.mg.gov.br/portalcte/sistema/qrcode.xhtml');
    // AP, PE and RR are authorized by SVSP: SP's portal, per environment.
    expect(qrCodePortal(key('26', '1'), 'homologacao')).toBe('https://homologacao.nfe.fazenda.sp.gov.br/CTeConsulta/qrCode');
    expect(qrCodePortal(key('16', '1'), 'producao')).toBe('https://nfe.fazenda.sp.gov.br/CTeConsulta/qrCode');
    expect(qrCodePortal(key('51', '1'), 'homologacao')).toBe('https://homologacao.sefaz.mt.gov.br/cte/qrcode');
    expect(qrCodePortal(key('35', '7'), 'producao')).toBe('https://dfe-portal.svrs.rs.gov.br/cte/qrCode');
    expect(qrCodePortal(key('43', '8'), 'homologacao')).toBe('https://homologacao.nfe.fazenda.sp.gov.br/CTeConsulta/qrCode');
    // EPEC and FS-DA need the key signed with the issuer's certificate (`&sign=`): not rebuilt.
    expect(qrCodeText({ chave: key('35', '4'), ambiente: 'producao' })).toBeNull();
    expect(qrCodeText({ chave: key('35', '5'), ambiente: 'producao' })).toBeNull();
  });
});
