import { type TSchema, Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type FastifyRequest } from 'fastify';
import { type EspecieDocumento } from '@frete/domain';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

/** What the printed-document route reads of a row, whatever its kind. */
interface LinhaImpressa {
  situacao: string;
  chave: string | null;
  xml_sha256: string | null;
}

/** What the route of a kind's printed document needs besides the kind's description: the API's texts, read and drawing. */
export interface RotaDoImpresso<R extends LinhaImpressa> {
  params: TSchema;
  description: string;
  /** One own document by the id of the path (not found otherwise). */
  ler: (companyId: string, uuid: string) => Promise<R>;
  /** The PDF from the archived XML; null when that XML can no longer be read. */
  imprimir: (request: FastifyRequest, row: R & { chave: string }, xml: Buffer, companyId: string) => Promise<Buffer | null>;
}

const indisponivel = () => new ApiError('xml_indisponivel', 'the archived XML cannot be read now; retry later');

/**
 * `GET .../dacte`, `GET .../damdfe`: the printed document of an own document of the kind, drawn from its archived
 * XML, in the situations the kind has one (`impresso.situacoes`); 422 `<kind>_nao_autorizado` in any other.
 */
export function rotaDoImpresso<R extends LinhaImpressa>(app: App, deps: ApiDeps, especie: EspecieDocumento, r: RotaDoImpresso<R>): void {
  const { nome, impresso } = especie;
  const arquivo = impresso.nome.toLowerCase();
  app.get(
    `/${especie.recurso}/:${especie.parametro}/${arquivo}`,
    {
      schema: {
        operationId: `baixar${impresso.nome.charAt(0)}${arquivo.slice(1)}`,
        tags: [nome],
        summary: `The ${impresso.nome} (auxiliary document of the ${nome}) as PDF`,
        description: r.description,
        params: r.params,
        produces: ['application/pdf'],
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: `The ${impresso.nome}, PDF (A4 portrait)` }),
          ...errors(404, 422, 503, especie.erros.naoAutorizado, 'xml_indisponivel'),
        },
      },
    },
    async (request, reply) => {
      const { companyId } = principalOf(request);
      const uuid = (request.params as Record<string, string>)[especie.parametro] ?? '';
      const row = await r.ler(companyId, uuid);
      const chave = row.chave;
      if (!impresso.situacoes.includes(row.situacao) || !chave) {
        throw new ApiError(
          especie.erros.naoAutorizado,
          `the ${impresso.nome} exists only for an authorized ${nome} (situacao ${row.situacao})`,
        );
      }
      if (!row.xml_sha256) throw indisponivel();
      const doc = await deps.documents.get(row.xml_sha256);
      if (!doc) throw indisponivel();
      const pdf = await r.imprimir(request, { ...row, chave }, doc.content, companyId);
      if (!pdf) throw indisponivel();
      return reply.type('application/pdf').header('Content-Disposition', `inline; filename="${chave}-${arquivo}.pdf"`).send(pdf);
    },
  );
}
