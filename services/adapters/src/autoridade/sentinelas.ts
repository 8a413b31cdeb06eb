import { DENEGACOES_CTE, rejeicaoSimulavel } from './codigos';
import { type ModeloFiscal } from './port';

/**
 * Sentinels that drive the simulated authority into the paths a test needs (ruling 12). They are written, in capitals
 * and exactly as below, in the document's free text: CT-e `infCte/compl/xObs`, MDF-e `infMDFe/infAdic/infCpl`, and
 * in any text of an event's `detEvento` (the cancellation's `xJust`, the correction letter's `valorAlterado`, the
 * delivery proof's `xNome` or `nDoc`, the driver's `xNome`). A text holds at most one sentinel (it may repeat).
 *
 * Documents (CT-e, MDF-e):
 * - `SIMULAR:TIMEOUT`: authorized, but the answer is lost (`sem_resposta`); the authorization is there for a later
 *   `consultarCte` (100) or a resubmission of the same XML (204).
 * - `SIMULAR:PENDENTE` or `SIMULAR:PENDENTE:<n>` (n 1–20, default 2): answered 105 now and for the next n requests
 *   about that number (consultations or resubmissions); the request after them finds it authorized.
 * - `SIMULAR:REJEICAO:<cStat>`: rejected with that code and the manual's text (only rejections the manual lists).
 * - `SIMULAR:DENEGACAO` or `SIMULAR:DENEGACAO:<301–306>` (CT-e only; default 301): use denied, the number spent.
 *
 * Events:
 * - `SIMULAR:TIMEOUT`: registered, but the answer is lost; a consultation lists it, a resubmission gets 631.
 * - `SIMULAR:EVENTO-PENDENTE` or `SIMULAR:EVENTO-PENDENTE:<n>` (default 2): answered 105 now and for the next n
 *   requests about it (consultations of its document or resubmissions); then it is registered (135) and takes effect.
 * - `SIMULAR:REJEICAO:<cStat>`: rejected with that code (after the authority's own rules).
 *
 * Anything else that starts with `SIMULAR:` is refused (999, naming the valid sentinels), so that a typo never passes
 * for an ordinary document.
 */

export type SentinelaDocumento =
  | { tipo: 'timeout' }
  | { tipo: 'pendente'; consultas: number }
  | { tipo: 'rejeicao'; cStat: number }
  | { tipo: 'denegacao'; cStat: number };

export type SentinelaEvento = { tipo: 'timeout' } | { tipo: 'pendente'; consultas: number } | { tipo: 'rejeicao'; cStat: number };

export type LeituraSentinela<T> = { sentinela: T | null } | { invalida: string };

const TOKEN = /SIMULAR:[A-Z0-9:-]*/g;
export const CONSULTAS_PENDENTES_PADRAO = 2;

const VALIDAS_DOCUMENTO = 'SIMULAR:TIMEOUT, SIMULAR:PENDENTE[:n], SIMULAR:REJEICAO:<cStat>, SIMULAR:DENEGACAO[:301-306]';
const VALIDAS_EVENTO = 'SIMULAR:TIMEOUT, SIMULAR:EVENTO-PENDENTE[:n], SIMULAR:REJEICAO:<cStat>';

function unico(texto: string | null): { token: string | null } | { invalida: string } {
  const tokens = [...new Set((texto ?? '').match(TOKEN) ?? [])];
  if (tokens.length > 1) return { invalida: `mais de uma sentinela: ${tokens.join(', ')}` };
  return { token: tokens[0] ?? null };
}

const consultas = (n: string | undefined): number | null => {
  if (n === undefined) return CONSULTAS_PENDENTES_PADRAO;
  const v = Number(n);
  return /^[0-9]{1,2}$/.test(n) && v >= 1 && v <= 20 ? v : null;
};

/**
 * The sentinels documents and events share: a timeout, a pending answer (named `pendente` for documents and
 * `EVENTO-PENDENTE` for events) and a rejection by code. `undefined` when `nome` is none of them.
 */
function lerComum(
  nome: string | undefined,
  arg: string | undefined,
  pendente: string,
  modelo: ModeloFiscal,
  invalida: { invalida: string },
): LeituraSentinela<SentinelaEvento> | undefined {
  if (nome === 'TIMEOUT') return arg === undefined ? { sentinela: { tipo: 'timeout' } } : invalida;
  if (nome === pendente) {
    const n = consultas(arg);
    return n === null ? invalida : { sentinela: { tipo: 'pendente', consultas: n } };
  }
  if (nome === 'REJEICAO') {
    const cStat = arg !== undefined && /^[0-9]{3}$/.test(arg) ? Number(arg) : NaN;
    if (!rejeicaoSimulavel(modelo, cStat)) {
      return {
        invalida: `SIMULAR:REJEICAO pede ${arg ?? 'nenhum código'}, que não é uma rejeição listada no manual do ${modelo === 'cte' ? 'CT-e' : 'MDF-e'}`,
      };
    }
    return { sentinela: { tipo: 'rejeicao', cStat } };
  }
  return undefined;
}

/** The sentinel of a CT-e's `xObs` or an MDF-e's `infCpl`. */
export function lerSentinelaDocumento(texto: string | null, modelo: ModeloFiscal): LeituraSentinela<SentinelaDocumento> {
  const u = unico(texto);
  if ('invalida' in u) return u;
  if (!u.token) return { sentinela: null };
  const invalida = {
    invalida: `sentinela desconhecida ${u.token}; válidas: ${modelo === 'cte' ? VALIDAS_DOCUMENTO : VALIDAS_DOCUMENTO.replace(/, SIMULAR:DENEGACAO.*$/, '')}`,
  };
  const [, nome, arg, ...resto] = u.token.split(':');
  if (resto.length > 0) return invalida;
  const comum = lerComum(nome, arg, 'PENDENTE', modelo, invalida);
  if (comum) return comum;
  if (nome !== 'DENEGACAO') return invalida;
  if (modelo !== 'cte') return { invalida: 'SIMULAR:DENEGACAO: o MDF-e não tem denegação de uso' };
  const cStat = arg === undefined ? 301 : Number(arg);
  return (DENEGACOES_CTE as readonly number[]).includes(cStat) && (arg === undefined || /^[0-9]{3}$/.test(arg))
    ? { sentinela: { tipo: 'denegacao', cStat } }
    : invalida;
}

/** The sentinel of an event's texts. */
export function lerSentinelaEvento(texto: string | null, modelo: ModeloFiscal): LeituraSentinela<SentinelaEvento> {
  const u = unico(texto);
  if ('invalida' in u) return u;
  if (!u.token) return { sentinela: null };
  const invalida = { invalida: `sentinela desconhecida ${u.token} num evento; válidas: ${VALIDAS_EVENTO}` };
  const [, nome, arg, ...resto] = u.token.split(':');
  if (resto.length > 0) return invalida;
  return lerComum(nome, arg, 'EVENTO-PENDENTE', modelo, invalida) ?? invalida;
}
