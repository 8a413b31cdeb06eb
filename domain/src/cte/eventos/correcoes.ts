import { Rejection } from '../../decider';
import { textoFiscal } from '../xml/montar';
import { type CorrecaoCte, TP_EVENTO_CTE } from './montar';
import { type EventoCteEstado } from './regras';

/**
 * Cumulative correction letters (CC-e, event 110110).
 *
 * The authority keeps the CC-e with the highest `nSeqEvento` as the one in force: a later letter replaces the earlier
 * ones, so it must repeat every correction still wanted. The manual (MOC 4.00 Visão Geral, sped-cte `storage/`)
 * has no sentence on it: §5.1.1 IP12 says only that where an event may occur more than once "o autor do evento deve
 * numerar de forma sequencial", and §6.4 (evCCeCTe, rule O01) gives the sequence 1–20 (636) and `infCorrecao` 1-n. The
 * rule itself is the CT-e's legislation, Ajuste SINIEF 09/07 on the CC-e:
 * "havendo mais de uma CC-e para o mesmo CT-e, o emitente deverá consolidar na última todas as informações
 * anteriormente retificadas" (as quoted by flexdocs.net guiaCTe §10.6.3 "a última carta substitui as anteriores, assim o
 * emissor deve consolidar o texto na nova carta de correção", and consistem.com.br's CT-e help; the clause's number was
 * not checked against the Ajuste's text here).
 */

/** One correction in force, and the letter (`nSeqEvento`, event key) that set its value. */
export interface CorrecaoEmVigor {
  grupo: string;
  campo: string;
  valor: string;
  item: number | null;
  n_seq_evento: number;
  event_key: string;
}

/** A registered letter as the CT-e's events record it: the full list of `infCorrecao` it carried, as signed. */
export interface CartaRegistrada {
  n_seq_evento: number;
  event_key: string;
  correcoes: readonly CorrecaoCte[];
}

/**
 * Corrections one letter may carry. evCCeCTe_v4.00.xsd leaves `infCorrecao` unbounded (maxOccurs="unbounded", MOC §6.4
 * IP03 1-n); what bounds a letter is the message size, 512 KB (MOC §4.1.5 rule B01, cStat 214). A letter is capped at
 * what one request may carry (`CteCartaCorrecaoInput.correcoes` maxItems 50): 50 groups of at most 20 + 20 + 500
 * characters (each escaped at most six bytes) stay under 170 KB with the envelope and the signature.
 */
export const CCE_MAX_CORRECOES = 50;
/** evCCeCTe_v4.00.xsd: grupoAlterado and campoAlterado 1–20, valorAlterado 1–500, nroItemAlterado 1–99. */
export const CCE_LEIAUTE = { grupoAlterado: 20, campoAlterado: 20, valorAlterado: 500, nroItemMaximo: 99 } as const;

const mesmoCampo = (a: CorrecaoCte, b: CorrecaoCte) =>
  a.grupoAlterado === b.grupoAlterado && a.campoAlterado === b.campoAlterado && a.nroItemAlterado === b.nroItemAlterado;

const excede = (message: string, details: Record<string, unknown>) => new Rejection('carta_correcao_excede_limite', message, details);

/** The value as the letter's XML writes it (`textoFiscal`, 500 characters): what is compared, recorded and sent. */
function normalizada(c: CorrecaoCte): CorrecaoCte {
  const valorAlterado = textoFiscal(c.valorAlterado, Number.MAX_SAFE_INTEGER);
  for (const [campo, valor, max] of [
    ['grupoAlterado', c.grupoAlterado, CCE_LEIAUTE.grupoAlterado],
    ['campoAlterado', c.campoAlterado, CCE_LEIAUTE.campoAlterado],
    ['valorAlterado', valorAlterado, CCE_LEIAUTE.valorAlterado],
  ] as const) {
    if (valor.length < 1 || valor.length > max) {
      throw excede(`${campo} of ${c.grupoAlterado}/${c.campoAlterado} must have 1 to ${max} characters (evCCeCTe_v4.00.xsd)`, {
        campo,
        grupo: c.grupoAlterado,
        maximo: max,
      });
    }
  }
  const item = c.nroItemAlterado;
  if (item !== undefined && (!Number.isInteger(item) || item < 1 || item > CCE_LEIAUTE.nroItemMaximo)) {
    throw excede(`nroItemAlterado ${item} of ${c.grupoAlterado}/${c.campoAlterado} must be 1 to 99 (MOC §6.4 rule O03)`, {
      campo: 'nroItemAlterado',
      grupo: c.grupoAlterado,
      maximo: CCE_LEIAUTE.nroItemMaximo,
    });
  }
  return {
    grupoAlterado: c.grupoAlterado,
    campoAlterado: c.campoAlterado,
    valorAlterado,
    ...(item !== undefined ? { nroItemAlterado: item } : {}),
  };
}

/**
 * The merge (the rule and its sources: this file's head). The `infCorrecao` list a new letter must carry: every
 * correction of the letter in force, in its order, a new value of the same field (same grupoAlterado + campoAlterado +
 * nroItemAlterado) replacing the earlier one in place, the new fields appended in the order asked. Refused (422
 * `carta_correcao_excede_limite`) when the merged letter would break the schema's limits or carry more than
 * `CCE_MAX_CORRECOES` groups.
 */
export function cartaCumulativa(emVigor: readonly CorrecaoCte[], novas: readonly CorrecaoCte[]): CorrecaoCte[] {
  const carta = emVigor.map(normalizada);
  for (const nova of novas.map(normalizada)) {
    const i = carta.findIndex((c) => mesmoCampo(c, nova));
    if (i >= 0) carta[i] = nova;
    else carta.push(nova);
  }
  if (carta.length > CCE_MAX_CORRECOES) {
    throw excede(
      `the letter would carry ${carta.length} corrections (the ${emVigor.length} in force and the new ones); one letter carries at most ${CCE_MAX_CORRECOES}`,
      { correcoes: carta.length, em_vigor: emVigor.length, maximo: CCE_MAX_CORRECOES },
    );
  }
  return carta;
}

/**
 * The corrections in force after the registered letters, folded in `nSeqEvento` order: each letter replaces the ones
 * before (a field it does not repeat is no longer corrected). A value a letter repeats unchanged keeps the letter that
 * first set it.
 */
export function correcoesEmVigor(cartas: readonly CartaRegistrada[]): CorrecaoEmVigor[] {
  let vigor: CorrecaoEmVigor[] = [];
  for (const carta of [...cartas].sort((a, b) => a.n_seq_evento - b.n_seq_evento)) {
    vigor = carta.correcoes.map((c) => {
      const item = c.nroItemAlterado ?? null;
      const antes = vigor.find((v) => v.grupo === c.grupoAlterado && v.campo === c.campoAlterado && v.item === item);
      const mesma = antes && antes.valor === c.valorAlterado;
      return {
        grupo: c.grupoAlterado,
        campo: c.campoAlterado,
        valor: c.valorAlterado,
        item,
        n_seq_evento: mesma ? antes.n_seq_evento : carta.n_seq_evento,
        event_key: mesma ? antes.event_key : carta.event_key,
      };
    });
  }
  return vigor;
}

/** The `infCorrecao` of the corrections in force, as the next letter repeats them. */
export const comoInfCorrecao = (vigor: readonly CorrecaoEmVigor[]): CorrecaoCte[] =>
  vigor.map((v) => ({
    grupoAlterado: v.grupo,
    campoAlterado: v.campo,
    valorAlterado: v.valor,
    ...(v.item !== null ? { nroItemAlterado: v.item } : {}),
  }));

/** cStat of a registered event: 135 registered and linked to the CT-e, 136 registered but not linked (MOC 4.00 Visão Geral §5.1.7). */
export const CSTAT_EVENTO_REGISTRADO: readonly number[] = [135, 136];

/** The registered letters whose events carry no list: recorded before letters were cumulative (see `legadas`). */
export const cartasSemLista = (eventos: Record<string, EventoCteEstado>): EventoCteEstado[] =>
  Object.values(eventos).filter((e) => registrada(e) && !e.correcoes);

const registrada = (e: EventoCteEstado) =>
  e.tp_evento === TP_EVENTO_CTE.carta_correcao &&
  e.situacao === 'registrado' &&
  e.protocolo !== null &&
  CSTAT_EVENTO_REGISTRADO.includes(e.protocolo.cstat);

/**
 * The letters of the CT-e the authority registered (135/136), with the list each one carried. A letter recorded before
 * its event carried its list takes it from `legadas` (by event key: what its archived signed XML carries, read by
 * `correcoesDaCartaAssinada`); without it, it is left out.
 */
export const cartasRegistradas = (
  eventos: Record<string, EventoCteEstado>,
  legadas: Readonly<Record<string, readonly CorrecaoCte[]>> = {},
): CartaRegistrada[] =>
  Object.values(eventos)
    .filter(registrada)
    .flatMap((e) => {
      const correcoes = e.correcoes ?? legadas[e.event_key];
      return correcoes ? [{ n_seq_evento: e.n_seq_evento, event_key: e.event_key, correcoes }] : [];
    });

/** The corrections in force on a CT-e, from its own events (and, for letters recorded before, `legadas`). */
export const correcoesEmVigorDoCte = (
  eventos: Record<string, EventoCteEstado>,
  legadas: Readonly<Record<string, readonly CorrecaoCte[]>> = {},
): CorrecaoEmVigor[] => correcoesEmVigor(cartasRegistradas(eventos, legadas));

const desescapar = (s: string) =>
  s.replace(/&(lt|gt|quot|apos|amp|#(\d+)|#x([0-9a-fA-F]+));/g, (m, nome: string, dec?: string, hex?: string) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[nome] ?? m;
  });

/**
 * The `infCorrecao` groups of a signed CC-e this service built (`montarEventoCte`: compact, no attributes inside
 * `infCorrecao`, no CDATA), in order: how a letter recorded before its event carried its list is read back.
 */
export function correcoesDaCartaAssinada(xml: string): CorrecaoCte[] {
  return [...xml.matchAll(/<infCorrecao>([\s\S]*?)<\/infCorrecao>/g)].map((m) => {
    const campo = (tag: string) => {
      const v = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(m[1]!)?.[1];
      return v === undefined ? undefined : desescapar(v);
    };
    const item = campo('nroItemAlterado');
    return {
      grupoAlterado: campo('grupoAlterado') ?? '',
      campoAlterado: campo('campoAlterado') ?? '',
      valorAlterado: campo('valorAlterado') ?? '',
      ...(item !== undefined ? { nroItemAlterado: Number(item) } : {}),
    };
  });
}
