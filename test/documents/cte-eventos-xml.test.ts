import { FiscalSchemas, signFiscalXml, verifyFiscalSignature } from '@frete/documents';
import { readPkcs12 } from '@frete/platform';
import { cartaCumulativa, type CorrecaoCte, type DetalheEventoCte, montarEventoCte } from '@frete/domain';
import { makeA1 } from '../support/certificates';
import { chaveTeste, EMITENTE_CNPJ } from '../support/cte-montar';

const SENHA = 'senha-a1';
const a1 = makeA1({ cnpj: EMITENTE_CNPJ, razao: 'TRANSPORTADORA EXEMPLO LTDA', password: SENHA, cnpjIn: 'otherName' });
const { privateKeyPem, certificatePem } = readPkcs12(a1.pfx, SENHA);
const schemas = new FiscalSchemas();
afterAll(() => schemas.close());

const chave = chaveTeste(EMITENTE_CNPJ, 7, '57', '35');
const nProt = '135260000000001';

const detalhes: Record<string, DetalheEventoCte> = {
  cancelamento: { tpEvento: '110111', nProt, xJust: 'ERRO NA EMISSAO DO CONHECIMENTO, DADOS DO TOMADOR & VALOR' },
  'carta de correção': {
    tpEvento: '110110',
    correcoes: [
      { grupoAlterado: 'compl', campoAlterado: 'xObs', valorAlterado: 'ENTREGAR NA DOCA 3 <FUNDOS>' },
      { grupoAlterado: 'infQ', campoAlterado: 'qCarga', valorAlterado: '1000.0000', nroItemAlterado: 1 },
    ],
  },
  'comprovante de entrega': {
    tpEvento: '110180',
    nProt,
    dhEntrega: '2026-11-21T09:00:00-03:00',
    nDoc: '12345678909',
    xNome: 'JOSÉ RECEBEDOR',
    latitude: -23.55052,
    longitude: -46.633308,
    hashEntrega: Buffer.alloc(20, 3).toString('base64'),
    dhHashEntrega: '2026-11-21T09:01:00-03:00',
    nfes: [chaveTeste(EMITENTE_CNPJ, 9)],
  },
  'comprovante de entrega sem posição nem NF-e': {
    tpEvento: '110180',
    nProt,
    dhEntrega: '2026-11-21T09:00:00-03:00',
    nDoc: 'RG12345',
    xNome: 'FULANO',
    hashEntrega: Buffer.alloc(20, 3).toString('base64'),
    dhHashEntrega: '2026-11-21T09:01:00-03:00',
    nfes: [],
  },
  'cancelamento do comprovante de entrega': { tpEvento: '110181', nProt, nProtCE: '135260000000002' },
};

describe('eventoCTe 4.00 built by the domain, signed: valid against eventoCTe_v4.00.xsd (with its detEvento schema)', () => {
  for (const [nome, detalhe] of Object.entries(detalhes)) {
    it(nome, async () => {
      const { id, xml } = montarEventoCte({
        chave,
        cnpjAutor: EMITENTE_CNPJ,
        tpAmb: 2,
        cOrgao: '35',
        nSeqEvento: 2,
        dhEvento: '2026-11-21T10:00:00-03:00',
        detalhe,
      });
      expect(id).toMatch(/^ID[0-9]{12}[A-Z0-9]{12}[0-9]{29}$/);
      const signed = signFiscalXml(xml, { element: 'infEvento', privateKeyPem, certificatePem });
      expect((await schemas.validate(signed, 'eventoCTe_v4.00.xsd')).errors).toEqual([]);
      expect(verifyFiscalSignature(signed, { element: 'eventoCTe/infEvento' }).valid).toBe(true);
    });
  }

  it('a broken detail is caught by the event schema', async () => {
    const { xml } = montarEventoCte({
      chave,
      cnpjAutor: EMITENTE_CNPJ,
      tpAmb: 2,
      cOrgao: '35',
      nSeqEvento: 1,
      dhEvento: '2026-11-21T10:00:00-03:00',
      detalhe: { tpEvento: '110111', nProt: '123', xJust: 'CURTA' },
    });
    const signed = signFiscalXml(xml, { element: 'infEvento', privateKeyPem, certificatePem });
    expect((await schemas.validate(signed, 'eventoCTe_v4.00.xsd')).valid).toBe(false);
  });
});

/** Issue 29, point 1: the authority keeps the CC-e with the highest nSeqEvento, so each letter repeats the earlier ones. */
describe('cumulative correction letters: the second and third letters, signed, are schema-valid and carry the earlier corrections', () => {
  const infCorrecao = (xml: string) =>
    [...xml.matchAll(/<infCorrecao>(.*?)<\/infCorrecao>/g)].map((m) => {
      const v = (tag: string) => new RegExp(`<${tag}>(.*?)</${tag}>`).exec(m[1]!)?.[1];
      return [v('grupoAlterado'), v('campoAlterado'), v('valorAlterado'), v('nroItemAlterado') ?? null];
    });
  const carta = async (nSeqEvento: number, correcoes: CorrecaoCte[]) => {
    const { xml } = montarEventoCte({
      chave,
      cnpjAutor: EMITENTE_CNPJ,
      tpAmb: 2,
      cOrgao: '35',
      nSeqEvento,
      dhEvento: '2026-11-21T10:00:00-03:00',
      detalhe: { tpEvento: '110110', correcoes },
    });
    const signed = signFiscalXml(xml, { element: 'infEvento', privateKeyPem, certificatePem });
    expect((await schemas.validate(signed, 'eventoCTe_v4.00.xsd')).errors).toEqual([]);
    return signed;
  };

  it('letters 1, 2 and 3: a field corrected twice appears once, with its last value, in its first place', async () => {
    const primeira = cartaCumulativa([], [{ grupoAlterado: 'compl', campoAlterado: 'xObs', valorAlterado: 'ENTREGAR NA DOCA 3' }]);
    const segunda = cartaCumulativa(primeira, [
      { grupoAlterado: 'infQ', campoAlterado: 'qCarga', valorAlterado: '1000.0000', nroItemAlterado: 1 },
    ]);
    const terceira = cartaCumulativa(segunda, [
      { grupoAlterado: 'compl', campoAlterado: 'xObs', valorAlterado: 'ENTREGAR NA DOCA 4 & <FUNDOS>' },
      { grupoAlterado: 'rodo', campoAlterado: 'RNTRC', valorAlterado: '12345678' },
    ]);
    await carta(1, primeira);
    expect(infCorrecao(await carta(2, segunda))).toEqual([
      ['compl', 'xObs', 'ENTREGAR NA DOCA 3', null],
      ['infQ', 'qCarga', '1000.0000', '01'],
    ]);
    const xml3 = await carta(3, terceira);
    expect(xml3).toContain(`Id="ID110110${chave}003"`);
    expect(xml3).toContain('<nSeqEvento>3</nSeqEvento>');
    expect(infCorrecao(xml3)).toEqual([
      ['compl', 'xObs', 'ENTREGAR NA DOCA 4 &amp; &lt;FUNDOS&gt;', null],
      ['infQ', 'qCarga', '1000.0000', '01'],
      ['rodo', 'RNTRC', '12345678', null],
    ]);
  });

  it('a letter at the limit (50 groups of the longest fields) is schema-valid and far under the 512 KB message limit', async () => {
    const cheias = Array.from({ length: 50 }, (_, i) => ({
      grupoAlterado: 'g'.repeat(20),
      campoAlterado: 'c'.repeat(20),
      valorAlterado: '"'.repeat(500),
      nroItemAlterado: (i % 99) + 1,
    }));
    const signed = await carta(20, cartaCumulativa(cheias.slice(0, 25), cheias.slice(25)));
    expect(infCorrecao(signed)).toHaveLength(50);
    expect(Buffer.byteLength(signed, 'utf8')).toBeLessThan(512 * 1024);
  });
});
