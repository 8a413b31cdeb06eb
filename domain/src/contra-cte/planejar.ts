import { type CodigoLinhaLote, type CteLido, type CteRascunho, type Environment, type LocalPrestacao, type Uf } from '@frete/contracts';
import { normalizeCnpj } from '../fiscal/documents';
import { regraAplicavel, type RegraDaRota } from '../regra-tributacao/aplicavel';
import { type CancelamentoDoContratante, lerContratante, recusaDoCancelamento } from './contratante';
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
export type RecusaContraCte = Extract<
  CodigoLinhaLote,
  | 'cte_proprio'
  | 'origem_incompativel_com_tipo'
  | 'cte_original_invalido'
  | 'cte_contratante_cancelado'
  | 'redespacho_exige_rota'
  | 'sem_regra_tributacao'
>;

export type PlanoContraCte =
  | { ok: true; dados: CteRascunho; inicio: LocalIbge; fim: LocalIbge; cfop: string }
  | { ok: false; code: RecusaContraCte; message: string };

const mesmoLocal = (a: LocalIbge, b: LocalIbge) => a.codigo_ibge === b.codigo_ibge;

const TIPOS_OUTROS = ['00', '10', '59', '65', '99'] as const;
type TipoOutros = (typeof TIPOS_OUTROS)[number];
const dataCte = (d: string | null) => (d && /^20[0-9]{2}-[0-9]{2}-[0-9]{2}$/.test(d) ? d : null);

/**
 * The contractor's transported documents, passed on as they are (G036: a subcontracting needs infDoc): its NF-e keys
 * or its other documents (infOutros). Paper invoices (infNF) are not passed on: the draft does not carry them.
 */
function documentosDoContratante(original: CteLido): Pick<CteRascunho, 'documentos'> {
  if (original.nfe_chaves.length > 0) return { documentos: { nfe: original.nfe_chaves.map((chave) => ({ chave })) } };
  const outros = (original.outros_documentos ?? []).filter(
    (d): d is typeof d & { modelo: TipoOutros } => d.tipo === 'outros' && TIPOS_OUTROS.includes(d.modelo as TipoOutros),
  );
  if (outros.length === 0) return {};
  return {
    documentos: {
      outros: outros.map((d) => {
        const emissao = dataCte(d.emissao);
        // descOutros is optional in the layout; the product asks it of tpDoc 99, and the manual's own name for 99 is
        // "Outros" (MOC 4.00 Anexo I, field 313): a contractor's tpDoc 99 without it is passed on under that name.
        const descricao = d.descricao?.trim() ? d.descricao.trim().slice(0, 100) : d.modelo === '99' ? 'OUTROS' : null;
        return {
          tipo_documento: d.modelo,
          ...(descricao ? { descricao } : {}),
          ...(d.numero ? { numero: d.numero.slice(0, 20) } : {}),
          ...(emissao ? { data_emissao: emissao } : {}),
          ...(d.valor_centavos !== null ? { valor: reaisDeCentavos(d.valor_centavos) } : {}),
        };
      }),
    },
  };
}

/**
 * The subcontractor's CT-e made of the contractor's (spec "Counter-CT-e concept"): sender, recipient, cargo,
 * transported NF-e and taxation come from the contractor's XML; the contractor is the taker (`toma4`) and its CT-e
 * is referenced in `docAnt` (ruling 16, G059/G062/G063); the price, driver and vehicle are the subcontractor's.
 * Pure: the caller brings the inbox document, its cancellation when the inbox recorded one, its own tax rules and the
 * request.
 */
export function planejarContraCte(
  original: CteLido,
  emitente: EmitenteContraCte,
  pedido: PedidoContraCte,
  regras: readonly RegraContraCte[],
  cancelamento: CancelamentoDoContratante | null = null,
): PlanoContraCte {
  // A cancelled CT-e is no service to subcontract any more (issue 30): refused before anything is read of it.
  if (cancelamento) {
    const recusa = recusaDoCancelamento(original.chave, cancelamento);
    return { ok: false, code: recusa.code, message: recusa.message };
  }
  // What the contractor's CT-e gives whatever the request, or why it admits none: the receipt's verdict (one function).
  const lido = lerContratante(original, emitente.cnpj, emitente.environment);
  if (!lido.ok) return { ok: false, code: lido.recusa.code, message: lido.recusa.message };
  const doContratante = lido.dados;

  const tipo = pedido.tipo_servico;
  const declarada = pedido.origem !== null && pedido.destino !== null;
  if (tipo !== 1) {
    if (!declarada) {
      return { ok: false, code: 'redespacho_exige_rota', message: `tipo_servico ${tipo} (redispatch) needs the leg's origem and destino` };
    }
    if (mesmoLocal(pedido.origem!, doContratante.inicio) && mesmoLocal(pedido.destino!, doContratante.fim)) {
      return {
        ok: false,
        code: 'redespacho_exige_rota',
        message: `tipo_servico ${tipo} (redispatch) covers part of the trip; ${pedido.origem!.municipio}/${pedido.origem!.uf} → ${pedido.destino!.municipio}/${pedido.destino!.uf} is the contractor's whole route`,
      };
    }
  }
  const inicio = pedido.origem ?? doContratante.inicio;
  const fim = pedido.destino ?? doContratante.fim;

  const regra = regraAplicavel(regras, inicio.uf, fim.uf, tipo);
  if (!regra) {
    return {
      ok: false,
      code: 'sem_regra_tributacao',
      message: `no tax rule applies to ${inicio.uf} → ${fim.uf} for tp_serv ${tipo} (GET /fiscal/regras-tributacao)`,
    };
  }
  const cfop = cfopContraCte({ ufEmitente: emitente.uf, ufInicio: inicio.uf, ufFim: fim.uf, regra });

  const { contratante, remetente, destinatario } = doContratante;
  // Intermediate redispatch names who hands the cargo over and who receives it (G055/G056).
  const expedidor = doContratante.expedidor ?? (tipo === 3 ? remetente : null);
  const recebedor = doContratante.recebedor ?? (tipo === 3 ? destinatario : null);
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
    ...documentosDoContratante(original),
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
