import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MdfeIdParam } from '@frete/contracts';
import { brlDeCentavos, qrCodeMdfe, textoKgDeGramas, totaisMdfe } from '@frete/domain';
import { companyOf, configuracaoOf } from '@frete/projections';
import { renderDamdfe } from '@frete/documents';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { ownMdfe } from './mdfe';

const TAGS = ['MDF-e'];
const unavailable = () => new ApiError('xml_indisponivel', 'the archived XML cannot be read now; retry later');
const texto = (xml: string, tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1]?.replace(/&amp;/g, '&') ?? null;

/** The DAMDFE of an authorized MDF-e, from its archived mdfeProc and the manifest's data. */
export const damdfeRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/mdfe/:mdfe_uuid/damdfe',
      {
        schema: {
          operationId: 'baixarDamdfe',
          tags: TAGS,
          summary: 'The DAMDFE (auxiliary document of the MDF-e) as PDF',
          description:
            'Code-128 of the access key, the QR code of `infMDFeSupl/qrCodMDFe`, the authorization protocol, the vehicles, drivers (with the ' +
            'ones added by event) and CT-e keys. Homologação carries "SEM VALOR FISCAL"; a cancelled or closed MDF-e says so. 422 ' +
            '`mdfe_nao_autorizado` before authorization; 503 `xml_indisponivel` when the archive cannot be read.',
          params: MdfeIdParam,
          produces: ['application/pdf'],
          response: {
            200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The DAMDFE, PDF (A4 portrait)' }),
            ...errors(404, 422, 503, 'mdfe_nao_autorizado', 'xml_indisponivel'),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const row = await ownMdfe(deps, p.companyId, request.params.mdfe_uuid);
        if (!['autorizado', 'encerrado', 'cancelado'].includes(row.situacao) || !row.chave) {
          throw new ApiError('mdfe_nao_autorizado', `the DAMDFE exists only for an authorized MDF-e (situacao ${row.situacao})`);
        }
        if (!row.xml_sha256) throw unavailable();
        const doc = await deps.documents.get(row.xml_sha256);
        if (!doc) throw unavailable();
        const xml = doc.content.toString('utf8');
        const [company, conf] = await Promise.all([companyOf(deps.pool, p.companyId, ''), configuracaoOf(deps.pool, p.companyId)]);
        const d = row.dados;
        const totais = totaisMdfe(d.ctes);
        const e = conf.endereco;
        const pdf = await renderDamdfe(
          {
            chave: row.chave,
            serie: row.serie ?? 0,
            numero: Number(row.numero ?? 0),
            data_emissao: row.data_emissao ?? texto(xml, 'dhEmi') ?? '',
            uf_inicio: d.uf_inicio,
            uf_fim: d.uf_fim,
            percurso: d.percurso,
            emitente: {
              nome: company?.razao_social ?? '',
              cnpj: company?.cnpj ?? '',
              ie: conf.inscricao_estadual,
              endereco: e ? `${e.logradouro}, ${e.numero} - ${e.bairro} - ${e.municipio}/${e.uf} - CEP ${e.cep}` : '',
            },
            protocolo: row.protocolo ? { numero: row.protocolo.numero, recebido_em: row.protocolo.recebido_em } : null,
            qr_code: texto(xml, 'qrCodMDFe') ?? qrCodeMdfe(row.chave, deps.config.environment),
            rntrc: texto(xml, 'RNTRC'),
            veiculos: [
              { placa: d.veiculo.placa, uf: d.veiculo.uf, tipo: 'TRAÇÃO' },
              ...d.reboques.map((r) => ({ placa: r.placa, uf: r.uf, tipo: 'REBOQUE' })),
            ],
            condutores: row.condutores,
            ctes: d.ctes.map((c) => c.chave),
            carregamento: d.carregamento.map((m) => `${m.municipio}/${m.uf}`),
            descarregamento: [...new Set(d.ctes.map((c) => `${c.descarga.municipio}/${c.descarga.uf}`))],
            qtd_cte: totais.qtd_cte,
            valor_carga: brlDeCentavos(totais.valor_carga_centavos),
            peso_kg: textoKgDeGramas(totais.peso_gramas),
            observacoes: d.observacoes,
          },
          {
            environment: deps.config.environment,
            situacao: row.situacao === 'autorizado' ? null : (row.situacao as 'cancelado' | 'encerrado'),
          },
        );
        return reply.type('application/pdf').header('Content-Disposition', `inline; filename="${row.chave}-damdfe.pdf"`).send(pdf);
      },
    );
  };
