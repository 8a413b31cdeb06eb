import { CteReadError, NfeReadError, documentKeysOfPages, readCte, readNfe } from '@frete/domain';
import { DocumentReaders, PdfTextError, READ_IN_PLACE_MAX } from '@frete/documents';
import { randomCnpj } from '../support/app';
import { buildCteXml } from '../support/cte-xml';
import { expectLoopNotBlocked } from '../support/event-loop';
import { builtEntry, runNode } from '../support/processes';
import { groupedKey, nfeKey, nfeSample } from '../support/nfe-files';

/** Documents over READ_IN_PLACE_MAX characters are read in a worker thread: the same answers, off the event loop. */
describe('DocumentReaders', () => {
  const readers = new DocumentReaders();
  afterAll(() => readers.close());

  const longCte = buildCteXml({ emitenteCnpj: randomCnpj(), observacao: 'ENTREGAR NO DOCA 3. '.repeat(4000) });
  const padding = `<!--${' '.repeat(READ_IN_PLACE_MAX)}-->`;
  const longNfe = nfeSample('35180834128745000152550010000474281920007498-nfe.xml')
    .toString('utf8')
    .replace(/^(<\?xml[^>]*\?>)?/, (d) => d + padding);

  it('reads long CT-e and NF-e in the worker as the readers do in place', async () => {
    expect(longCte.xml.length).toBeGreaterThan(READ_IN_PLACE_MAX);
    expect(await expectLoopNotBlocked(() => readers.readCte(longCte.xml))).toEqual(readCte(longCte.xml));
    expect(await readers.readNfe(longNfe)).toEqual(readNfe(longNfe));
  });

  it('finds the first key of each page of a long text', async () => {
    const [k1, k2] = [nfeKey({ numero: 1 }), nfeKey({ numero: 2 })];
    const pages = [`${'PRODUTO 0001 UN '.repeat(5000)} ${groupedKey(k1)}`, `CHAVE ${k2} ${groupedKey(k1)}`];
    expect(await readers.documentKeysOfPages(pages)).toEqual(documentKeysOfPages(pages));
    expect(await readers.documentKeysOfPages(pages)).toEqual([k1, k2]);
  });

  it("refuses with the readers' own errors and codes", async () => {
    const malformed = readers.readCte('<a'.repeat(READ_IN_PLACE_MAX));
    await expect(malformed).rejects.toBeInstanceOf(CteReadError);
    await expect(malformed).rejects.toMatchObject({ code: 'xml_malformado' });
    const notNfe = readers.readNfe(`<r>${padding}</r>`);
    await expect(notNfe).rejects.toBeInstanceOf(NfeReadError);
    await expect(notNfe).rejects.toMatchObject({ code: 'documento_nao_e_nfe', message: 'expected nfeProc or NFe, found r' });
  });

  it('terminates a reading over the time budget and refuses that document; a short one is still read in place', async () => {
    const hurried = new DocumentReaders({ timeoutMs: 1 });
    try {
      await expect(hurried.readCte(longCte.xml)).rejects.toMatchObject({
        name: 'CteReadError',
        code: 'xml_hostil',
        message: 'the XML could not be read in 0.001 s',
      });
      await expect(hurried.readNfe(longNfe)).rejects.toMatchObject({ name: 'NfeReadError', code: 'xml_hostil' });
      await expect(hurried.documentKeysOfPages(['1 '.repeat(READ_IN_PLACE_MAX)])).rejects.toBeInstanceOf(PdfTextError);
      const short = buildCteXml({ emitenteCnpj: randomCnpj() });
      expect(await hurried.readCte(short.xml)).toEqual(readCte(short.xml));
    } finally {
      hurried.close();
    }
  });

  it('works from the built code (`pnpm build`), as `pnpm start` runs it', async () => {
    const entry = builtEntry('services/documents/dist/leitura/readers.js');
    const script = `require(${JSON.stringify(entry)}).readCteDocument(process.env.XML).then((c) => console.log(c.chave))`;
    const run = await runNode('-e', [script], { XML: longCte.xml });
    expect(run).toMatchObject({ code: 0, stdout: `${longCte.chave}\n` });
  }, 60_000);
});
