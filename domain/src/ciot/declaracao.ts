import {
  type AlteracoesCiot,
  type CodigoBloqueioCiot,
  type CteCiotInput,
  type CteLido,
  type DeclaracaoCiot,
  type DeclaracaoCiotDados,
  type FieldError,
  type Local,
  type MunicipioCiot,
  type ParteCiot,
} from '@frete/contracts';
import { Rejection } from '../decider';
import { isValidCpf, normalizeCnpj, normalizeCpf } from '../fiscal/documents';
import { documentoValido } from '../cte/rascunho';
import { isValidAccessKey } from '../fiscal/access-key';
import { isValidPlaca, normalizePlaca } from '../fiscal/placa';
import { findMunicipio } from '../ibge/municipios';
import { centavosDeReais, decimalDeCentavos } from '../money/money';
import { gramasDasQuantidades, gramasDeKg, kgDeGramas } from '../money/peso';

/**
 * The CIOT declaration's rules that need no state (Lei 11.442/2007 art. 5-A, Res. ANTT 5.862/2019, DCS PEF v1.1 as
 * transcribed in the design notes): the shape the API accepts, what blocks a declaration before it is transmitted,
 * and the declaration an own CT-e gives.
 */

const limpo = (s: string) => s.trim().replace(/\s+/g, ' ');

const invalida = (fields: FieldError[]) => new Rejection('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });

/** A route end checked against the IBGE table (ruling 19), or a field error naming it. */
function municipio(l: Local, field: string, fields: FieldError[]): MunicipioCiot {
  const found = findMunicipio(l.municipio, l.uf, l.codigo_ibge);
  if (!found) {
    fields.push({
      field,
      message: `${l.municipio}/${l.uf}${l.codigo_ibge ? ` (${l.codigo_ibge})` : ''} is not a municipality of the IBGE table`,
    });
    return { codigo_ibge: l.codigo_ibge ?? '', municipio: l.municipio, uf: l.uf };
  }
  return { codigo_ibge: found.codigo_ibge, municipio: found.municipio, uf: found.uf };
}

function parte(p: { documento: string; nome: string }, field: string, fields: FieldError[]): ParteCiot {
  const documento = documentoValido(p.documento.trim());
  if (!documento) fields.push({ field: `${field}.documento`, message: 'not a valid CNPJ or CPF' });
  const nome = limpo(p.nome);
  if (nome.length < 2) fields.push({ field: `${field}.nome`, message: 'at least 2 characters besides blanks' });
  return { documento: documento ?? p.documento, nome };
}

function veiculos(vs: { placa: string; rntrc?: string }[], field: string, fields: FieldError[]) {
  const out = vs.map((v, i) => {
    const placa = normalizePlaca(v.placa);
    if (!isValidPlaca(placa)) fields.push({ field: `${field}.${i}.placa`, message: 'not a Brazilian plate (ABC1234 or ABC1D23)' });
    return { placa, rntrc: v.rntrc ?? null };
  });
  out.forEach((v, i) => {
    if (out.findIndex((o) => o.placa === v.placa) !== i) fields.push({ field: `${field}.${i}.placa`, message: 'repeated vehicle' });
  });
  return out;
}

function motorista(m: { cpf: string; nome: string }, field: string, fields: FieldError[]) {
  const cpf = normalizeCpf(m.cpf.trim());
  if (!isValidCpf(cpf)) fields.push({ field: `${field}.cpf`, message: 'not a valid CPF' });
  const nome = limpo(m.nome);
  if (nome.length < 2) fields.push({ field: `${field}.nome`, message: 'at least 2 characters besides blanks' });
  return { cpf, nome };
}

/**
 * `DeclaracaoCiot` checked and normalized. Every field that fails is reported at once (400 `validacao`, ruling 19 for
 * the route ends); a fractioned load needs its contracting parties. The checks that block (contracted party, profile,
 * provider) come after, in `bloqueioDaDeclaracao`: such an operation is recorded, not refused as malformed.
 */
export function normalizarDeclaracaoCiot(input: DeclaracaoCiot): DeclaracaoCiotDados {
  const fields: FieldError[] = [];
  const contratadoDoc = documentoValido(input.contratado.documento.trim());
  if (!contratadoDoc) fields.push({ field: 'contratado.documento', message: 'not a valid CNPJ or CPF' });
  const contratantes = (input.carga.contratantes ?? []).map((c, i) => parte(c, `carga.contratantes.${i}`, fields));
  if (input.carga.tipo === 'fracionada' && contratantes.length === 0) {
    fields.push({ field: 'carga.contratantes', message: 'required (at least one) for a fractioned load (fracionada)' });
  }
  const rota = {
    origem: municipio(input.rota.origem, 'rota.origem', fields),
    destino: municipio(input.rota.destino, 'rota.destino', fields),
    trechos: (input.rota.trechos ?? []).map((t, i) => ({
      coleta: municipio(t.coleta, `rota.trechos.${i}.coleta`, fields),
      entrega: municipio(t.entrega, `rota.trechos.${i}.entrega`, fields),
    })),
  };
  const documentos = input.documentos_fiscais.map((d, i) => {
    if (d.chave !== undefined && !isValidAccessKey(d.chave))
      fields.push({ field: `documentos_fiscais.${i}.chave`, message: 'access key check digit does not match' });
    return {
      chave: d.chave ?? null,
      numero: d.numero === undefined ? null : limpo(d.numero),
      remetente: parte(d.remetente, `documentos_fiscais.${i}.remetente`, fields),
      destinatario: parte(d.destinatario, `documentos_fiscais.${i}.destinatario`, fields),
    };
  });
  const dados: DeclaracaoCiotDados = {
    contratado: {
      documento: contratadoDoc ?? input.contratado.documento,
      nome: input.contratado.nome === undefined ? null : limpo(input.contratado.nome),
    },
    carga: { tipo: input.carga.tipo, peso_gramas: gramasDeKg(input.carga.peso_kg), contratantes },
    rota,
    veiculos: veiculos(input.veiculos, 'veiculos', fields),
    documentos_fiscais: documentos,
    valores: {
      frete_centavos: centavosDeReais(input.valores.frete),
      parcelas: (input.valores.parcelas ?? []).map((p) => ({ valor_centavos: centavosDeReais(p.valor), vencimento: p.vencimento ?? null })),
    },
    motorista: motorista(input.motorista, 'motorista', fields),
    vale_pedagio: input.vale_pedagio
      ? {
          valor_centavos: input.vale_pedagio.valor === undefined ? null : centavosDeReais(input.vale_pedagio.valor),
          pracas: (input.vale_pedagio.pracas ?? []).map((p) => ({ nome: limpo(p.nome), codigo: p.codigo ?? null })),
        }
      : null,
  };
  if (dados.carga.peso_gramas <= 0) fields.push({ field: 'carga.peso_kg', message: 'must be above 0' });
  if (fields.length > 0) throw invalida(fields);
  return dados;
}

/** The limits the schema states, checked again where the declaration is decided (a CT-e-built one never saw the schema). */
export function limitesDaDeclaracao(d: DeclaracaoCiotDados): FieldError[] {
  const fields: FieldError[] = [];
  if (d.veiculos.length < 1 || d.veiculos.length > 10) fields.push({ field: 'veiculos', message: '1 to 10 vehicles' });
  if (d.documentos_fiscais.length < 1 || d.documentos_fiscais.length > 100)
    fields.push({ field: 'documentos_fiscais', message: '1 to 100 fiscal documents' });
  if (d.rota.trechos.length > 100) fields.push({ field: 'rota.trechos', message: 'up to 100 collection/delivery pairs' });
  if (d.carga.tipo === 'fracionada' && d.carga.contratantes.length === 0)
    fields.push({ field: 'carga.contratantes', message: 'required for a fractioned load' });
  if (d.valores.frete_centavos <= 0) fields.push({ field: 'valores.frete', message: 'must be above 0' });
  return fields;
}

/**
 * Why a valid declaration is not transmitted (spec section 4, "CIOT without CT-e"; ruling 7), in this order:
 * the contracted party is not the authenticated company; the profile is not covered by the route (TAC-agregado,
 * freight installments, toll pass with plazas); no provider is contracted. Null: transmit it.
 */
export function bloqueioDaDeclaracao(
  d: DeclaracaoCiotDados,
  cnpjEmpresa: string,
  provedorDisponivel: boolean,
): { codigo: CodigoBloqueioCiot; motivo: string } | null {
  if (d.contratado.documento !== normalizeCnpj(cnpjEmpresa)) {
    return {
      codigo: 'contratado_divergente',
      motivo: `o contratado ${d.contratado.documento} não é a empresa autenticada (${normalizeCnpj(cnpjEmpresa)}): a declaração só é feita em nome próprio`,
    };
  }
  const fora: string[] = [];
  if (d.carga.tipo === 'tac_agregado') fora.push('operação TAC-agregado');
  if (d.valores.parcelas.length > 0) fora.push('frete em parcelas');
  if (d.vale_pedagio && d.vale_pedagio.pracas.length > 0) fora.push('vale-pedágio com praças');
  if (fora.length > 0) {
    return {
      codigo: 'perfil_nao_coberto',
      motivo: `perfil não coberto por esta rota (só lotação ou fracionada, frete sem parcelas, vale-pedágio sem praças): ${fora.join(', ')}`,
    };
  }
  if (!provedorDisponivel) {
    return {
      codigo: 'provedor_indisponivel',
      motivo: 'nenhum provedor de CIOT (IPEF) está contratado neste ambiente: a declaração não foi transmitida',
    };
  }
  return null;
}

/** The registered declaration with a rectification's groups replaced. */
export function aplicarRetificacao(d: DeclaracaoCiotDados, a: AlteracoesCiot): DeclaracaoCiotDados {
  return {
    ...d,
    veiculos: a.veiculos ?? d.veiculos,
    motorista: a.motorista ?? d.motorista,
    valores: a.frete_centavos === undefined ? d.valores : { ...d.valores, frete_centavos: a.frete_centavos },
    carga: a.peso_gramas === undefined ? d.carga : { ...d.carga, peso_gramas: a.peso_gramas },
  };
}

/** A rectification's body checked and normalized (400 `validacao` for a bad CPF or plate). */
export function normalizarRetificacao(input: {
  veiculos?: { placa: string; rntrc?: string }[];
  motorista?: { cpf: string; nome: string };
  valores?: { frete: number };
  carga?: { peso_kg: number };
}): AlteracoesCiot {
  const fields: FieldError[] = [];
  const a: AlteracoesCiot = {};
  if (input.veiculos) a.veiculos = veiculos(input.veiculos, 'veiculos', fields);
  if (input.motorista) a.motorista = motorista(input.motorista, 'motorista', fields);
  if (input.valores) a.frete_centavos = centavosDeReais(input.valores.frete);
  if (input.carga) a.peso_gramas = gramasDeKg(input.carga.peso_kg);
  if (Object.keys(a).length === 0) fields.push({ field: '(body)', message: 'at least one of veiculos, motorista, valores, carga' });
  if (fields.length > 0) throw invalida(fields);
  return a;
}

// ---------------------------------------------------------------------------------------------------------------
// A CIOT anchored on an own CT-e

export interface VerificacaoCiot {
  codigo: string;
  ok: boolean;
  mensagem: string;
}

export interface PendenciaCiot {
  campo: string;
  mensagem: string;
}

export interface EntradaCiotDoCte {
  cte: CteLido;
  empresa: { cnpj: string; razao_social: string };
  /** The carrier's RNTRC: the fiscal configuration's, else the CT-e's `rodo/RNTRC`. */
  rntrc: string | null;
  input: CteCiotInput;
  /** The registered driver with the CPF given, when there is one (its name is the default). */
  motoristaRegistrado: { cpf: string; nome: string } | null;
  /** The CT-e's operation still in force or without verdict, which a new issue would duplicate. */
  emVigor: { id: string; status: string } | null;
}

export interface AvaliacaoCiotDoCte {
  verificacoes: VerificacaoCiot[];
  pendencias: PendenciaCiot[];
  /** Null while something is missing. */
  declaracao: DeclaracaoCiotDados | null;
}

/** Why a CT-e cannot carry a CIOT at all (422), or null. The CT-e must be own and authorized: that is the caller's. */
export function cteIncompativelComCiot(cte: CteLido): string | null {
  if (cte.modal !== '01') return `the CT-e's modal is ${cte.modal}: a CIOT covers road transport (modal 01) only`;
  if (cte.tipo_cte !== 0)
    return `the CT-e is of type ${cte.tipo_cte} (complementary or substitute): a CIOT is declared for a normal CT-e (tpCTe 0)`;
  return null;
}

/** Gross weight in grams from the CT-e's `infQ` in KG (01) or TON (02); 0 when it has neither. */
export const pesoDoCte = (cte: CteLido): number => gramasDasQuantidades(cte.carga?.quantidades ?? []);

const parteDoCte = (p: CteLido['remetente']): ParteCiot | null =>
  p?.documento && p.nome ? { documento: p.documento, nome: limpo(p.nome) } : null;

/**
 * The checks of `POST /fiscal/cte/{cte_uuid}/ciot/validacao` and the declaration `.../ciot/emissao` sends. The CT-e
 * gives the route, the fiscal documents (its NF-e, or itself when it carries none) with sender and recipient, the
 * weight, the freight value (vTPrest) and, for a fractioned load, the contracting party (its taker); the contracted
 * party is the company. The body gives the driver and the vehicles. A given value that is malformed is a 400
 * (`validacao`); what is missing is a pendency.
 */
export function avaliarCiotDoCte(e: EntradaCiotDoCte): AvaliacaoCiotDoCte {
  const fields: FieldError[] = [];
  const verificacoes: VerificacaoCiot[] = [];
  const pendencias: PendenciaCiot[] = [];
  const check = (codigo: string, falta: PendenciaCiot[], okMsg: string) => {
    verificacoes.push({ codigo, ok: falta.length === 0, mensagem: falta.length === 0 ? okMsg : falta.map((f) => f.mensagem).join('; ') });
    pendencias.push(...falta);
  };
  const { cte, input } = e;

  check('cte_autorizado', [], `CT-e ${cte.chave} authorized`);
  check('modal_rodoviario', [], 'road transport (modal 01), normal CT-e');
  check(
    'rntrc',
    e.rntrc ? [] : [{ campo: 'configuracao.rntrc', mensagem: 'the carrier has no RNTRC: set `rntrc` with PUT /fiscal/configuracao' }],
    `RNTRC ${e.rntrc ?? ''}`,
  );

  const remetente = parteDoCte(cte.remetente);
  const destinatario = parteDoCte(cte.destinatario);
  const partes: PendenciaCiot[] = [];
  if (!remetente) partes.push({ campo: 'cte.remetente', mensagem: 'the CT-e has no sender with document and name' });
  if (!destinatario) partes.push({ campo: 'cte.destinatario', mensagem: 'the CT-e has no recipient with document and name' });
  check('remetente_destinatario', partes, 'sender and recipient from the CT-e');
  check('rota', [], `${cte.inicio.municipio}/${cte.inicio.uf} → ${cte.fim.municipio}/${cte.fim.uf}`);

  let mot: { cpf: string; nome: string } | null = null;
  const faltaMotorista: PendenciaCiot[] = [];
  if (!input.motorista) {
    faltaMotorista.push({ campo: 'motorista', mensagem: 'the driver (`motorista.cpf`) is required' });
  } else {
    const cpf = normalizeCpf(input.motorista.cpf.trim());
    if (!isValidCpf(cpf)) fields.push({ field: 'motorista.cpf', message: 'not a valid CPF' });
    const nome = input.motorista.nome !== undefined ? limpo(input.motorista.nome) : (e.motoristaRegistrado?.nome ?? null);
    if (nome === null)
      faltaMotorista.push({ campo: 'motorista.nome', mensagem: `no name given and CPF ${cpf} is not a registered driver` });
    else if (nome.length < 2) fields.push({ field: 'motorista.nome', message: 'at least 2 characters besides blanks' });
    else mot = { cpf, nome };
  }
  check('motorista', faltaMotorista, mot ? `driver ${mot.nome} (${mot.cpf})` : '');

  const vs = input.veiculos ? veiculos(input.veiculos, 'veiculos', fields) : null;
  check(
    'veiculos',
    vs ? [] : [{ campo: 'veiculos', mensagem: '1 to 10 vehicles (`veiculos[].placa`) are required' }],
    vs ? vs.map((v) => v.placa).join(', ') : '',
  );

  const peso = input.carga?.peso_kg !== undefined ? gramasDeKg(input.carga.peso_kg) : pesoDoCte(cte);
  check(
    'peso',
    peso > 0 ? [] : [{ campo: 'carga.peso_kg', mensagem: 'the CT-e has no weight in KG or TON: give `carga.peso_kg`' }],
    `${kgDeGramas(peso)} kg`,
  );
  const frete = input.valores?.frete !== undefined ? centavosDeReais(input.valores.frete) : cte.valor_prestacao_centavos;
  check(
    'frete',
    frete > 0 ? [] : [{ campo: 'valores.frete', mensagem: "the CT-e's vTPrest is 0: give `valores.frete`" }],
    `R$ ${decimalDeCentavos(frete)}`,
  );

  const tipo = input.carga?.tipo ?? 'lotacao';
  const tomador = parteDoCte(cte.tomador.parte);
  if (tipo === 'fracionada' && !tomador) {
    pendencias.push({
      campo: 'carga.contratantes',
      mensagem: "a fractioned load needs its contracting party: the CT-e's taker has no document and name",
    });
  }
  check(
    'ciot_em_vigor',
    e.emVigor
      ? [
          {
            campo: 'ciot',
            mensagem: `the CT-e's CIOT is operation ${e.emVigor.id} (${e.emVigor.status}): another is possible only after a cancellation, refusal or block`,
          },
        ]
      : [],
    'no CIOT in force for this CT-e',
  );

  if (fields.length > 0) throw invalida(fields);
  if (pendencias.length > 0 || !remetente || !destinatario || !mot || !vs) return { verificacoes, pendencias, declaracao: null };
  const documentos =
    cte.nfe_chaves.length > 0
      ? cte.nfe_chaves.map((chave) => ({ chave, numero: null, remetente, destinatario }))
      : [{ chave: cte.chave, numero: String(cte.numero), remetente, destinatario }];
  return {
    verificacoes,
    pendencias,
    declaracao: {
      contratado: { documento: normalizeCnpj(e.empresa.cnpj), nome: e.empresa.razao_social },
      carga: { tipo, peso_gramas: peso, contratantes: tomador ? [tomador] : [] },
      rota: {
        origem: { codigo_ibge: cte.inicio.codigo_ibge, municipio: cte.inicio.municipio, uf: cte.inicio.uf },
        destino: { codigo_ibge: cte.fim.codigo_ibge, municipio: cte.fim.municipio, uf: cte.fim.uf },
        trechos: [],
      },
      veiculos: vs,
      documentos_fiscais: documentos.slice(0, 100),
      valores: { frete_centavos: frete, parcelas: [] },
      motorista: mot,
      vale_pedagio: null,
      observacoes: cte.observacoes ?? null,
    },
  };
}
