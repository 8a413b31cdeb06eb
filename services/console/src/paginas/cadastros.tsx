import { type FastifyInstance } from 'fastify';
import { ICMS_CSTS, MotoristaInput, RegraTributacaoInput, VeiculoInput } from '@frete/contracts';
import { percentualDeCentesimos } from '@frete/domain';
import {
  type MotoristaRow,
  motoristaPorId,
  motoristasList,
  type RegraTributacaoRow,
  regraTributacaoPorId,
  regrasTributacao,
  type VeiculoRow,
  veiculoPorId,
  veiculosList,
} from '@frete/projections';
import { avisoDe, csrfDe, html, sessaoDe } from '../contexto';
import { type ConsoleDeps } from '../deps';
import { Pagina } from '../html/layout';
import { OPCOES_UF } from './campos-fiscais';
import { AREA_CADASTROS, registrarRegistro } from './registro-pagina';

const POR_PAGINA = 50;
const t = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));
const opcoes = (pares: [string, string][]) => [{ valor: '', rotulo: '—' }, ...pares.map(([valor, rotulo]) => ({ valor, rotulo }))];

const TIPOS_RODADO = opcoes([
  ['01', '01 · Truck'],
  ['02', '02 · Toco'],
  ['03', '03 · Cavalo mecânico'],
  ['04', '04 · VAN'],
  ['05', '05 · Utilitário'],
  ['06', '06 · Outros'],
]);
const TIPOS_CARROCERIA = opcoes([
  ['00', '00 · Não aplicável'],
  ['01', '01 · Aberta'],
  ['02', '02 · Fechada/baú'],
  ['03', '03 · Granelera'],
  ['04', '04 · Porta-contêiner'],
  ['05', '05 · Sider'],
]);

function veiculos(app: FastifyInstance, deps: ConsoleDeps) {
  registrarRegistro<typeof VeiculoInput, VeiculoRow>(app, deps, {
    caminho: '/cadastros/veiculos',
    titulo: 'Veículos',
    nome: 'veículo',
    schema: VeiculoInput,
    handler: deps.handlers.veiculo,
    campos: [
      { nome: 'placa', rotulo: 'Placa', obrigatorio: true, ajuda: 'ABC1234 ou ABC1D23' },
      { nome: 'renavam', rotulo: 'RENAVAM', ajuda: '9 a 11 dígitos' },
      { nome: 'rntrc', rotulo: 'RNTRC', ajuda: '8 dígitos' },
      { nome: 'uf', rotulo: 'UF de licenciamento', opcoes: OPCOES_UF },
      { nome: 'tara_kg', rotulo: 'Tara (kg)', numerico: true },
      { nome: 'capacidade_kg', rotulo: 'Capacidade (kg)', numerico: true },
      { nome: 'capacidade_m3', rotulo: 'Capacidade (m³)', numerico: true },
      { nome: 'tipo_rodado', rotulo: 'Tipo de rodado', opcoes: TIPOS_RODADO },
      { nome: 'tipo_carroceria', rotulo: 'Tipo de carroceria', opcoes: TIPOS_CARROCERIA },
      {
        nome: 'tipo',
        rotulo: 'Tipo de veículo',
        opcoes: [
          { valor: 'tracao', rotulo: 'Tração' },
          { valor: 'reboque', rotulo: 'Reboque' },
        ],
      },
      // Left empty: the company's own fleet (the API's `proprietario: null`).
      { nome: 'proprietario.documento', rotulo: 'Proprietário: CPF ou CNPJ', ajuda: 'Somente para veículo de terceiro' },
      { nome: 'proprietario.nome', rotulo: 'Proprietário: nome' },
      { nome: 'proprietario.rntrc', rotulo: 'Proprietário: RNTRC', ajuda: '8 dígitos' },
      { nome: 'proprietario.ie', rotulo: 'Proprietário: inscrição estadual' },
      { nome: 'proprietario.uf', rotulo: 'Proprietário: UF', opcoes: OPCOES_UF },
      {
        nome: 'proprietario.tipo_proprietario',
        rotulo: 'Proprietário: tipo',
        numerico: true,
        opcoes: opcoes([
          ['0', '0 · TAC agregado'],
          ['1', '1 · TAC independente'],
          ['2', '2 · Outros'],
        ]),
      },
    ],
    listar: (d, companyId, cursor) => veiculosList(d.pool, companyId, { page: 1, per_page: POR_PAGINA, cursor }),
    porId: (d, companyId, id) => veiculoPorId(d.pool, companyId, id),
    idDe: (v) => v.id,
    rotuloDe: (v) => v.placa,
    colunas: [
      { titulo: 'Placa', celula: (v) => v.placa },
      { titulo: 'Tipo', celula: (v) => (v.tipo === 'reboque' ? 'Reboque' : 'Tração') },
      { titulo: 'RENAVAM', celula: (v) => t(v.renavam) },
      { titulo: 'UF', celula: (v) => t(v.uf) },
      { titulo: 'Capacidade (kg)', celula: (v) => t(v.capacidade_kg), numero: true },
      { titulo: 'Proprietário', celula: (v) => v.proprietario?.nome ?? 'Frota própria' },
    ],
    valoresDe: (v) => ({
      placa: v.placa,
      renavam: t(v.renavam),
      rntrc: t(v.rntrc),
      uf: t(v.uf),
      tara_kg: t(v.tara_kg),
      capacidade_kg: t(v.capacidade_kg),
      capacidade_m3: t(v.capacidade_m3),
      tipo_rodado: t(v.tipo_rodado),
      tipo_carroceria: t(v.tipo_carroceria),
      tipo: v.tipo,
      'proprietario.documento': t(v.proprietario?.documento),
      'proprietario.nome': t(v.proprietario?.nome),
      'proprietario.rntrc': t(v.proprietario?.rntrc),
      'proprietario.ie': t(v.proprietario?.ie),
      'proprietario.uf': t(v.proprietario?.uf),
      'proprietario.tipo_proprietario': t(v.proprietario?.tipo_proprietario),
    }),
  });
}

function motoristas(app: FastifyInstance, deps: ConsoleDeps) {
  registrarRegistro<typeof MotoristaInput, MotoristaRow>(app, deps, {
    caminho: '/cadastros/motoristas',
    titulo: 'Motoristas',
    nome: 'motorista',
    schema: MotoristaInput,
    handler: deps.handlers.motorista,
    campos: [
      { nome: 'cpf', rotulo: 'CPF', obrigatorio: true },
      { nome: 'nome', rotulo: 'Nome', obrigatorio: true },
      { nome: 'telefone', rotulo: 'Telefone', ajuda: 'DDD e número, 10 ou 11 dígitos' },
      {
        nome: 'chave_pix.tipo',
        rotulo: 'Tipo da chave PIX',
        opcoes: opcoes([
          ['cpf', 'CPF'],
          ['cnpj', 'CNPJ'],
          ['email', 'E-mail'],
          ['telefone', 'Telefone'],
          ['aleatoria', 'Aleatória'],
        ]),
      },
      { nome: 'chave_pix.valor', rotulo: 'Chave PIX' },
    ],
    listar: (d, companyId, cursor) => motoristasList(d.pool, companyId, { page: 1, per_page: POR_PAGINA, cursor }),
    porId: (d, companyId, id) => motoristaPorId(d.pool, companyId, id),
    idDe: (m) => m.id,
    rotuloDe: (m) => m.nome,
    colunas: [
      { titulo: 'Nome', celula: (m) => m.nome },
      { titulo: 'CPF', celula: (m) => m.cpf },
      { titulo: 'Telefone', celula: (m) => t(m.telefone) },
      { titulo: 'Chave PIX', celula: (m) => (m.chave_pix ? `${m.chave_pix.tipo}: ${m.chave_pix.valor}` : '') },
    ],
    valoresDe: (m) => ({
      cpf: m.cpf,
      nome: m.nome,
      telefone: t(m.telefone),
      'chave_pix.tipo': t(m.chave_pix?.tipo),
      'chave_pix.valor': t(m.chave_pix?.valor),
    }),
    preservar: (m) => ({ repasse: m.repasse }),
    nota: 'A regra de repasse do motorista (parcelas) é mantida como está; altere-a pela API.',
  });
}

const pct = (centesimos: number | null) => (centesimos === null ? '' : String(percentualDeCentesimos(centesimos)));

function regras(app: FastifyInstance, deps: ConsoleDeps) {
  registrarRegistro<typeof RegraTributacaoInput, RegraTributacaoRow>(app, deps, {
    caminho: '/cadastros/regras-tributacao',
    titulo: 'Regras de tributação',
    nome: 'regra de tributação',
    schema: RegraTributacaoInput,
    handler: deps.handlers.regraTributacao,
    campos: [
      { nome: 'uf_origem', rotulo: 'UF de origem', opcoes: OPCOES_UF, obrigatorio: true },
      { nome: 'uf_destino', rotulo: 'UF de destino', opcoes: OPCOES_UF, obrigatorio: true },
      {
        nome: 'tp_serv',
        rotulo: 'Tipo de serviço',
        numerico: true,
        opcoes: [
          { valor: '', rotulo: 'Todos (regra geral)' },
          { valor: '0', rotulo: '0 · Normal' },
          { valor: '1', rotulo: '1 · Subcontratação' },
          { valor: '2', rotulo: '2 · Redespacho' },
          { valor: '3', rotulo: '3 · Redespacho intermediário' },
        ],
      },
      { nome: 'cfop', rotulo: 'CFOP', ajuda: '4 dígitos; 5xxx na mesma UF, 6xxx entre UFs' },
      { nome: 'icms.cst', rotulo: 'CST do ICMS', opcoes: opcoes(ICMS_CSTS.map((c) => [c, c])), obrigatorio: true },
      { nome: 'icms.aliquota', rotulo: 'Alíquota do ICMS (%)', numerico: true },
      { nome: 'icms.reducao_base', rotulo: 'Redução da base (%)', numerico: true, ajuda: 'Somente para CST 20 e 90' },
    ],
    listar: async (d, companyId) => ({
      ...(await regrasTributacao(d.pool, companyId, { page: 1, per_page: 100 })),
      next_cursor: null,
    }),
    porId: (d, companyId, id) => regraTributacaoPorId(d.pool, companyId, id),
    idDe: (r) => r.regra_id,
    rotuloDe: (r) => `${r.uf_origem}→${r.uf_destino}${r.tp_serv === null ? '' : ` (serviço ${r.tp_serv})`}`,
    colunas: [
      { titulo: 'Origem', celula: (r) => r.uf_origem },
      { titulo: 'Destino', celula: (r) => r.uf_destino },
      { titulo: 'Serviço', celula: (r) => (r.tp_serv === null ? 'Geral' : String(r.tp_serv)) },
      { titulo: 'CFOP', celula: (r) => t(r.cfop) },
      { titulo: 'CST', celula: (r) => r.icms_cst },
      { titulo: 'Alíquota (%)', celula: (r) => pct(r.icms_aliquota), numero: true },
      { titulo: 'Redução da base (%)', celula: (r) => pct(r.icms_reducao_base), numero: true },
    ],
    valoresDe: (r) => ({
      uf_origem: r.uf_origem,
      uf_destino: r.uf_destino,
      tp_serv: t(r.tp_serv),
      cfop: t(r.cfop),
      'icms.cst': r.icms_cst,
      'icms.aliquota': pct(r.icms_aliquota),
      'icms.reducao_base': pct(r.icms_reducao_base),
    }),
    preservar: (r) =>
      r.ibs_cbs
        ? {
            ibs_cbs: {
              cst: r.ibs_cbs.cst,
              cclass_trib: r.ibs_cbs.cclass_trib,
              aliquota_ibs_uf: percentualDeCentesimos(r.ibs_cbs.aliquota_ibs_uf_centesimos),
              aliquota_ibs_mun: percentualDeCentesimos(r.ibs_cbs.aliquota_ibs_mun_centesimos),
              aliquota_cbs: percentualDeCentesimos(r.ibs_cbs.aliquota_cbs_centesimos),
            },
          }
        : {},
    nota: 'O grupo IBS/CBS da regra é mantido como está; altere-o pela API.',
  });
}

const SECOES = [
  { href: `${AREA_CADASTROS}/veiculos`, rotulo: 'Veículos', texto: 'Frota própria e de terceiros, para o MDF-e.' },
  { href: `${AREA_CADASTROS}/motoristas`, rotulo: 'Motoristas', texto: 'Condutores do MDF-e e destinatários dos repasses.' },
  { href: `${AREA_CADASTROS}/regras-tributacao`, rotulo: 'Regras de tributação', texto: 'ICMS por rota (UF de origem e destino).' },
];

/** `/console/cadastros`: vehicles, drivers and tax rules, as the API's `/fiscal/veiculos`, `/motoristas`, `/regras-tributacao`. */
export function cadastros(app: FastifyInstance, deps: ConsoleDeps) {
  app.get('/cadastros', async (request, reply) => {
    const sessao = sessaoDe(request);
    return html(
      reply,
      <Pagina titulo="Cadastros" sessao={sessao} csrf={csrfDe(reply)} area={AREA_CADASTROS} aviso={avisoDe(request)}>
        <ul class="grade">
          {SECOES.map((s) => (
            <li key={s.href} class="cartao">
              <a href={s.href}>{s.rotulo}</a>
              <p>{s.texto}</p>
            </li>
          ))}
        </ul>
      </Pagina>,
    );
  });
  veiculos(app, deps);
  motoristas(app, deps);
  regras(app, deps);
}
