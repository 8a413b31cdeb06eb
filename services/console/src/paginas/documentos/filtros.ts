import { CursorInvalido } from '@frete/projections';

/** A list's GET filters as typed (echoed back into the form) and what was wrong with them. */
export class Filtros {
  readonly valores: Record<string, string> = {};
  readonly erros: string[] = [];
  private readonly q: Record<string, unknown>;

  constructor(query: unknown) {
    this.q = (query && typeof query === 'object' ? query : {}) as Record<string, unknown>;
  }

  private bruto(nome: string): string | undefined {
    const v = this.q[nome];
    const s = typeof v === 'string' ? v.trim() : undefined;
    if (s) this.valores[nome] = s;
    return s || undefined;
  }

  texto(nome: string, rotulo: string, max: number): string | undefined {
    const s = this.bruto(nome);
    if (s && s.length > max) {
      this.erros.push(`${rotulo}: no máximo ${max} caracteres.`);
      return undefined;
    }
    return s;
  }

  opcao<T extends string>(nome: string, rotulo: string, opcoes: readonly T[]): T | undefined {
    const s = this.bruto(nome);
    if (s === undefined) return undefined;
    if ((opcoes as readonly string[]).includes(s)) return s as T;
    this.erros.push(`${rotulo}: escolha uma das opções da lista.`);
    return undefined;
  }

  /**
   * A day that exists in the calendar, as the date field sends it (`AAAA-MM-DD`) or as a person types it where the
   * browser has no date picker (`dd/mm/aaaa`); returned, and echoed into the form, as `AAAA-MM-DD`.
   */
  data(nome: string, rotulo: string): string | undefined {
    const bruto = this.bruto(nome);
    if (bruto === undefined) return undefined;
    const br = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(bruto);
    const s = br ? `${br[3]}-${br[2]}-${br[1]}` : bruto;
    const d = new Date(`${s}T00:00:00Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(s) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== s) {
      this.erros.push(`${rotulo}: informe uma data válida (dd/mm/aaaa).`);
      return undefined;
    }
    this.valores[nome] = s;
    return s;
  }

  /** Like the API: `from` after `to` can match nothing, so it is said to be a mistake. */
  intervalo(de: string | undefined, ate: string | undefined): void {
    if (de && ate && de > ate) this.erros.push('A data inicial não pode ser depois da data final.');
  }

  /** The cursor of "Próxima página" (not echoed into the form: a new filter starts at the first page). */
  cursor(): string | undefined {
    const v = this.q.cursor;
    return typeof v === 'string' && v.length > 0 && v.length <= 500 ? v : undefined;
  }

  /** The link to the next page: the same filters and the list's next cursor. */
  proxima(base: string, cursor: string | null): string | null {
    if (!cursor) return null;
    return `${base}?${new URLSearchParams({ ...this.valores, cursor }).toString()}`;
  }
}

/** Runs a list query; a cursor the list did not give (edited, stale) is the reader's mistake, not a server error. */
export async function listar<T>(filtros: Filtros, consulta: () => Promise<T>, vazio: T): Promise<T> {
  if (filtros.erros.length > 0) return vazio;
  try {
    return await consulta();
  } catch (err) {
    if (err instanceof CursorInvalido) {
      filtros.erros.push('O link de página não é válido; volte à primeira página da lista.');
      return vazio;
    }
    throw err;
  }
}
