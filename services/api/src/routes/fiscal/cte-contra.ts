import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import { ContraCteInput, CteIssueEnvelope, DataEnvelope, type FieldError } from '@frete/contracts';
import { centavosDeReais, isValidAccessKey, type LocalIbge, localIbge, normalizePlaca, valorSugeridoContraCte } from '@frete/domain';
import { configuracaoOf, cteSubcontratacaoOf, motoristaPorCpf, veiculoPorPlaca } from '@frete/projections';
import { derivedEventId } from '@frete/platform';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { ownCte } from './cte';
import { envelopeOf } from './cte-emissao';

const TAGS = ['fiscal: contra-cte'];

/** The two reasons the spec files under `contra_cte_invalido`; the other refusals keep their own code. */
const MOTIVOS_INVALIDO = new Set(['redespacho_exige_rota', 'origem_incompativel_com_tipo']);

const validacao = (fields: FieldError[]) => new ApiError('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });

/** `POST /fiscal/cte/contra`: one counter-CT-e against a contractor's CT-e in the inbox (spec sections 2 and 4). */
export const cteContraRoutes = (deps: ApiDeps): FastifyPluginAsyncTypebox => async (app) => {
  const env = deps.config.environment;

  app.post('/cte/contra', {
    schema: {
      tags: TAGS,
      summary: 'Issues a counter-CT-e against a contractor\'s CT-e in your inbox; poll `consulta`',
      description:
        'The contractor\'s CT-e must be in your inbox (POST /fiscal/cte-subcontratacao or the contractor\'s hand-off). Sender, recipient, ' +
        'cargo, NF-e, route and taxation come from its XML; the contractor is the taker (`toma4`) and its CT-e is referenced in ' +
        '`infCTeNorm/docAnt` (ruling 16); the value, driver and plate are yours. The CFOP follows batch rule 4 and a tax rule must apply to ' +
        'the route and type. Without `origem`/`destino` this is the full counter-CT-e of the key (mode 1:1); with them, a leg. 202 with a ' +
        '`CteIssueEnvelope`; asking again for a key already subcontracted the same way answers 200 with the existing counter-CT-e and issues ' +
        'nothing. 400 `validacao` (also tipo_servico 2 or 3 without `origem`/`destino`); 422 `contra_cte_invalido` with `error.details.reason` ' +
        '`redespacho_exige_rota` or `origem_incompativel_com_tipo`; 422 `cte_nao_recebido`, `cte_proprio`, `sem_regra_tributacao`, ' +
        '`origem_ja_subcontratada_1a1`, `origem_ja_subcontratada_em_pernas`, `origem_ja_paga`, `motorista_nao_encontrado`, ' +
        '`veiculo_nao_encontrado`, `valor_frete_indefinido`, `cte_com_pendencias`. An `Idempotency-Key` header makes a retry answer the same ' +
        'counter-CT-e.',
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' })) }),
      body: Type.Ref(ContraCteInput),
      response: { 200: DataEnvelope(Type.Ref(CteIssueEnvelope)), 202: DataEnvelope(Type.Ref(CteIssueEnvelope)), ...errors(400, 422, 503) },
    },
  }, async (request, reply) => {
    const p = principalOf(request);
    const body = request.body as ContraCteInput;
    const tipo = body.tipo_servico ?? 1;

    const fields: FieldError[] = [];
    if (!isValidAccessKey(body.chave_cte_original)) fields.push({ field: 'chave_cte_original', message: 'not a valid access key (shape or check digit)' });
    if (tipo !== 1 && (!body.origem || !body.destino)) {
      fields.push({ field: body.origem ? 'destino' : 'origem', message: `required for tipo_servico ${tipo} (redispatch): the leg's route` });
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

    const placa = normalizePlaca(body.placa);
    const [motorista, veiculo] = await Promise.all([motoristaPorCpf(deps.pool, p.companyId, body.motorista.cpf), veiculoPorPlaca(deps.pool, p.companyId, placa)]);
    if (!motorista) throw new ApiError('motorista_nao_encontrado', `driver ${body.motorista.cpf} is not in your registry (POST /fiscal/motoristas)`);
    if (!veiculo) throw new ApiError('veiculo_nao_encontrado', `vehicle ${placa} is not in your registry (POST /fiscal/veiculos)`);

    let valorCentavos: number;
    if (body.valor_frete !== undefined) {
      valorCentavos = centavosDeReais(body.valor_frete);
    } else {
      const [inbox, configuracao] = await Promise.all([cteSubcontratacaoOf(deps.pool, p.companyId, body.chave_cte_original), configuracaoOf(deps.pool, p.companyId)]);
      if (!inbox) throw new ApiError('cte_nao_recebido', `CT-e ${body.chave_cte_original} is not in your inbox: receive it first (POST /fiscal/cte-subcontratacao)`);
      if (configuracao.percentual_frete_contra_cte === null) {
        throw new ApiError('valor_frete_indefinido', 'no valor_frete and no pricing rule: send valor_frete or set percentual_frete_contra_cte (PUT /fiscal/configuracao)');
      }
      valorCentavos = valorSugeridoContraCte(inbox.cte.valor_prestacao_centavos, configuracao.percentual_frete_contra_cte);
      if (valorCentavos < 1) throw new ApiError('valor_frete_indefinido', 'the pricing rule suggests less than 0.01 for this CT-e: send valor_frete');
    }

    const key = request.headers['idempotency-key'];
    const cteId = key ? derivedEventId(p.companyId, `contra-cte:${key}`) : randomUUID();
    const ctx = commandContext(request, deps);
    const resultado = await deps.contraCte.preparar({
      company_id: p.companyId,
      cte_id: cteId,
      chave: body.chave_cte_original,
      modo: ends.origem ? 'pernas' : '1a1',
      pedido: { tipo_servico: tipo, origem: ends.origem, destino: ends.destino, valor_centavos: valorCentavos, motorista_cpf: motorista.cpf, placa },
      lote_id: null,
      linha: null,
      perna: null,
      parcelas: null,
      solicitante_company_id: null,
    }, ctx);

    if (resultado.status === 'failed') {
      if (MOTIVOS_INVALIDO.has(resultado.code)) {
        throw new ApiError('contra_cte_invalido', resultado.message, { reason: resultado.code });
      }
      throw new ApiError(resultado.code, resultado.message, resultado.details);
    }
    if (resultado.status === 'aceito') await deps.contraCte.solicitarEmissao(p.companyId, resultado.cte_id, ctx);
    await deps.readYourWrites.waitFor(p.companyId);
    const envelope = envelopeOf(await ownCte(deps, p.companyId, resultado.cte_id));
    return reply.status(resultado.status === 'aceito' ? 202 : 200).send({ data: envelope, environment: env });
  });
};
