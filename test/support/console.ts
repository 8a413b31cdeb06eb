import { SessoesConsole, type Papel, COOKIE_SESSAO } from '@frete/console';
import { type TestApp, type TestCarrier } from './app';

/** A panel user's browser without a browser: its cookies, and the page's form token read off the last page. */
export interface NavegadorHttp {
  cookies: Map<string, string>;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; html: string }>;
  /** Posts a form (urlencoded) with the form token of the last page fetched, unless `_csrf` is given. */
  post(
    path: string,
    form: Record<string, string>,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; html: string }>;
  csrf: string | null;
}

export function navegadorHttp(app: TestApp): NavegadorHttp {
  const cookies = new Map<string, string>();
  const guardar = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [par] = c.split(';');
      const i = par!.indexOf('=');
      cookies.set(par!.slice(0, i), par!.slice(i + 1));
    }
  };
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const nav: NavegadorHttp = {
    cookies,
    csrf: null,
    async get(path, headers = {}) {
      const res = await fetch(app.url + path, { headers: { cookie: cookieHeader(), ...headers }, redirect: 'manual' });
      guardar(res);
      const html = await res.text();
      const m = /name="_csrf" value="([^"]+)"/.exec(html);
      if (m) nav.csrf = m[1]!;
      return { status: res.status, headers: res.headers, html };
    },
    async post(path, form, headers = {}) {
      const body = new URLSearchParams({ ...(nav.csrf ? { _csrf: nav.csrf } : {}), ...form });
      const res = await fetch(app.url + path, {
        method: 'POST',
        headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
        redirect: 'manual',
      });
      guardar(res);
      return { status: res.status, headers: res.headers, html: await res.text() };
    },
  };
  return nav;
}

/**
 * A session of a panel user of the carrier, opened in the session store as the login page would (for the pages'
 * own tests; the login itself is tested through its form and in the browser).
 */
export async function sessaoDe(app: TestApp, carrier: TestCarrier, papel: Papel, email = `${papel}@${carrier.cnpj}.example`) {
  const sessoes = new SessoesConsole(app.db.pool, () => new Date());
  const { token } = await sessoes.abrir({
    usuario_id: `usuario-${papel}-${carrier.companyId}`,
    company_id: carrier.companyId,
    email,
    papel,
  });
  const nav = navegadorHttp(app);
  nav.cookies.set(COOKIE_SESSAO, token);
  return nav;
}
