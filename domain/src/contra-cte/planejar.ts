import { type CteLido, type CteParteRascunho, type CteRascunho, type LocalPrestacao, type ParteLida } from '@frete/contracts';
import { normalizeCnpj } from '../fiscal/documents';
import { regraAplicavel, type RegraDaRota } from '../regra-tributacao/aplicavel';
import { bloqueioContraCte, papelNoCte } from '../cte-subcontratacao/papel';
import { type Environment, type Uf } from '@frete/contracts';
import { cfopContraCte } from './cfop';
import { ufByCode } from '../fiscal/ufs';
import { centesimosDePercentual, parteEmCentesimos, reaisDeCentavos } from '../money/money';

/** A route end already checked against the IBGE table (ruling 19). */
export type LocalIbge = LocalPrestacao;

export type TipoServicoContraCte = 1 | 2 | 3;

/**
 * The counter-CT-e's freight when the request names none: the carrier's configured share (`percentual_frete_contra_cte`,
 * two decimals) of the contractor's vTPrest, half up to the cent.
 */
export const valorSugeridoContraCte = (vTPrestCentavos: number, percentual: number): number =>
  parteEmCentesimos(vTPrestCentavos, centesimosDePercentual(percentual));

export interface PedidoContraCte {
  tipo_servico: TipoServicoContraCte;
  /** The real leg, when declared; otherwise the contractor's route is inherited. */
  origem: LocalIbge | null;
  destino: LocalIbge | null;
  valor_centavos: number;
  motorista_cpf: string;
  placa: string;
}

export interface EmitenteContraCte {
  cnpj: string;
  uf: string;
  environment: Environment;
}

export type RegraContraCte = RegraDaRota & { cfop: string | null };

/** Why a counter-CT-e cannot be made of this contractor CT-e and request (row codes of batch rules 5 and 7). */
export type RecusaContraCte = 'cte_proprio' | 'origem_incompativel_com_tipo' | 'redespacho_exige_rota' | 'sem_regra_tributacao';

export type PlanoContraCte =
  | { ok: true; dados: CteRascunho; inicio: LocalIbge; fim: LocalIbge; cfop: string }
  | { ok: false; code: RecusaContraCte; message: string };

const BLOQUEIO: Record<string, string> = {
  vinculado_multimodal: "the contractor's CT-e is linked to multimodal (tpServ 4): it admits no counter-CT-e",
  nao_e_cte_de_carga: "the contractor's document is not a cargo CT-e (model 57)",
  cte_nao_normal: "the contractor's CT-e is a complement or an annulment, not a freight service",
  ambiente_homologacao: "the contractor's CT-e was issued in homologação and this is production",
};

/**
 * A party read from the contractor's XML, as a stored draft's party. The layout requires every address field but the
 * complement and the CEP; what it makes optional is carried when present in its shape and left out otherwise.
 */
function parte(p: ParteLida | null): CteParteRascunho | null {
  if (!p?.documento || !p.nome || !p.endereco) return null;
  const e = p.endereco;
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
      municipio: e.municipio ?? '',
      uf: (e.uf ?? '') as Uf,
      ...(e.codigo_municipio ? { codigo_ibge: e.codigo_municipio } : {}),
      ...(e.cep && /^[0-9]{8}$/.test(e.cep) ? { cep: e.cep } : {}),
    },
  };
}

const mesmoLocal = (a: LocalIbge, b: LocalIbge) => a.codigo_ibge === b.codigo_ibge;

/**
 * The subcontractor's CT-e made of the contractor's (spec "Counter-CT-e concept"): sender, recipient, cargo,
 * transported NF-e and taxation come from the contractor's XML; the contractor is the taker (`toma4`) and its CT-e
 * is referenced in `docAnt` (ruling 16, G059/G062/G063); the price, driver and vehicle are the subcontractor's.
 * Pure: the caller brings the inbox document, its own tax rules and the request.
 */
export function planejarContraCte(
  original: CteLido,
  emitente: EmitenteContraCte,
  pedido: PedidoContraCte,
  regras: readonly RegraContraCte[],
): PlanoContraCte {
  const bloqueio = bloqueioContraCte(original, papelNoCte(original, emitente.cnpj), emitente.environment);
  if (bloqueio === 'cte_proprio') {
    return {
      ok: false,
      code: 'cte_proprio',
      message: `CT-e ${original.chave} was issued by your own company: a counter-CT-e is issued against another carrier's CT-e`,
    };
  }
  if (bloqueio) return { ok: false, code: 'origem_incompativel_com_tipo', message: BLOQUEIO[bloqueio] ?? bloqueio };

  const tipo = pedido.tipo_servico;
  const declarada = pedido.origem !== null && pedido.destino !== null;
  if (tipo !== 1) {
    if (!declarada) {
      return { ok: false, code: 'redespacho_exige_rota', message: `tipo_servico ${tipo} (redispatch) needs the leg's origem and destino` };
    }
    if (mesmoLocal(pedido.origem!, original.inicio) && mesmoLocal(pedido.destino!, original.fim)) {
      return {
        ok: false,
        code: 'redespacho_exige_rota',
        message: `tipo_servico ${tipo} (redispatch) covers part of the trip; ${pedido.origem!.municipio}/${pedido.origem!.uf} → ${pedido.destino!.municipio}/${pedido.destino!.uf} is the contractor's whole route`,
      };
    }
  }
  const inicio = pedido.origem ?? original.inicio;
  const fim = pedido.destino ?? original.fim;

  const regra = regraAplicavel(regras, inicio.uf, fim.uf, tipo);
  if (!regra) {
    return {
      ok: false,
      code: 'sem_regra_tributacao',
      message: `no tax rule applies to ${inicio.uf} → ${fim.uf} for tp_serv ${tipo} (GET /fiscal/regras-tributacao)`,
    };
  }
  const cfop = cfopContraCte({ ufEmitente: emitente.uf, ufInicio: inicio.uf, ufFim: fim.uf, regra });

  const contratante = parte(original.emitente)!;
  const remetente = parte(original.remetente);
  const destinatario = parte(original.destinatario);
  // Intermediate redispatch names who hands the cargo over and who receives it (G055/G056).
  const expedidor = parte(original.expedidor) ?? (tipo === 3 ? remetente : null);
  const recebedor = parte(original.recebedor) ?? (tipo === 3 ? destinatario : null);
  const carga = original.carga;
  const valor = reaisDeCentavos(pedido.valor_centavos);

  const dados: CteRascunho = {
    tipo_servico: tipo,
    cfop,
    natureza_operacao: tipo === 1 ? 'SUBCONTRATACAO DE SERVICO DE TRANSPORTE' : 'REDESPACHO DE SERVICO DE TRANSPORTE',
    inicio: { municipio: inicio.municipio, uf: inicio.uf, codigo_ibge: inicio.codigo_ibge },
    fim: { municipio: fim.municipio, uf: fim.uf, codigo_ibge: fim.codigo_ibge },
    ...(remetente ? { remetente } : {}),
    ...(expedidor ? { expedidor } : {}),
    ...(recebedor ? { recebedor } : {}),
    ...(destinatario ? { destinatario } : {}),
    tomador: { papel: 'outros', parte: contratante },
    valores: { total: valor, a_receber: valor, componentes: [{ nome: 'FRETE', valor }] },
    ...(carga && carga.produto_predominante && carga.quantidades.length > 0
      ? {
          carga: {
            ...(carga.valor_centavos !== null ? { valor: reaisDeCentavos(carga.valor_centavos) } : {}),
            produto_predominante: carga.produto_predominante.slice(0, 60),
            ...(carga.outras_caracteristicas ? { outras_caracteristicas: carga.outras_caracteristicas.slice(0, 30) } : {}),
            quantidades: carga.quantidades.map((q) => ({
              unidade: (q.unidade ?? '01') as '00' | '01' | '02' | '03' | '04' | '05',
              tipo_medida: (q.tipo_medida ?? 'PESO BRUTO').slice(0, 20),
              quantidade: Number(q.quantidade ?? 0),
            })),
          },
        }
      : {}),
    ...(original.nfe_chaves.length > 0 ? { documentos: { nfe: original.nfe_chaves.map((chave) => ({ chave })) } } : {}),
    documentos_anteriores: [
      {
        emitente: {
          cnpj: normalizeCnpj(original.emitente.documento ?? ''),
          ie: original.emitente.ie ?? 'ISENTO',
          uf: (original.emitente.endereco?.uf ?? ufByCode(original.chave.slice(0, 2))?.sigla ?? '') as Uf,
          nome: (original.emitente.nome ?? '').slice(0, 60),
        },
        chaves_cte: [original.chave],
      },
    ],
    observacoes: `CONTRA-CT-E DO CT-E ${original.chave}. MOTORISTA CPF ${pedido.motorista_cpf}, PLACA ${pedido.placa}.`,
  };
  return { ok: true, dados, inicio, fim, cfop };
}
