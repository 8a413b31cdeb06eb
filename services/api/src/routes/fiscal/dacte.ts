import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CteIdParam } from '@frete/contracts';
import { CTE } from '@frete/domain';
import { dacteDoArquivo } from '@frete/documents';
import { type ApiDeps } from '../../deps';
import { ownCte } from './cte';
import { rotaDoImpresso } from './impresso';

/** The DACTE of an own CT-e, drawn from its archived XML (spec section 4, "CT-e"). */
export const dacteRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    rotaDoImpresso(app, deps, CTE, {
      params: CteIdParam,
      description:
        'Drawn from the archived XML, laid out like the model of the CT-e manual. In homologação it carries "SEM VALOR FISCAL"; ' +
        'a cancelled CT-e carries "CANCELADO". 422 `cte_nao_autorizado` before authorization (or for a CT-e delivered without ' +
        'its protocol, or denied); 503 `xml_indisponivel` when the archive cannot be read.',
      ler: (companyId, uuid) => ownCte(deps, companyId, uuid),
      imprimir: (request, row, xml) => dacteDoArquivo(xml, row, deps.config.environment, request.log),
    });
  };
