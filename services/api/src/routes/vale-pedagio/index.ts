import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DataEnvelope,
  type FieldError,
  ListEnvelope,
  type Local,
  type LocalValePedagio,
  ValePedagio,
  ValePedagioCalculo,
  ValePedagioIdParam,
  ValePedagioInput,
  ValePedagioListQuery,
  ValePedagioPassagemInput,
  ValePedagioResumo,
  ValePedagioRotaInput,
  ValePedagioRoteirizacao,
} from '@frete/contracts';
import {
  TAXA_SERVICO,
  decimalDeCentavos,
  eixosDaCategoria,
  isValidAccessKey,
  isValidCpf,
  isValidPlaca,
  localIbge,
  normalizeCpf,
  normalizePlaca,
  percentualDeCentesimos,
  reaisDeCentavos,
  somaCentavos,
  tpValePed,
} from '@frete/domain';
import { type ValePedagioRow, listarValesPedagio, valePedagioOf } from '@frete/projections';
import { renderReciboValePedagio } from '@frete/documents';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { checkDateRange, listOf, pageOf } from '../../paging';
import { type ApiDeps } from '../../deps';

export const TAG = 'Vale-pedágio';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SANDBOX =
  'In the sandbox the supplier (FVPO) is simulated: a deterministic catalogue (the same route and category always give the same ' +
  'plazas and tariffs), no regulatory effect. In production, while no FVPO is contracted, it answers 503 `provedor_indisponivel` (ruling 7).';
const CANCELAMENTO =
  'Cancellation is accepted strictly within 3 hours of the issue on the service clock (at exactly 3h00m00s it is refused) ' +
  'and before the first toll plaza passage; it refunds the toll and the fee in full to the operational account.';
const NAO_ENCONTRADO = "Another company's or an unknown toll pass is 404 `nao_encontrado`.";

const validacao = (fields: FieldError[]) => new ApiError('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });

/** Ruling 19: both ends must be IBGE municipalities; returns them as the table names them. */
function rotaDe(body: { origem: Local; destino: Local }, fields: FieldError[]): { origem: LocalValePedagio; destino: LocalValePedagio } {
  const ends: Partial<Record<'origem' | 'destino', LocalValePedagio>> = {};
  for (const end of ['origem', 'destino'] as const) {
    const l = body[end];
    const found = localIbge(l);
    if (found) ends[end] = found;
    else fields.push({ field: `${end}.municipio`, message: `'${l.municipio}'/${l.uf} is not an IBGE municipality` });
  }
  return ends as { origem: LocalValePedagio; destino: LocalValePedagio };
}

function placaDe(raw: string | undefined, fields: FieldError[]): string | null {
  if (raw === undefined) return null;
  if (!isValidPlaca(raw)) fields.push({ field: 'placa', message: 'not a Brazilian plate (ABC1234 or ABC1D23)' });
  return normalizePlaca(raw);
}

/** The route of a routing or calculation request, checked (400 naming each field). */
function rotaConsultada(body: ValePedagioRotaInput): { origem: LocalValePedagio; destino: LocalValePedagio } {
  const fields: FieldError[] = [];
  const rota = rotaDe(body, fields);
  placaDe(body.placa, fields);
  if (fields.length > 0) throw validacao(fields);
  return rota;
}

/** A `cte`/`mdfe` reference's shape: a UUID (lower case) or a valid 44-character access key. Whose it is, the handler finds. */
function documentoDe(field: 'cte' | 'mdfe', raw: string | undefined, fields: FieldError[]): string | null {
  if (raw === undefined) return null;
  if (UUID.test(raw)) return raw.toLowerCase();
  if (raw.length === 44 && isValidAccessKey(raw)) return raw;
  fields.push({ field, message: 'a UUID or a valid 44-character access key' });
  return null;
}

/** The API's view of a toll pass: decimals with two places (ruling 10), `cancelavel` judged on the service clock. */
export function toValePedagio(r: ValePedagioRow, now: Date): ValePedagio {
  return {
    id: r.vale_pedagio_id,
    numero: r.numero,
    referencia_externa: r.referencia_externa,
    situacao: r.situacao,
    origem: r.origem,
    destino: r.destino,
    categoria: r.categoria,
    eixos: r.eixos,
    placa: r.placa,
    tipo: r.tipo,
    quantidade_pracas: r.pracas.length,
    valor_pedagio: reaisDeCentavos(r.valor_pedagio_centavos),
    taxa: reaisDeCentavos(r.taxa_centavos),
    valor_total: reaisDeCentavos(r.valor_total_centavos),
    emitido_em: r.emitido_em.toISOString(),
    cancelavel_ate: r.cancelavel_ate.toISOString(),
    cancelavel: r.situacao === 'emitido' && now.getTime() < r.cancelavel_ate.getTime(),
    primeira_passagem_em: r.primeira_passagem_em?.toISOString() ?? null,
    cancelado_em: r.cancelado_em?.toISOString() ?? null,
    estornado_em: r.estornado_em?.toISOString() ?? null,
    motorista: r.motorista,
    cte: r.cte,
    mdfe: r.mdfe,
    fornecedor: r.fornecedor,
    pagador: { cnpj: r.pagador_cnpj },
    distancia_km: r.distancia_km,
    pracas: r.pracas.map((p) => ({
      ordem: p.ordem,
      codigo: p.codigo,
      nome: p.nome,
      rodovia: p.rodovia,
      km: p.km,
      uf: p.uf,
      concessionaria: p.concessionaria,
      tarifa: reaisDeCentavos(p.tarifa_centavos),
      passou_em: r.passagens[p.codigo] ? new Date(r.passagens[p.codigo]!).toISOString() : null,
    })),
    mdfe_vale_ped: {
      CNPJForn: r.fornecedor.cnpj,
      CNPJPg: r.pagador_cnpj,
      nCompra: r.numero,
      vValePed: decimalDeCentavos(r.valor_pedagio_centavos),
      tpValePed: tpValePed(r.tipo),
      categCombVeic: r.categoria,
    },
  };
}

const resumo = (v: ValePedagio) => {
  const { motorista: _m, cte: _c, mdfe: _d, fornecedor: _f, pagador: _p, distancia_km: _k, pracas: _pr, mdfe_vale_ped: _v, ...rest } = v;
  return rest;
};

/**
 * The mandatory toll pass (Vale-Pedágio obrigatório, VPO), scope `operacao`: routing, calculation, purchase (paid at
 * once from the operational account), reads, receipt, plaza passages and the regulatory cancellation.
 */
export const valePedagioRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;
    const config = { scope: 'operacao' as const };

    /** Commands find the toll pass in its stream (404 there); a malformed id is simply not found. */
    const idDe = (id: string): string => {
      if (!UUID.test(id)) throw new ApiError('nao_encontrado', `toll pass ${id} not found`);
      return id.toLowerCase();
    };

    async function daEmpresa(companyId: string, id: string): Promise<ValePedagioRow> {
      const row = UUID.test(id) ? await valePedagioOf(deps.pool, companyId, id.toLowerCase()) : null;
      if (!row) throw new ApiError('nao_encontrado', `toll pass ${id} not found`);
      return row;
    }

    /** After a command: the read models have the company's write (read your writes), then the toll pass as a GET shows it. */
    async function releitura(companyId: string, id: string): Promise<ValePedagio> {
      await deps.readYourWrites.waitFor(companyId);
      return toValePedagio(await daEmpresa(companyId, id), deps.clock());
    }

    app.post(
      '/roteirizacao',
      {
        config,
        schema: {
          operationId: 'roteirizarValePedagio',
          tags: [TAG],
          summary: 'Toll plazas of a route for a vehicle category',
          description:
            'Body `{ origem, destino, categoria, placa? }` (route ends as ruling 19; `categoria` is MDF-e `categCombVeic`). 200 with the ' +
            `plazas in order of passage (name, highway, km, UF, concessionaire, tariff of the category) and their sum. ${SANDBOX} 400 \`validacao\` ` +
            'for an unknown municipality or plate.',
          body: Type.Ref(ValePedagioRotaInput),
          response: { 200: DataEnvelope(Type.Ref(ValePedagioRoteirizacao)), ...errors(400, 503, 'provedor_indisponivel') },
        },
      },
      async (request) => {
        const body = request.body as ValePedagioRotaInput;
        const rota = rotaConsultada(body);
        const roteiro = await deps.handlers.valePedagio.roteirizar(rota.origem, rota.destino, body.categoria);
        const pedagio = somaCentavos(roteiro.pracas.map((p) => p.tarifa_centavos));
        const data: ValePedagioRoteirizacao = {
          ...rota,
          categoria: body.categoria,
          eixos: eixosDaCategoria(body.categoria),
          distancia_km: roteiro.distancia_km,
          quantidade_pracas: roteiro.pracas.length,
          pracas: roteiro.pracas.map(({ tarifa_centavos, ...p }) => ({ ...p, tarifa: reaisDeCentavos(tarifa_centavos) })),
          valor_pedagio: reaisDeCentavos(pedagio),
          fornecedor: roteiro.fornecedor,
        };
        return { data, environment: env };
      },
    );

    app.post(
      '/calculo',
      {
        config,
        schema: {
          operationId: 'calcularValePedagio',
          tags: [TAG],
          summary: 'What a toll pass for a route would cost: toll, fee, total',
          description:
            "Body as `roteirizacao`. 200 with the toll (Σ of the plazas' tariffs: the VPO value, MDF-e `vValePed`), the service fee " +
            `(${percentualDeCentesimos(TAXA_SERVICO.pontos_base)}% of the toll, rounded half up to the cent, at least ${decimalDeCentavos(TAXA_SERVICO.minimo_centavos)}) and the total ` +
            `a purchase would debit from the operational account. ${SANDBOX}`,
          body: Type.Ref(ValePedagioRotaInput),
          response: { 200: DataEnvelope(Type.Ref(ValePedagioCalculo)), ...errors(400, 503, 'provedor_indisponivel') },
        },
      },
      async (request) => {
        const body = request.body as ValePedagioRotaInput;
        const rota = rotaConsultada(body);
        const { roteiro, valores } = await deps.handlers.valePedagio.calcular(rota.origem, rota.destino, body.categoria);
        const v = roteiro.pracas.length === 0 ? { valor_pedagio_centavos: 0, taxa_centavos: 0, valor_total_centavos: 0 } : valores;
        const data: ValePedagioCalculo = {
          ...rota,
          categoria: body.categoria,
          eixos: eixosDaCategoria(body.categoria),
          quantidade_pracas: roteiro.pracas.length,
          valor_pedagio: reaisDeCentavos(v.valor_pedagio_centavos),
          taxa: reaisDeCentavos(v.taxa_centavos),
          valor_total: reaisDeCentavos(v.valor_total_centavos),
          taxa_servico: {
            percentual: percentualDeCentesimos(TAXA_SERVICO.pontos_base),
            minimo: reaisDeCentavos(TAXA_SERVICO.minimo_centavos),
          },
          fornecedor: roteiro.fornecedor,
        };
        return { data, environment: env };
      },
    );

    app.post(
      '',
      {
        config,
        schema: {
          operationId: 'emitirValePedagio',
          tags: [TAG],
          summary: 'Buys and issues a mandatory toll pass, debited at once from the operational account',
          description:
            'Body `{ origem, destino, categoria, placa, tipo: TAG|placa, motorista?: { cpf, nome? }, cte?, mdfe?, referencia_externa? }`. ' +
            "The toll pass covers the whole route (Res. ANTT 6.024/2023). 201 with the toll pass: `id` (UUID), `numero` (the supplier's " +
            'purchase number, IDVPO, MDF-e `nCompra`), plazas, values, `emitido_em`, `cancelavel_ate` and the MDF-e `valePed` group; toll + fee ' +
            'are debited from the operational account in the same act. 422 `saldo_insuficiente` when the balance does not cover toll + fee ' +
            '(nothing is debited; two purchases racing for a balance that covers one: one 201, one 422); 422 `rota_sem_pracas` when the route ' +
            'crosses no plaza. The same request again with its `referencia_externa` answers 200 with the toll pass already bought, debited once. ' +
            '400 `validacao` for a `referencia_externa` already used for another route, vehicle or type, an unknown municipality, a plate, ' +
            'CPF or document reference that is not valid (`cte`/`mdfe`: a UUID or a 44-character access key with its check digit). ' +
            "404 `nao_encontrado` when `cte` or `mdfe` names no CT-e or MDF-e of the company (unknown, or another company's: one answer for " +
            'both), with `error.details.fields` naming the reference; checked before the supplier is asked, nothing is debited. ' +
            `${SANDBOX} ${CANCELAMENTO}`,
          body: Type.Ref(ValePedagioInput),
          response: {
            200: DataEnvelope(Type.Ref(ValePedagio)),
            201: DataEnvelope(Type.Ref(ValePedagio)),
            ...errors(400, 404, 422, 503, 'saldo_insuficiente', 'rota_sem_pracas', 'provedor_indisponivel'),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const body = request.body as ValePedagioInput;
        const fields: FieldError[] = [];
        const rota = rotaDe(body, fields);
        const placa = placaDe(body.placa, fields)!;
        let motorista: { cpf: string; nome: string | null } | null = null;
        if (body.motorista) {
          const cpf = normalizeCpf(body.motorista.cpf.trim());
          if (!isValidCpf(cpf)) fields.push({ field: 'motorista.cpf', message: 'not a valid CPF' });
          motorista = { cpf, nome: body.motorista.nome?.trim().replace(/\s+/g, ' ') ?? null };
        }
        const cte = documentoDe('cte', body.cte, fields);
        const mdfe = documentoDe('mdfe', body.mdfe, fields);
        if (fields.length > 0) throw validacao(fields);
        const r = await deps.handlers.valePedagio.comprar(commandContext(request, deps), p.company.cnpj, {
          ...rota,
          categoria: body.categoria,
          placa,
          tipo: body.tipo,
          motorista,
          cte,
          mdfe,
          referencia_externa: body.referencia_externa ?? null,
        });
        return reply.status(r.criado ? 201 : 200).send({ data: await releitura(p.companyId, r.vale_pedagio_id), environment: env });
      },
    );

    app.get(
      '',
      {
        config,
        schema: {
          operationId: 'listarValesPedagio',
          tags: [TAG],
          summary: "The company's toll passes",
          description: 'Latest first. Filters: `situacao`, `placa`, `from`/`to` (issue day, Brasília). Paging as ruling 9.',
          querystring: ValePedagioListQuery,
          response: { 200: ListEnvelope(Type.Ref(ValePedagioResumo)), ...errors(400) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const q = request.query;
        checkDateRange(q.from, q.to);
        const paging = pageOf(q);
        const now = deps.clock();
        const { rows, total, next_cursor } = await listarValesPedagio(deps.pool, p.companyId, {
          ...paging,
          situacao: q.situacao,
          placa: q.placa ? normalizePlaca(q.placa) : undefined,
          from: q.from,
          to: q.to,
        });
        return listOf(
          rows.map((r) => resumo(toValePedagio(r, now))),
          paging,
          total,
          env,
          next_cursor,
        );
      },
    );

    app.get(
      '/:uuid',
      {
        config,
        schema: {
          operationId: 'obterValePedagio',
          tags: [TAG],
          summary: 'One toll pass',
          description: `200 with the toll pass, its plazas and passages, cancellation and refund. ${CANCELAMENTO} ${NAO_ENCONTRADO}`,
          params: ValePedagioIdParam,
          response: { 200: DataEnvelope(Type.Ref(ValePedagio)), ...errors(404) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        return { data: toValePedagio(await daEmpresa(p.companyId, request.params.uuid), deps.clock()), environment: env };
      },
    );

    app.get(
      '/:uuid/recibo',
      {
        config,
        schema: {
          operationId: 'baixarReciboValePedagio',
          tags: [TAG],
          summary: "The toll pass's receipt as PDF",
          description:
            'A4: purchase number (IDVPO), issue, supplier and payer, vehicle and trip, plazas with tariffs and passages, values ' +
            'debited (and refunded), and the MDF-e `valePed` group. A cancelled toll pass is marked CANCELADO; the sandbox\'s carry "SEM VALOR". ' +
            `The same data as JSON: \`GET /vale-pedagio/{uuid}\`. ${NAO_ENCONTRADO}`,
          params: ValePedagioIdParam,
          produces: ['application/pdf'],
          response: {
            200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The receipt, PDF (A4 portrait)' }),
            ...errors(404),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const vale = toValePedagio(await daEmpresa(p.companyId, request.params.uuid), deps.clock());
        const pdf = await renderReciboValePedagio({ vale, pagador_nome: p.company.razao_social }, { environment: env });
        return reply.type('application/pdf').header('Content-Disposition', `inline; filename="vale-pedagio-${vale.numero}.pdf"`).send(pdf);
      },
    );

    app.post(
      '/:uuid/passagens',
      {
        config,
        schema: {
          operationId: 'registrarPassagemValePedagio',
          tags: [TAG],
          summary: 'Sandbox: simulates the supplier reporting a toll plaza passage',
          description:
            "Body `{ praca? }` (a plaza's `codigo`; omitted, or an empty body: the first plaza not passed yet). A real supplier reports " +
            'passages on its own; in the sandbox this stands in for that report, at the service clock. 200 with the toll pass (`em_uso` from ' +
            'the first passage on; it can no longer be cancelled). Repeating a passage changes nothing. 422 `vale_pedagio_ja_cancelado`, ' +
            '`praca_fora_do_vale` (a code that is not on this toll pass). In production 503 `provedor_indisponivel`. ' +
            NAO_ENCONTRADO,
          params: ValePedagioIdParam,
          body: Type.Ref(ValePedagioPassagemInput),
          response: {
            200: DataEnvelope(Type.Ref(ValePedagio)),
            ...errors(400, 404, 422, 503, 'vale_pedagio_ja_cancelado', 'praca_fora_do_vale', 'provedor_indisponivel'),
          },
        },
        // The body is optional: a request without one is the empty body.
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request) => {
        const p = principalOf(request);
        const id = idDe(request.params.uuid);
        const body = request.body as ValePedagioPassagemInput;
        await deps.handlers.valePedagio.registrarPassagem(commandContext(request, deps), id, body.praca);
        return { data: await releitura(p.companyId, id), environment: env };
      },
    );

    app.post(
      '/:uuid/cancelar',
      {
        config,
        schema: {
          operationId: 'cancelarValePedagio',
          tags: [TAG],
          summary: 'Cancels a toll pass and refunds toll and fee to the operational account',
          description:
            `No body. 200 with the toll pass, \`cancelado\`, and its refund (\`estornado_em\`). ${CANCELAMENTO} 422 ` +
            '`cancelamento_fora_do_prazo` (3 hours or more after the issue), `passagem_registrada` (a plaza was passed), ' +
            '`vale_pedagio_ja_cancelado` (cancelled before: two simultaneous cancellations get one 200 and one 422, and one refund). ' +
            `In production, while no FVPO is contracted, 503 \`provedor_indisponivel\`. ${NAO_ENCONTRADO}`,
          params: ValePedagioIdParam,
          response: {
            200: DataEnvelope(Type.Ref(ValePedagio)),
            ...errors(
              404,
              422,
              503,
              'cancelamento_fora_do_prazo',
              'passagem_registrada',
              'vale_pedagio_ja_cancelado',
              'provedor_indisponivel',
            ),
          },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const id = idDe(request.params.uuid);
        await deps.handlers.valePedagio.cancelar(commandContext(request, deps), id);
        return { data: await releitura(p.companyId, id), environment: env };
      },
    );
  };
