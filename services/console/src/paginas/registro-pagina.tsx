import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type Static, type TSchema } from '@sinclair/typebox';
import { type RegistroHandler } from '@frete/application';
import { Rejection } from '@frete/domain';
import { avisoDe, contextoDe, csrfDe, html, redirecionar, sessaoDe } from '../contexto';
import { type ConsoleDeps } from '../deps';
import { paginaDeErro } from '../erros';
import { camposDe, numero, recusa, validar } from '../formulario';
import { type Coluna, Erros, Formulario, type OpcaoProps, ProximaPagina, Tabela } from '../html/componentes';
import { Pagina } from '../html/layout';
import { podeOperar } from '../sessao/sessao';
import { CampoDe, Escolha, type EstadoDoFormulario, formularioVazio, resumoDosErros } from './campos-fiscais';

export const AREA_CADASTROS = '/console/cadastros';

/** One input of a registry's form; its `nome` is the dotted path of the API body's field (`icms.aliquota`). */
export interface CampoDoRegistro {
  nome: string;
  rotulo: string;
  numerico?: boolean;
  opcoes?: OpcaoProps[];
  obrigatorio?: boolean;
  ajuda?: string;
}

/** What differs between the vehicles', drivers' and tax rules' pages. */
export interface RegistroPagina<S extends TSchema, Row> {
  /** Under /console: `/cadastros/veiculos`. */
  caminho: string;
  titulo: string;
  /** "veículo": for the notices and the buttons. */
  nome: string;
  /** The API's body schema of POST and PUT. */
  schema: S;
  campos: CampoDoRegistro[];
  handler: RegistroHandler<Static<S>, unknown>;
  listar: (deps: ConsoleDeps, companyId: string, cursor: string | undefined) => Promise<{ rows: Row[]; next_cursor: string | null }>;
  porId: (deps: ConsoleDeps, companyId: string, id: number) => Promise<Row | null>;
  idDe: (row: Row) => number;
  /** A human name of an entry (the plate, the driver's name…). */
  rotuloDe: (row: Row) => string;
  colunas: Coluna<Row>[];
  /** The stored entry as the form's values (for editing). */
  valoresDe: (row: Row) => Record<string, string>;
  /**
   * The API's PUT replaces the whole entry: what the form does not show (a driver's own installment rule) is
   * sent as stored, so an edit in the panel never clears it.
   */
  preservar?: (row: Row) => Record<string, unknown>;
  /** A line under the forms (what they leave to the API). */
  nota?: string;
}

/**
 * The typed values as the API body: an empty field is absent (the API's "not given"), numbers are numbers, and a
 * group (`chave_pix.tipo` + `chave_pix.valor`) is an object when any of its fields is filled.
 */
export function corpoDoFormulario(campos: CampoDoRegistro[], valores: Record<string, string>): Record<string, unknown> {
  const corpo: Record<string, unknown> = {};
  for (const c of campos) {
    const v = valores[c.nome];
    if (!v) continue;
    const partes = c.nome.split('.');
    let alvo = corpo;
    for (const p of partes.slice(0, -1)) alvo = (alvo[p] ??= {}) as Record<string, unknown>;
    alvo[partes[partes.length - 1]!] = c.numerico ? numero(v) : v;
  }
  return corpo;
}

const idDoCaminho = (raw: string): number | null => (/^[1-9][0-9]{0,8}$/.test(raw) ? Number(raw) : null);

/** List, create, edit and remove of one registry, through the same handler and body schema as the API's routes. */
export function registrarRegistro<S extends TSchema, Row>(app: FastifyInstance, deps: ConsoleDeps, r: RegistroPagina<S, Row>) {
  const rotulos = Object.fromEntries(r.campos.map((c) => [c.nome, c.rotulo]));
  const base = `/console${r.caminho}`;

  const Campos = ({ estado }: { estado: EstadoDoFormulario }) => (
    <>
      <Erros erros={resumoDosErros(estado.erros, rotulos)} />
      {r.campos.map((c) =>
        c.opcoes ? (
          <Escolha key={c.nome} nome={c.nome} rotulo={c.rotulo} opcoes={c.opcoes} estado={estado} obrigatorio={c.obrigatorio} />
        ) : (
          <CampoDe
            key={c.nome}
            nome={c.nome}
            rotulo={c.rotulo}
            estado={estado}
            obrigatorio={c.obrigatorio}
            ajuda={c.ajuda}
            atributos={c.numerico ? { inputmode: 'decimal' } : undefined}
          />
        ),
      )}
    </>
  );

  const lista = async (request: FastifyRequest, reply: FastifyReply, estado: EstadoDoFormulario, status: number, falha?: string) => {
    const sessao = sessaoDe(request);
    const q = request.query as { cursor?: unknown };
    const cursor = typeof q.cursor === 'string' && q.cursor.length <= 200 ? q.cursor : undefined;
    const { rows, next_cursor } = await r.listar(deps, sessao.company_id, cursor);
    const csrf = csrfDe(reply);
    const opera = podeOperar(sessao.papel);
    const colunas: Coluna<Row>[] = opera
      ? [
          ...r.colunas,
          {
            titulo: 'Ações',
            celula: (row) => (
              <span class="acoes">
                <a href={`${base}/${r.idDe(row)}`} aria-label={`Editar ${r.nome} ${r.rotuloDe(row)}`}>
                  Editar
                </a>
                <Formulario acao={`${base}/${r.idDe(row)}/remover`} csrf={csrf} classe="em-linha">
                  <button type="submit" class="secundario" aria-label={`Remover ${r.nome} ${r.rotuloDe(row)}`}>
                    Remover
                  </button>
                </Formulario>
              </span>
            ),
          },
        ]
      : r.colunas;
    return html(
      reply,
      <Pagina titulo={r.titulo} sessao={sessao} csrf={csrf} area={AREA_CADASTROS} aviso={avisoDe(request)}>
        <p>
          <a href={AREA_CADASTROS}>Voltar aos cadastros</a>
        </p>
        <Tabela legenda={r.titulo} colunas={colunas} linhas={rows} vazio={`Nenhum ${r.nome} cadastrado.`} />
        <ProximaPagina href={next_cursor ? `${base}?cursor=${encodeURIComponent(next_cursor)}` : null} />
        {opera && (
          <section aria-labelledby="titulo-novo">
            <h2 id="titulo-novo">Cadastrar {r.nome}</h2>
            {falha && (
              <p class="erros" role="alert">
                {falha}
              </p>
            )}
            <Formulario acao={base} csrf={csrf} rotulo={`Cadastrar ${r.nome}`}>
              <Campos estado={estado} />
              <button type="submit" class="botao">
                Cadastrar {r.nome}
              </button>
            </Formulario>
            {r.nota && <p class="ajuda">{r.nota}</p>}
          </section>
        )}
      </Pagina>,
      status,
    );
  };

  const edicao = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    estado: EstadoDoFormulario | null,
    status: number,
    falha?: string,
  ) => {
    const sessao = sessaoDe(request);
    const row = await r.porId(deps, sessao.company_id, id);
    if (!row) return naoEncontrado(request, reply);
    const csrf = csrfDe(reply);
    return html(
      reply,
      <Pagina titulo={`Editar ${r.nome} ${r.rotuloDe(row)}`} sessao={sessao} csrf={csrf} area={AREA_CADASTROS}>
        <p>
          <a href={base}>Voltar a {r.titulo.toLowerCase()}</a>
        </p>
        {falha && (
          <p class="erros" role="alert">
            {falha}
          </p>
        )}
        <Formulario acao={`${base}/${id}`} csrf={csrf} rotulo={`Editar ${r.nome}`}>
          <Campos estado={estado ?? { valores: r.valoresDe(row), erros: {} }} />
          <button type="submit" class="botao">
            Salvar {r.nome}
          </button>
        </Formulario>
        {r.nota && <p class="ajuda">{r.nota}</p>}
      </Pagina>,
      status,
    );
  };

  const naoEncontrado = (request: FastifyRequest, reply: FastifyReply) =>
    paginaDeErro(request, reply, 404, 'Cadastro não encontrado', `Este ${r.nome} não existe nesta empresa.`);
  const proibido = (request: FastifyRequest, reply: FastifyReply) =>
    paginaDeErro(request, reply, 403, 'Acesso negado', 'Seu papel permite apenas consultar os cadastros.');

  app.get(r.caminho, (request, reply) => lista(request, reply, formularioVazio(), 200));

  app.post(r.caminho, async (request, reply) => {
    if (!podeOperar(sessaoDe(request).papel)) return proibido(request, reply);
    const valores = camposDe(request.body);
    const corpo = validar(r.schema, corpoDoFormulario(r.campos, valores));
    if (!corpo.ok) return lista(request, reply, { valores, erros: corpo.erros }, 400);
    try {
      await r.handler.cadastrar(contextoDe(request, deps), corpo.valor);
    } catch (err) {
      const x = recusa(err);
      if (!x) throw err;
      return lista(request, reply, { valores, erros: x.erros }, x.status, x.mensagem);
    }
    await deps.readYourWrites.waitFor(sessaoDe(request).company_id);
    return redirecionar(reply, base, `Cadastro de ${r.nome} salvo.`);
  });

  app.get<{ Params: { id: string } }>(`${r.caminho}/:id`, (request, reply) => {
    const id = idDoCaminho(request.params.id);
    if (id === null) return naoEncontrado(request, reply);
    return edicao(request, reply, id, null, 200);
  });

  app.post<{ Params: { id: string } }>(`${r.caminho}/:id`, async (request, reply) => {
    if (!podeOperar(sessaoDe(request).papel)) return proibido(request, reply);
    const id = idDoCaminho(request.params.id);
    if (id === null) return naoEncontrado(request, reply);
    const atual = await r.porId(deps, sessaoDe(request).company_id, id);
    if (!atual) return naoEncontrado(request, reply);
    const valores = camposDe(request.body);
    const corpo = validar(r.schema, { ...r.preservar?.(atual), ...corpoDoFormulario(r.campos, valores) });
    if (!corpo.ok) return edicao(request, reply, id, { valores, erros: corpo.erros }, 400);
    try {
      await r.handler.alterar(contextoDe(request, deps), id, corpo.valor);
    } catch (err) {
      if (err instanceof Rejection && err.code === 'nao_encontrado') return naoEncontrado(request, reply);
      const x = recusa(err);
      if (!x) throw err;
      return edicao(request, reply, id, { valores, erros: x.erros }, x.status, x.mensagem);
    }
    await deps.readYourWrites.waitFor(sessaoDe(request).company_id);
    return redirecionar(reply, base, `Cadastro de ${r.nome} alterado.`);
  });

  app.post<{ Params: { id: string } }>(`${r.caminho}/:id/remover`, async (request, reply) => {
    if (!podeOperar(sessaoDe(request).papel)) return proibido(request, reply);
    const id = idDoCaminho(request.params.id);
    if (id === null) return naoEncontrado(request, reply);
    try {
      await r.handler.remover(contextoDe(request, deps), id);
    } catch (err) {
      if (err instanceof Rejection && err.code === 'nao_encontrado') return naoEncontrado(request, reply);
      const x = recusa(err);
      if (!x) throw err;
      return paginaDeErro(request, reply, x.status, 'Não foi possível remover', x.mensagem);
    }
    await deps.readYourWrites.waitFor(sessaoDe(request).company_id);
    return redirecionar(reply, base, `Cadastro de ${r.nome} removido.`);
  });
}
