import {
  type ContraCteLoteInput,
  type CteLoteInput,
  type FieldError,
  type LinhaPlanejada,
  type Local,
  LOTE_MAX_LINHAS,
  type ModoSubcontratacao,
  type ParcelaRepasse,
  type PernaLoteInput,
} from '@frete/contracts';
import { Rejection } from '../decider';
import { isValidCpf, normalizeCpf } from '../fiscal/documents';
import { isValidAccessKey } from '../fiscal/access-key';
import { isValidPlaca, normalizePlaca } from '../fiscal/placa';
import { problemasParcelas } from '../fiscal/repasse';
import { localIbge } from '../contra-cte/local';
import { type LocalIbge } from '../contra-cte/planejar';
import { centavosExatos, decimalDeCentavos } from '../money/money';
import { ratearCentavos } from './rateio';

/** What the subcontractor has in its registry among the batch's drivers and plates (normalized). */
export interface RegistroDaSubcontratada {
  motoristas: ReadonlySet<string>;
  placas: ReadonlySet<string>;
}

export interface PlanoLote {
  modo: ModoSubcontratacao;
  parcelas: ParcelaRepasse[] | null;
  linhas: LinhaPlanejada[];
}

/** One row before the registry and the money are settled: the request's pieces with their paths. */
interface Rascunho {
  caminho: string;
  chave: string;
  perna: number | null;
  tipo_servico: number;
  origem: { valor: Local; caminho: string } | null;
  destino: { valor: Local; caminho: string } | null;
  valor: { valor: number; caminho: string } | null;
  motorista: { cpf: string; caminho: string };
  placa: { placa: string; caminho: string };
}

const mensagem = (fields: FieldError[]) => fields.map((f) => `${f.field}: ${f.message}`).join('; ');

/** The rows in batch order: one per key (1:1), or one per leg of each key. Precedence: leg, key, batch. */
function rascunhos(input: ContraCteLoteInput): Rascunho[] {
  const doLote = <T>(v: T | undefined, caminho: string) => (v === undefined ? null : { valor: v, caminho });
  const linhas: Rascunho[] = [];
  input.ctes.forEach((c: CteLoteInput, i) => {
    const base = {
      chave: c.chave,
      origem: c.origem ? { valor: c.origem, caminho: `ctes.${i}.origem` } : doLote(input.origem, 'origem'),
      destino: c.destino ? { valor: c.destino, caminho: `ctes.${i}.destino` } : doLote(input.destino, 'destino'),
      tipo_servico: c.tipo_servico ?? input.tipo_servico ?? 1,
    };
    const motorista = { cpf: input.motorista.cpf, caminho: 'motorista.cpf' };
    const placa = { placa: input.placa, caminho: 'placa' };
    if (!c.pernas) {
      linhas.push({
        ...base,
        caminho: `ctes.${i}`,
        perna: null,
        valor: c.valor === undefined ? null : { valor: c.valor, caminho: `ctes.${i}.valor` },
        motorista,
        placa,
      });
      return;
    }
    c.pernas.forEach((p: PernaLoteInput, j) => {
      const caminho = `ctes.${i}.pernas.${j}`;
      linhas.push({
        caminho,
        chave: c.chave,
        perna: j,
        tipo_servico: p.tipo_servico ?? base.tipo_servico,
        origem: p.origem ? { valor: p.origem, caminho: `${caminho}.origem` } : base.origem,
        destino: p.destino ? { valor: p.destino, caminho: `${caminho}.destino` } : base.destino,
        valor: p.valor === undefined ? null : { valor: p.valor, caminho: `${caminho}.valor` },
        motorista: p.motorista ? { cpf: p.motorista.cpf, caminho: `${caminho}.motorista.cpf` } : motorista,
        placa: p.placa ? { placa: p.placa, caminho: `${caminho}.placa` } : placa,
      });
    });
  });
  return linhas;
}

/** The normalized CPFs and plates a batch names: what the caller looks up in the subcontractor's registry. */
export function identificacoesDoLote(input: ContraCteLoteInput): { cpfs: string[]; placas: string[] } {
  const cpfs = new Set<string>([normalizeCpf(input.motorista.cpf)]);
  const placas = new Set<string>([normalizePlaca(input.placa)]);
  for (const c of input.ctes) {
    for (const p of c.pernas ?? []) {
      if (p.motorista) cpfs.add(normalizeCpf(p.motorista.cpf));
      if (p.placa) placas.add(normalizePlaca(p.placa));
    }
  }
  return { cpfs: [...cpfs], placas: [...placas] };
}

/** Shape the schema cannot see: keys' check digits, IBGE pairs (ruling 19), CPF digits, money, installments. 400. */
function validarForma(input: ContraCteLoteInput, linhas: Rascunho[]): Map<Local, LocalIbge> {
  const fields: FieldError[] = [];
  const locais = new Map<Local, LocalIbge>();
  const local = (l: Local | undefined, caminho: string) => {
    if (!l) return;
    const found = localIbge(l);
    if (found) locais.set(l, found);
    else fields.push({ field: `${caminho}.municipio`, message: `'${l.municipio}'/${l.uf} is not an IBGE municipality` });
  };
  const cpf = (raw: string, caminho: string) => {
    if (!isValidCpf(normalizeCpf(raw))) fields.push({ field: caminho, message: 'CPF check digits do not match' });
  };
  const placa = (raw: string, caminho: string) => {
    if (!isValidPlaca(raw)) fields.push({ field: caminho, message: 'not a Brazilian plate (ABC1234 or ABC1D23)' });
  };
  const valor = (v: number | undefined, caminho: string) => {
    if (v !== undefined && centavosExatos(v) === null) fields.push({ field: caminho, message: 'money has at most two decimals' });
  };

  cpf(input.motorista.cpf, 'motorista.cpf');
  placa(input.placa, 'placa');
  local(input.origem, 'origem');
  local(input.destino, 'destino');
  valor(input.valores?.frete_bruto, 'valores.frete_bruto');
  input.ctes.forEach((c, i) => {
    if (!isValidAccessKey(c.chave)) fields.push({ field: `ctes.${i}.chave`, message: 'not a valid access key (shape or check digit)' });
    local(c.origem, `ctes.${i}.origem`);
    local(c.destino, `ctes.${i}.destino`);
    valor(c.valor, `ctes.${i}.valor`);
    c.pernas?.forEach((p, j) => {
      const caminho = `ctes.${i}.pernas.${j}`;
      local(p.origem, `${caminho}.origem`);
      local(p.destino, `${caminho}.destino`);
      valor(p.valor, `${caminho}.valor`);
      if (p.motorista) cpf(p.motorista.cpf, `${caminho}.motorista.cpf`);
      if (p.placa) placa(p.placa, `${caminho}.placa`);
    });
  });
  for (const p of problemasParcelas(input.repasse?.parcelas ?? [])) {
    fields.push({ field: p.path ? `repasse.parcelas.${p.path}` : 'repasse.parcelas', message: p.message });
  }
  if (linhas.length > LOTE_MAX_LINHAS)
    fields.push({ field: 'ctes', message: `${linhas.length} rows (keys × legs); a batch has at most ${LOTE_MAX_LINHAS}` });
  if (fields.length > 0) throw new Rejection('validacao', mensagem(fields), { fields });
  return locais;
}

/** The batch rules checked before anything is created (rules 2, 3 and 5): 422 `lote_invalido`. */
function validarRegras(input: ContraCteLoteInput, linhas: Rascunho[]): { modo: ModoSubcontratacao; valores: number[] } {
  const fields: FieldError[] = [];
  const comPernas = input.ctes.filter((c) => c.pernas).length;
  if (comPernas > 0 && comPernas < input.ctes.length) {
    fields.push({
      field: 'ctes',
      message: `${comPernas} of ${input.ctes.length} keys have pernas: a batch is either 1:1 (no pernas) or legs (every key with pernas)`,
    });
  }
  const modo: ModoSubcontratacao = comPernas > 0 ? 'pernas' : '1a1';
  input.ctes.forEach((c, i) => {
    if (c.pernas && c.valor !== undefined)
      fields.push({ field: `ctes.${i}.valor`, message: 'in the legs design each leg carries its own valor' });
  });

  const frete = input.valores?.frete_bruto;
  const comValor = linhas.filter((l) => l.valor);
  let valores: number[] = [];
  if (frete !== undefined && comValor.length > 0) {
    fields.push({ field: 'valores.frete_bruto', message: 'give either valores.frete_bruto or a valor per key/leg, not both' });
    for (const l of comValor) fields.push({ field: l.valor!.caminho, message: 'not together with valores.frete_bruto' });
  } else if (frete !== undefined) {
    const total = centavosExatos(frete)!;
    if (total < linhas.length) {
      fields.push({
        field: 'valores.frete_bruto',
        message: `${decimalDeCentavos(total)} cannot give at least 0.01 to each of ${linhas.length} rows`,
      });
    } else {
      valores = ratearCentavos(total, linhas.length);
    }
  } else {
    const sem = linhas.filter((l) => !l.valor);
    for (const l of sem) fields.push({ field: `${l.caminho}.valor`, message: 'no value: give valor per key/leg or valores.frete_bruto' });
    valores = linhas.map((l) => centavosExatos(l.valor?.valor ?? 0)!);
  }

  for (const l of linhas) {
    if (l.tipo_servico !== 1 && (!l.origem || !l.destino)) {
      fields.push({
        field: `${l.caminho}.${l.origem ? 'destino' : 'origem'}`,
        message: `required for tipo_servico ${l.tipo_servico} (redispatch): the leg's route`,
      });
    } else if (!l.origem !== !l.destino) {
      fields.push({
        field: `${l.caminho}.${l.origem ? 'destino' : 'origem'}`,
        message: "a leg is declared by both ends (or neither, to inherit the contractor's route)",
      });
    }
  }
  if (fields.length > 0) throw new Rejection('lote_invalido', mensagem(fields), { fields });
  return { modo, valores };
}

/** Drivers and plates must be in the subcontractor's registry (rule 8); a leg's own is named by the leg's path. */
function validarRegistro(linhas: Rascunho[], registro: RegistroDaSubcontratada): void {
  const faltam = (
    code: 'motorista_nao_encontrado' | 'veiculo_nao_encontrado',
    itens: { caminho: string; valor: string; onde: string }[],
  ) => {
    const unicos = [...new Map(itens.map((x) => [x.caminho, x])).values()];
    if (unicos.length === 0) return;
    const fields = unicos.map((x) => ({ field: x.caminho, message: `${x.valor} is not in the subcontractor's registry` }));
    const o_que = code === 'motorista_nao_encontrado' ? 'driver' : 'vehicle';
    const message = unicos.map((x) => `${x.onde}: ${o_que} ${x.valor} is not in the subcontractor's registry`).join('; ');
    throw new Rejection(code, message, { fields });
  };
  const onde = (l: Rascunho, caminho: string) => (caminho.startsWith('ctes.') ? l.caminho : caminho);
  faltam(
    'motorista_nao_encontrado',
    linhas
      .filter((l) => !registro.motoristas.has(normalizeCpf(l.motorista.cpf)))
      .map((l) => ({ caminho: l.motorista.caminho, valor: normalizeCpf(l.motorista.cpf), onde: onde(l, l.motorista.caminho) })),
  );
  faltam(
    'veiculo_nao_encontrado',
    linhas
      .filter((l) => !registro.placas.has(normalizePlaca(l.placa.placa)))
      .map((l) => ({ caminho: l.placa.caminho, valor: normalizePlaca(l.placa.placa), onde: onde(l, l.placa.caminho) })),
  );
}

/**
 * The batch as rows (spec section 2, batch rules 2, 3, 5, 8), before anything is created: each row with its key, leg,
 * type (leg → key → batch → 1), declared ends (leg → key → batch; none inherits the contractor's), value in cents
 * (frozen per key/leg, or `frete_bruto` split with the remainder on the last rows), driver and plate (leg → batch).
 * Throws `validacao` (400), `lote_invalido`, `motorista_nao_encontrado` or `veiculo_nao_encontrado` (422).
 */
export function resolverLote(input: ContraCteLoteInput, registro: RegistroDaSubcontratada): PlanoLote {
  const linhas = rascunhos(input);
  const locais = validarForma(input, linhas);
  const { modo, valores } = validarRegras(input, linhas);
  validarRegistro(linhas, registro);
  const ibge = (l: { valor: Local } | null) => (l ? locais.get(l.valor)! : null);
  const parcelas = input.repasse?.parcelas;
  return {
    modo,
    parcelas: parcelas
      ? [...parcelas].sort((a, b) => a.posicao - b.posicao).map((p) => ({ posicao: p.posicao, percentual: p.percentual, dias: p.dias }))
      : null,
    linhas: linhas.map((l, linha) => ({
      linha,
      chave: l.chave,
      perna: l.perna,
      tipo_servico: l.tipo_servico,
      origem: ibge(l.origem),
      destino: ibge(l.destino),
      valor_centavos: valores[linha]!,
      motorista_cpf: normalizeCpf(l.motorista.cpf),
      placa: normalizePlaca(l.placa.placa),
    })),
  };
}
