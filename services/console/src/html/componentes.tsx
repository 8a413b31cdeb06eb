import { type ComponentChildren } from 'preact';

/** The form field that carries the CSRF token (checked on every POST under /console). */
export const CSRF_CAMPO = '_csrf';

export interface FormularioProps {
  acao: string;
  csrf: string;
  /** multipart for file uploads. */
  arquivos?: boolean;
  classe?: string;
  rotulo?: string;
  children: ComponentChildren;
}

/** A POST form with its CSRF token. */
export function Formulario({ acao, csrf, arquivos, classe, rotulo, children }: FormularioProps) {
  return (
    <form method="post" action={acao} class={classe} aria-label={rotulo} enctype={arquivos ? 'multipart/form-data' : undefined}>
      <input type="hidden" name={CSRF_CAMPO} value={csrf} />
      {children}
    </form>
  );
}

export interface CampoProps {
  nome: string;
  rotulo: string;
  tipo?: string;
  valor?: string | number | null;
  obrigatorio?: boolean;
  erro?: string | undefined;
  ajuda?: string;
  autocomplete?: string;
  /** Extra input attributes (inputmode, pattern, min, max, accept…). */
  atributos?: Record<string, string | number | boolean>;
}

/** A labelled input; its error and help are tied to it for screen readers. */
export function Campo({ nome, rotulo, tipo = 'text', valor, obrigatorio, erro, ajuda, autocomplete, atributos }: CampoProps) {
  const id = `campo-${nome}`;
  const descricao = [erro ? `${id}-erro` : null, ajuda ? `${id}-ajuda` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div class={erro ? 'campo com-erro' : 'campo'}>
      <label for={id}>{rotulo}</label>
      <input
        id={id}
        name={nome}
        type={tipo}
        value={valor ?? undefined}
        required={obrigatorio}
        aria-invalid={erro ? 'true' : undefined}
        aria-describedby={descricao}
        autocomplete={autocomplete}
        {...atributos}
      />
      {ajuda && (
        <small id={`${id}-ajuda`} class="ajuda">
          {ajuda}
        </small>
      )}
      {erro && (
        <small id={`${id}-erro`} class="erro">
          {erro}
        </small>
      )}
    </div>
  );
}

/**
 * A day, typed as the panel writes every date (dd/mm/aaaa), whatever the browser's language: a native date picker
 * would show the browser's own order (mm/dd/yyyy in an English one). `valor` is the day as `AAAA-MM-DD`.
 */
export function CampoData({ nome, rotulo, valor }: { nome: string; rotulo: string; valor?: string }) {
  const m = valor ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(valor) : null;
  return (
    <Campo
      nome={nome}
      rotulo={rotulo}
      valor={m ? `${m[3]}/${m[2]}/${m[1]}` : (valor ?? '')}
      atributos={{ placeholder: 'dd/mm/aaaa', inputmode: 'numeric', maxlength: 10, pattern: '\\d{2}/\\d{2}/\\d{4}' }}
    />
  );
}

export interface OpcaoProps {
  valor: string;
  rotulo: string;
}

export function Selecao(props: { nome: string; rotulo: string; opcoes: OpcaoProps[]; valor?: string | null; obrigatorio?: boolean }) {
  const id = `campo-${props.nome}`;
  return (
    <div class="campo">
      <label for={id}>{props.rotulo}</label>
      <select id={id} name={props.nome} required={props.obrigatorio}>
        {props.opcoes.map((o) => (
          <option key={o.valor} value={o.valor} selected={o.valor === props.valor}>
            {o.rotulo}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A group of checkboxes of one repeated field (`nome`): each option's `valor`, those in `marcados` checked. */
export function Marcacoes(props: { nome: string; legenda: string; opcoes: OpcaoProps[]; marcados: string[] }) {
  return (
    <fieldset>
      <legend>{props.legenda}</legend>
      {props.opcoes.map((o) => (
        <div class="opcao" key={o.valor}>
          <input
            type="checkbox"
            id={`${props.nome}-${o.valor}`}
            name={props.nome}
            value={o.valor}
            checked={props.marcados.includes(o.valor)}
          />
          <label for={`${props.nome}-${o.valor}`}>{o.rotulo}</label>
        </div>
      ))}
    </fieldset>
  );
}

/** A summary of what a form got wrong, announced on load. */
/** `detalhe`: a refusal's code and the handler's own (English) message, for support: small, after the list. */
export function Erros({ erros, detalhe }: { erros: string[]; detalhe?: string | null }) {
  if (erros.length === 0) return null;
  return (
    <div class="erros" role="alert">
      <p>Corrija o que segue:</p>
      <ul>
        {erros.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
      {detalhe && (
        <p class="detalhe-suporte">
          <small>Detalhe para o suporte: {detalhe}</small>
        </p>
      )}
    </div>
  );
}

export interface Coluna<T> {
  titulo: string;
  celula: (linha: T) => ComponentChildren;
  /** Right-aligned (money, counts). */
  numero?: boolean;
}

/** A data table with a caption; on a phone it scrolls sideways inside its box. */
/**
 * `empilhada`: on a phone each row becomes a card, each cell under its column's name (the stylesheet's media query);
 * the roles are explicit because a table laid out as blocks loses them in some browsers.
 */
export function Tabela<T>({
  legenda,
  colunas,
  linhas,
  vazio,
  empilhada,
}: {
  legenda: string;
  colunas: Coluna<T>[];
  linhas: T[];
  vazio: string;
  empilhada?: boolean;
}) {
  if (linhas.length === 0) return <p class="vazio">{vazio}</p>;
  return (
    <div class={empilhada ? 'tabela empilhada' : 'tabela'} role="region" aria-label={legenda} tabIndex={0}>
      <table role={empilhada ? 'table' : undefined}>
        <caption>{legenda}</caption>
        <thead>
          <tr role={empilhada ? 'row' : undefined}>
            {colunas.map((c) => (
              <th key={c.titulo} scope="col" class={c.numero ? 'numero' : undefined} role={empilhada ? 'columnheader' : undefined}>
                {c.titulo}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {linhas.map((l, i) => (
            <tr key={i} role={empilhada ? 'row' : undefined}>
              {colunas.map((c) => (
                <td
                  key={c.titulo}
                  class={c.numero ? 'numero' : undefined}
                  data-rotulo={empilhada ? c.titulo : undefined}
                  role={empilhada ? 'cell' : undefined}
                >
                  {c.celula(l)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "Next page" for cursor-paged lists (the API's cursors). */
export function ProximaPagina({ href }: { href: string | null }) {
  if (!href) return null;
  return (
    <p class="paginacao">
      <a href={href}>Próxima página</a>
    </p>
  );
}
