import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MdfeIdParam } from '@frete/contracts';
import { MDFE } from '@frete/domain';
import { damdfeDoMdfe } from '@frete/application';
import { type ApiDeps } from '../../deps';
import { ownMdfe } from './mdfe';
import { rotaDoImpresso } from './impresso';

/** The DAMDFE of an authorized MDF-e, from its archived mdfeProc and the manifest's data. */
export const damdfeRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    rotaDoImpresso(app, deps, MDFE, {
      params: MdfeIdParam,
      description:
        'Code-128 of the access key, the QR code of `infMDFeSupl/qrCodMDFe`, the authorization protocol, the vehicles, drivers (with the ' +
        'ones added by event) and CT-e keys. Homologação carries "SEM VALOR FISCAL"; a cancelled or closed MDF-e says so. 422 ' +
        '`mdfe_nao_autorizado` before authorization; 503 `xml_indisponivel` when the archive cannot be read.',
      ler: (companyId, uuid) => ownMdfe(deps, companyId, uuid),
      imprimir: (_request, row, xml, companyId) => damdfeDoMdfe(deps.pool, companyId, row, xml.toString('utf8'), deps.config.environment),
    });
  };
