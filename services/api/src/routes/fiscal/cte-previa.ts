import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CteIdParam } from '@frete/contracts';
import { CTE_EMITIDO } from '@frete/application';
import { type ApiDeps } from '../../deps';
import { ownCte } from './cte';
import { RejeicaoPrevistaView, rejeicoesDescricao, rotaDePrevia } from './previa';

const CtePrevia = Type.Object(
  {
    pronto: Type.Boolean({
      description:
        "True when nothing is pending, the XML passes cte_v4.00.xsd (but for the signature) and no rule of the authority's fails (`rejeicoes`)",
    }),
    pendencias: Type.Array(
      Type.Object({
        campo: Type.String({
          description:
            'A field path of CteDraftInput (`remetente.nome`), of the configuration (`configuracao.rntrc`), `certificado`, or else the XML path',
        }),
        mensagem: Type.String(),
      }),
    ),
    xml: Type.Union([Type.String(), Type.Null()], {
      description:
        'The CT-e 4.00 as it would be sent, unsigned; null while the route, the taker, the values, the company address or the ICMS are missing',
    }),
    chave_provisoria: Type.Union([Type.String(), Type.Null()], { description: 'The access key of this XML: provisional number and cCT' }),
    numero_provisorio: Type.Integer({
      description: "Always 0: the series' next number is not reserved by a preview (the schema error nCT 0 causes is not reported)",
    }),
    rejeicoes: Type.Array(RejeicaoPrevistaView, { description: rejeicoesDescricao }),
  },
  { $id: 'CtePrevia' },
);

// ---- schema error paths → draft fields -----------------------------------------------------------------------

const PARTES: Record<string, string> = {
  rem: 'remetente',
  exped: 'expedidor',
  receb: 'recebedor',
  dest: 'destinatario',
  'ide/toma4': 'tomador.parte',
};
const PARTE_CAMPO: Record<string, string> = {
  CNPJ: 'documento',
  CPF: 'documento',
  IE: 'ie',
  xNome: 'nome',
  xFant: 'fantasia',
  fone: 'telefone',
  email: 'email',
};
const ENDERECO_CAMPO: Record<string, string> = {
  xLgr: 'logradouro',
  nro: 'numero',
  xCpl: 'complemento',
  xBairro: 'bairro',
  cMun: 'municipio',
  xMun: 'municipio',
  CEP: 'cep',
  UF: 'uf',
};
const IDE_CAMPO: Record<string, string> = {
  CFOP: 'cfop',
  natOp: 'natureza_operacao',
  tpServ: 'tipo_servico',
  serie: 'configuracao.serie_cte',
  cMunIni: 'inicio.municipio',
  xMunIni: 'inicio.municipio',
  UFIni: 'inicio.uf',
  cMunFim: 'fim.municipio',
  xMunFim: 'fim.municipio',
  UFFim: 'fim.uf',
  cMunEnv: 'configuracao.endereco.municipio',
  xMunEnv: 'configuracao.endereco.municipio',
  UFEnv: 'configuracao.endereco.uf',
};
const CARGA_CAMPO: Record<string, string> = { vCarga: 'valor', proPred: 'produto_predominante', xOutCat: 'outras_caracteristicas' };
const INFQ_CAMPO: Record<string, string> = { cUnid: 'unidade', tpMed: 'tipo_medida', qCarga: 'quantidade' };
const EMI_DOC_ANT_CAMPO: Record<string, string> = { CNPJ: 'cnpj', CPF: 'cnpj', IE: 'ie', UF: 'uf', xNome: 'nome' };
const OUTROS_CAMPO: Record<string, string> = {
  tpDoc: 'tipo_documento',
  descOutros: 'descricao',
  nDoc: 'numero',
  dEmi: 'data_emissao',
  vDocFisc: 'valor',
  dPrev: 'data_prevista_entrega',
};

/** `Comp[2]` → ['Comp', 1]: libxml2 numbers repeated elements from 1. */
const step = (s: string): [string, number] => {
  const m = /^([A-Za-z0-9]+)(?:\[(\d+)\])?$/.exec(s);
  return m ? [m[1]!, m[2] ? Number(m[2]) - 1 : 0] : [s, 0];
};

/** The draft (or configuration) field a schema error is about, else its XML path. */
export function campoDoErro(path: string | undefined): string {
  if (!path) return '(xml)';
  const rel = path.replace(/^\/CTe\/infCte\/?/, '');
  if (rel === path) return path;
  const parts = rel.split('/').map(step);
  const names = parts.map((p) => p[0]);
  const [a, b, c, d] = names;
  const leafOf = (table: Record<string, string>, name: string | undefined, prefix: string) =>
    name && table[name] ? `${prefix}.${table[name]}` : prefix;

  const parteKey = a === 'ide' && b === 'toma4' ? 'ide/toma4' : a;
  const parte = parteKey ? PARTES[parteKey] : undefined;
  if (parte) {
    const rest = parteKey === 'ide/toma4' ? names.slice(2) : names.slice(1);
    if (rest[0]?.startsWith('ender')) return leafOf(ENDERECO_CAMPO, rest[1], `${parte}.endereco`);
    return leafOf(PARTE_CAMPO, rest[0], parte);
  }
  switch (a) {
    case 'ide':
      return b && IDE_CAMPO[b] ? IDE_CAMPO[b] : path;
    case 'compl':
      return b === 'xObs' ? 'observacoes' : path;
    case 'emit':
      if (b === 'IE') return 'configuracao.inscricao_estadual';
      if (b === 'CRT') return 'configuracao.regime_tributario';
      if (b === 'enderEmit') return leafOf(ENDERECO_CAMPO, c, 'configuracao.endereco');
      return path;
    case 'vPrest':
      if (b === 'vTPrest') return 'valores.total';
      if (b === 'vRec') return 'valores.a_receber';
      if (b === 'Comp') return `valores.componentes.${parts[1]![1]}${c === 'xNome' ? '.nome' : c === 'vComp' ? '.valor' : ''}`;
      return 'valores';
    case 'imp':
      if (b === 'ICMS') return 'impostos.icms';
      if (b === 'vTotTrib') return 'impostos.valor_total_tributos';
      if (b === 'infAdFisco') return 'impostos.informacoes_fisco';
      if (b === 'IBSCBS') return 'impostos.ibs_cbs';
      return path;
    case 'infCTeNorm':
      if (b === 'infCarga') {
        if (c === 'infQ') return leafOf(INFQ_CAMPO, d, `carga.quantidades.${parts[2]![1]}`);
        return leafOf(CARGA_CAMPO, c, 'carga');
      }
      if (b === 'infDoc') {
        if (c === 'infNFe') return `documentos.nfe.${parts[2]![1]}.chave`;
        if (c === 'infOutros') return leafOf(OUTROS_CAMPO, d, `documentos.outros.${parts[2]![1]}`);
        return 'documentos';
      }
      if (b === 'docAnt') {
        if (c !== 'emiDocAnt') return 'documentos_anteriores';
        const i = parts[2]![1];
        if (d === 'idDocAnt')
          return names[5] === 'chCTe' ? `documentos_anteriores.${i}.chaves_cte.${parts[4]![1]}` : `documentos_anteriores.${i}.chaves_cte`;
        return leafOf(EMI_DOC_ANT_CAMPO, d, `documentos_anteriores.${i}.emitente`);
      }
      if (b === 'infModal') return 'rodoviario.rntrc';
      return path;
    case 'autXML':
      return `autorizados_xml.${parts[0]![1]}`;
    default:
      return path;
  }
}

/** `POST /fiscal/cte/{cte_uuid}/previa`: what an issue of this draft would send, and what it still needs. */
export const ctePreviaRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    rotaDePrevia(app, deps, CTE_EMITIDO, {
      params: CteIdParam,
      schema: CtePrevia,
      summary: 'Preview of a draft: the unsigned CT-e 4.00 XML and everything an issue still needs',
      description:
        'Builds the XML from the draft, the fiscal configuration, the company and the applicable tax rule, and validates it against ' +
        'cte_v4.00.xsd (the road modal included). `pendencias` names draft fields (`remetente.nome`), configuration fields ' +
        '(`configuracao.rntrc`), `certificado`, or the XML path for schema errors with no draft field. A missing ICMS with no tax rule ' +
        "for the route reads `sem_regra_tributacao`. The number is provisional (0: the series' next number is reserved only on issue) and " +
        "so is the key's cCT (derived from the draft id). Nothing is stored. 404 for a CT-e that is not yours; 422 `cte_nao_editavel` " +
        'for a CT-e that is no longer a draft. `rejeicoes` lists every business rule of the authority the XML fails, with the cStat ' +
        'and text the authority would answer (the rule set the simulated authority runs); `pronto` is false while any.',
      erros: ['sem_regra_tributacao'],
      ler: (companyId, uuid) => ownCte(deps, companyId, uuid),
      campoDoErro,
    });
  };
