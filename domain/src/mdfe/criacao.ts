import {
  type CiotMdfe,
  type CteDoMdfe,
  type CteLido,
  type FieldError,
  type MdfeInput,
  type MunicipioMdfe,
  type PagamentoMdfe,
  type ProdutoPredominanteMdfe,
  type VeiculoDados,
  type VeiculoMdfe,
} from '@frete/contracts';
import { Rejection } from '../decider';
import { isValidCpf, normalizeCpf } from '../fiscal/documents';
import { findMunicipio } from '../ibge/municipios';
import { gramasDasQuantidades } from '../money/peso';
import { centavosExatos } from '../money/money';
import { documentoValido } from '../cte/rascunho';

/** A CT-e the MDF-e carries, with where it starts (the default loading municipality and `uf_inicio`). */
export type CteDoMdfeComInicio = CteDoMdfe & { inicio: MunicipioMdfe };

/** A registered vehicle as the MDF-e reads it: its data and its registry id (named in the refusal). */
export type VeiculoCadastrado = VeiculoDados & { id: number };

const invalido = (fields: FieldError[]) => new Rejection('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });

/** What the MDF-e takes from an authorized CT-e: its cargo value and weight, and where it starts and ends. */
export const cteDoMdfe = (cteId: string, chave: string, c: CteLido): CteDoMdfeComInicio => ({
  cte_id: cteId,
  chave,
  valor_carga_centavos: c.carga?.valor_centavos ?? 0,
  peso_gramas: gramasDasQuantidades(c.carga?.quantidades ?? []),
  descarga: { codigo_ibge: c.fim.codigo_ibge, municipio: c.fim.municipio, uf: c.fim.uf },
  inicio: { codigo_ibge: c.inicio.codigo_ibge, municipio: c.inicio.municipio, uf: c.inicio.uf },
});

/**
 * What a registered vehicle lacks to be the MDF-e's traction (`veicTracao`) or one of its trailers (`veicReboque`):
 * registered as that kind, with tara, body type and UF; a trailer also with its capacity.
 */
export function faltasDoVeiculo(v: VeiculoCadastrado, field: string, tipo: 'tracao' | 'reboque'): FieldError[] {
  const missing: FieldError[] = [];
  if (v.tipo !== tipo) missing.push({ field, message: `vehicle ${v.placa} is registered as ${v.tipo}, not ${tipo}` });
  if (v.tara_kg === null) missing.push({ field, message: `vehicle ${v.placa} has no tara_kg` });
  if (v.tipo_carroceria === null) missing.push({ field, message: `vehicle ${v.placa} has no tipo_carroceria` });
  if (v.uf === null) missing.push({ field, message: `vehicle ${v.placa} has no uf` });
  if (tipo === 'reboque' && v.capacidade_kg === null) missing.push({ field, message: `trailer ${v.placa} has no capacidade_kg` });
  return missing;
}

/** The vehicle as the MDF-e carries it; 422 `veiculo_incompleto` (naming where to complete it) when it lacks anything. */
export function veiculoDoMdfe(v: VeiculoCadastrado, field: string, tipo: 'tracao' | 'reboque'): VeiculoMdfe {
  const missing = faltasDoVeiculo(v, field, tipo);
  if (missing.length > 0) {
    throw new Rejection('veiculo_incompleto', `${missing.map((m) => m.message).join('; ')}: complete it at PUT /fiscal/veiculos/${v.id}`, {
      fields: missing,
      veiculo_id: v.id,
    });
  }
  return {
    placa: v.placa,
    renavam: v.renavam,
    tara_kg: v.tara_kg!,
    capacidade_kg: v.capacidade_kg,
    capacidade_m3: v.capacidade_m3,
    tipo_rodado: v.tipo_rodado,
    tipo_carroceria: v.tipo_carroceria!,
    uf: v.uf!,
  };
}

/** The drivers' CPFs, normalized; 400 `validacao` naming each invalid or repeated one. */
export function cpfsDosCondutores(motoristas: readonly { cpf: string }[]): string[] {
  const cpfs = motoristas.map((m) => normalizeCpf(m.cpf));
  const cpfErrors = cpfs.flatMap((cpf, i) => (isValidCpf(cpf) ? [] : [{ field: `motoristas.${i}.cpf`, message: 'not a valid CPF' }]));
  cpfs.forEach((cpf, i) => {
    if (cpfs.indexOf(cpf) !== i) cpfErrors.push({ field: `motoristas.${i}.cpf`, message: 'repeated driver' });
  });
  if (cpfErrors.length > 0) throw invalido(cpfErrors);
  return cpfs;
}

const municipio = (m: { municipio: string; uf: string; codigo_ibge?: string }, field: string): MunicipioMdfe => {
  const found = findMunicipio(m.municipio, m.uf, m.codigo_ibge);
  if (!found) throw invalido([{ field, message: `${m.municipio}/${m.uf} is not a municipality of the IBGE table` }]);
  return found;
};

export interface RotaDoMdfe {
  ctes: CteDoMdfe[];
  uf_inicio: string;
  uf_fim: string;
  percurso: string[];
  carregamento: MunicipioMdfe[];
}

/**
 * The MDF-e's route: `uf_inicio`, `carregamento`, `uf_fim` and each CT-e's unloading default from the CT-e; loading
 * must lie in `uf_inicio`, unloading in `uf_fim`, and `percurso` names only the UFs crossed between them (400 `validacao`).
 */
export function rotaDoMdfe(
  input: Pick<MdfeInput, 'uf_inicio' | 'uf_fim' | 'percurso' | 'carregamento' | 'descarregamento'>,
  doCte: readonly CteDoMdfeComInicio[],
): RotaDoMdfe {
  const descarga = input.descarregamento ? municipio(input.descarregamento, 'descarregamento') : null;
  const ctes = doCte.map((c) => (descarga ? { ...c, descarga } : c));
  const ufInicio = input.uf_inicio ?? ctes[0]!.inicio.uf;
  const ufFim = input.uf_fim ?? ctes[0]!.descarga.uf;
  const carregamento = input.carregamento
    ? input.carregamento.map((m, i) => municipio(m, `carregamento.${i}`))
    : [...new Map(ctes.map((c) => [c.inicio.codigo_ibge, c.inicio])).values()];
  const fields: FieldError[] = [];
  carregamento.forEach((m, i) => {
    if (m.uf !== ufInicio)
      fields.push({
        field: input.carregamento ? `carregamento.${i}` : 'uf_inicio',
        message: `loading in ${m.municipio}/${m.uf} is outside uf_inicio ${ufInicio}`,
      });
  });
  ctes.forEach((c, i) => {
    if (c.descarga.uf !== ufFim)
      fields.push({
        field: descarga ? 'descarregamento' : input.uf_fim ? 'uf_fim' : `ctes.${i}`,
        message: `unloading in ${c.descarga.municipio}/${c.descarga.uf} is outside uf_fim ${ufFim}`,
      });
  });
  const percurso = input.percurso ?? [];
  percurso.forEach((uf, i) => {
    if (uf === ufInicio || uf === ufFim) fields.push({ field: `percurso.${i}`, message: 'the UFs crossed exclude the start and end UF' });
  });
  if (fields.length > 0) throw invalido(fields);
  return { ctes: ctes.map(({ inicio: _inicio, ...c }) => c), uf_inicio: ufInicio, uf_fim: ufFim, percurso, carregamento };
}

export interface GruposAnttDoMdfe {
  produto_predominante: ProdutoPredominanteMdfe | null;
  pagamentos: PagamentoMdfe[];
  ciot: CiotMdfe[];
  rntrc_tac: boolean;
}

/**
 * The groups NT 2025.001 v1.03 reads (`prodPred`, `infPag` with `infBanc`, `infCIOT`), from the input: documents
 * normalized and checked, money in cents. 400 `validacao` naming each invalid field; whether the rules are met is
 * `exigirRegrasAntt`'s (422).
 */
export function gruposAnttDoMdfe(input: Pick<MdfeInput, 'produto_predominante' | 'pagamentos' | 'ciot' | 'rntrc_tac'>): GruposAnttDoMdfe {
  const fields: FieldError[] = [];
  const documento = (raw: string, field: string): string => {
    const d = documentoValido(raw);
    if (d === null) fields.push({ field, message: 'not a valid CPF or CNPJ' });
    return d ?? raw;
  };
  const centavos = (reais: number, field: string): number => {
    const c = centavosExatos(reais);
    if (c === null) fields.push({ field, message: 'at most 2 decimals' });
    return c ?? 0;
  };
  const pagamentos = (input.pagamentos ?? []).map((p, i): PagamentoMdfe => {
    const f = `pagamentos.${i}`;
    const aPrazo = p.a_prazo === true;
    if (!aPrazo && (p.valor_adiantamento !== undefined || (p.parcelas ?? []).length > 0))
      fields.push({ field: `${f}.parcelas`, message: 'valor_adiantamento and parcelas are for a_prazo only (infPrazo, vAdiant)' });
    if (aPrazo && (p.parcelas ?? []).length === 0) fields.push({ field: `${f}.parcelas`, message: 'required when a_prazo' });
    const componentes = p.componentes.map((c, j) => {
      if (c.tipo === '99' && !c.descricao)
        fields.push({ field: `${f}.componentes.${j}.descricao`, message: 'required for tipo 99 (xComp)' });
      return { tipo: c.tipo, valor_centavos: centavos(c.valor, `${f}.componentes.${j}.valor`), descricao: c.descricao ?? null };
    });
    const banco = p.banco;
    return {
      responsavel: { nome: p.responsavel.nome ?? null, documento: documento(p.responsavel.documento, `${f}.responsavel.documento`) },
      componentes,
      valor_contrato_centavos: centavos(p.valor_contrato, `${f}.valor_contrato`),
      indicador_pagamento: aPrazo ? '1' : '0',
      valor_adiantamento_centavos: p.valor_adiantamento === undefined ? null : centavos(p.valor_adiantamento, `${f}.valor_adiantamento`),
      parcelas: (p.parcelas ?? []).map((x, j) => ({
        vencimento: x.vencimento,
        valor_centavos: centavos(x.valor, `${f}.parcelas.${j}.valor`),
      })),
      banco: 'cnpj_ipef' in banco ? { cnpj_ipef: documento(banco.cnpj_ipef, `${f}.banco.cnpj_ipef`) } : banco,
    };
  });
  const ciot = (input.ciot ?? []).map((c, i) => ({ codigo: c.codigo, responsavel: documento(c.responsavel, `ciot.${i}.responsavel`) }));
  if (fields.length > 0) throw invalido(fields);
  const p = input.produto_predominante;
  return {
    produto_predominante: p ? { tipo_carga: p.tipo_carga, descricao: p.descricao, ncm: p.ncm ?? null } : null,
    pagamentos,
    ciot,
    rntrc_tac: input.rntrc_tac === true,
  };
}
