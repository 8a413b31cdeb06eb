import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { FiscalConfigurationUpdate } from '@frete/contracts';
import { pendenciasConfiguracao } from '@frete/domain';
import { certificadoOf, companyOf, configuracaoOf, type CertificadoRow, type ConfiguracaoRow } from '@frete/projections';
import { avisoDe, contextoDe, csrfDe, html, redirecionar, sessaoDe } from '../contexto';
import { type ConsoleDeps } from '../deps';
import { paginaDeErro } from '../erros';
import { camposDe, numero, recusa, validar } from '../formulario';
import { Erros, Formulario } from '../html/componentes';
import { Pagina } from '../html/layout';
import { podeAdministrar, type SessaoConsole } from '../sessao/sessao';
import { CampoDe, Escolha, type EstadoDoFormulario, OPCOES_UF, resumoDosErros } from './campos-fiscais';
import { enviarCertificado, SecaoCertificado, type EstadoDoCertificado } from './certificado';

const AREA = '/console/configuracao';

const ROTULOS: Record<string, string> = {
  inscricao_estadual: 'Inscrição estadual',
  regime_tributario: 'Regime tributário',
  rntrc: 'RNTRC',
  serie_cte: 'Série do CT-e',
  serie_mdfe: 'Série do MDF-e',
  percentual_frete_contra_cte: 'Percentual do frete no CT-e contra',
  'endereco.logradouro': 'Logradouro',
  'endereco.numero': 'Número',
  'endereco.complemento': 'Complemento',
  'endereco.bairro': 'Bairro',
  'endereco.municipio': 'Município',
  'endereco.uf': 'UF',
  'endereco.codigo_ibge': 'Código IBGE do município',
  'endereco.cep': 'CEP',
};

const REGIMES = [
  { valor: '', rotulo: '—' },
  { valor: '1', rotulo: '1 · Simples Nacional' },
  { valor: '2', rotulo: '2 · Simples Nacional, excesso de sublimite' },
  { valor: '3', rotulo: '3 · Regime Normal' },
  { valor: '4', rotulo: '4 · MEI' },
];

const ENDERECO = ['logradouro', 'numero', 'complemento', 'bairro', 'municipio', 'uf', 'codigo_ibge', 'cep'] as const;

const texto = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));

/** The stored configuration as the form's values. */
function valoresDe(c: ConfiguracaoRow): Record<string, string> {
  const v: Record<string, string> = {
    inscricao_estadual: texto(c.inscricao_estadual),
    regime_tributario: texto(c.regime_tributario),
    rntrc: texto(c.rntrc),
    serie_cte: texto(c.serie_cte),
    serie_mdfe: texto(c.serie_mdfe),
    percentual_frete_contra_cte: texto(c.percentual_frete_contra_cte),
  };
  for (const k of ENDERECO) v[`endereco.${k}`] = texto(c.endereco?.[k]);
  return v;
}

/**
 * The form is the whole configuration: an empty field clears it (null), as the API's PUT does with null; the
 * address goes as a whole or, every field empty, is cleared.
 */
function corpoDe(f: Record<string, string>): Record<string, unknown> {
  const ou = (v: string | undefined, conv: (s: string) => unknown = (s) => s) => (v ? conv(v) : null);
  const endereco: Record<string, unknown> = {};
  for (const k of ENDERECO) {
    const v = f[`endereco.${k}`];
    if (v) endereco[k] = v;
  }
  if (Object.keys(endereco).length > 0) endereco.complemento ??= null;
  return {
    inscricao_estadual: ou(f.inscricao_estadual?.toUpperCase()),
    regime_tributario: ou(f.regime_tributario, numero),
    rntrc: ou(f.rntrc),
    serie_cte: ou(f.serie_cte, numero),
    serie_mdfe: ou(f.serie_mdfe, numero),
    percentual_frete_contra_cte: ou(f.percentual_frete_contra_cte, numero),
    endereco: Object.keys(endereco).length > 0 ? endereco : null,
  };
}

interface Dados {
  cnpj: string;
  razao: string;
  config: ConfiguracaoRow;
  certificado: CertificadoRow | null;
}

async function dadosDe(deps: ConsoleDeps, companyId: string): Promise<Dados> {
  const [company, config, certificado] = await Promise.all([
    companyOf(deps.pool, companyId, ''),
    configuracaoOf(deps.pool, companyId),
    certificadoOf(deps.pool, companyId),
  ]);
  return { cnpj: company?.cnpj ?? '', razao: company?.razao_social ?? '', config, certificado };
}

function SomenteLeitura({ config }: { config: ConfiguracaoRow }) {
  const e = config.endereco;
  const linhas: [string, string][] = [
    ['Inscrição estadual', texto(config.inscricao_estadual)],
    ['Regime tributário', REGIMES.find((r) => r.valor === texto(config.regime_tributario))?.rotulo ?? ''],
    ['RNTRC', texto(config.rntrc)],
    ['Série do CT-e', texto(config.serie_cte)],
    ['Série do MDF-e', texto(config.serie_mdfe)],
    ['Percentual do frete no CT-e contra', config.percentual_frete_contra_cte === null ? '' : `${config.percentual_frete_contra_cte}%`],
    [
      'Endereço',
      e
        ? `${e.logradouro}, ${e.numero}${e.complemento ? ` ${e.complemento}` : ''} · ${e.bairro} · ${e.municipio}/${e.uf} · CEP ${e.cep}`
        : '',
    ],
  ];
  return (
    <dl class="dados">
      {linhas.map(([rotulo, valor]) => (
        <div key={rotulo}>
          <dt>{rotulo}</dt>
          <dd>{valor || 'não informado'}</dd>
        </div>
      ))}
    </dl>
  );
}

function FormularioConfiguracao({ csrf, estado }: { csrf: string; estado: EstadoDoFormulario }) {
  return (
    <Formulario acao={AREA} csrf={csrf} rotulo="Configuração fiscal">
      <Erros erros={resumoDosErros(estado.erros, ROTULOS)} />
      <CampoDe nome="inscricao_estadual" rotulo={ROTULOS.inscricao_estadual!} estado={estado} ajuda="Somente dígitos, ou ISENTO" />
      <Escolha nome="regime_tributario" rotulo={ROTULOS.regime_tributario!} opcoes={REGIMES} estado={estado} />
      <CampoDe nome="rntrc" rotulo={ROTULOS.rntrc!} estado={estado} ajuda="8 dígitos" atributos={{ inputmode: 'numeric' }} />
      <CampoDe nome="serie_cte" rotulo={ROTULOS.serie_cte!} estado={estado} atributos={{ inputmode: 'numeric' }} />
      <CampoDe nome="serie_mdfe" rotulo={ROTULOS.serie_mdfe!} estado={estado} atributos={{ inputmode: 'numeric' }} />
      <CampoDe
        nome="percentual_frete_contra_cte"
        rotulo={ROTULOS.percentual_frete_contra_cte!}
        estado={estado}
        ajuda="Parte do frete do contratante sugerida no CT-e contra, de 0,01 a 100"
        atributos={{ inputmode: 'decimal' }}
      />
      <fieldset>
        <legend>Endereço do emitente</legend>
        <CampoDe nome="endereco.logradouro" rotulo={ROTULOS['endereco.logradouro']!} estado={estado} />
        <CampoDe nome="endereco.numero" rotulo={ROTULOS['endereco.numero']!} estado={estado} />
        <CampoDe nome="endereco.complemento" rotulo={ROTULOS['endereco.complemento']!} estado={estado} />
        <CampoDe nome="endereco.bairro" rotulo={ROTULOS['endereco.bairro']!} estado={estado} />
        <CampoDe nome="endereco.municipio" rotulo={ROTULOS['endereco.municipio']!} estado={estado} />
        <Escolha nome="endereco.uf" rotulo={ROTULOS['endereco.uf']!} opcoes={OPCOES_UF} estado={estado} />
        <CampoDe nome="endereco.codigo_ibge" rotulo={ROTULOS['endereco.codigo_ibge']!} estado={estado} ajuda="7 dígitos (opcional)" />
        <CampoDe
          nome="endereco.cep"
          rotulo={ROTULOS['endereco.cep']!}
          estado={estado}
          ajuda="8 dígitos"
          atributos={{ inputmode: 'numeric' }}
        />
      </fieldset>
      <button type="submit" class="botao">
        Salvar configuração
      </button>
    </Formulario>
  );
}

export interface PaginaConfiguracaoProps {
  sessao: SessaoConsole;
  csrf: string;
  aviso: string | null;
  dados: Dados;
  agora: Date;
  /** The configuration form's values and messages (the stored ones, or those typed in a refused POST). */
  estado?: EstadoDoFormulario;
  /** A refused certificate upload. */
  certificado?: EstadoDoCertificado;
  /** A refusal of the configuration not tied to a field (a business rule). */
  recusa?: string;
}

export function PaginaConfiguracao(p: PaginaConfiguracaoProps) {
  const admin = podeAdministrar(p.sessao.papel);
  const estado = p.estado ?? { valores: valoresDe(p.dados.config), erros: {} };
  const pendencias = pendenciasConfiguracao(p.dados.config);
  return (
    <Pagina titulo="Configuração fiscal" sessao={p.sessao} csrf={p.csrf} area={AREA} aviso={p.aviso}>
      <section aria-labelledby="titulo-empresa">
        <h2 id="titulo-empresa">Dados fiscais</h2>
        <p>
          {p.dados.razao} · CNPJ {p.dados.cnpj}
        </p>
        {pendencias.length > 0 ? (
          <p class="alerta">Faltam para emitir: {pendencias.join(', ')}.</p>
        ) : (
          <p>Configuração completa para emitir.</p>
        )}
        {p.recusa && (
          <p class="erros" role="alert">
            {p.recusa}
          </p>
        )}
        {admin ? <FormularioConfiguracao csrf={p.csrf} estado={estado} /> : <SomenteLeitura config={p.dados.config} />}
      </section>
      <SecaoCertificado
        certificado={p.dados.certificado}
        agora={p.agora}
        admin={admin}
        csrf={p.csrf}
        estado={p.certificado ?? { erro: null }}
      />
    </Pagina>
  );
}

const proibido = (request: FastifyRequest, reply: FastifyReply) =>
  paginaDeErro(request, reply, 403, 'Acesso negado', 'Somente um administrador da empresa altera a configuração fiscal.');

/** `/console/configuracao`: the fiscal configuration and the A1 certificate (the API's `/fiscal/configuracao`, `/fiscal/certificado`). */
export function configuracao(app: FastifyInstance, deps: ConsoleDeps) {
  const pagina = async (request: FastifyRequest, reply: FastifyReply, extra: Partial<PaginaConfiguracaoProps>, status = 200) => {
    const sessao = sessaoDe(request);
    const dados = await dadosDe(deps, sessao.company_id);
    return html(
      reply,
      <PaginaConfiguracao sessao={sessao} csrf={csrfDe(reply)} aviso={avisoDe(request)} dados={dados} agora={deps.clock()} {...extra} />,
      status,
    );
  };

  app.get('/configuracao', (request, reply) => pagina(request, reply, {}));

  app.post('/configuracao', async (request, reply) => {
    const sessao = sessaoDe(request);
    if (!podeAdministrar(sessao.papel)) return proibido(request, reply);
    const valores = camposDe(request.body);
    const corpo = validar(FiscalConfigurationUpdate, corpoDe(valores));
    if (!corpo.ok) return pagina(request, reply, { estado: { valores, erros: corpo.erros } }, 400);
    try {
      await deps.handlers.configuracao.atualizar(contextoDe(request, deps), corpo.valor);
    } catch (err) {
      const r = recusa(err);
      if (!r) throw err;
      return pagina(request, reply, { estado: { valores, erros: r.erros }, recusa: r.mensagem }, r.status);
    }
    await deps.readYourWrites.waitFor(sessao.company_id);
    return redirecionar(reply, AREA, 'Configuração fiscal salva.');
  });

  app.post('/configuracao/certificado', async (request, reply) => {
    const sessao = sessaoDe(request);
    if (!podeAdministrar(sessao.papel)) return proibido(request, reply);
    const company = await companyOf(deps.pool, sessao.company_id, '');
    if (!company) throw new Error(`session of an unknown company ${sessao.company_id}`);
    const recusado = await enviarCertificado(request, deps, company.cnpj);
    if (recusado) return pagina(request, reply, { certificado: { erro: recusado.mensagem } }, recusado.status);
    await deps.readYourWrites.waitFor(sessao.company_id);
    return redirecionar(reply, AREA, 'Certificado enviado.');
  });

  app.post('/configuracao/certificado/remover', async (request, reply) => {
    const sessao = sessaoDe(request);
    if (!podeAdministrar(sessao.papel)) return proibido(request, reply);
    const removido = await deps.handlers.certificado.remover(contextoDe(request, deps));
    await deps.readYourWrites.waitFor(sessao.company_id);
    return redirecionar(reply, AREA, removido ? 'Certificado removido.' : 'Não havia certificado para remover.');
  });
}
