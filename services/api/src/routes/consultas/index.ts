import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ConsultaFrota, ConsultaFrotaQuery, ConsultaRntrcQuery, DataEnvelope, SituacaoRntrc } from '@frete/contracts';
import { lerConsultaFrota, lerConsultaRntrc, MAX_PLACAS_FROTA } from '@frete/domain';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { type ApiDeps } from '../../deps';

export const TAG = 'Consultas';

const SIMULADA =
  'In sandbox (homologacao) the answer is simulated (spec section 1): plausible, deterministic, no regulatory effect, and ' +
  'marked `verificacao: "simulada"` (absent on a real verification). In production, while no regulator provider is contracted, 503 ' +
  '`provedor_indisponivel` before anything else (ruling 7: never invented data).';

const DOCUMENTO =
  '`documento` is a CPF (11 digits) or a CNPJ (14 characters, letters allowed in the first 12), with or without ' +
  'punctuation, check digits validated.';

/** Regulator (ANTT) queries, scope `consultas` (spec sections 4 and 5, ruling 24), through the `ReguladorTransporte` port. */
export const consultasRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;
    const config = { scope: 'consultas' as const };
    // Before the parameters are judged: without a provider nothing could be asked anyway.
    const semProvedor = async () => {
      if (!deps.regulador.disponivel) {
        throw new ApiError('provedor_indisponivel', 'no road-transport regulator (ANTT) provider is contracted for this environment yet');
      }
    };

    app.get(
      '/consultas/rntrc',
      {
        config,
        preValidation: semProvedor,
        schema: {
          operationId: 'consultarRntrc',
          tags: [TAG],
          summary: "Status of a carrier's RNTRC registration at the regulator",
          description:
            `200 with the registration: \`ativo\`/\`situacao\`, \`tipo\` (ETC, TAC, CTC), \`equiparado_tac\`, \`razao_social\`. ${DOCUMENTO} ` +
            '`rntrc` has 8 or 9 digits (spaces, dots and hyphens ignored). 400 `validacao` names each bad parameter in ' +
            `\`error.details.fields\` (\`querystring.documento\`, \`querystring.rntrc\`). ${SIMULADA} Sandbox: \`razao_social\` is ` +
            '`TRANSPORTES SIMULADOS HML LTDA` for a CNPJ and `TRANSPORTADOR AUTONOMO SIMULADO` for a CPF; RNTRC `000000000` is an inactive ' +
            'registration; `111111111` an active one equated to TAC; `222222222` with a CNPJ an active cooperative (CTC); any other number an ' +
            'active registration of type TAC for a CPF and ETC for a CNPJ, not equated. The 8-digit forms `00000000`, `11111111` and ' +
            '`22222222` act like the 9-digit sentinels.',
          querystring: ConsultaRntrcQuery,
          response: { 200: DataEnvelope(Type.Ref(SituacaoRntrc)), ...errors(400, 503, 'provedor_indisponivel') },
        },
      },
      async (request) => {
        const consulta = lerConsultaRntrc(request.query);
        return { data: await deps.regulador.consultarRntrc(consulta), environment: env };
      },
    );

    app.get(
      '/consultas/frota',
      {
        config,
        preValidation: semProvedor,
        schema: {
          operationId: 'consultarFrota',
          tags: [TAG],
          summary: "Whether plates are in the carrier's fleet at the regulator",
          description:
            `200 with one item per plate, in the order given: \`placa\`, \`pertence\` (true, false, or null when the regulator cannot ` +
            `tell) and \`verificacao\` when simulated. ${DOCUMENTO} \`placas\`: 1 to ${MAX_PLACAS_FROTA} plates, comma-separated (or the ` +
            'parameter repeated), old `ABC1234` or Mercosur `ABC1D23`, case, spaces and hyphen ignored. 400 `validacao`: a bad document ' +
            `(\`querystring.documento\`), a bad, empty or repeated plate (\`querystring.placas.<n>\`, 0-based), more than ${MAX_PLACAS_FROTA} ` +
            `(\`querystring.placas\`). ${SIMULADA} Sandbox: plate \`ZZZ0X00\` gives \`pertence\` false, \`ZZZ9X99\` gives null, any other true.`,
          querystring: ConsultaFrotaQuery,
          response: { 200: DataEnvelope(Type.Ref(ConsultaFrota)), ...errors(400, 503, 'provedor_indisponivel') },
        },
      },
      async (request) => {
        const consulta = lerConsultaFrota(request.query);
        const placas = await deps.regulador.consultarFrota(consulta);
        return { data: { documento: consulta.documento, tipo_documento: consulta.tipo_documento, placas }, environment: env };
      },
    );
  };
