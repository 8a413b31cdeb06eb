import { PdfTextError, ZIP_LIMITS, ZipError, type ZipItem, documentKindOf, pdfPagesText, zipEntries } from '@frete/documents';
import { documentKeysOfPages } from '@frete/domain';
import { danfePdf, groupedKey, nfeKey, nfeSample, zipOf } from '../support/nfe-files';

const collect = async (zip: Buffer, limits = ZIP_LIMITS): Promise<ZipItem[]> => {
  const items: ZipItem[] = [];
  for await (const item of zipEntries(zip, limits)) items.push(item);
  return items;
};
const summary = (items: ZipItem[]) => items.map((i) => ('error' in i ? `${i.name}: ${i.error.code}` : `${i.name}: ${i.content.length}`));

describe('document kinds', () => {
  it('tells XML, PDF and ZIP from the bytes', async () => {
    expect(documentKindOf(Buffer.from('\uFEFF \r\n<?xml version="1.0"?><a/>'))).toBe('xml');
    expect(documentKindOf(Buffer.from('<nfeProc/>'))).toBe('xml');
    expect(documentKindOf(await danfePdf([{ key: null }]))).toBe('pdf');
    expect(documentKindOf(await zipOf([{ name: 'a.xml', content: Buffer.from('<a/>') }]))).toBe('zip');
    expect(documentKindOf(Buffer.from('just text'))).toBe('desconhecido');
    expect(documentKindOf(Buffer.alloc(0))).toBe('desconhecido');
  });
});

describe('zipEntries', () => {
  it('reads every entry, skipping directories and archiver metadata', async () => {
    const xml = nfeSample('41170706117473000150550010000463202612756525-procNFe.xml');
    const zip = await zipOf([
      { name: 'notas/a.xml', content: xml },
      { name: '__MACOSX/notas/._a.xml', content: Buffer.from('junk') },
      { name: 'notas/.DS_Store', content: Buffer.from('junk') },
      { name: 'b.xml', content: xml, compress: false },
    ]);
    const items = await collect(zip);
    expect(summary(items)).toEqual([`notas/a.xml: ${xml.length}`, `b.xml: ${xml.length}`]);
    expect((items[0] as { content: Buffer }).content.equals(xml)).toBe(true);
  });

  it('refuses, per entry, one too big and one compressed like a bomb, and reads the rest', async () => {
    const zip = await zipOf([
      { name: 'bomb.xml', content: Buffer.alloc(8 * 1024 * 1024, 0x20) },
      { name: 'ok.xml', content: Buffer.from('<a/>') },
    ]);
    expect(summary(await collect(zip))).toEqual(['bomb.xml: zip_taxa_de_compressao', 'ok.xml: 4']);
    const small = { ...ZIP_LIMITS, maxEntryBytes: 1000 };
    const big = await zipOf([
      { name: 'big.xml', content: Buffer.alloc(2000, 0x41), compress: false },
      { name: 'ok.xml', content: Buffer.from('<a/>') },
    ]);
    expect(summary(await collect(big, small))).toEqual(['big.xml: zip_entrada_muito_grande', 'ok.xml: 4']);
  });

  it('stops at too many entries or too much content in all', async () => {
    const entries = Array.from({ length: 5 }, (_, i) => ({ name: `${i}.xml`, content: Buffer.alloc(100, 0x41), compress: false }));
    const zip = await zipOf(entries);
    await expect(collect(zip, { ...ZIP_LIMITS, maxEntries: 4 })).rejects.toMatchObject({ code: 'zip_limite_excedido' });
    const seen: string[] = [];
    const run = async () => {
      for await (const item of zipEntries(zip, { ...ZIP_LIMITS, maxTotalBytes: 250 })) seen.push(item.name);
    };
    await expect(run()).rejects.toBeInstanceOf(ZipError);
    expect(seen).toEqual(['0.xml', '1.xml']);
  });

  it('refuses what is not a ZIP, and an entry whose declared size lies', async () => {
    await expect(collect(Buffer.from('PK\x03\x04 not really a zip'))).rejects.toMatchObject({ code: 'zip_invalido' });
    const zip = await zipOf([
      { name: 'a.xml', content: Buffer.from('<abcdefgh/>') },
      { name: 'b.xml', content: Buffer.from('<b/>') },
    ]);
    // Shrink the declared uncompressed size of a.xml in its central-directory record (offset 24 from the signature).
    const cd = zip.lastIndexOf(Buffer.from('PK\x01\x02', 'latin1'), zip.lastIndexOf(Buffer.from('b.xml')));
    const first = zip.indexOf(Buffer.from('PK\x01\x02', 'latin1'));
    expect(cd).toBeGreaterThan(first);
    zip.writeUInt32LE(3, first + 24);
    expect(summary(await collect(zip))).toEqual(['a.xml: zip_invalido', 'b.xml: 4']);
  });
});

describe('pdfPagesText', () => {
  it('extracts the text of each page in a worker, where the keys are found', async () => {
    const k1 = nfeKey({ numero: 47428 });
    const k2 = nfeKey({ numero: 47429 });
    const pdf = await danfePdf([{ key: k1 }, { key: k2, extra: `Referenciada ${groupedKey(k1)}` }, { key: null }]);
    const pages = await pdfPagesText(pdf);
    expect(pages).toHaveLength(3);
    expect(pages[0]).toContain('CHAVE DE ACESSO');
    expect(documentKeysOfPages(pages)).toEqual([k1, k2]);
    expect(await pdfPagesText(pdf, { maxPages: 1 })).toHaveLength(1);
  });

  it('fails cleanly on a broken PDF and on a timeout', async () => {
    await expect(pdfPagesText(Buffer.from('%PDF-1.7\n garbage that is no PDF'))).rejects.toMatchObject({ reason: 'ilegivel' });
    const pdf = await danfePdf([{ key: null }]);
    const err = await pdfPagesText(pdf, { timeoutMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PdfTextError);
    expect((err as PdfTextError).reason).toBe('tempo_esgotado');
  });
});
