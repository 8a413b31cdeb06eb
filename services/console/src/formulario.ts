import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { type Static, type TSchema } from '@sinclair/typebox';
import { Rejection } from '@frete/domain';
import { mensagemDe } from './mensagens';

/** A form's field messages, by the field's dotted name (`icms.aliquota`), which is also its input's `name`. */
export type ErrosDeCampo = Record<string, string>;

/**
 * The API validates bodies with Ajv and these options (services/api/src/app.ts): the same here, so a form is held
 * to exactly the contract's rules (money's `multipleOf` needs the tolerance). No coercion: the forms build typed bodies.
 */
const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: true, multipleOfPrecision: 6, strict: false });
const compilados = new WeakMap<TSchema, ValidateFunction>();

const campoDe = (e: ErrorObject): string => {
  const caminho = e.keyword === 'required' ? `${e.instancePath}/${String(e.params.missingProperty)}` : e.instancePath;
  return caminho.replace(/^\//, '').replace(/\//g, '.') || '(formulário)';
};

/** The contract's rule in Portuguese, for the person typing. */
function mensagem(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return 'obrigatório';
    case 'minLength':
      return p.limit === 1 ? 'obrigatório' : `mínimo de ${String(p.limit)} caracteres`;
    case 'maxLength':
      return `máximo de ${String(p.limit)} caracteres`;
    case 'pattern':
      return 'formato inválido';
    case 'minimum':
      return `deve ser no mínimo ${String(p.limit)}`;
    case 'maximum':
      return `deve ser no máximo ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `deve ser maior que ${String(p.limit)}`;
    case 'multipleOf':
      return p.multipleOf === 0.01 ? 'no máximo duas casas decimais' : `deve ser múltiplo de ${String(p.multipleOf)}`;
    case 'type':
      return p.type === 'integer' ? 'deve ser um número inteiro' : p.type === 'number' ? 'deve ser um número' : 'valor inválido';
    case 'const':
    case 'enum':
      return 'valor não aceito';
    default:
      return 'valor inválido';
  }
}

/**
 * Per field, the most telling message: a nullable field's `anyOf` also fails its `null` branch and the union
 * itself, which say nothing to the person typing.
 */
function porCampo(erros: ErrorObject[]): ErrosDeCampo {
  const ruido = (e: ErrorObject) => e.keyword === 'anyOf' || (e.keyword === 'type' && e.params.type === 'null');
  const saida: ErrosDeCampo = {};
  for (const e of [...erros.filter((x) => !ruido(x)), ...erros.filter(ruido)]) {
    const campo = campoDe(e);
    saida[campo] ??= mensagem(e);
  }
  return saida;
}

export type Validado<T> = { ok: true; valor: T } | { ok: false; erros: ErrosDeCampo };

/** The body checked against the API's own schema of that body. */
export function validar<S extends TSchema>(schema: S, corpo: unknown): Validado<Static<S>> {
  let validate = compilados.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compilados.set(schema, validate);
  }
  if (validate(corpo)) return { ok: true, valor: corpo as Static<S> };
  return { ok: false, erros: porCampo(validate.errors ?? []) };
}

/**
 * What a handler refused, for the page: 400 for `validacao`, 422 otherwise, said in Portuguese from its code. A
 * field the handler named gets "valor não aceito", its own (English) message after it as the detail.
 */
export function recusa(err: unknown): { status: 400 | 422; mensagem: string; erros: ErrosDeCampo } | null {
  if (!(err instanceof Rejection)) return null;
  const erros: ErrosDeCampo = {};
  for (const f of err.details?.fields ?? []) erros[f.field] ??= `valor não aceito (detalhe: ${f.message})`;
  return { status: err.code === 'validacao' ? 400 : 422, mensagem: mensagemDe(err.code), erros };
}

/** A urlencoded body as its text fields, trimmed (anything else is dropped). */
export function camposDe(body: unknown): Record<string, string> {
  const saida: Record<string, string> = {};
  if (typeof body !== 'object' || body === null) return saida;
  for (const [k, v] of Object.entries(body)) if (typeof v === 'string') saida[k] = v.trim();
  return saida;
}

/** A typed number from a form field; text that is not a number stays text, so the schema names the field. */
export function numero(texto: string): number | string {
  return /^-?\d+([.,]\d+)?$/.test(texto) ? Number(texto.replace(',', '.')) : texto;
}
