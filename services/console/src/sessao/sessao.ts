/** The roles of a company's panel users, from most to least power. */
export const PAPEIS = ['admin', 'operador', 'leitura'] as const;
export type Papel = (typeof PAPEIS)[number];

/** Who is using the panel: read from the session cookie on every /console request. */
export interface SessaoConsole {
  sessao_id: string;
  usuario_id: string;
  company_id: string;
  email: string;
  papel: Papel;
  /** The company the user works in, named in every page's header (read with the session; absent only if its row is). */
  empresa?: { razao_social: string; cnpj: string };
}

/** What each role may do beyond reading (`leitura` only reads). */
export const podeOperar = (papel: Papel) => papel === 'admin' || papel === 'operador';
export const podeAdministrar = (papel: Papel) => papel === 'admin';
