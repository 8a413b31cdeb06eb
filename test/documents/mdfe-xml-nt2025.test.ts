import { FiscalSchemas, signFiscalXml } from '@frete/documents';
import { type MdfeDados, type PagamentoMdfe } from '@frete/contracts';
import { fatosDosDadosMdfe, montarMdfeXml, rejeicoesMdfeNt2025001, type MontarMdfeInput } from '@frete/domain';
import { chavesDoEmitenteMdfe, dadosMdfe, entradaMdfe } from '../support/mdfe-dados';

const { privateKeyPem, certificatePem } = chavesDoEmitenteMdfe();
const schemas = new FiscalSchemas();
afterAll(() => schemas.close());

const pagamento = (over: Partial<PagamentoMdfe> = {}): PagamentoMdfe => ({
  responsavel: { nome: 'EMBARCADORA & CIA', documento: '45997418000153' },
  componentes: [
    { tipo: '04', valor_centavos: 350_000, descricao: null },
    { tipo: '01', valor_centavos: 12_000, descricao: null },
    { tipo: '99', valor_centavos: 500, descricao: 'CARGA E DESCARGA' },
  ],
  valor_contrato_centavos: 362_500,
  indicador_pagamento: '0',
  valor_adiantamento_centavos: null,
  parcelas: [],
  banco: { codigo_banco: '001', codigo_agencia: '1234' },
  ...over,
});

const lotacao = (over: Partial<MdfeDados> = {}): MdfeDados =>
  dadosMdfe({
    produto_predominante: { tipo_carga: '05', descricao: 'PECAS <AUTOMOTIVAS>', ncm: '87089990' },
    pagamentos: [pagamento()],
    ...over,
  });

const input = (dados: MdfeDados): MontarMdfeInput => entradaMdfe(dados);

const validar = async (dados: MdfeDados) => {
  const { xml } = montarMdfeXml(input(dados));
  const signed = signFiscalXml(xml, { element: 'infMDFe', privateKeyPem, certificatePem });
  return { xml, result: await schemas.validate(signed, 'mdfe_v3.00.xsd') };
};

/** Issue 29, point 3: the groups of NT 2025.001 v1.03 (rules 301–304), each against the newest package (sped-mdfe PL_MDFe_300a). */
describe('MDF-e with the NT 2025.001 v1.03 groups against mdfe_v3.00.xsd (signed, road modal too)', () => {
  it.each<[string, () => MdfeDados, RegExp[]]>([
    [
      'carga lotação: prodPred with NCM and infPag à vista with bank and branch, tpComp 04 (frete)',
      () => lotacao(),
      [
        /<infDoc>.*<\/infDoc><prodPred><tpCarga>05<\/tpCarga><xProd>PECAS &lt;AUTOMOTIVAS&gt;<\/xProd><NCM>87089990<\/NCM><\/prodPred><tot>/,
        /<infANTT><RNTRC>12345678<\/RNTRC><infPag><xNome>EMBARCADORA &amp; CIA<\/xNome><CNPJ>45997418000153<\/CNPJ>/,
        /<Comp><tpComp>04<\/tpComp><vComp>3500.00<\/vComp><\/Comp>/,
        /<Comp><tpComp>99<\/tpComp><vComp>5.00<\/vComp><xComp>CARGA E DESCARGA<\/xComp><\/Comp>/,
        /<vContrato>3625.00<\/vContrato><indPag>0<\/indPag><infBanc><codBanco>001<\/codBanco><codAgencia>1234<\/codAgencia><\/infBanc><\/infPag><\/infANTT>/,
      ],
    ],
    [
      'TAC: infCIOT and infPag a prazo with adiantamento, parcelas and a PIX key',
      () =>
        lotacao({
          rntrc_tac: true,
          ciot: [{ codigo: '123456789012', responsavel: '52998224725' }],
          pagamentos: [
            pagamento({
              responsavel: { nome: null, documento: '52998224725' },
              indicador_pagamento: '1',
              valor_adiantamento_centavos: 100_000,
              parcelas: [
                { vencimento: '2026-12-10', valor_centavos: 131_250 },
                { vencimento: '2027-01-10', valor_centavos: 131_250 },
              ],
              banco: { pix: 'financeiro@example.com' },
            }),
          ],
        }),
      [
        /<RNTRC>12345678<\/RNTRC><infCIOT><CIOT>123456789012<\/CIOT><CPF>52998224725<\/CPF><\/infCIOT><infPag><CPF>52998224725<\/CPF>/,
        /<indPag>1<\/indPag><vAdiant>1000.00<\/vAdiant><infPrazo><nParcela>001<\/nParcela><dVenc>2026-12-10<\/dVenc><vParcela>1312.50<\/vParcela><\/infPrazo><infPrazo><nParcela>002<\/nParcela>/,
        /<infBanc><PIX>financeiro@example.com<\/PIX><\/infBanc>/,
      ],
    ],
    [
      'payment through an IPEF (CNPJIPEF)',
      () => lotacao({ pagamentos: [pagamento({ banco: { cnpj_ipef: '60701190000104' } })] }),
      [/<infBanc><CNPJIPEF>60701190000104<\/CNPJIPEF><\/infBanc>/],
    ],
    [
      'two CT-e without the groups (not a carga lotação): no prodPred, no infPag',
      () => {
        const d = lotacao({ produto_predominante: null, pagamentos: [] });
        return { ...d, ctes: [...d.ctes, { ...d.ctes[0]!, cte_id: 'b', chave: '35261111222333000181570010000000021403085218' }] };
      },
      [/<rodo><infANTT><RNTRC>12345678<\/RNTRC><\/infANTT><veicTracao>/],
    ],
  ])('%s', async (_name, make, padroes) => {
    const dados = make();
    expect(rejeicoesMdfeNt2025001(fatosDosDadosMdfe(dados))).toEqual([]);
    const { xml, result } = await validar(dados);
    expect(result.errors).toEqual([]);
    for (const p of padroes) expect(xml).toMatch(p);
    if (!dados.produto_predominante) expect(xml).not.toContain('<prodPred>');
  });

  it('without the groups, one CT-e breaks 301 and 302, a TAC without CIOT 304', () => {
    expect(rejeicoesMdfeNt2025001(fatosDosDadosMdfe(lotacao({ produto_predominante: null, pagamentos: [] }))).map((r) => r.cStat)).toEqual([
      '301',
      '302',
    ]);
    expect(rejeicoesMdfeNt2025001(fatosDosDadosMdfe(lotacao({ rntrc_tac: true }))).map((r) => r.cStat)).toEqual(['304']);
  });
});
