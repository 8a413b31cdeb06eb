import {
  type BloqueioContraCte,
  type CodigoLinhaLote,
  type CteLido,
  type CteParteRascunho,
  type CteRascunho,
  type Environment,
  type LocalPrestacao,
  type ParteLida,
  type Uf,
} from '@frete/contracts';
import { municipioDoDocumento } from '../ibge/municipios';
import { validarRascunho } from '../cte/rascunho';
import { bloqueioContraCte, papelNoCte } from '../caixa-cte/papel';

/** Why no counter-CT-e can ever be made of a received CT-e: the row code a batch row would end with, and why. */
export interface RecusaDoCte {
  bloqueio: BloqueioContraCte;
  code: Extract<CodigoLinhaLote, 'cte_proprio' | 'origem_incompativel_com_tipo' | 'cte_original_invalido' | 'cte_contratante_cancelado'>;
  message: string;
}

/** The contractor's cancellation of a CT-e of the inbox (event 110111), as the inbox recorded it. */
export interface CancelamentoDoContratante {
  /** The cancellation's protocol (`retEventoCTe/infEvento/nProt`). */
  protocolo: string;
  /** `dhRegEvento`, as the authority wrote it. */
  cancelado_em: string;
}

/** What a counter-CT-e takes from the contractor's CT-e whatever the request: its parties and route, by IBGE code. */
export interface ContratanteLido {
  contratante: CteParteRascunho;
  remetente: CteParteRascunho | null;
  expedidor: CteParteRascunho | null;
  recebedor: CteParteRascunho | null;
  destinatario: CteParteRascunho | null;
  inicio: LocalPrestacao;
  fim: LocalPrestacao;
}

const DADOS_INVALIDOS = "the contractor's CT-e gives data a CT-e cannot carry";

const MENSAGEM_BLOQUEIO: Record<Exclude<BloqueioContraCte, 'cte_proprio' | 'dados_invalidos' | 'cte_cancelado'>, string> = {
  vinculado_multimodal: "the contractor's CT-e is linked to multimodal (tpServ 4): it admits no counter-CT-e",
  nao_e_cte_de_carga: "the contractor's document is not a cargo CT-e (model 57)",
  cte_nao_normal: "the contractor's CT-e is a complement or an annulment, not a freight service",
  ambiente_homologacao: "the contractor's CT-e was issued in homologação and this is production",
};

/**
 * The refusal a blocking reason gives, as a batch row would carry it. Also how a receipt recorded before the refusal was
 * (issue 28) reads: its reason alone, without the details of invalid data, which those receipts did not judge.
 */
export function recusaDoBloqueio(bloqueio: BloqueioContraCte, chave: string): RecusaDoCte {
  if (bloqueio === 'cte_proprio') {
    return {
      bloqueio,
      code: 'cte_proprio',
      message: `CT-e ${chave} was issued by your own company: a counter-CT-e is issued against another carrier's CT-e`,
    };
  }
  if (bloqueio === 'dados_invalidos') {
    return { bloqueio, code: 'cte_original_invalido', message: DADOS_INVALIDOS };
  }
  if (bloqueio === 'cte_cancelado') {
    return { bloqueio, code: 'cte_contratante_cancelado', message: `the contractor cancelled CT-e ${chave}: it admits no counter-CT-e` };
  }
  return { bloqueio, code: 'origem_incompativel_com_tipo', message: MENSAGEM_BLOQUEIO[bloqueio] };
}

/**
 * A cancelled contractor CT-e admits no counter-CT-e, whatever else it says: the refusal the inbox records with the
 * cancellation and every counter-CT-e's plan gives (a single one and a batch row alike).
 */
export function recusaDoCancelamento(chave: string, c: CancelamentoDoContratante): RecusaDoCte {
  return {
    bloqueio: 'cte_cancelado',
    code: 'cte_contratante_cancelado',
    message: `the contractor cancelled CT-e ${chave} (protocol ${c.protocolo} of ${c.cancelado_em}): it admits no counter-CT-e`,
  };
}

/**
 * A party read from the contractor's XML, as a stored draft's party; null when it lacks what a party needs. Its
 * municipality is the one of its code (`municipioDoDocumento`), written with the IBGE table's name: our document then
 * carries the official name for the code whatever encoding the contractor's name came in. The layout requires every
 * address field but the complement and the CEP; what it makes optional is carried when present in its shape.
 */
function parte(p: ParteLida | null): CteParteRascunho | null {
  if (!p?.documento || !p.nome || !p.endereco) return null;
  const e = p.endereco;
  const municipio = municipioDoDocumento(e.codigo_municipio, e.uf);
  return {
    documento: p.documento,
    ...(p.ie && /^(ISENTO|[0-9]{1,14})$/.test(p.ie) ? { ie: p.ie } : {}),
    nome: p.nome.slice(0, 60),
    ...(p.telefone && /^[0-9]{6,14}$/.test(p.telefone) ? { telefone: p.telefone } : {}),
    endereco: {
      logradouro: e.logradouro ?? '',
      numero: e.numero ?? 'SN',
      ...(e.complemento ? { complemento: e.complemento } : {}),
      bairro: e.bairro ?? '',
      municipio: municipio?.municipio ?? e.municipio ?? '',
      uf: (e.uf ?? '') as Uf,
      ...(e.codigo_municipio ? { codigo_ibge: e.codigo_municipio } : {}),
      ...(e.cep && /^[0-9]{8}$/.test(e.cep) ? { cep: e.cep } : {}),
    },
  };
}

/** A route end of the contractor's CT-e by its code, with the table's name; null when the code names no municipality of its UF. */
function local(l: LocalPrestacao): LocalPrestacao | null {
  const m = municipioDoDocumento(l.codigo_ibge, l.uf);
  return m ? { codigo_ibge: m.codigo_ibge, municipio: m.municipio, uf: m.uf } : null;
}

/**
 * What any counter-CT-e of this CT-e takes from it, or why there can be none: the contractor's CT-e is blocked for
 * this company (`bloqueioContraCte`), or its parties or route cannot be carried into a CT-e (the draft's own checks,
 * `validarRascunho`, on what the request never changes). The receipt (`allows_counter_cte`, `counter_cte_refusal`)
 * and every counter-CT-e's plan decide through this one function, so the inbox never admits what a batch row refuses.
 */
export function lerContratante(
  original: CteLido,
  companyCnpj: string,
  environment: Environment,
): { ok: true; dados: ContratanteLido } | { ok: false; recusa: RecusaDoCte } {
  const bloqueio = bloqueioContraCte(original, papelNoCte(original, companyCnpj), environment);
  if (bloqueio) return { ok: false, recusa: recusaDoBloqueio(bloqueio, original.chave) };

  const invalido = (campos: string[]) => ({
    ok: false as const,
    recusa: {
      bloqueio: 'dados_invalidos' as const,
      code: 'cte_original_invalido' as const,
      message: `${DADOS_INVALIDOS}: ${campos.join('; ')}`,
    },
  });
  const inicio = local(original.inicio);
  const fim = local(original.fim);
  const rotas = [
    ...(inicio ? [] : [`ide/cMunIni: ${original.inicio.codigo_ibge} is no IBGE municipality of ${original.inicio.uf}`]),
    ...(fim ? [] : [`ide/cMunFim: ${original.fim.codigo_ibge} is no IBGE municipality of ${original.fim.uf}`]),
  ];
  if (rotas.length > 0) return invalido(rotas);

  const contratante = parte(original.emitente);
  if (!contratante) return invalido(["emit: the contractor's identification, name and address"]);
  const partes = {
    remetente: parte(original.remetente),
    expedidor: parte(original.expedidor),
    recebedor: parte(original.recebedor),
    destinatario: parte(original.destinatario),
  };
  // The draft's own checks on the parties as the counter-CT-e will carry them (the contractor is its taker).
  const rascunho: CteRascunho = {
    ...Object.fromEntries(Object.entries(partes).filter(([, p]) => p !== null)),
    tomador: { papel: 'outros', parte: contratante },
  };
  const { dados, fields } = validarRascunho(rascunho);
  if (fields.length > 0) return invalido(fields.map((f) => `${f.field.replace(/^tomador\.parte/, 'emit')}: ${f.message}`));
  const tomador = dados.tomador?.papel === 'outros' ? dados.tomador.parte : contratante;
  return {
    ok: true,
    dados: {
      contratante: tomador,
      remetente: dados.remetente ?? null,
      expedidor: dados.expedidor ?? null,
      recebedor: dados.recebedor ?? null,
      destinatario: dados.destinatario ?? null,
      inicio: inicio!,
      fim: fim!,
    },
  };
}

/** Why a received CT-e admits no counter-CT-e for this company, or null: `lerContratante`'s verdict alone. */
export function recusaContraCte(original: CteLido, companyCnpj: string, environment: Environment): RecusaDoCte | null {
  const r = lerContratante(original, companyCnpj, environment);
  return r.ok ? null : r.recusa;
}
