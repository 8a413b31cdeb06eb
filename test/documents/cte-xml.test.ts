import { FiscalSchemas, signFiscalXml } from '@frete/documents';
import { readPkcs12 } from '@frete/platform';
import { montarCteXml, readCte, type MontarCteInput } from '@frete/domain';
import { makeA1 } from '../support/certificates';
import { chaveTeste, EMITENTE_CNPJ, montarInput, rascunhoCompleto } from '../support/cte-montar';

const SENHA = 'senha-do-a1';
const a1 = makeA1({ cnpj: EMITENTE_CNPJ, razao: 'TRANSPORTADORA EXEMPLO LTDA', password: SENHA, cnpjIn: 'otherName' });
const { privateKeyPem, certificatePem } = readPkcs12(a1.pfx, SENHA);
const schemas = new FiscalSchemas();
afterAll(() => schemas.close());

const signedValidation = async (input: MontarCteInput) => {
  const { chave, xml } = montarCteXml(input);
  const signed = signFiscalXml(xml, { element: 'infCte', privateKeyPem, certificatePem });
  return { chave, xml, result: await schemas.validate(signed, 'cte_v4.00.xsd') };
};

describe('montarCteXml against cte_v4.00.xsd (signed)', () => {
  const contratante = {
    documento: '60701190000104',
    ie: '250000001',
    nome: 'CONTRATANTE TRANSPORTES SA',
    endereco: rascunhoCompleto().remetente!.endereco,
  };
  /** A subcontracting draft: tpServ 1, the contractor as taker (toma4) and its CT-e as the previous document. */
  const subcontratacao = () => ({
    ...rascunhoCompleto(),
    tipo_servico: 1 as const,
    tomador: { papel: 'outros' as const, parte: contratante },
    documentos_anteriores: [
      {
        emitente: { cnpj: '60701190000104', ie: '250000001', uf: 'SC', nome: 'CONTRATANTE TRANSPORTES SA' },
        chaves_cte: [chaveTeste('60701190000104', 77, '57', '42')],
      },
    ],
  });
  const cases: [string, () => MontarCteInput][] = [
    ['a 1:1 normal CT-e (homologação)', () => montarInput()],
    ['a 1:1 normal CT-e (produção)', () => montarInput({ ambiente: 'producao' })],
    ['toma4', () => montarInput({ dados: { ...rascunhoCompleto(), tomador: { papel: 'outros', parte: contratante } } })],
    [
      'subcontracting: tpServ 1 with docAnt',
      () =>
        montarInput({
          dados: subcontratacao(),
        }),
    ],
    [
      'subcontracting of other documents: infDoc/infOutros (tpDoc 99 with descOutros, 00 with every optional field)',
      () =>
        montarInput({
          dados: {
            ...subcontratacao(),
            documentos: {
              outros: [
                { tipo_documento: '99', descricao: 'NOTA FISCAL MANUAL', numero: '123456', data_emissao: '2026-11-05', valor: 79400 },
                {
                  tipo_documento: '00',
                  descricao: 'DECLARACAO',
                  numero: 'D-1',
                  data_emissao: '2026-11-06',
                  valor: 0.5,
                  data_prevista_entrega: '2026-11-30',
                },
                { tipo_documento: '59' },
              ],
            },
          },
        }),
    ],
    ['ICMS20', () => montarInput({ icms: { cst: '20', aliquota: 12, reducao_base: 20 } })],
    ['ICMS45 (40)', () => montarInput({ icms: { cst: '40' } })],
    ['ICMS45 (51)', () => montarInput({ icms: { cst: '51' } })],
    ['ICMS60', () => montarInput({ icms: { cst: '60', aliquota: 12 } })],
    ['ICMS90', () => montarInput({ icms: { cst: '90', aliquota: 7, reducao_base: 10 } })],
    ['ICMSSN', () => montarInput({ icms: { cst: 'SN' }, emitente: { ...montarInput().emitente, crt: 1 } })],
    [
      'IBS/CBS (imp/IBSCBS)',
      () =>
        montarInput({ ibsCbs: { cst: '000', cclass_trib: '000001', aliquota_ibs_uf: 17.7, aliquota_ibs_mun: 0.0125, aliquota_cbs: 8.8 } }),
    ],
    [
      'IBS/CBS with zero rates, with vTotTrib and infAdFisco',
      () =>
        montarInput({
          dados: {
            ...rascunhoCompleto(),
            impostos: { icms: { cst: '00', aliquota: 12 }, valor_total_tributos: 10, informacoes_fisco: 'FISCO' },
          },
          ibsCbs: { cst: '410', cclass_trib: '410001', aliquota_ibs_uf: 0, aliquota_ibs_mun: 0, aliquota_cbs: 0 },
        }),
    ],
    [
      'parties without CEP and a cargo without vCarga (CT-e 4.00 makes both optional; a counter-CT-e carries their absence)',
      () => {
        const { remetente, destinatario, carga } = rascunhoCompleto();
        const semCep = <T extends { endereco: { cep?: string } }>(p: T): T => ({ ...p, endereco: { ...p.endereco, cep: undefined } });
        return montarInput({
          dados: {
            ...rascunhoCompleto(),
            remetente: semCep(remetente!),
            destinatario: semCep(destinatario!),
            tomador: { papel: 'outros', parte: semCep(contratante) },
            carga: { ...carga!, valor: undefined },
          },
        });
      },
    ],
    [
      'many NF-e',
      () =>
        montarInput({
          dados: {
            ...rascunhoCompleto(),
            documentos: { nfe: Array.from({ length: 200 }, (_, k) => ({ chave: chaveTeste('45997418000153', 500 + k) })) },
          },
        }),
    ],
    [
      'a start outside the emitter UF (6932), with texts to trim',
      () =>
        montarInput({
          dados: {
            ...rascunhoCompleto(),
            inicio: { municipio: 'Florianópolis', uf: 'SC', codigo_ibge: '4205407' },
            fim: { municipio: 'Curitiba', uf: 'PR', codigo_ibge: '4106902' },
            natureza_operacao: 'X'.repeat(60),
            observacoes: ' a\n b ',
          },
        }),
    ],
  ];

  // autXML (cteTiposBasico_v4.00.xsd: 0..10, CNPJ or CPF, after infCTeNorm): the ten the schema allows, every kind of document.
  const autorizados = ['60701190000104', '12ABC34501DE35', '52998224725', '45997418000153', '11144477735'];
  cases.push(
    [
      'autXML: ten authorized (numeric and alphanumeric CNPJ, CPF)',
      () =>
        montarInput({
          dados: {
            ...rascunhoCompleto(),
            autorizados_xml: [...autorizados, '33009911002506', '39053344705', '11222333000181', '11444777000161', '07526557000100'],
          },
        }),
    ],
    [
      'autXML on a subcontracting CT-e with docAnt and toma4',
      () =>
        montarInput({
          dados: { ...subcontratacao(), autorizados_xml: ['60701190000104'] },
        }),
    ],
  );

  const contingencia = { tpEmis: 7 as const, dhCont: '2026-11-20T09:30:00-03:00', xJust: 'SEFAZ AUTORIZADORA FORA DO AR' };
  cases.push(
    ['contingency SVC-RS: tpEmis 7, dhCont and xJust after toma3', () => montarInput({ contingencia })],
    [
      'contingency SVC-SP: tpEmis 8, dhCont and xJust after toma4, xJust of 255 characters',
      () =>
        montarInput({
          dados: { ...rascunhoCompleto(), tomador: { papel: 'outros', parte: contratante } },
          contingencia: { tpEmis: 8, dhCont: contingencia.dhCont, xJust: 'J'.repeat(255) },
        }),
    ],
  );

  it.each(cases)('%s', async (_name, input) => {
    const { chave, xml, result } = await signedValidation(input());
    expect(result).toEqual({ valid: true, errors: [] });
    expect(readCte(xml).chave).toBe(chave);
  });

  it('an eleventh autXML is what the schema refuses (the reason the draft allows ten)', async () => {
    const onze = [...Array.from({ length: 10 }, () => '60701190000104'), '52998224725'];
    const { result } = await signedValidation(montarInput({ dados: { ...rascunhoCompleto(), autorizados_xml: onze } }));
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([expect.objectContaining({ path: expect.stringContaining('autXML') })]);
  });

  it('the unsigned document fails only for want of the Signature', async () => {
    const result = await schemas.validate(montarCteXml(montarInput()).xml, 'cte_v4.00.xsd');
    expect(result.errors).toEqual([expect.objectContaining({ path: '/CTe', message: expect.stringContaining('Signature') })]);
  });
});
