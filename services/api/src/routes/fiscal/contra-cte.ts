import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ContraCteInput, CteIssueEnvelope, DataEnvelope, type FieldError } from '@frete/contracts';
import { centavosDeReais, isValidAccessKey, type LocalIbge, localIbge } from '@frete/domain';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { ownCte } from './cte';
import { envelopeOf } from './cte-emissao';

const TAGS = ['Subcontratação'];

/** The two reasons the spec files under `contra_cte_invalido`; the other refusals keep their own code. */
const MOTIVOS_INVALIDO = new Set(['redespacho_exige_rota', 'origem_incompativel_com_tipo']);

const validacao = (fields: FieldError[]) => new ApiError('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });

/** `POST /fiscal/cte/contra`: one counter-CT-e against a contractor's CT-e in the inbox (spec sections 2 and 4). */
export const contraCteRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    app.post(
      '/cte/contra',
      {
        schema: {
          operationId: 'emitirContraCte',
          tags: TAGS,
          summary: "Issues a counter-CT-e against a contractor's CT-e in your inbox; poll `consulta`",
          description:
            "The contractor's CT-e must be in your inbox (POST /fiscal/cte-subcontratacao or the contractor's hand-off). Sender, recipient, " +
            'cargo, NF-e, route and taxation come from its XML; the contractor is the taker (`toma4`) and its CT-e is referenced in ' +
            '`infCTeNorm/docAnt` (ruling 16); the value, driver and plate are yours. The CFOP follows batch rule 4 and a tax rule must apply to ' +
            'the route and type. Without `origem`/`destino` this is the full counter-CT-e of the key (mode 1:1); with them, a leg. 202 with a ' +
            '`CteIssueEnvelope`; asking again for a key already subcontracted the same way answers 200 with the existing counter-CT-e and issues ' +
            'nothing. 400 `validacao` (also tipo_servico 2 or 3 without `origem`/`destino`); 422 `contra_cte_invalido` with `error.details.reason` ' +
            '`redespacho_exige_rota` or `origem_incompativel_com_tipo`; 422 `cte_nao_recebido`, `cte_proprio`, `cte_original_invalido` (the ' +
            "contractor's data cannot be carried: the inbox's `counter_cte_refusal` said so at receipt), `cte_contratante_cancelado` (the " +
            'contractor cancelled its CT-e: the inbox shows its `cancelamento`), `sem_regra_tributacao`, ' +
            '`origem_ja_subcontratada_1a1`, `origem_ja_subcontratada_em_pernas`, `origem_ja_paga`, `motorista_nao_encontrado`, ' +
            '`veiculo_nao_encontrado`, `valor_frete_indefinido`, `cte_com_pendencias`. An `Idempotency-Key` header makes a retry answer the same ' +
            'counter-CT-e.',
          headers: Type.Object({
            'idempotency-key': Type.Optional(Type.String({ minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' })),
          }),
          body: Type.Ref(ContraCteInput),
          response: {
            200: DataEnvelope(Type.Ref(CteIssueEnvelope)),
            202: DataEnvelope(Type.Ref(CteIssueEnvelope)),
            ...errors(
              400,
              422,
              503,
              'contra_cte_invalido',
              'redespacho_exige_rota',
              'origem_incompativel_com_tipo',
              'cte_nao_recebido',
              'cte_proprio',
              'cte_original_invalido',
              'cte_contratante_cancelado',
              'sem_regra_tributacao',
              'origem_ja_subcontratada_1a1',
              'origem_ja_subcontratada_em_pernas',
              'origem_ja_paga',
              'motorista_nao_encontrado',
              'veiculo_nao_encontrado',
              'valor_frete_indefinido',
              'cte_com_pendencias',
              'provedor_indisponivel',
              'autoridade_indisponivel',
            ),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const body = request.body as ContraCteInput;
        const tipo = body.tipo_servico ?? 1;

        const fields: FieldError[] = [];
        if (!isValidAccessKey(body.chave_cte_original))
          fields.push({ field: 'chave_cte_original', message: 'not a valid access key (shape or check digit)' });
        if (tipo !== 1 && (!body.origem || !body.destino)) {
          fields.push({
            field: body.origem ? 'destino' : 'origem',
            message: `required for tipo_servico ${tipo} (redispatch): the leg's route`,
          });
        } else if (!body.origem !== !body.destino) {
          fields.push({ field: body.origem ? 'destino' : 'origem', message: 'a leg is declared by both ends' });
        }
        const ends: { origem: LocalIbge | null; destino: LocalIbge | null } = { origem: null, destino: null };
        for (const end of ['origem', 'destino'] as const) {
          const l = body[end];
          if (!l) continue;
          ends[end] = localIbge(l);
          if (!ends[end]) fields.push({ field: `${end}.municipio`, message: `'${l.municipio}'/${l.uf} is not an IBGE municipality` });
        }
        if (fields.length > 0) throw validacao(fields);

        const ctx = commandContext(request, deps);
        const resultado = await deps.handlers.contraCte.emitir(
          ctx,
          {
            chave: body.chave_cte_original,
            tipo_servico: tipo,
            origem: ends.origem,
            destino: ends.destino,
            valor_centavos: body.valor_frete !== undefined ? centavosDeReais(body.valor_frete) : null,
            motorista_cpf: body.motorista.cpf,
            placa: body.placa,
          },
          request.headers['idempotency-key'],
        );

        if (resultado.status === 'failed') {
          if (MOTIVOS_INVALIDO.has(resultado.code)) {
            throw new ApiError('contra_cte_invalido', resultado.message, { reason: resultado.code });
          }
          throw new ApiError(resultado.code, resultado.message, resultado.details);
        }
        await deps.readYourWrites.waitFor(p.companyId);
        const envelope = envelopeOf(await ownCte(deps, p.companyId, resultado.cte_id));
        return reply.status(resultado.status === 'aceito' ? 202 : 200).send({ data: envelope, environment: env });
      },
    );
  };
