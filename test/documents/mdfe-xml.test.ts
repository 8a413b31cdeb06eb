import { FiscalSchemas, signFiscalXml, verifyFiscalSignature } from '@frete/documents';
import { type MdfeDados } from '@frete/contracts';
import { montarEventoMdfeXml, montarMdfeXml, type MontarMdfeInput } from '@frete/domain';
import { chavesDoEmitenteMdfe, CTE_PARA_O_RIO, dadosMdfe, EMITENTE_MDFE, entradaMdfe, TRACAO_MDFE } from '../support/mdfe-dados';

const CNPJ = EMITENTE_MDFE.cnpj;
const { privateKeyPem, certificatePem } = chavesDoEmitenteMdfe();
const schemas = new FiscalSchemas();
afterAll(() => schemas.close());

const CTE_1 = CTE_PARA_O_RIO.chave;
const CTE_2 = '35261111222333000181570010000000021403085218';

const dados = (over: Partial<MdfeDados> = {}): MdfeDados =>
  dadosMdfe({
    ctes: [
      CTE_PARA_O_RIO,
      {
        cte_id: 'b',
        chave: CTE_2,
        valor_carga_centavos: 100,
        peso_gramas: 0,
        descarga: { codigo_ibge: '3303302', municipio: 'Niterói', uf: 'RJ' },
      },
    ],
    veiculo: { ...TRACAO_MDFE, renavam: '00123456789' },
    reboques: [
      {
        placa: 'REB1A23',
        renavam: null,
        tara_kg: 5000,
        capacidade_kg: 30000,
        capacidade_m3: 90,
        tipo_rodado: null,
        tipo_carroceria: '02',
        uf: 'SP',
      },
    ],
    motoristas: [
      { cpf: '52998224725', nome: 'JOÃO MOTORISTA' },
      { cpf: '11144477735', nome: 'MARIA & FILHOS' },
    ],
    observacoes: 'ENTREGAR <DOCA> 2',
    ...over,
  });

const input = (over: Partial<MontarMdfeInput> = {}): MontarMdfeInput => entradaMdfe(dados(), over);

describe('montarMdfeXml against mdfe_v3.00.xsd (signed)', () => {
  it.each<[string, () => MontarMdfeInput]>([
    ['two CT-e, two unloading municipalities, trailer, two drivers (homologação)', () => input()],
    [
      'produção, percurso, no RNTRC, no observations, serie 0',
      () =>
        input({
          ambiente: 'producao',
          serie: 0,
          dados: dados({ percurso: ['MG'], observacoes: null, reboques: [] }),
          emitente: { ...input().emitente, rntrc: null },
        }),
    ],
  ])('%s: schema-valid (road modal too) and the signature verifies', async (_name, make) => {
    const i = make();
    const { chave, xml } = montarMdfeXml(i);
    expect(chave).toHaveLength(44);
    expect(chave.slice(0, 2)).toBe('35');
    expect(chave.slice(20, 22)).toBe('58');
    const signed = signFiscalXml(xml, { element: 'infMDFe', privateKeyPem, certificatePem });
    const result = await schemas.validate(signed, 'mdfe_v3.00.xsd');
    expect(result.errors).toEqual([]);
    expect(verifyFiscalSignature(signed, { element: 'infMDFe' }).valid).toBe(true);
  });

  it('writes the groups the manual asks for', () => {
    const { chave, xml } = montarMdfeXml(input());
    expect(xml).toContain(`<infMDFe Id="MDFe${chave}" versao="3.00">`);
    expect(xml).toContain('<tpEmit>1</tpEmit><mod>58</mod><serie>1</serie><nMDF>42</nMDF><cMDF>40308521</cMDF>');
    expect(xml).toContain('<infANTT><RNTRC>12345678</RNTRC></infANTT>');
    expect(xml).toContain(
      '<condutor><xNome>JOÃO MOTORISTA</xNome><CPF>52998224725</CPF></condutor><condutor><xNome>MARIA &amp; FILHOS</xNome>',
    );
    expect(xml).toContain(
      `<infMunDescarga><cMunDescarga>3304557</cMunDescarga><xMunDescarga>Rio de Janeiro</xMunDescarga><infCTe><chCTe>${CTE_1}</chCTe></infCTe></infMunDescarga>`,
    );
    expect(xml).toContain('<tot><qCTe>2</qCTe><vCarga>25001.00</vCarga><cUnid>01</cUnid><qCarga>1000.5000</qCarga></tot>');
    expect(xml).toContain('<infAdic><infCpl>ENTREGAR &lt;DOCA&gt; 2</infCpl></infAdic>');
    expect(xml).toContain(`<qrCodMDFe>https://dfe-portal.svrs.rs.gov.br/mdfe/qrCode?chMDFe=${chave}&amp;tpAmb=2</qrCodMDFe>`);
  });

  it.each([
    { tipo: 'cancelamento' as const, nProt: '935260000000001', justificativa: 'MDF-E EMITIDO POR ENGANO' },
    { tipo: 'encerramento' as const, nProt: '935260000000001', data: '2026-11-21', cUF: '33', cMun: '3304557' },
    { tipo: 'condutor' as const, nome: 'SEGUNDO MOTORISTA', cpf: '11144477735' },
  ])('eventoMDFe $tipo is schema-valid once signed', async (detalhe) => {
    const { chave } = montarMdfeXml(input());
    const ev = montarEventoMdfeXml({ chave, cnpj: CNPJ, nSeq: 1, dhEvento: '2026-11-20T11:00:00-03:00', ambiente: 'homologacao', detalhe });
    expect(ev.id).toBe(`ID${ev.tpEvento}${chave}01`);
    const signed = signFiscalXml(ev.xml, { element: 'eventoMDFe/infEvento', privateKeyPem, certificatePem });
    expect((await schemas.validate(signed, 'eventoMDFe_v3.00.xsd')).errors).toEqual([]);
    expect(verifyFiscalSignature(signed, { element: 'eventoMDFe/infEvento' }).valid).toBe(true);
  });
});
