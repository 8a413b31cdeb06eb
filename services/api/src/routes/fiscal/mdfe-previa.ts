import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MdfeIdParam } from '@frete/contracts';
import { MDFE_EMITIDO } from '@frete/application';
import { type ApiDeps } from '../../deps';
import { ownMdfe } from './mdfe';
import { RejeicaoPrevistaView, rejeicoesDescricao, rotaDePrevia } from './previa';

const MdfePrevia = Type.Object(
  {
    pronto: Type.Boolean({
      description:
        "True when nothing is pending, the XML passes mdfe_v3.00.xsd (but for the signature) and no rule of the authority's fails",
    }),
    pendencias: Type.Array(
      Type.Object({
        campo: Type.String({
          description: 'A configuration field (`configuracao.endereco`), `certificado`, or the XML path of a schema error',
        }),
        mensagem: Type.String(),
      }),
    ),
    xml: Type.Union([Type.String(), Type.Null()], {
      description: "The MDF-e 3.00 as it would be sent, unsigned; null while the company's fiscal configuration or address is missing",
    }),
    chave_provisoria: Type.Union([Type.String(), Type.Null()], { description: 'The access key of this XML: provisional number and cMDF' }),
    numero_provisorio: Type.Integer({ description: "Always 0: the series' next number is not reserved by a preview" }),
    rejeicoes: Type.Array(RejeicaoPrevistaView, { description: rejeicoesDescricao }),
  },
  { $id: 'MdfePrevia' },
);

/** `POST /fiscal/mdfe/{mdfe_uuid}/previa`: what an issue of this MDF-e would send, and what the authority would say of it. */
export const mdfePreviaRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    rotaDePrevia(app, deps, MDFE_EMITIDO, {
      params: MdfeIdParam,
      schema: MdfePrevia,
      summary: 'Preview of an MDF-e not yet issued: the unsigned MDF-e 3.00 XML, what it still needs and what the authority would reject',
      description:
        'Builds the XML an issue would send (created MDF-e, company, fiscal configuration), validates it against mdfe_v3.00.xsd and runs ' +
        "the authority's business rules over it. `rejeicoes` lists every rule that fails with the cStat and text the authority would " +
        'answer (the rule set the simulated authority runs); `pronto` is false while anything is pending or rejected. The number is ' +
        "provisional (0) and so is the key's cMDF. Nothing is stored. 404 for an MDF-e that is not yours; 422 `mdfe_nao_editavel` for one " +
        'already issued (only a `rascunho` or a `rejeitado` MDF-e has a preview).',
      ler: (companyId, uuid) => ownMdfe(deps, companyId, uuid),
    });
  };
