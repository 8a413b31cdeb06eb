import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CteIdParam, CteIssueEnvelope } from '@frete/contracts';
import { CTE } from '@frete/domain';
import { type ApiDeps } from '../../deps';
import { ownCte } from './cte';
import { envelopeDaEmissao, rotasDeEmissao } from './consulta-emissao';

/** A CT-e's issue envelope (also what a counter-CT-e's creation answers). */
export const envelopeOf = envelopeDaEmissao(CTE);

/** Issue of a draft and polling of its result (spec section 3: never issue again while the result is unknown). */
export const cteEmissaoRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    rotasDeEmissao(app, deps, CTE, {
      params: CteIdParam,
      envelopeSchema: CteIssueEnvelope,
      emissao: {
        erros: ['cte_com_pendencias', 'rejeicao_prevista', 'cte_nao_editavel', 'provedor_indisponivel'],
        summary: 'Starts the issue of a draft; poll `consulta` for the result',
        description:
          "202 with a `CteIssueEnvelope`: the emission processor reserves the series' next number (no gap, no duplicate), builds the XML, signs it " +
          "with the company's A1 certificate, validates it against cte_v4.00.xsd and sends it to the authority. Calling again while the result is " +
          'unknown issues nothing more (202, same envelope). A rejected CT-e can be corrected (PUT) and issued again with the same number. ' +
          "422 `cte_com_pendencias` (with `error.details.pendencias`, the preview's list) or `cte_nao_editavel` for a CT-e already authorized, " +
          'denied or delivered by the carrier. 422 `rejeicao_prevista` when a business rule of the authority would reject the XML (the ' +
          "preview's `rejeicoes`; `error.details` has the first's `cstat` and `regra`, and all in `rejeicoes`): nothing is sent. In the " +
          "sandbox, `observacoes` may carry the simulated authority's sentinels.",
      },
      consulta: {
        erros: ['cte_nao_editavel', 'provedor_indisponivel', 'autoridade_indisponivel'],
        description:
          'While the result is unknown (no answer from the authority, still processing) this asks the authority about the key; if the authority ' +
          'never got the document, the same signed XML is sent again (never a new one), so an authorization that happened during a timeout is ' +
          'recovered. 404 for a CT-e that is not yours; 422 `cte_nao_editavel` for a draft that was never issued.',
      },
      ler: (companyId, uuid) => ownCte(deps, companyId, uuid),
    });
  };
