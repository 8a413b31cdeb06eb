import { type Pool } from 'pg';
import {
  type Environment,
  NFE_IMPORT_ERROR_CODES,
  type NfeImportErrorCode,
  type NfeImportFileResult,
  type NfeImportOutcome,
  type NfeImportResult,
} from '@frete/contracts';
import { type NfeEvent, Rejection, nfeDecider, nfeStream } from '@frete/domain';
import { ctesCarryingNfe } from '@frete/projections';
import { type DocumentStore } from '@frete/platform';
import { type CommandDeps, type ContextoEmpresa } from '../commands/execute';
import { handles } from '../commands/handles';
import { type ArquivoNfe, importarArquivos } from './importacao';

export interface NfeHandlerDeps extends Required<CommandDeps> {
  pool: Pool;
  documents: DocumentStore;
  environment: Environment;
}

type Contexto = ContextoEmpresa;

const outcomeOf = (event: NfeEvent): NfeImportOutcome => {
  switch (event.type) {
    case 'nfe.importada':
      return event.data.completou_chave ? 'completada' : 'importada';
    case 'nfe.chave_importada':
      return 'somente_chave';
    case 'nfe.reimportada':
      return event.data.substituiu_xml ? 'atualizada' : 'ja_importada';
    case 'nfe.removida':
      throw new Error('a removal is not an import');
  }
};

const isImportErrorCode = (code: string): code is NfeImportErrorCode => (NFE_IMPORT_ERROR_CODES as readonly string[]).includes(code);

/** The company's NF-e: imported from XML, PDF (DANFE) or ZIP files, and removed while no own CT-e carries them. */
export const nfeHandler = (deps: NfeHandlerDeps) => {
  const run = handles(deps, nfeDecider, (c) => nfeStream(c.company_id, c.type === 'ImportarNfeXml' ? c.nfe.chave : c.chave));
  return {
    /** One result per file; refused as a whole (422 `nenhuma_nfe_importada`) when no file yielded an NF-e. */
    importar: async (ctx: Contexto, files: ArquivoNfe[]): Promise<NfeImportResult> => {
      const arquivos = await importarArquivos(
        deps,
        { companyId: ctx.companyId, ambiente: deps.environment },
        files,
        async (command, key, out, entrada) => {
          try {
            const { events } = await run(ctx, command);
            out.nfes.push({ access_key: key, resultado: outcomeOf(events[0]!), entrada });
          } catch (err) {
            // A refusal of one key is that file's error; the other files still import.
            if (err instanceof Rejection && isImportErrorCode(err.code)) out.erros.push({ entrada, code: err.code, message: err.message });
            else throw err;
          }
        },
      );
      const result = {
        arquivos,
        total_nfes: arquivos.reduce((n, a) => n + a.nfes.length, 0),
        total_erros: arquivos.reduce((n, a) => n + a.erros.length, 0),
      };
      if (result.total_nfes === 0) {
        throw new Rejection(
          'nenhuma_nfe_importada',
          `no file yielded an NF-e (${result.total_erros} error(s)): see error.details.arquivos`,
          { arquivos },
        );
      }
      return result;
    },

    /**
     * An NF-e the national distribution brought (a `procNFe` naming the company in `transp/transporta`), imported as an
     * uploaded XML file is (`importarArquivos`), with canal `distribuicao` and its NSU. `eventId` names the import's
     * event (derived from the consultation and the NSU), so a repeat of the same document records nothing new. The
     * file's result: its NF-e, or the refusal (e.g. 422 `ambiente_divergente`) that keeps it out of the list.
     */
    receberDistribuida: async (ctx: Contexto, arquivo: ArquivoNfe, nsu: string, eventId: string): Promise<NfeImportFileResult> => {
      const [resultado] = await importarArquivos(
        deps,
        { companyId: ctx.companyId, ambiente: deps.environment, canal: 'distribuicao', nsu },
        [arquivo],
        async (command, key, out, entrada) => {
          try {
            const { events } = await run(ctx, command, { eventId: () => eventId });
            out.nfes.push({ access_key: key, resultado: outcomeOf(events[0]!), entrada });
          } catch (err) {
            if (err instanceof Rejection && isImportErrorCode(err.code)) out.erros.push({ entrada, code: err.code, message: err.message });
            else throw err;
          }
        },
      );
      return resultado!;
    },

    /** Refused (422 `nfe_vinculada`) while an own CT-e of the company carries the key. */
    remover: async (ctx: Contexto, chave: string): Promise<void> => {
      await deps.readYourWrites.waitFor(ctx.companyId);
      const vinculada = (await ctesCarryingNfe(deps.pool, ctx.companyId, chave)).length > 0;
      await run(ctx, { type: 'RemoverNfe', company_id: ctx.companyId, chave, vinculada });
    },
  };
};
export type NfeHandler = ReturnType<typeof nfeHandler>;
