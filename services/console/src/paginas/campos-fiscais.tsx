import { UFS } from '@frete/domain';
import { Campo, type OpcaoProps } from '../html/componentes';
import { type ErrosDeCampo } from '../formulario';

/** A form's typed values and its field messages, both by the input's name. */
export interface EstadoDoFormulario {
  valores: Record<string, string>;
  erros: ErrosDeCampo;
}

export const formularioVazio = (): EstadoDoFormulario => ({ valores: {}, erros: {} });

export const OPCOES_UF: OpcaoProps[] = [{ valor: '', rotulo: '—' }, ...UFS.map((u) => ({ valor: u.sigla, rotulo: u.sigla }))];

/** A labelled select whose error is tied to it, as `Campo` does for inputs. */
export function Escolha(props: { nome: string; rotulo: string; opcoes: OpcaoProps[]; estado: EstadoDoFormulario; obrigatorio?: boolean }) {
  const id = `campo-${props.nome}`;
  const erro = props.estado.erros[props.nome];
  const valor = props.estado.valores[props.nome] ?? '';
  return (
    <div class={erro ? 'campo com-erro' : 'campo'}>
      <label for={id}>{props.rotulo}</label>
      <select
        id={id}
        name={props.nome}
        required={props.obrigatorio}
        aria-invalid={erro ? 'true' : undefined}
        aria-describedby={erro ? `${id}-erro` : undefined}
      >
        {props.opcoes.map((o) => (
          <option key={o.valor} value={o.valor} selected={o.valor === valor}>
            {o.rotulo}
          </option>
        ))}
      </select>
      {erro && (
        <small id={`${id}-erro`} class="erro">
          {erro}
        </small>
      )}
    </div>
  );
}

/** `Campo` fed from the form's state. */
export function CampoDe(props: {
  nome: string;
  rotulo: string;
  estado: EstadoDoFormulario;
  tipo?: string;
  obrigatorio?: boolean;
  ajuda?: string;
  atributos?: Record<string, string | number | boolean>;
}) {
  const { estado, ...resto } = props;
  return <Campo {...resto} valor={estado.valores[props.nome] ?? ''} erro={estado.erros[props.nome]} />;
}

/** The field messages as a summary list (`campo: mensagem`), for the form's alert. */
export const resumoDosErros = (erros: ErrosDeCampo, rotulos: Record<string, string>): string[] =>
  Object.entries(erros).map(([campo, msg]) => `${rotulos[campo] ?? campo}: ${msg}`);
