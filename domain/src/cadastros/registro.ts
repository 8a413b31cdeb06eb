import { type DomainEvent } from '@frete/contracts';
import { type Decider, type Rejection } from '../decider';

/**
 * A company's registry (drivers, vehicles, tax rules): one stream per company, so that integer ids are drawn in
 * order and never reused, and a key is unique among the active entries (the event store's expected revision settles
 * races). Removal is soft: the id stays spent, the key is free again.
 */
export interface RegistroState<D> {
  proximo_id: number;
  /** Active id → data. */
  ativos: Record<number, D>;
  /** Unique key of an active entry → its id. */
  por_chave: Record<string, number>;
}

/** The active entry holding a unique key, if any. */
export const ativoPorChave = <D>(state: RegistroState<D>, chave: string): D | undefined => {
  const id = state.por_chave[chave];
  return id === undefined ? undefined : state.ativos[id];
};

type ComandoRegistro = { type: string; company_id: string };

/**
 * A registry's own names on the wire (they predate the pattern and stay): its three command types, its three event
 * types, and the fields carrying the id and the data in both.
 */
export interface NomesRegistro<C extends ComandoRegistro, E extends DomainEvent> {
  comandos: readonly [cadastrar: C['type'], alterar: C['type'], remover: C['type']];
  eventos: readonly [cadastrado: E['type'], alterado: E['type'], removido: E['type']];
  id: Exclude<keyof E['data'] & string, 'company_id'>;
  dados: string;
}

/** What makes one registry: its names, its stream, its validation and uniqueness key, its refusals. */
export interface DefinicaoRegistro<C extends ComandoRegistro, E extends DomainEvent, I, D> {
  nomes: NomesRegistro<C, E>;
  stream: (companyId: string) => string;
  /** Judges and normalizes an input; throws 400 `validacao` naming every invalid field. */
  normalizar: (input: I) => D;
  chave: (dados: D) => string;
  /** A replacement equal to the stored data appends nothing; by default, equal as JSON. */
  iguais?: (a: D, b: D) => boolean;
  naoEncontrado: (id: number) => Rejection;
  duplicado: (dados: D, id: number) => Rejection;
  /** What the removal event carries besides the id (the key it frees, for readers of the log). */
  removido?: (atual: D) => Record<string, unknown>;
}

/** One registry: its decider, its stream, and the commands its handler sends. */
export interface Registro<C extends ComandoRegistro, E extends DomainEvent, I, D> {
  decider: Decider<C, RegistroState<D>, E>;
  stream: (companyId: string) => string;
  cadastrar: (companyId: string, input: I) => C;
  alterar: (companyId: string, id: number, input: I) => C;
  remover: (companyId: string, id: number) => C;
  /** The id a `cadastrar` drew, from the events it appended. */
  idCadastrado: (events: E[]) => number;
  /** What an event does to which entry: readers of the log (an entry's times are its events' times). */
  efeito: (event: E) => { id: number; fato: 'cadastrado' | 'alterado' | 'removido' } | null;
}

/**
 * The commands and events are each registry's own types; the pattern reads and builds them through `nomes`, so the
 * casts from and to those types live here, once. Each registry's decider tests pin the resulting shapes.
 */
export function registro<C extends ComandoRegistro, E extends DomainEvent, I, D>(def: DefinicaoRegistro<C, E, I, D>): Registro<C, E, I, D> {
  const { nomes } = def;
  const [cadastrar, alterar, remover] = nomes.comandos;
  const [cadastrado, alterado, removido] = nomes.eventos;
  const iguais = def.iguais ?? ((a: D, b: D) => JSON.stringify(a) === JSON.stringify(b));
  const campo = <T>(o: object, nome: string): T => (o as Record<string, T>)[nome] as T;
  const comando = (type: string, company_id: string, resto: Record<string, unknown>) => ({ type, company_id, ...resto }) as unknown as C;
  const evento = (type: string, company_id: string, id: number, resto: Record<string, unknown>) =>
    ({ type, data: { company_id, [nomes.id]: id, ...resto } }) as unknown as E;

  const decide = (command: C, state: RegistroState<D>): E[] => {
    if (command.type === cadastrar) {
      const dados = def.normalizar(campo<I>(command, nomes.dados));
      const existente = state.por_chave[def.chave(dados)];
      if (existente !== undefined) throw def.duplicado(dados, existente);
      return [evento(cadastrado, command.company_id, state.proximo_id, { [nomes.dados]: dados })];
    }
    const id = campo<number>(command, nomes.id);
    const atual = state.ativos[id];
    if (atual === undefined) throw def.naoEncontrado(id);
    if (command.type === remover) return [evento(removido, command.company_id, id, def.removido?.(atual) ?? {})];
    const dados = def.normalizar(campo<I>(command, nomes.dados));
    const outro = state.por_chave[def.chave(dados)];
    if (outro !== undefined && outro !== id) throw def.duplicado(dados, outro);
    return iguais(dados, atual) ? [] : [evento(alterado, command.company_id, id, { [nomes.dados]: dados })];
  };

  /** In place, on a state this module owns: `evolve` copies first, `emLugar` folds many events into one copy. */
  const aplicar = (state: RegistroState<D>, event: E): RegistroState<D> => {
    const id = campo<number>(event.data, nomes.id);
    const anterior = state.ativos[id];
    if (anterior !== undefined) delete state.por_chave[def.chave(anterior)];
    if (event.type === removido) {
      delete state.ativos[id];
    } else {
      const dados = campo<D>(event.data, nomes.dados);
      state.ativos[id] = dados;
      state.por_chave[def.chave(dados)] = id;
    }
    state.proximo_id = Math.max(state.proximo_id, id + 1);
    return state;
  };
  const vazio = (): RegistroState<D> => ({ proximo_id: 1, ativos: {}, por_chave: {} });
  const copiar = (state: RegistroState<D>): RegistroState<D> => ({
    proximo_id: state.proximo_id,
    ativos: { ...state.ativos },
    por_chave: { ...state.por_chave },
  });

  return {
    decider: {
      initialState: vazio(),
      decide,
      evolve: (state, event) => aplicar(copiar(state), event),
      emLugar: { copiar, aplicar },
    },
    stream: def.stream,
    cadastrar: (companyId, input) => comando(cadastrar, companyId, { [nomes.dados]: input }),
    alterar: (companyId, id, input) => comando(alterar, companyId, { [nomes.id]: id, [nomes.dados]: input }),
    remover: (companyId, id) => comando(remover, companyId, { [nomes.id]: id }),
    idCadastrado: (events) => {
      const criado = events.find((e) => e.type === cadastrado);
      if (!criado) throw new Error(`register appended no ${cadastrado}`);
      return campo<number>(criado.data, nomes.id);
    },
    efeito: (event) => {
      const fato =
        event.type === cadastrado ? 'cadastrado' : event.type === alterado ? 'alterado' : event.type === removido ? 'removido' : null;
      return fato === null ? null : { id: campo<number>(event.data, nomes.id), fato };
    },
  };
}
