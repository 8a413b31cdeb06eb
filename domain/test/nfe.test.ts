import fs from 'node:fs';
import path from 'node:path';
import { type NfeArquivoRecebido } from '@frete/contracts';
import { type NfeCommand, type NfeEvent, type NfeLida, nfeDecider, nfeStream, readNfe } from '../src';
import { scenario } from './given-when-then';

const sample = (name: string) => fs.readFileSync(path.join(__dirname, '..', '..', 'test', 'fixtures', 'nfe', name), 'utf8');
const { given } = scenario(nfeDecider);

const nfe: NfeLida = readNfe(sample('41170706117473000150550010000463202612756525-procNFe.xml'));
const chave = nfe.chave;
const semProtocolo: NfeLida = { ...nfe, protocolo: null };
const xml: NfeArquivoRecebido = { nome: 'nota.xml', zip: null, sha256: 'x1' };
const xml2: NfeArquivoRecebido = { nome: 'nota-2.xml', zip: 'lote.zip', sha256: 'x2' };
const pdf: NfeArquivoRecebido = { nome: 'danfe.pdf', zip: null, sha256: 'p1' };
const pdf2: NfeArquivoRecebido = { nome: 'danfe-2.pdf', zip: null, sha256: 'p2' };

const importarXml = (lida: NfeLida, arquivo = xml, ambiente: 'producao' | 'homologacao' = 'homologacao'): NfeCommand => ({
  type: 'ImportarNfeXml',
  company_id: 'c1',
  ambiente,
  arquivo,
  nfe: lida,
});
const importarChave = (arquivo = pdf, key = chave): NfeCommand => ({ type: 'ImportarChaveNfe', company_id: 'c1', chave: key, arquivo });
const remover = (vinculada = false): NfeCommand => ({ type: 'RemoverNfe', company_id: 'c1', chave, vinculada });

const importada = (arquivo = xml, lida = nfe, completou_chave = false): NfeEvent => ({
  type: 'nfe.importada',
  data: { company_id: 'c1', chave, arquivo, completou_chave, nfe: lida },
});
const chaveImportada = (arquivo = pdf): NfeEvent => ({ type: 'nfe.chave_importada', data: { company_id: 'c1', chave, arquivo } });
const reimportada = (origem: 'xml' | 'pdf', arquivo: NfeArquivoRecebido, substituiu_xml: boolean, lida: NfeLida | null): NfeEvent => ({
  type: 'nfe.reimportada',
  data: { company_id: 'c1', chave, origem, arquivo, substituiu_xml, nfe: lida },
});
const removida: NfeEvent = { type: 'nfe.removida', data: { company_id: 'c1', chave } };

describe('nfe decider', () => {
  it('names one stream per company and key', () => expect(nfeStream('c1', chave)).toBe(`nfe-c1-${chave}`));

  it('imports an unknown NF-e from its XML', () => given().when(importarXml(nfe)).then(importada()));

  it('records the key alone from a PDF', () => given().when(importarChave()).then(chaveImportada()));

  it('completes a key-only NF-e when its XML arrives', () =>
    given(chaveImportada())
      .when(importarXml(nfe))
      .then(importada(xml, nfe, true)));

  it('records a key-only import after the XML, changing nothing', () => {
    given(importada())
      .when(importarChave())
      .then(reimportada('pdf', pdf, false, null));
    given(chaveImportada())
      .when(importarChave(pdf2))
      .then(reimportada('pdf', pdf2, false, null));
  });

  it('records the same XML again without replacing it', () =>
    given(importada())
      .when(importarXml(nfe))
      .then(reimportada('xml', xml, false, nfe)));

  it('replaces the archived XML with different bytes', () => {
    given(importada(xml, semProtocolo))
      .when(importarXml(nfe, xml2))
      .then(reimportada('xml', xml2, true, nfe));
    // and the replacement is what later receipts compare with
    given(importada(xml, semProtocolo), reimportada('xml', xml2, true, nfe))
      .when(importarXml(nfe, xml2))
      .then(reimportada('xml', xml2, false, nfe));
  });

  it('never trades an authorized nfeProc for an XML without protocol', () =>
    given(importada())
      .when(importarXml(semProtocolo, xml2))
      .then(reimportada('xml', xml2, false, semProtocolo)));

  it('refuses a sandbox NF-e in production, accepts a production NF-e in the sandbox', () => {
    given()
      .when(importarXml(nfe, xml, 'producao'))
      .thenRejects('ambiente_divergente');
    const prod: NfeLida = { ...nfe, ambiente: 'producao' };
    given()
      .when(importarXml(prod, xml, 'producao'))
      .then(importada(xml, prod));
  });

  it('refuses a bad key and a key of another model', () => {
    given()
      .when(importarChave(pdf, chave.slice(0, 43) + ((Number(chave[43]) + 1) % 10)))
      .thenRejects('chave_invalida');
    given().when(importarChave(pdf, '24210231626841000132570010000007811746401259')).thenRejects('documento_nao_e_nfe');
  });

  it('removes an NF-e not linked to an own CT-e', () => {
    given(importada()).when(remover()).then(removida);
    given(chaveImportada()).when(remover()).then(removida);
  });

  it('refuses to remove a linked NF-e, and one that does not exist', () => {
    given(importada()).when(remover(true)).thenRejects('nfe_vinculada');
    given().when(remover()).thenRejects('nao_encontrado');
    given(importada(), removida).when(remover()).thenRejects('nao_encontrado');
  });

  it('imports again after removal', () => {
    given(importada(), removida).when(importarXml(nfe)).then(importada());
    given(importada(), removida).when(importarChave()).then(chaveImportada());
  });
});
