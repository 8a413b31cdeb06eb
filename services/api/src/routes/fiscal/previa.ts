import { type TSchema, Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DataEnvelope, type DomainEvent, type ErrorCode } from '@frete/contracts';
import { type EspecieDocumento, type RejeicaoPrevista } from '@frete/domain';
import { type FiscalSchemaError } from '@frete/documents';
import { type DocumentoEmitido, type EstadoEmitido } from '@frete/application';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';

/** One authority rule a previewed document fails: what the authority would answer, and the manual's rule. */
export const RejeicaoPrevistaView = Type.Object({
  cstat: Type.Integer({ description: "The authority's status code (`cStat`)" }),
  motivo: Type.String({ description: "The authority's text (`xMotivo`), as the manual writes it, with the detail the authority appends" }),
  regra: Type.String({ description: "The manual's rule id (`G050`), or the technical note's field" }),
  fonte: Type.String({ description: 'Where the rule is written: manual and section, or technical note and version' }),
});

export const rejeicoesDescricao =
  "Every business rule of the authority the document fails, in the manual's order, with the cStat and text the authority would answer: " +
  'the same rule set the simulated authority runs (MOC CT-e 4.00 Anexo I rules G0xx, MDF-e identity, NT 2025.001 rates). Empty when ' +
  'the document passes them, or while there is no XML yet. An issue of a document with any is refused (422 `rejeicao_prevista`).';

export const rejeicoesView = (rejeicoes: RejeicaoPrevista[]) =>
  rejeicoes.map((r) => ({ cstat: r.cStat, motivo: r.xMotivo, regra: r.regra, fonte: r.fonte }));

/** The number a preview writes: the series' next number is reserved only when the document is issued. */
export const NUMERO_PROVISORIO = 0;

/**
 * The schema errors a preview expects, not pending items: the missing Signature (a preview is unsigned) and the
 * provisional number 0 at `caminhoNumero` (`/CTe/infCte/ide/nCT`, `/MDFe/infMDFe/ide/nMDF`).
 */
export const erroEsperadoNaPrevia =
  (raiz: 'CTe' | 'MDFe', caminhoNumero: string) =>
  (e: FiscalSchemaError): boolean =>
    (e.path === `/${raiz}` && /Signature/.test(e.message)) || (e.path === caminhoNumero && NUMERO_PROVISORIO === 0);

type App = Parameters<FastifyPluginAsyncTypebox>[0];

/** What the preview route of a kind needs besides the kind's description: the API's schema, texts and read. */
export interface RotaDaPrevia<R> {
  params: TSchema;
  /** The answer's schema (`CtePrevia`, `MdfePrevia`). */
  schema: TSchema;
  summary: string;
  description: string;
  /** Error codes besides 404, 422 and the kind's `naoEditavel`. */
  erros?: ErrorCode[];
  /** One own document by the id of the path (not found otherwise). */
  ler: (companyId: string, uuid: string) => Promise<R>;
  /** The input field a schema error is about (`remetente.nome`), when the kind can tell; else the error's XML path. */
  campoDoErro?: (path: string | undefined) => string;
}

/**
 * `POST .../previa`, the same for every kind: the XML an issue of the document would send (unsigned, provisional
 * number and code), what it still needs (its pending items, then the schema's errors but the expected ones) and what
 * the authority's rules would reject. Nothing is stored; a document already issued has no preview.
 */
export function rotaDePrevia<
  C,
  S extends EstadoEmitido,
  E extends DomainEvent,
  R extends { situacao: string; dados: S['dados'] } & { [K in EspecieDocumento['campoId']]?: string },
>(app: App, deps: ApiDeps, documento: DocumentoEmitido<C, S, E>, r: RotaDaPrevia<R>): void {
  const { fiscal } = documento;
  const { nome, xml: layout } = fiscal;
  const env = deps.config.environment;
  const esperado = erroEsperadoNaPrevia(layout.raiz, `/${layout.raiz}/${layout.inf}/ide/${layout.numero}`);
  const campoDoErro = r.campoDoErro ?? ((path: string | undefined) => path ?? '(xml)');
  app.post(
    `/${fiscal.recurso}/:${fiscal.parametro}/previa`,
    {
      schema: {
        operationId: `gerarPrevia${fiscal.recurso.charAt(0).toUpperCase()}${fiscal.recurso.slice(1)}`,
        tags: [nome],
        summary: r.summary,
        description: r.description,
        params: r.params,
        response: { 200: DataEnvelope(r.schema), ...errors(404, 422, ...(r.erros ?? []), fiscal.erros.naoEditavel) },
      },
    },
    async (request) => {
      const p = principalOf(request);
      await deps.readYourWrites.waitFor(p.companyId);
      const uuid = (request.params as Record<string, string>)[fiscal.parametro] ?? '';
      const row = await r.ler(p.companyId, uuid);
      if (!fiscal.comPrevia.includes(row.situacao))
        throw new ApiError(fiscal.erros.naoEditavel, `only a ${nome} not yet issued has a preview; this ${nome} is ${row.situacao}`);
      const { pendencias, xml, chave, rejeicoes } = await documento.preparar(
        { pool: deps.pool, environment: env },
        { id: row[fiscal.campoId] ?? '', companyId: p.companyId, dados: row.dados, numero: NUMERO_PROVISORIO, now: deps.clock() },
      );
      if (xml) {
        const validation = await deps.schemas.validate(xml, layout.esquema);
        const vistos = new Set(pendencias.map((x) => x.campo));
        for (const e of validation.errors.filter((x) => !esperado(x))) {
          const campo = campoDoErro(e.path);
          if (vistos.has(campo)) continue;
          vistos.add(campo);
          pendencias.push({ campo, mensagem: e.message.trim() });
        }
      }
      return {
        data: {
          pronto: xml !== null && pendencias.length === 0 && rejeicoes.length === 0,
          pendencias,
          xml,
          chave_provisoria: chave,
          numero_provisorio: NUMERO_PROVISORIO,
          rejeicoes: rejeicoesView(rejeicoes),
        },
        environment: env,
      };
    },
  );
}
