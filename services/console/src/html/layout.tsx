import { type ComponentChildren } from 'preact';
import { type SessaoConsole } from '../sessao/sessao';
import { ativos } from '../assets';
import { Formulario } from './componentes';

/** The panel's areas, in the navigation's order; a role sees only those it may use. */
export const AREAS: { href: string; rotulo: string; so?: 'admin' }[] = [
  { href: '/console', rotulo: 'Início' },
  { href: '/console/cte', rotulo: 'CT-e' },
  { href: '/console/mdfe', rotulo: 'MDF-e' },
  { href: '/console/lotes', rotulo: 'Lotes' },
  { href: '/console/caixa-de-entrada', rotulo: 'Caixa de entrada' },
  { href: '/console/parcelas', rotulo: 'Parcelas' },
  { href: '/console/ciot', rotulo: 'CIOT' },
  { href: '/console/vale-pedagio', rotulo: 'Vale-pedágio' },
  { href: '/console/cadastros', rotulo: 'Cadastros' },
  { href: '/console/configuracao', rotulo: 'Configuração fiscal' },
  { href: '/console/integracao', rotulo: 'Integração', so: 'admin' },
  { href: '/console/usuarios', rotulo: 'Usuários', so: 'admin' },
];

/** 11222333000181 as people write it: 11.222.333/0001-81 (anything else as it is). */
export const cnpjFormatado = (cnpj: string): string =>
  /^\d{14}$/.test(cnpj) ? cnpj.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5') : cnpj;

export interface PaginaProps {
  titulo: string;
  /** Null on the pages before login. */
  sessao: SessaoConsole | null;
  /** The form token of this response (every form posts it back). */
  csrf: string;
  /** The path of the area this page belongs to, marked as current in the navigation. */
  area?: string;
  /** One-line notices after a redirect (`?aviso=`), read out by screen readers. */
  aviso?: string | null;
  children: ComponentChildren;
}

export function Pagina({ titulo, sessao, csrf, area, aviso, children }: PaginaProps) {
  return (
    <html lang="pt-BR">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false}' />
        <title>{`${titulo} · Painel da transportadora`}</title>
        {csrf && <meta name="csrf-token" content={csrf} />}
        {/* No icon to fetch: the browser would ask for /favicon.ico, outside the panel. */}
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href={ativos.css} />
        <script src={ativos.htmx} defer />
        <script src={ativos.painel} defer />
      </head>
      <body>
        <a class="pular" href="#conteudo">
          Pular para o conteúdo
        </a>
        <header class="topo">
          <span class="marca">Frete Fiscal · Painel</span>
          {sessao?.empresa && (
            <p class="empresa" aria-label="Empresa">
              <strong>{sessao.empresa.razao_social}</strong> <span class="cnpj">CNPJ {cnpjFormatado(sessao.empresa.cnpj)}</span>
            </p>
          )}
          {sessao && (
            <div class="quem">
              <span>
                {sessao.email} ({sessao.papel})
              </span>
              <a href="/console/conta">Minha conta</a>
              <Formulario acao="/console/sair" csrf={csrf} classe="em-linha">
                <button type="submit" class="secundario">
                  Sair
                </button>
              </Formulario>
            </div>
          )}
        </header>
        {sessao && (
          <nav class="areas" aria-label="Áreas do painel">
            <ul>
              {AREAS.filter((a) => !a.so || a.so === sessao.papel).map((a) => (
                <li key={a.href}>
                  <a href={a.href} aria-current={a.href === (area ?? '/console') ? 'page' : undefined}>
                    {a.rotulo}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <main id="conteudo" tabIndex={-1}>
          <h1>{titulo}</h1>
          {aviso && (
            <p class="aviso" role="status">
              {aviso}
            </p>
          )}
          {children}
        </main>
      </body>
    </html>
  );
}
