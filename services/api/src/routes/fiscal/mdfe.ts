import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DataEnvelope, type Environment, ListEnvelope, Mdfe, MdfeIdParam, MdfeInput, MdfeIssueEnvelope, MdfeQuery } from '@frete/contracts';
import { kgDeGramas, MDFE, reaisDeCentavos, type TotaisMdfe, totaisMdfe } from '@frete/domain';
import { mdfeList, mdfeOf, type MdfeRow } from '@frete/projections';
import { ApiError } from '../../errors';
import { rotasDeEmissao } from './consulta-emissao';
import { errors } from '../../schemas';
import { listOf, pageOf } from '../../paging';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { documentoProprio } from './documento-proprio';

const TAGS = ['MDF-e'];

/** One own MDF-e of the caller. */
export const ownMdfe = documentoProprio(MDFE, mdfeOf);

/** The domain's totals (cents, grams) in the API's units (reais, kg). */
const totaisView = (t: TotaisMdfe) => ({
  qtd_cte: t.qtd_cte,
  valor_carga: reaisDeCentavos(t.valor_carga_centavos),
  peso_kg: kgDeGramas(t.peso_gramas),
});

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
  produto_predominante: r.dados.produto_predominante ?? null,
  pagamentos: (r.dados.pagamentos ?? []).map((p) => ({
    responsavel: p.responsavel,
    componentes: p.componentes.map((c) => ({ tipo: c.tipo, valor: reaisDeCentavos(c.valor_centavos), descricao: c.descricao })),
    valor_contrato: reaisDeCentavos(p.valor_contrato_centavos),
    a_prazo: p.indicador_pagamento === '1',
    valor_adiantamento: p.valor_adiantamento_centavos === null ? null : reaisDeCentavos(p.valor_adiantamento_centavos),
    parcelas: p.parcelas.map((x) => ({ vencimento: x.vencimento, valor: reaisDeCentavos(x.valor_centavos) })),
    banco: p.banco,
  })),
  ciot: r.dados.ciot ?? [],
  rntrc_tac: r.dados.rntrc_tac ?? false,
  eventos: r.eventos.map((e) => ({
    tipo: e.tipo,
    tp_evento: e.tp_evento,
    n_seq: e.n_seq,
    situacao: e.situacao,
    protocolo: e.protocolo,
    retorno: e.retorno,
    dados: e.dados,
  })),
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

/** MDF-e (road, model 58) of own authorized CT-e: create, list, read, issue, poll, XML. */
export const mdfeRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    app.post(
      '/mdfe',
      {
        schema: {
          operationId: 'criarMdfe',
          tags: TAGS,
          summary: 'Creates an MDF-e (`MdfeInput`) from own authorized CT-e, a registered vehicle and registered drivers',
          description:
            'The CT-e must be own, authorized and not cancelled (422 `cte_nao_autorizado`, `error.details.fields` names each), and not in ' +
            'another MDF-e still in force (422 `regra_de_negocio`). The vehicle is looked up by plate in /fiscal/veiculos (422 ' +
            '`veiculo_nao_encontrado`; it must be `tracao` with tara_kg, tipo_carroceria and uf, trailers `reboque` with capacidade_kg too, ' +
            'else 422 `veiculo_incompleto`); the drivers by CPF in /fiscal/motoristas (422 `motorista_nao_encontrado`). `uf_inicio`, ' +
            '`carregamento`, `uf_fim` and the unloading municipality of each CT-e default from the CT-e routes; a loading municipality ' +
            'outside `uf_inicio`, an unloading one outside `uf_fim`, or `percurso` naming the start or end UF is 400 `validacao`. ' +
            'NT 2025.001 v1.03 (ANTT): one CT-e (carga lotação) needs `produto_predominante.ncm` (rule F55a, 301) and `pagamentos` (F55b, ' +
            '302); `rntrc_tac` (the RNTRC of a TAC or equiparado) needs `pagamentos` with `banco` (F113a, 303) and `ciot` (F113b, 304): ' +
            'else 422 `mdfe_regra_antt`, `error.details` with the first `cStat`, its `regra` and every one in `rejeicoes`. ' +
            'Totals: qCTe, vCarga (sum of the CT-e cargo values) and qCarga in KG (sum of the CT-e weights). Answers 201 with the MDF-e in ' +
            '`rascunho`: issue it with POST .../emissao.',
          body: Type.Ref(MdfeInput),
          response: {
            201: DataEnvelope(Type.Ref(Mdfe)),
            ...errors(
              400,
              422,
              'cte_nao_autorizado',
              'regra_de_negocio',
              'veiculo_nao_encontrado',
              'veiculo_incompleto',
              'motorista_nao_encontrado',
              'mdfe_regra_antt',
            ),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const mdfeId = await deps.handlers.mdfe.criar(commandContext(request, deps), request.body as MdfeInput);
        await deps.readYourWrites.waitFor(p.companyId);
        return reply.status(201).send({ data: mdfeView(await ownMdfe(deps, p.companyId, mdfeId), env), environment: env });
      },
    );

    app.get(
      '/mdfe',
      {
        schema: {
          operationId: 'listarMdfe',
          tags: TAGS,
          summary: "The carrier's MDF-e, newest first; `status` filters by `MdfeSituacao`",
          querystring: MdfeQuery,
          response: { 200: ListEnvelope(Type.Ref(Mdfe)), ...errors(400) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const paging = pageOf(request.query);
        const { rows, total, next_cursor } = await mdfeList(deps.pool, p.companyId, { situacao: request.query.status, ...paging });
        return listOf(
          rows.map((r) => mdfeView(r, env)),
          paging,
          total,
          env,
          next_cursor,
        );
      },
    );

    app.get(
      '/mdfe/:mdfe_uuid',
      {
        schema: {
          operationId: 'obterMdfe',
          tags: TAGS,
          summary: 'One MDF-e',
          params: MdfeIdParam,
          response: { 200: DataEnvelope(Type.Ref(Mdfe)), ...errors(404) },
        },
      },
      async (request) => {
        const row = await ownMdfe(deps, principalOf(request).companyId, request.params.mdfe_uuid);
        return { data: mdfeView(row, env), environment: env };
      },
    );

    rotasDeEmissao(app, deps, MDFE, {
      params: MdfeIdParam,
      envelopeSchema: MdfeIssueEnvelope,
      emissao: {
        erros: ['regra_de_negocio', 'rejeicao_prevista', 'mdfe_nao_editavel', 'provedor_indisponivel'],
        summary: 'Starts the issue of an MDF-e; poll `consulta` for the result',
        description:
          "202 with an `MdfeIssueEnvelope`: the emission processor reserves the next number of the company's `serie_mdfe` (no gap, no " +
          'duplicate; 0 when the configuration has none), builds the MDF-e 3.00, signs `infMDFe` with the A1 certificate, validates it ' +
          'against mdfe_v3.00.xsd (road modal included), archives it and sends it. Calling again while the result is unknown issues ' +
          'nothing more. A rejected MDF-e may be issued again (same number). 422 `regra_de_negocio` with `error.details.pendencias` when ' +
          'the fiscal configuration or certificate is missing; 422 `rejeicao_prevista` when a business rule of the authority would reject the ' +
          "XML (the preview's `rejeicoes`, in `error.details`): nothing is sent; 422 `mdfe_nao_editavel` once authorized, closed or cancelled. In the " +
          "sandbox, `observacoes` (`infCpl`) may carry the simulated authority's sentinels.",
      },
      consulta: {
        erros: ['mdfe_nao_editavel', 'provedor_indisponivel', 'autoridade_indisponivel'],
        description:
          'While the result is unknown this asks the authority about the key; if it never got the MDF-e, the same signed XML is sent ' +
          'again (never a new one). 404 for an MDF-e that is not yours; 422 `mdfe_nao_editavel` for one never issued.',
      },
      ler: (companyId, uuid) => ownMdfe(deps, companyId, uuid),
    });

    app.get(
      '/mdfe/:mdfe_uuid/xml',
      {
        schema: {
          operationId: 'baixarXmlMdfe',
          tags: TAGS,
          summary: 'The authorized mdfeProc, byte for byte as archived',
          description: '404 before authorization; 503 `xml_indisponivel` when the archive cannot be read.',
          params: MdfeIdParam,
          produces: ['application/xml'],
          response: {
            200: Type.Unsafe<Buffer>({ type: 'string', description: 'The mdfeProc XML' }),
            ...errors(404, 503, 'xml_indisponivel'),
          },
        },
      },
      async (request, reply) => {
        const row = await ownMdfe(deps, principalOf(request).companyId, request.params.mdfe_uuid);
        if (!row.xml_sha256) throw new ApiError('nao_encontrado', `no authorized XML for this MDF-e (situacao ${row.situacao})`);
        const doc = await deps.documents.get(row.xml_sha256);
        if (!doc) throw new ApiError('xml_indisponivel', 'the archived XML cannot be read now; retry later');
        return reply
          .type('application/xml')
          .header('Content-Disposition', `attachment; filename="${row.chave}-mdfeProc.xml"`)
          .send(doc.content);
      },
    );
  };
