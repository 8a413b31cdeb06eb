import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type FastifyRequest } from 'fastify';
import {
  DataEnvelope,
  type FieldError,
  ListEnvelope,
  Nfe,
  NfeImportResult,
  NfeListQuery,
  NfeParams,
  type NfeParte,
  NfeResumo,
} from '@frete/contracts';
import { isValidAccessKey, kgDeGramas, reaisDeCentavos } from '@frete/domain';
import { type NfeRow, ctesCarryingNfe, nfeList, nfeOf } from '@frete/projections';
import { type ArquivoNfe } from '@frete/application';
import { ApiError } from '../../errors';
import { readParts } from '../../multipart';
import { errors } from '../../schemas';
import { listOf, pageOf } from '../../paging';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';

/** Spec section 8: 1 to 20 files of at most 10 MB each, in parts named `arquivos[]`. */
export const NFE_PART = 'arquivos[]';
const MAX_FILES = 20;
const MAX_FILE = 10 * 1024 * 1024;

const invalid = (fields: FieldError[]) => new ApiError('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });

/** Reads every part before anything is imported, so that a request refused as a whole imports nothing. */
async function readFiles(request: FastifyRequest): Promise<ArquivoNfe[]> {
  if (!request.isMultipart()) {
    throw new ApiError('tipo_de_midia_nao_suportado', `send multipart/form-data with 1 to ${MAX_FILES} file parts named ${NFE_PART}`);
  }
  const files: ArquivoNfe[] = [];
  const fields: FieldError[] = [];
  const parts = await readParts(request, {
    fileSize: MAX_FILE,
    files: MAX_FILES,
    fileTooLarge: `a file is over ${MAX_FILE / 1024 / 1024} MB`,
    tooManyFiles: { field: NFE_PART, message: `at most ${MAX_FILES} files per request` },
  });
  for (const part of parts) {
    if (part.type === 'file') {
      if (part.name === NFE_PART) files.push({ name: part.filename || `arquivo-${files.length + 1}`, content: part.content });
      else fields.push({ field: part.name, message: `unknown part: send the files in parts named ${NFE_PART}` });
    } else {
      fields.push({ field: part.name, message: part.name === NFE_PART ? 'must be a file, not a text field' : 'unknown part' });
    }
  }
  if (fields.length > 0) throw invalid(fields);
  if (files.length === 0) throw invalid([{ field: NFE_PART, message: `required: 1 to ${MAX_FILES} files (XML, PDF or ZIP)` }]);
  return files;
}

const parte = (p: {
  documento: string | null;
  tipo_documento: NfeParte['tipo_documento'];
  nome: string | null;
  endereco: { uf: string | null; municipio: string | null } | null;
}): NfeParte => ({
  documento: p.documento,
  tipo_documento: p.tipo_documento,
  nome: p.nome,
  uf: p.endereco?.uf ?? null,
  municipio: p.endereco?.municipio ?? null,
});

function resumoOf(row: NfeRow) {
  const nfe = row.nfe;
  return {
    access_key: row.chave,
    status: row.status,
    modelo: row.modelo,
    serie: row.serie,
    numero: row.numero,
    data_emissao: row.data_emissao,
    ambiente: row.ambiente_documento,
    emitente: nfe
      ? parte(nfe.emitente)
      : {
          documento: row.emitente_documento,
          tipo_documento: row.emitente_tipo_documento,
          nome: row.emitente_nome,
          uf: row.emitente_uf,
          municipio: row.emitente_municipio,
        },
    destinatario: nfe?.destinatario ? parte(nfe.destinatario) : null,
    valor_total: row.valor_total_centavos === null ? null : reaisDeCentavos(row.valor_total_centavos),
    xml_disponivel: row.xml_disponivel,
    recebimentos: row.recebimentos,
    origem: row.origem,
    importada_em: row.importada_em.toISOString(),
    atualizada_em: row.atualizada_em.toISOString(),
  };
}

const kg = (grams: number | null) => (grams === null ? null : kgDeGramas(grams));

function detailOf(row: NfeRow, ctes: string[]) {
  const nfe = row.nfe;
  return {
    ...resumoOf(row),
    natureza_operacao: nfe?.natureza_operacao ?? null,
    tipo_operacao: nfe?.tipo_operacao ?? null,
    modalidade_frete: nfe?.modalidade_frete ?? null,
    transportador: nfe?.transportador ? parte(nfe.transportador) : null,
    carga: {
      volumes: nfe?.carga.volumes ?? null,
      peso_liquido_kg: kg(nfe?.carga.peso_liquido_g ?? null),
      peso_bruto_kg: kg(nfe?.carga.peso_bruto_g ?? null),
    },
    protocolo: nfe?.protocolo
      ? { numero: nfe.protocolo.numero, recebido_em: nfe.protocolo.recebido_em, status: nfe.protocolo.status, motivo: nfe.protocolo.motivo }
      : null,
    arquivos: { xml: row.xml_arquivo, pdf: row.pdf_arquivo },
    ctes_vinculados: ctes,
  };
}

export const nfeRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    app.post(
      '/nfe/importacoes',
      {
        // The body is multipart, not JSON: the schema documents it, readFiles validates it.
        validatorCompiler: () => () => true,
        schema: {
          operationId: 'importarNfe',
          tags: ['NF-e'],
          summary: 'Imports NF-e from XML, PDF (DANFE) or ZIP files',
          description:
            `multipart/form-data with 1 to ${MAX_FILES} file parts named \`${NFE_PART}\`, each at most 10 MB. The kind of each file is told from its ` +
            'bytes, not its name. An XML (`nfeProc` or `NFe`, layout 4.00, model 55) imports the NF-e; a PDF yields the NF-e whose access key ' +
            'it prints (the first valid key of each page), known only by its key until the XML arrives; a ZIP is opened safely (at most 1000 ' +
            'entries and 100 MB uncompressed in all, 10 MB per entry, no entry over 1 MB compressed more than 100:1; directories and ' +
            '`__MACOSX/` skipped; a ZIP inside is not opened) and each XML or PDF inside is imported. Every file received is archived byte for ' +
            'byte. The answer has one result per file, with the NF-e keys and what happened to each, and per-file or per-entry errors. ' +
            'Importing again is safe: it is recorded and changes only what is new. 422 `nenhuma_nfe_importada` when no file yielded an NF-e ' +
            '(the per-file results are in `error.details.arquivos`). 400 `validacao` for no file, more than 20, or a part with another name; ' +
            '413 for a file over 10 MB; 415 when the body is not multipart.',
          consumes: ['multipart/form-data'],
          body: Type.Object({
            [NFE_PART]: Type.Array(Type.String({ format: 'binary' }), {
              minItems: 1,
              maxItems: MAX_FILES,
              description: 'XML, PDF or ZIP files',
            }),
          }),
          response: { 201: DataEnvelope(NfeImportResult), ...errors(400, 413, 415, 422, 'nenhuma_nfe_importada') },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const files = await readFiles(request);
        const result = await deps.handlers.nfe.importar(commandContext(request, deps), files);
        await deps.readYourWrites.waitFor(p.companyId);
        return reply.status(201).send({ data: result, environment: env });
      },
    );

    app.get(
      '/nfe',
      {
        schema: {
          operationId: 'listarNfe',
          tags: ['NF-e'],
          summary: "Lists the company's NF-e, most recently imported first",
          querystring: NfeListQuery,
          response: { 200: ListEnvelope(NfeResumo), ...errors(400) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const paging = pageOf(request.query);
        const { rows, total, next_cursor } = await nfeList(deps.pool, p.companyId, {
          search: request.query.search,
          status: request.query.status,
          ...paging,
        });
        return listOf(rows.map(resumoOf), paging, total, env, next_cursor);
      },
    );

    app.get(
      '/nfe/:access_key',
      {
        schema: {
          operationId: 'obterNfe',
          tags: ['NF-e'],
          summary: 'One NF-e of the company',
          params: NfeParams,
          response: { 200: DataEnvelope(Nfe), ...errors(404) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const chave = request.params.access_key;
        const row = isValidAccessKey(chave) ? await nfeOf(deps.pool, p.companyId, chave) : null;
        if (!row) throw new ApiError('nao_encontrado', `NF-e ${chave} not found`);
        return { data: detailOf(row, await ctesCarryingNfe(deps.pool, p.companyId, chave)), environment: env };
      },
    );

    app.delete(
      '/nfe/:access_key',
      {
        schema: {
          operationId: 'removerNfe',
          tags: ['NF-e'],
          summary: 'Removes an NF-e not carried by an own CT-e',
          description:
            '204 with no body. 422 `nfe_vinculada` while an own CT-e of the company (issued here or delivered through ' +
            'POST /fiscal/cte-emitidos) carries the key. The removal is recorded; importing the NF-e again brings it back.',
          params: NfeParams,
          response: { 204: Type.Null({ description: 'Removed' }), ...errors(404, 422, 'nfe_vinculada') },
        },
      },
      async (request, reply) => {
        const chave = request.params.access_key;
        if (!isValidAccessKey(chave)) throw new ApiError('nao_encontrado', `NF-e ${chave} not found`);
        await deps.handlers.nfe.remover(commandContext(request, deps), chave);
        return reply.status(204).send(null);
      },
    );
  };
