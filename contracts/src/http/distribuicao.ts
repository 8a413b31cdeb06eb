import { Type, type Static } from '@sinclair/typebox';
import { CursorQuery, PageQuery } from './common';

/**
 * `/fiscal/distribuicao`: the company's consultation of the national distribution services (Ambiente Nacional
 * `CTeDistribuicaoDFe` and `NFeDistribuicaoDFe`), which deliver, by NSU, every CT-e and NF-e that names the company,
 * and the documents they delivered.
 */

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);
const instante = (description: string) => nullable(Type.String({ format: 'date-time', description }));

export const NsuDistribuicao = Type.String({ pattern: '^[0-9]{15}$', description: 'NSU, 15 digits, as the service writes it' });

const SERVICO_DESCRICAO = '`cte` (CTeDistribuicaoDFe: CT-e and their events) or `nfe` (NFeDistribuicaoDFe: NF-e, summaries and events)';

export const DistribuicaoServicoNome = Type.Union([Type.Literal('cte'), Type.Literal('nfe')], { description: SERVICO_DESCRICAO });

export const DistribuicaoServico = Type.Object(
  {
    servico: DistribuicaoServicoNome,
    ultimo_nsu: Type.String({
      pattern: '^[0-9]{15}$',
      description: "The NSU the next consultation continues from (the last answer's `ultNSU`); `000000000000000` before any",
    }),
    max_nsu: nullable(Type.String({ pattern: '^[0-9]{15}$', description: 'The highest NSU the service holds for the company (`maxNSU`)' })),
    proxima_consulta: instante(
      'The earliest the service may be consulted again: an hour after 137 (nothing new) or an answer that reached `maxNSU`, at once ' +
        'while documents remain, minutes after a consultation without an answer; null before any',
    ),
    bloqueado_ate: instante('End of a 656 block (consumo indevido) of the last answer; null when the last answer was no block'),
    ultimo_cstat: nullable(Type.Integer({ description: '`cStat` of the last answer (137, 138, 656, another rejection)' })),
    ultimo_motivo: nullable(Type.String({ description: '`xMotivo` of the last answer, as the service wrote it' })),
    ultima_consulta_em: instante('When the last answer was recorded'),
    consulta_em_andamento: nullable(
      Type.Object(
        {
          consulta_id: Type.String(),
          origem: Type.Union([Type.Literal('agenda'), Type.Literal('manual')], {
            description: '`agenda` (the schedule) or `manual` (POST /fiscal/distribuicao/consultas)',
          }),
          solicitada_em: Type.String({ format: 'date-time' }),
        },
        { description: 'A consultation asked and not answered yet' },
      ),
    ),
    ultima_falha: nullable(
      Type.Object(
        { motivo: Type.String(), falhou_em: Type.String({ format: 'date-time' }) },
        { description: 'The last consultation that got no answer (a timeout, the channel down): nothing changed; it is asked again' },
      ),
    ),
  },
  { $id: 'DistribuicaoServico', description: "One distribution service's state for the company" },
);
export type DistribuicaoServico = Static<typeof DistribuicaoServico>;

export const Distribuicao = Type.Object(
  {
    habilitada: Type.Boolean({
      description:
        "Whether the company's documents are consulted: the company's choice (PUT), else the environment's default (true in " +
        'homologação, false in produção)',
    }),
    servicos: Type.Array(Type.Ref(DistribuicaoServico), { description: 'Both services, always: `cte` then `nfe`' }),
  },
  { $id: 'Distribuicao', description: "The company's consultation of the national distribution (Ambiente Nacional)" },
);
export type Distribuicao = Static<typeof Distribuicao>;

export const DistribuicaoAlteracao = Type.Object(
  { habilitada: Type.Boolean({ description: 'true: consult (on the schedule and on request); false: never consult' }) },
  { additionalProperties: false, $id: 'DistribuicaoAlteracao', description: 'Turns the consultation on or off' },
);
export type DistribuicaoAlteracao = Static<typeof DistribuicaoAlteracao>;

export const ConsultaDistribuicaoInput = Type.Object(
  { servico: Type.Optional(DistribuicaoServicoNome) },
  { additionalProperties: false, $id: 'ConsultaDistribuicaoInput', description: 'The service to consult; omitted: both' },
);
export type ConsultaDistribuicaoInput = Static<typeof ConsultaDistribuicaoInput>;

export const ConsultasDistribuicao = Type.Object(
  {
    consultas: Type.Array(
      Type.Object({
        servico: DistribuicaoServicoNome,
        consulta_id: Type.String(),
        ultimo_nsu: Type.String({ pattern: '^[0-9]{15}$', description: 'The NSU the consultation continues from (`distNSU/ultNSU`)' }),
      }),
      { description: 'The consultations asked (or already in progress), one per service that could be consulted now' },
    ),
  },
  {
    $id: 'ConsultasDistribuicao',
    description: 'Consultations asked: the processor runs them; GET /fiscal/distribuicao shows their outcome',
  },
);
export type ConsultasDistribuicao = Static<typeof ConsultasDistribuicao>;

export const DESTINOS_DISTRIBUICAO = ['caixa_cte', 'nfe', 'cancelamento_cte', 'guardado', 'ilegivel'] as const;

export const DistribuicaoDestino = Type.Union(
  DESTINOS_DISTRIBUICAO.map((v) => Type.Literal(v)),
  {
    description:
      'Where the document went: `caixa_cte` the CT-e inbox (GET /fiscal/cte-subcontratacao), `nfe` the NF-e list (GET /fiscal/nfe), ' +
      '`cancelamento_cte` the cancellation of an inbox CT-e, `guardado` kept only (summaries, other events, documents that name the ' +
      'company otherwise), `ilegivel` its content could not be read (`erro`; no bytes kept)',
  },
);

export const DocumentoDistribuicao = Type.Object(
  {
    servico: DistribuicaoServicoNome,
    nsu: NsuDistribuicao,
    schema: Type.String({ description: '`docZip/@schema` as the service wrote it (`procCTe_v4.00.xsd`, `resNFe_v1.01.xsd`...)' }),
    chave: nullable(Type.String({ description: 'The access key the document names' })),
    destino: DistribuicaoDestino,
    erro: nullable(Type.String({ description: 'Why it could not be read or recorded' })),
    sha256: nullable(Type.String({ description: 'Digest of the bytes kept as received; null for an unreadable one' })),
    xml_disponivel: Type.Boolean({ description: 'Whether GET /fiscal/distribuicao/documentos/{servico}/{nsu} answers its bytes' }),
    consulta_id: Type.String({ description: 'The consultation whose answer brought it' }),
    recebido_em: Type.String({ format: 'date-time' }),
  },
  { $id: 'DocumentoDistribuicao', description: 'A document the national distribution delivered to the company' },
);
export type DocumentoDistribuicao = Static<typeof DocumentoDistribuicao>;

export const DocumentosDistribuicaoQuery = Type.Object({
  servico: Type.Optional(DistribuicaoServicoNome),
  destino: Type.Optional(DistribuicaoDestino),
  chave: Type.Optional(Type.String({ pattern: '^[0-9]{44}$', description: 'Access key, 44 digits' })),
  ...PageQuery.properties,
  ...CursorQuery.properties,
});
export type DocumentosDistribuicaoQuery = Static<typeof DocumentosDistribuicaoQuery>;

export const DocumentoDistribuicaoParams = Type.Object({ servico: DistribuicaoServicoNome, nsu: NsuDistribuicao });
export type DocumentoDistribuicaoParams = Static<typeof DocumentoDistribuicaoParams>;

export const DISTRIBUICAO_SCHEMAS = [
  DistribuicaoServico,
  Distribuicao,
  DistribuicaoAlteracao,
  ConsultaDistribuicaoInput,
  ConsultasDistribuicao,
  DocumentoDistribuicao,
];
