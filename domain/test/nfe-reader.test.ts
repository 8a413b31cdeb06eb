import fs from 'node:fs';
import path from 'node:path';
import { NfeReadError, accessKeyCheckDigit, accessKeysInText, documentKeysOfPages, readNfe } from '../src';

const sample = (name: string) => fs.readFileSync(path.join(__dirname, '..', '..', 'test', 'fixtures', 'nfe', name), 'utf8');
/** A bare `NFe` document cut out of an `nfeProc`. */
const bare = (proc: string) => {
  const start = proc.indexOf('<NFe');
  const end = proc.indexOf('</NFe>') + '</NFe>'.length;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' + proc.slice(start, end).replace(/^<NFe>/, '<NFe xmlns="http://www.portalfiscal.inf.br/nfe">')
  );
};

const readError = (xml: string): NfeReadError => {
  try {
    readNfe(xml);
  } catch (err) {
    if (err instanceof NfeReadError) return err;
    throw err;
  }
  throw new Error('expected the reader to refuse');
};

describe('readNfe', () => {
  it('reads an authorized nfeProc (production, recipient with CNPJ, carrier and volumes)', () => {
    const nfe = readNfe(sample('26180875335849000115550010000016871192213331-nfe.xml'));
    expect(nfe).toMatchObject({
      chave: '26180875335849000115550010000016871192213331',
      versao: '4.00',
      modelo: '55',
      serie: 1,
      numero: 1687,
      codigo_numerico: '19221333',
      natureza_operacao: 'Venda',
      tipo_operacao: 'saida',
      finalidade: 1,
      data_emissao: '2018-08-16T16:28:18-03:00',
      ambiente: 'producao',
      valor_total_centavos: 578000,
      valor_produtos_centavos: 578000,
      modalidade_frete: 1,
      carga: { volumes: 1, peso_liquido_g: null, peso_bruto_g: null },
      protocolo: {
        numero: '126180042806970',
        recebido_em: '2018-08-16T16:45:05-03:00',
        status: 100,
        motivo: 'Autorizado o uso da NF-e',
        chave: '26180875335849000115550010000016871192213331',
      },
    });
    expect(nfe.emitente).toMatchObject({
      documento: '75335849000115',
      tipo_documento: 'CNPJ',
      nome: 'Teste Produtos Médicos Ltda - ME',
      ie: '306412330',
    });
    expect(nfe.emitente.endereco).toMatchObject({ municipio: 'Recife', uf: 'PE', codigo_municipio: '2611606' });
    expect(nfe.destinatario).toMatchObject({
      documento: '37148260000119',
      tipo_documento: 'CNPJ',
      nome: 'MEDICOS, HOSP, IMP. E EXP. LTDA',
    });
    expect(nfe.destinatario?.endereco).toMatchObject({ municipio: 'Santos', uf: 'SP', complemento: 'Sala 4' });
    expect(nfe.transportador).toMatchObject({
      documento: '02012862002707',
      nome: 'LATAM LINHAS AEREAS S/A',
      endereco: { logradouro: 'PRACA MINISTRO SALGADO FILHO, S/N, IMBIRIBEIRA', municipio: 'Recife', uf: 'PE' },
    });
  });

  it('reads a recipient with CPF and weights in grams', () => {
    const nfe = readNfe(sample('35180834128745000152550010000474281920007498-nfe.xml'));
    expect(nfe).toMatchObject({ numero: 47428, valor_total_centavos: 34728, valor_produtos_centavos: 29464, modalidade_frete: 0 });
    expect(nfe.destinatario).toMatchObject({
      documento: '68161525650',
      tipo_documento: 'CPF',
      nome: 'FULANO DOS SANTOS',
      endereco: { uf: 'MG', municipio: 'Belo Horizonte' },
    });
    expect(nfe.carga).toEqual({ volumes: 1, peso_liquido_g: 6970, peso_bruto_g: 6970 });
    expect(readNfe(sample('35180834128745000152550010000476781421693968-nfe.xml')).carga).toEqual({
      volumes: 6,
      peso_liquido_g: 36000,
      peso_bruto_g: 36000,
    });
  });

  it('reads a sandbox nfeProc and an entry NF-e to a recipient abroad', () => {
    const hml = readNfe(sample('41170706117473000150550010000463202612756525-procNFe.xml'));
    expect(hml).toMatchObject({
      ambiente: 'homologacao',
      numero: 46320,
      valor_total_centavos: 8490,
      transportador: null,
      protocolo: { status: 100, numero: '141170000487910' },
    });
    expect(hml.emitente).toMatchObject({
      documento: '06117473000150',
      nome: 'UNIMAKE SOLUCOES CORPORATIVAS LTDA',
      endereco: { uf: 'PR', municipio: 'PARANAVAI' },
    });
    const abroad = readNfe(sample('42210775277525000178550030000266631762885493-procNFe.xml'));
    expect(abroad).toMatchObject({ serie: 3, numero: 26663, tipo_operacao: 'entrada', valor_total_centavos: 9570068, modalidade_frete: 9 });
    expect(abroad.destinatario).toMatchObject({
      documento: 'EXTERIOR',
      tipo_documento: 'estrangeiro',
      nome: 'E.G.O. Elektro-Gerätebau GmbH',
    });
  });

  it('reads an nfeProc without protocol whose Id lacks the NFe prefix, and a bare NFe', () => {
    const noProt = readNfe(sample('NFe35200159594315000157550010000000012062777161.xml'));
    expect(noProt).toMatchObject({
      chave: '35200159594315000157550010000000012062777161',
      numero: 1,
      valor_total_centavos: 1400,
      protocolo: null,
      ambiente: 'homologacao',
    });
    const proc = sample('35180834128745000152550010000476121675985748-nfe.xml');
    const fromBare = readNfe(bare(proc));
    expect(fromBare).toEqual({ ...readNfe(proc), protocolo: null });
    expect(fromBare).toMatchObject({
      chave: '35180834128745000152550010000476121675985748',
      valor_total_centavos: 906,
      carga: { volumes: null, peso_bruto_g: 900 },
    });
  });

  it('reads the tax-reform layout', () => {
    const nfe = readNfe(sample('nfe_reforma_tributaria.xml'));
    expect(nfe).toMatchObject({
      chave: '15231207933914000154550010006643501427015088',
      numero: 664350,
      valor_total_centavos: 16474681,
      carga: { volumes: 16, peso_bruto_g: 30983000 },
    });
    expect(nfe.emitente.nome).toBe('Contribuinte A');
  });

  it('accepts a UTF-8 BOM and leading whitespace', () => {
    expect(readNfe('\uFEFF\n  ' + sample('41170706117473000150550010000463202612756525-procNFe.xml')).numero).toBe(46320);
  });

  it('refuses DOCTYPE, entities and absurd nesting before parsing', () => {
    const entity = '<?xml version="1.0"?><!DOCTYPE NFe [<!ENTITY x "boom">]><NFe>&x;</NFe>';
    expect(readError(entity).code).toBe('xml_hostil');
    const deep = '<NFe>' + '<a>'.repeat(100) + '</a>'.repeat(100) + '</NFe>';
    expect(readError(deep).code).toBe('xml_hostil');
  });

  it('refuses malformed XML and documents that are not an NF-e', () => {
    expect(readError('<nfeProc><NFe></nfeProc>').code).toBe('xml_malformado');
    expect(
      readError(fs.readFileSync(path.join(__dirname, '..', '..', 'test', 'fixtures', 'cte', 'cte_hom_com_prot.xml'), 'utf8')).code,
    ).toBe('documento_nao_e_nfe');
    expect(readError('<?xml version="1.0"?><nfeProc><NFe/></nfeProc>').code).toBe('documento_nao_e_nfe');
  });

  it('refuses an NFC-e (model 65) and another layout', () => {
    const proc = sample('41170706117473000150550010000463202612756525-procNFe.xml');
    const err = readError(proc.replace('<mod>55</mod>', '<mod>65</mod>'));
    expect(err.code).toBe('documento_nao_e_nfe');
    expect(err.message).toMatch(/NFC-e/);
    expect(
      readError(
        proc.replace(
          'Id="NFe41170706117473000150550010000463202612756525" versao="4.00"',
          'Id="NFe41170706117473000150550010000463202612756525" versao="3.10"',
        ),
      ).code,
    ).toBe('layout_nao_suportado');
  });

  it('refuses a bad key: wrong check digit, or not matching the document', () => {
    const proc = sample('41170706117473000150550010000463202612756525-procNFe.xml');
    expect(
      readError(proc.replace('NFe41170706117473000150550010000463202612756525', 'NFe41170706117473000150550010000463202612756526')).code,
    ).toBe('chave_invalida');
    expect(readError(proc.replace('<nNF>46320</nNF>', '<nNF>46321</nNF>')).code).toBe('chave_invalida');
    const other = '4117070611747300015055001000046320261275652';
    const otherKey = other.slice(0, 42) + '9' + accessKeyCheckDigit(other.slice(0, 42) + '9');
    expect(readError(proc.replace('<chNFe>41170706117473000150550010000463202612756525</chNFe>', `<chNFe>${otherKey}</chNFe>`)).code).toBe(
      'chave_invalida',
    );
  });
});

describe('access keys in a PDF text', () => {
  const key = '35180834128745000152550010000474281920007498';
  const grouped = key.replace(/(.{4})/g, '$1 ').trim();

  it('finds a key printed in groups of 4, whole, or after the NFe prefix', () => {
    expect(accessKeysInText(`DANFE CHAVE DE ACESSO ${grouped} Consulta`)).toEqual([key]);
    expect(accessKeysInText(`chave ${key}.`)).toEqual([key]);
    expect(accessKeysInText(`NFe${key}`)).toEqual([key]);
  });

  it('ignores digits that do not form a key: wrong check digit, longer runs, glued numbers', () => {
    expect(accessKeysInText(grouped.replace(/8$/, '7'))).toEqual([]);
    expect(accessKeysInText(`1${key}`)).toEqual([]);
    expect(accessKeysInText('Nº 000.047.428 SÉRIE 001 CNPJ 34.128.745/0001-52')).toEqual([]);
  });

  it("takes the first key of each page as the document's own", () => {
    const ref = '35250137241249000107550014231152171571688010';
    const other = '26180875335849000115550010000016871192213331';
    expect(documentKeysOfPages([`${grouped} ref ${ref}`, `page 2 ${grouped}`, `x ${other}`])).toEqual([key, other]);
  });
});
