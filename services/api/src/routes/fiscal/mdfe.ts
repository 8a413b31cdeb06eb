import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type CteDoMdfe, DataEnvelope, type Environment, type FieldError, ListEnvelope, Mdfe, MdfeIdParam, MdfeInput, MdfeIssueEnvelope, MdfeQuery,
  type MunicipioMdfe, type VeiculoMdfe,
} from '@frete/contracts';
import {
  findMunicipio, gramasDasQuantidades, isValidCpf, kgDeGramas, normalizeCpf, normalizePlaca, reaisDeCentavos, type TotaisMdfe, totaisMdfe,
} from '@frete/domain';
import { cteOf, mdfeList, mdfeOf, type MdfeRow, mdfesAtivosDoCte, motoristaPorCpf, veiculoPorPlaca, type VeiculoRow } from '@frete/projections';
import { ApiError } from '../../errors';
import { envelopeDaEmissao, rotasDeEmissao } from './consulta-emissao';
import { errors } from '../../schemas';
import { listOf, pageOf } from '../../paging';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';

const TAGS = ['fiscal: mdfe'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One MDF-e of the caller; a malformed id or another company's MDF-e is simply not found. */
export async function ownMdfe(deps: ApiDeps, companyId: string, mdfeId: string): Promise<MdfeRow> {
  const row = UUID.test(mdfeId) ? await mdfeOf(deps.pool, companyId, mdfeId.toLowerCase()) : null;
  if (!row) throw new ApiError('nao_encontrado', 'MDF-e not found');
  return row;
}

/** The domain's totals (cents, grams) in the API's units (reais, kg). */
const totaisView = (t: TotaisMdfe) => ({ qtd_cte: t.qtd_cte, valor_carga: reaisDeCentavos(t.valor_carga_centavos), peso_kg: kgDeGramas(t.peso_gramas) });

export const mdfeView = (r: MdfeRow, env: Environment) => ({
  id: r.mdfe_id,
  environment: env,
  situacao: r.situacao,
  access_key: r.chave,
  serie: r.serie,
  numero: r.numero === null ? null : Number(r.numero),
  data_emissao: r.data_emissao,
  protocolo: r.protocolo,
  retorno: r.retorno,
  uf_inicio: r.dados.uf_inicio,
  uf_fim: r.dados.uf_fim,
  percurso: r.dados.percurso,
  carregamento: r.dados.carregamento,
  ctes: r.dados.ctes.map((c) => ({ id: c.cte_id, access_key: c.chave, descarga: c.descarga })),
  veiculo: r.dados.veiculo,
  reboques: r.dados.reboques,
  motoristas: r.condutores,
  totais: totaisView(totaisMdfe(r.dados.ctes)),
  observacoes: r.dados.observacoes,
  eventos: r.eventos.map((e) => ({ tipo: e.tipo, tp_evento: e.tp_evento, n_seq: e.n_seq, situacao: e.situacao, protocolo: e.protocolo, retorno: e.retorno, dados: e.dados })),
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

const envelope = envelopeDaEmissao('mdfe', ['autorizado', 'rejeitado', 'encerrado', 'cancelado']);
const envelopeOf = (r: MdfeRow) => envelope(r.mdfe_id, r);

const invalid = (fields: FieldError[]) => new ApiError('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });

function veiculoMdfe(v: VeiculoRow, field: string, tipo: 'tracao' | 'reboque'): VeiculoMdfe {
  const missing: FieldError[] = [];
  if (v.tipo !== tipo) missing.push({ field, message: `vehicle ${v.placa} is registered as ${v.tipo}, not ${tipo}` });
  if (v.tara_kg === null) missing.push({ field, message: `vehicle ${v.placa} has no tara_kg` });
  if (v.tipo_carroceria === null) missing.push({ field, message: `vehicle ${v.placa} has no tipo_carroceria` });
  if (v.uf === null) missing.push({ field, message: `vehicle ${v.placa} has no uf` });
  if (tipo === 'reboque' && v.capacidade_kg === null) missing.push({ field, message: `trailer ${v.placa} has no capacidade_kg` });
  if (missing.length > 0) {
    throw new ApiError('veiculo_incompleto', `${missing.map((m) => m.message).join('; ')}: complete it at PUT /fiscal/veiculos/${v.id}`, { fields: missing, veiculo_id: v.id });
  }
  return {
    placa: v.placa, renavam: v.renavam, tara_kg: v.tara_kg!, capacidade_kg: v.capacidade_kg, capacidade_m3: v.capacidade_m3,
    tipo_rodado: v.tipo_rodado, tipo_carroceria: v.tipo_carroceria!, uf: v.uf!,
  };
}

const municipio = (m: { municipio: string; uf: string; codigo_ibge?: string }, field: string): MunicipioMdfe => {
  const found = findMunicipio(m.municipio, m.uf, m.codigo_ibge);
  if (!found) throw invalid([{ field, message: `${m.municipio}/${m.uf} is not a municipality of the IBGE table` }]);
  return found;
};

/** MDF-e (road, model 58) of own authorized CT-e: create, list, read, issue, poll, XML. */
export const mdfeRoutes = (deps: ApiDeps): FastifyPluginAsyncTypebox => async (app) => {
  const env = deps.config.environment;

  app.post('/mdfe', {
    schema: {
      tags: TAGS,
      summary: 'Creates an MDF-e (`MdfeInput`) from own authorized CT-e, a registered vehicle and registered drivers',
      description:
        'The CT-e must be own, authorized and not cancelled (422 `cte_nao_autorizado`, `error.details.fields` names each), and not in ' +
        'another MDF-e still in force (422 `regra_de_negocio`). The vehicle is looked up by plate in /fiscal/veiculos (422 ' +
        '`veiculo_nao_encontrado`; it must be `tracao` with tara_kg, tipo_carroceria and uf, trailers `reboque` with capacidade_kg too, ' +
        'else 422 `veiculo_incompleto`); the drivers by CPF in /fiscal/motoristas (422 `motorista_nao_encontrado`). `uf_inicio`, ' +
        '`carregamento`, `uf_fim` and the unloading municipality of each CT-e default from the CT-e routes; a loading municipality ' +
        'outside `uf_inicio`, an unloading one outside `uf_fim`, or `percurso` naming the start or end UF is 400 `validacao`. ' +
        'Totals: qCTe, vCarga (sum of the CT-e cargo values) and qCarga in KG (sum of the CT-e weights). Answers 201 with the MDF-e in ' +
        '`rascunho`: issue it with POST .../emissao.',
      body: Type.Ref(MdfeInput),
      response: { 201: DataEnvelope(Type.Ref(Mdfe)), ...errors(400, 422) },
    },
  }, async (request, reply) => {
    const p = principalOf(request);
    const body = request.body as MdfeInput;
    await deps.readYourWrites.waitFor(p.companyId);

    const ctes: (CteDoMdfe & { inicio: MunicipioMdfe })[] = [];
    const bad: FieldError[] = [];
    for (const [i, id] of body.ctes.entries()) {
      const row = UUID.test(id) ? await cteOf(deps.pool, p.companyId, id.toLowerCase()) : null;
      if (!row || row.situacao !== 'autorizado' || !row.cte || !row.chave) {
        bad.push({ field: `ctes.${i}`, message: row ? `the CT-e is ${row.situacao}, not authorized` : 'not an own CT-e' });
        continue;
      }
      const ativos = await mdfesAtivosDoCte(deps.pool, p.companyId, row.cte_id);
      if (ativos.length > 0) {
        throw new ApiError('regra_de_negocio', `CT-e ${row.chave} is already in MDF-e ${ativos[0]!.mdfe_id}, not closed nor cancelled`, {
          fields: [{ field: `ctes.${i}`, message: 'already in an MDF-e in force' }], mdfe_id: ativos[0]!.mdfe_id,
        });
      }
      const c = row.cte;
      ctes.push({
        cte_id: row.cte_id, chave: row.chave, valor_carga_centavos: c.carga?.valor_centavos ?? 0, peso_gramas: gramasDasQuantidades(c.carga?.quantidades ?? []),
        descarga: { codigo_ibge: c.fim.codigo_ibge, municipio: c.fim.municipio, uf: c.fim.uf },
        inicio: { codigo_ibge: c.inicio.codigo_ibge, municipio: c.inicio.municipio, uf: c.inicio.uf },
      });
    }
    if (bad.length > 0) throw new ApiError('cte_nao_autorizado', `only own authorized CT-e can be manifested: ${bad.map((b) => `${b.field} ${b.message}`).join('; ')}`, { fields: bad });

    const tracao = await veiculoPorPlaca(deps.pool, p.companyId, normalizePlaca(body.veiculo.placa));
    if (!tracao) throw new ApiError('veiculo_nao_encontrado', `no registered vehicle with plate ${body.veiculo.placa}: POST /fiscal/veiculos first`, { fields: [{ field: 'veiculo.placa', message: 'not registered' }] });
    const veiculo = veiculoMdfe(tracao, 'veiculo.placa', 'tracao');
    const reboques: VeiculoMdfe[] = [];
    for (const [i, placa] of (body.veiculo.reboques ?? []).entries()) {
      const r = await veiculoPorPlaca(deps.pool, p.companyId, normalizePlaca(placa));
      if (!r) throw new ApiError('veiculo_nao_encontrado', `no registered vehicle with plate ${placa}`, { fields: [{ field: `veiculo.reboques.${i}`, message: 'not registered' }] });
      reboques.push(veiculoMdfe(r, `veiculo.reboques.${i}`, 'reboque'));
    }

    const cpfs = body.motoristas.map((m) => normalizeCpf(m.cpf));
    const cpfErrors = cpfs.flatMap((cpf, i) => (isValidCpf(cpf) ? [] : [{ field: `motoristas.${i}.cpf`, message: 'not a valid CPF' }]));
    cpfs.forEach((cpf, i) => { if (cpfs.indexOf(cpf) !== i) cpfErrors.push({ field: `motoristas.${i}.cpf`, message: 'repeated driver' }); });
    if (cpfErrors.length > 0) throw invalid(cpfErrors);
    const motoristas = [];
    for (const [i, cpf] of cpfs.entries()) {
      const m = await motoristaPorCpf(deps.pool, p.companyId, cpf);
      if (!m) throw new ApiError('motorista_nao_encontrado', `no registered driver with CPF ${cpf}: POST /fiscal/motoristas first`, { fields: [{ field: `motoristas.${i}.cpf`, message: 'not registered' }] });
      motoristas.push({ cpf: m.cpf, nome: m.nome });
    }

    const descarga = body.descarregamento ? municipio(body.descarregamento, 'descarregamento') : null;
    if (descarga) for (const c of ctes) c.descarga = descarga;
    const ufInicio = body.uf_inicio ?? ctes[0]!.inicio.uf;
    const ufFim = body.uf_fim ?? ctes[0]!.descarga.uf;
    const carregamento = body.carregamento
      ? body.carregamento.map((m, i) => municipio(m, `carregamento.${i}`))
      : [...new Map(ctes.map((c) => [c.inicio.codigo_ibge, c.inicio])).values()];
    const fields: FieldError[] = [];
    carregamento.forEach((m, i) => {
      if (m.uf !== ufInicio) fields.push({ field: body.carregamento ? `carregamento.${i}` : 'uf_inicio', message: `loading in ${m.municipio}/${m.uf} is outside uf_inicio ${ufInicio}` });
    });
    ctes.forEach((c, i) => {
      if (c.descarga.uf !== ufFim) fields.push({ field: descarga ? 'descarregamento' : body.uf_fim ? 'uf_fim' : `ctes.${i}`, message: `unloading in ${c.descarga.municipio}/${c.descarga.uf} is outside uf_fim ${ufFim}` });
    });
    const percurso = body.percurso ?? [];
    percurso.forEach((uf, i) => {
      if (uf === ufInicio || uf === ufFim) fields.push({ field: `percurso.${i}`, message: 'the UFs crossed exclude the start and end UF' });
    });
    if (fields.length > 0) throw invalid(fields);

    const mdfeId = await deps.handlers.mdfe.criar(commandContext(request, deps), {
      ctes: ctes.map(({ inicio: _inicio, ...c }) => c), veiculo, reboques, motoristas, uf_inicio: ufInicio, uf_fim: ufFim, percurso, carregamento,
      observacoes: body.observacoes ?? null,
    });
    await deps.readYourWrites.waitFor(p.companyId);
    return reply.status(201).send({ data: mdfeView(await ownMdfe(deps, p.companyId, mdfeId), env), environment: env });
  });

  app.get('/mdfe', {
    schema: {
      tags: TAGS,
      summary: 'The carrier\'s MDF-e, newest first; `status` filters by `MdfeSituacao`',
      querystring: MdfeQuery,
      response: { 200: ListEnvelope(Type.Ref(Mdfe)), ...errors(400) },
    },
  }, async (request) => {
    const p = principalOf(request);
    const paging = pageOf(request.query);
    const { rows, total } = await mdfeList(deps.pool, p.companyId, { status: request.query.status, ...paging });
    return listOf(rows.map((r) => mdfeView(r, env)), paging, total, env);
  });

  app.get('/mdfe/:mdfe_uuid', {
    schema: { tags: TAGS, summary: 'One MDF-e', params: MdfeIdParam, response: { 200: DataEnvelope(Type.Ref(Mdfe)), ...errors(404) } },
  }, async (request) => {
    const row = await ownMdfe(deps, principalOf(request).companyId, request.params.mdfe_uuid);
    return { data: mdfeView(row, env), environment: env };
  });

  rotasDeEmissao(app, deps, {
    recurso: '/mdfe/:mdfe_uuid',
    parametro: 'mdfe_uuid',
    params: MdfeIdParam,
    envelopeSchema: MdfeIssueEnvelope,
    tags: TAGS,
    emissao: {
      summary: 'Starts the issue of an MDF-e; poll `consulta` for the result',
      description:
        '202 with an `MdfeIssueEnvelope`: the emission processor reserves the next number of the company\'s `serie_mdfe` (no gap, no ' +
        'duplicate; 0 when the configuration has none), builds the MDF-e 3.00, signs `infMDFe` with the A1 certificate, validates it ' +
        'against mdfe_v3.00.xsd (road modal included), archives it and sends it. Calling again while the result is unknown issues ' +
        'nothing more. A rejected MDF-e may be issued again (same number). 422 `regra_de_negocio` with `error.details.pendencias` when ' +
        'the fiscal configuration or certificate is missing; 422 `mdfe_nao_editavel` once authorized, closed or cancelled. In the ' +
        'sandbox, `observacoes` (`infCpl`) may carry the simulated authority\'s sentinels.',
    },
    consulta: {
      description:
        'While the result is unknown this asks the authority about the key; if it never got the MDF-e, the same signed XML is sent ' +
        'again (never a new one). 404 for an MDF-e that is not yours; 422 `mdfe_nao_editavel` for one never issued.',
    },
    ler: (companyId, uuid) => ownMdfe(deps, companyId, uuid),
    id: (row) => row.mdfe_id,
    handler: deps.handlers.mdfe,
    envelope: envelopeOf,
  });

  app.get('/mdfe/:mdfe_uuid/xml', {
    schema: {
      tags: TAGS,
      summary: 'The authorized mdfeProc, byte for byte as archived',
      description: '404 before authorization; 503 `xml_indisponivel` when the archive cannot be read.',
      params: MdfeIdParam,
      produces: ['application/xml'],
      response: { 200: Type.Unsafe<Buffer>({ type: 'string', description: 'The mdfeProc XML' }), ...errors(404, 503) },
    },
  }, async (request, reply) => {
    const row = await ownMdfe(deps, principalOf(request).companyId, request.params.mdfe_uuid);
    if (!row.xml_sha256) throw new ApiError('nao_encontrado', `no authorized XML for this MDF-e (situacao ${row.situacao})`);
    const doc = await deps.documents.get(row.xml_sha256);
    if (!doc) throw new ApiError('xml_indisponivel', 'the archived XML cannot be read now; retry later');
    return reply.type('application/xml').header('Content-Disposition', `attachment; filename="${row.chave}-mdfeProc.xml"`).send(doc.content);
  });
};
