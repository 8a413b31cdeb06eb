import { type ErrorCode } from '@frete/contracts';
import { Rejection } from '../decider';

/**
 * The common case: a registry whose unique key is one field of its data (a driver's CPF, a vehicle's plate), whose
 * commands and events are named after it (`CadastrarMotorista`, `motorista.cadastrado`, `motorista_id`, `dados`) and
 * whose removal event carries the key it frees.
 */
export function registroPorCampo<Entidade extends string, Prefixo extends string, K extends string>(o: {
  /** `Motorista` in `CadastrarMotorista`. */
  comandos: Entidade;
  /** `motorista` in `motorista.cadastrado` and `motorista_id`. */
  eventos: Prefixo;
  campo: K;
  /** The key and the entry as error messages say them: `CPF`, `driver`. */
  rotulo: string;
  nome: string;
  duplicado: ErrorCode;
}) {
  const id = `${o.eventos}_id` as const;
  return {
    nomes: {
      comandos: [`Cadastrar${o.comandos}`, `Alterar${o.comandos}`, `Remover${o.comandos}`] as const,
      eventos: [`${o.eventos}.cadastrado`, `${o.eventos}.alterado`, `${o.eventos}.removido`] as const,
      id,
      dados: 'dados',
    },
    chave: (d: Record<K, string>) => d[o.campo],
    naoEncontrado: (n: number) => new Rejection('nao_encontrado', `${o.nome} ${n} not found`),
    duplicado: (d: Record<K, string>, n: number) =>
      new Rejection(o.duplicado, `${o.rotulo} ${d[o.campo]} is already registered as ${o.nome} ${n}`, {
        fields: [{ field: o.campo, message: `already registered as ${o.nome} ${n}` }],
        [id]: n,
      }),
    removido: (d: Record<K, string>) => ({ [o.campo]: d[o.campo] }),
  };
}
