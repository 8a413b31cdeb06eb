import { accessKeyCheckDigit, qrCodeMdfe } from '@frete/domain';
import { type DamdfeDados, pdfPagesText, renderDamdfe } from '@frete/documents';

const key = (model: '57' | '58', numero: number) => {
  const first43 = `352601${'11222333000181'}${model}007${String(numero).padStart(9, '0')}1${String(10_000_000 + numero)}`;
  return first43 + accessKeyCheckDigit(first43);
};
const grouped = (k: string) => k.replace(/(.{4})(?=.)/g, '$1 ');
/** The text of every sheet, blanks collapsed: pdf.js splits and joins runs in its own way. */
const sheets = async (pdf: Buffer) => (await pdfPagesText(pdf, { maxPages: 50 })).map((p) => p.replace(/\s+/g, ' '));
const count = (text: string, part: string) => text.split(part).length - 1;

const CHAVE = key('58', 42);

const dados = (over: Partial<DamdfeDados> = {}): DamdfeDados => ({
  chave: CHAVE,
  serie: 7,
  numero: 42,
  data_emissao: '2026-01-09T14:30:05-03:00',
  uf_inicio: 'SP',
  uf_fim: 'RJ',
  percurso: ['MG'],
  emitente: {
    nome: 'TRANSPORTES SÃO JOÃO LTDA',
    cnpj: '11222333000181',
    ie: '110042490114',
    endereco: 'AVENIDA PAULISTA, 1000 - BELA VISTA - São Paulo/SP - CEP 01310100',
  },
  protocolo: { numero: '935260000012345', recebido_em: '2026-01-09T14:31:10-03:00' },
  qr_code: qrCodeMdfe(CHAVE, 'homologacao'),
  rntrc: '12345678',
  veiculos: [
    { placa: 'ABC1D23', uf: 'SP', tipo: 'TRAÇÃO' },
    { placa: 'REB1A23', uf: 'PR', tipo: 'REBOQUE', rntrc: '87654321' },
  ],
  condutores: [
    { cpf: '52998224725', nome: 'JOAO MOTORISTA' },
    { cpf: '11144477735', nome: 'MARIA CONDUTORA' },
  ],
  ctes: [key('57', 1), key('57', 2)],
  carregamento: ['Campinas/SP', 'São Paulo/SP'],
  descarregamento: ['Rio de Janeiro/RJ', 'Niterói/RJ'],
  qtd_cte: 2,
  valor_carga: '25.000,00',
  peso_kg: '1000.0000',
  observacoes: 'Carga paletizada; entrega agendada.',
  ...over,
});

describe('renderDamdfe', () => {
  it('draws one A4 sheet with the boxes of the manual, their labels and values, and the sandbox marking', async () => {
    const d = dados();
    const pdf = await renderDamdfe(d, { environment: 'homologacao' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);

    const pages = await sheets(pdf);
    expect(pages).toHaveLength(1);
    const text = pages[0]!;
    for (const expected of [
      'TRANSPORTES SÃO JOÃO LTDA',
      'CNPJ: 11.222.333/0001-81',
      'IE: 110042490114',
      'AVENIDA PAULISTA, 1000',
      'DAMDFE - Documento Auxiliar de Manifesto Eletrônico de Documentos Fiscais',
      'CONTROLE DO FISCO',
      `CHAVE DE ACESSO ${grouped(CHAVE)}`,
      'Consulta em https://dfe-portal.svrs.rs.gov.br/MDFE/Consulta',
      'MODELO 58',
      'SÉRIE 7',
      'NÚMERO 42',
      'FL 1/1',
      'DATA E HORA DE EMISSÃO 09/01/2026 14:30:05',
      'UF CARREG. SP',
      'UF DESCARREG. RJ',
      'PROTOCOLO DE AUTORIZAÇÃO 935260000012345 - 09/01/2026 14:31:10',
      'PERCURSO MG',
      'MODAL RODOVIÁRIO DE CARGA',
      'QTD. CT-E 2',
      'QTD. NF-E 0',
      'PESO TOTAL (KG) 1.000,0000',
      'VALOR TOTAL DA CARGA 25.000,00',
      'RNTRC DO EMITENTE 12345678',
      'VEÍCULO',
      'PLACA',
      'UF',
      'RNTRC',
      'TIPO',
      'ABC1D23 SP 12345678 TRAÇÃO',
      'REB1A23 PR 87654321 REBOQUE',
      'CONDUTOR',
      'CPF',
      'NOME',
      '529.982.247-25 JOAO MOTORISTA',
      '111.444.777-35 MARIA CONDUTORA',
      'MUNICÍPIOS DE CARREGAMENTO Campinas/SP, São Paulo/SP',
      'MUNICÍPIOS DE DESCARREGAMENTO Rio de Janeiro/RJ, Niterói/RJ',
      'DOCUMENTOS VINCULADOS',
      `CT-E ${grouped(d.ctes[0]!)}`,
      `CT-E ${grouped(d.ctes[1]!)}`,
      'OBSERVAÇÕES Carga paletizada; entrega agendada.',
      'SEM VALOR FISCAL - EMITIDO EM AMBIENTE DE HOMOLOGAÇÃO',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('CANCELADO');
    expect(text).not.toContain('ENCERRADO');
    expect(text).not.toContain('CONTINUA');
  });

  it('marks a cancelled and a closed MDF-e, without the sandbox marking in production', async () => {
    const cancelled = (await sheets(await renderDamdfe(dados(), { environment: 'producao', situacao: 'cancelado' }))).join(' ');
    expect(cancelled).toContain('MDF-E CANCELADO');
    expect(cancelled).not.toContain('SEM VALOR FISCAL');
    const closed = (await sheets(await renderDamdfe(dados(), { environment: 'producao', situacao: 'encerrado' }))).join(' ');
    expect(closed).toContain('MDF-E ENCERRADO');
    expect(closed).not.toContain('CANCELADO');
  });

  it('continues 120 CT-e keys on numbered sheets, each key printed once, every sheet marked', async () => {
    const ctes = Array.from({ length: 120 }, (_, i) => key('57', 1000 + i));
    const d = dados({ ctes, qtd_cte: ctes.length, observacoes: 'Observação do contribuinte que não cabe no quadro. '.repeat(40) });
    const pages = await sheets(await renderDamdfe(d, { environment: 'homologacao', situacao: 'cancelado' }));
    const n = pages.length;
    expect(n).toBeGreaterThanOrEqual(2);
    const all = pages.join(' ');
    for (const k of ctes) expect(count(all, grouped(k))).toBe(1);
    expect(count(all, 'CT-E 3526')).toBe(ctes.length);
    expect(pages[0]).toContain('DOCUMENTOS VINCULADOS (CONTINUA NA FOLHA 2)');
    expect(pages[0]).toContain('(continua na folha');
    expect(all).toContain('OBSERVAÇÕES (CONTINUAÇÃO)');
    pages.forEach((p, i) => {
      expect(p).toContain(`FL ${i + 1}/${n}`);
      expect(p).toContain('SEM VALOR FISCAL - EMITIDO EM AMBIENTE DE HOMOLOGAÇÃO');
      expect(p).toContain('CANCELADO');
      if (i === 0) return;
      expect(p).toContain('DAMDFE CONTINUAÇÃO');
      expect(p).toContain(`CHAVE DE ACESSO ${grouped(CHAVE)}`);
      expect(p).toContain('SÉRIE 7');
      expect(p).toContain('NÚMERO 42');
    });
    expect(pages[1]).toContain('DOCUMENTOS VINCULADOS (CONTINUAÇÃO)');
  });

  it('prints the drivers and vehicles the MDF-e allows at most and a long list of municipalities without losing one', async () => {
    const condutores = Array.from({ length: 10 }, (_, i) => ({ cpf: '52998224725', nome: `CONDUTOR NUMERO ${i + 1}` }));
    const descarregamento = Array.from({ length: 60 }, (_, i) => `Município ${i + 1}/RJ`);
    const pages = await sheets(await renderDamdfe(dados({ condutores, descarregamento }), { environment: 'producao' }));
    const all = pages.join(' ');
    for (const c of condutores) expect(all).toContain(c.nome);
    for (const m of descarregamento) expect(count(all, `${m},`) + count(all, `${m} `)).toBeGreaterThanOrEqual(1);
    expect(all).toContain('MUNICÍPIOS DE DESCARREGAMENTO (CONTINUAÇÃO)');
    expect(pages[0]).toContain(`FL 1/${pages.length}`);
  });
});
