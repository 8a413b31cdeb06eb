import { TextDecoder } from 'node:util';
import { type CanalNfe, type Environment, type NfeArquivoRecebido, type NfeImportFileResult } from '@frete/contracts';
import { type NfeCommand, NfeReadError, modelOfKey } from '@frete/domain';
import { type DocumentStore } from '@frete/platform';
import {
  CONTENT_TYPES,
  PdfTextError,
  ZipError,
  documentKeysOfPdfText,
  documentKindOf,
  pdfPagesText,
  readNfeDocument,
  zipEntries,
} from '@frete/documents';

/** One file as the integrator sent it. */
export interface ArquivoNfe {
  name: string;
  content: Buffer;
}

/** Runs one import command and writes its outcome (or its per-key error) into the file's result. */
export type RegistrarImportacao = (command: NfeCommand, key: string, out: NfeImportFileResult, entrada: string | null) => Promise<void>;

/** The XML's text in the encoding its declaration names (UTF-8 when it names none); null when the bytes do not decode. */
function xmlText(bytes: Buffer): string | null {
  const declared = /^(?:\uFEFF)?\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(
    bytes.subarray(0, 200).toString('latin1'),
  )?.[1];
  try {
    return new TextDecoder(declared?.toLowerCase() ?? 'utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Walks the files of one request (spec section 8): XML imports the NF-e, a PDF the keys it prints, a ZIP each XML
 * or PDF inside. Every file is archived byte for byte; each file gets its result, errors included.
 */
export async function importarArquivos(
  deps: { documents: DocumentStore },
  contexto: { companyId: string; ambiente: Environment; canal?: CanalNfe; nsu?: string },
  files: ArquivoNfe[],
  registrar: RegistrarImportacao,
): Promise<NfeImportFileResult[]> {
  const { companyId, ambiente } = contexto;
  // A distributed document is imported as a file is; only its import says where it came from.
  const origem =
    contexto.canal !== undefined ? { canal: contexto.canal, ...(contexto.nsu !== undefined ? { nsu: contexto.nsu } : {}) } : {};

  const importXml = async (
    bytes: Buffer,
    arquivo: Omit<NfeArquivoRecebido, 'sha256'>,
    out: NfeImportFileResult,
    entrada: string | null,
  ) => {
    const text = xmlText(bytes);
    if (text === null)
      return void out.erros.push({ entrada, code: 'xml_malformado', message: "the bytes are not valid in the XML's encoding" });
    let nfe;
    try {
      nfe = await readNfeDocument(text);
    } catch (err) {
      if (err instanceof NfeReadError) return void out.erros.push({ entrada, code: err.code, message: err.message });
      throw err;
    }
    const sha256 = await deps.documents.put(bytes, CONTENT_TYPES.xml);
    await registrar(
      { type: 'ImportarNfeXml', company_id: companyId, ambiente, arquivo: { ...arquivo, sha256 }, nfe, ...origem },
      nfe.chave,
      out,
      entrada,
    );
  };

  const importPdf = async (
    bytes: Buffer,
    arquivo: Omit<NfeArquivoRecebido, 'sha256'>,
    out: NfeImportFileResult,
    entrada: string | null,
  ) => {
    let keys: string[];
    try {
      keys = await documentKeysOfPdfText(await pdfPagesText(bytes));
    } catch (err) {
      if (err instanceof PdfTextError) return void out.erros.push({ entrada, code: 'pdf_ilegivel', message: err.message });
      throw err;
    }
    const nfeKeys = keys.filter((k) => modelOfKey(k) === '55');
    if (nfeKeys.length === 0) {
      return void out.erros.push(
        keys.length > 0
          ? {
              entrada,
              code: 'documento_nao_e_nfe',
              message: `the PDF is of a model ${modelOfKey(keys[0]!)} document (access key ${keys[0]}), not of an NF-e`,
            }
          : { entrada, code: 'pdf_sem_chave', message: "no valid access key was found in the PDF's text" },
      );
    }
    const sha256 = await deps.documents.put(bytes, CONTENT_TYPES.pdf);
    for (const key of nfeKeys) {
      await registrar({ type: 'ImportarChaveNfe', company_id: companyId, chave: key, arquivo: { ...arquivo, sha256 } }, key, out, entrada);
    }
  };

  const importZip = async (bytes: Buffer, zipName: string, out: NfeImportFileResult) => {
    let seen = 0;
    try {
      for await (const item of zipEntries(bytes)) {
        seen++;
        if ('error' in item) {
          out.erros.push({ entrada: item.name, ...item.error });
          continue;
        }
        const arquivo = { nome: item.name, zip: zipName };
        switch (documentKindOf(item.content)) {
          case 'xml':
            await importXml(item.content, arquivo, out, item.name);
            break;
          case 'pdf':
            await importPdf(item.content, arquivo, out, item.name);
            break;
          case 'zip':
            out.erros.push({
              entrada: item.name,
              code: 'zip_aninhado',
              message: 'a ZIP inside a ZIP is not opened: send its files directly',
            });
            break;
          case 'desconhecido':
            out.erros.push({ entrada: item.name, code: 'arquivo_nao_suportado', message: 'neither XML nor PDF by its content' });
            break;
        }
      }
    } catch (err) {
      if (!(err instanceof ZipError)) throw err;
      out.erros.push({ entrada: null, code: err.code, message: err.message });
      return;
    }
    if (seen === 0) out.erros.push({ entrada: null, code: 'zip_invalido', message: 'the ZIP holds no file' });
  };

  const arquivos: NfeImportFileResult[] = [];
  for (const file of files) {
    const tipo = documentKindOf(file.content);
    const out: NfeImportFileResult = { arquivo: file.name, tipo, nfes: [], erros: [] };
    arquivos.push(out);
    if (tipo === 'xml') await importXml(file.content, { nome: file.name, zip: null }, out, null);
    else if (tipo === 'pdf') await importPdf(file.content, { nome: file.name, zip: null }, out, null);
    else if (tipo === 'zip') await importZip(file.content, file.name, out);
    else out.erros.push({ entrada: null, code: 'arquivo_nao_suportado', message: 'neither XML, PDF nor ZIP by its content' });
  }
  return arquivos;
}
