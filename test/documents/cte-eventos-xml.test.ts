import { FiscalSchemas, signFiscalXml, verifyFiscalSignature } from '@frete/documents';
import { readPkcs12 } from '@frete/platform';
import { type DetalheEventoCte, montarEventoCte } from '@frete/domain';
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
