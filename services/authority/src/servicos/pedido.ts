import {
  type AutoridadeFiscal,
  type AutoridadeFiscalSimulada,
  elementosBrutos,
  type ModeloFiscal,
  namespaceWsdl,
  PORTAL_NS,
  type Remetente,
  type ServicoSefaz,
  xMotivoDe,
} from '@frete/adapters';
import { childElements, type FiscalRootSchema, type FiscalSchemas, type XmlElement } from '@frete/documents';
import { type Cabecalho } from './retornos';

/** A SOAP request the door has read: the service's `cteDadosMsg`/`mdfeDadosMsg` and the body as received. */
export interface Pedido {
  servico: ServicoSefaz;
  modelo: ModeloFiscal;
  /** The `cteDadosMsg`/`mdfeDadosMsg` element. */
  dados: XmlElement;
  /** The `cteCabecMsg`/`mdfeCabecMsg` element, when sent. */
  cabecalho: XmlElement | null;
  /** The request body as received: signed content is passed on from it, byte for byte. */
  texto: string;
  /** Who opened the channel (the client certificate). */
  remetente: Remetente;
}

/** The authorizer behind the door: its rules (the simulated authority, as the port), and what its answers say. */
export interface Balcao {
  autoridade: AutoridadeFiscal;
  /** The same authority, for what only it keeps (the events as received). */
  simulada: AutoridadeFiscalSimulada;
  schemas: FiscalSchemas;
  cabecalho: Cabecalho;
  agora: () => Date;
}

export type Resposta =
  /** The service's answer element (`retCTe`, `retConsSitCTe`, …). */
  | { tipo: 'retorno'; xml: string }
  /** Processed, and the answer is lost: the door drops the connection without answering. */
  | { tipo: 'sem_resposta' };

export type Servico = (pedido: Pedido, balcao: Balcao) => Promise<Resposta>;

export const retorno = (xml: string): Resposta => ({ tipo: 'retorno', xml });

/** A refusal of the door itself, before the rules are asked: its status and text. */
export class RecusaDoPedido {
  readonly xMotivo: string;
  constructor(
    modelo: ModeloFiscal,
    readonly cStat: number,
    detalhe?: string,
  ) {
    this.xMotivo = xMotivoDe(modelo, cStat, detalhe);
  }
}

/** The text of the child `nome` of `el` (in any namespace), or null. */
export const textoDe = (el: XmlElement | null | undefined, nome: string): string | null => {
  const filho = el ? childElements(el).find((c) => c.localName === nome) : undefined;
  return filho ? (filho.textContent ?? '') : null;
};

/**
 * The message a plain-XML service carries (`consSitCTe`, `eventoCTe`, …): the one element of the data area, in the
 * portal namespace, as a DOM element and as sent (with its namespace declared). Refused with 215 otherwise: a
 * prefixed element cannot be taken out byte for byte, and a signature holds only over the bytes as sent.
 */
export function mensagemDoPedido(pedido: Pedido, raiz: string): { el: XmlElement; bruto: string } {
  const ns = PORTAL_NS[pedido.modelo];
  const elementos = childElements(pedido.dados);
  const el = elementos[0];
  if (elementos.length !== 1 || !el || el.localName !== raiz || el.namespaceURI !== ns) {
    const veio = el ? `${el.localName ?? el.nodeName} em ${el.namespaceURI ?? 'nenhum namespace'}` : 'nada';
    throw new RecusaDoPedido(pedido.modelo, 215, `[a área de dados deve conter um ${raiz} em ${ns}; veio ${veio}]`);
  }
  const area = `${pedido.modelo}DadosMsg`;
  const dados = elementosBrutos(pedido.texto, area, namespaceWsdl(pedido.servico))[0] ?? pedido.texto;
  const bruto = elementosBrutos(dados, raiz, ns)[0];
  if (!bruto) throw new RecusaDoPedido(pedido.modelo, 215, `[${raiz} deve vir sem prefixo de namespace]`);
  return { el, bruto };
}

/** The message against its official schema (215, naming the first error, as the simulated authority does). */
export async function validarMensagem(balcao: Balcao, modelo: ModeloFiscal, bruto: string, schema: FiscalRootSchema): Promise<void> {
  const resultado = await balcao.schemas.validate(bruto, schema);
  if (resultado.valid) return;
  const erro = resultado.errors[0]!;
  throw new RecusaDoPedido(modelo, 215, `[${erro.path ?? `linha ${erro.line}`}: ${erro.message}]`);
}

/** `tpAmb` of a query against the environment the door plays (252, as for documents). */
export function conferirAmbiente(balcao: Balcao, modelo: ModeloFiscal, el: XmlElement): void {
  if (textoDe(el, 'tpAmb') !== String(balcao.cabecalho.tpAmb)) throw new RecusaDoPedido(modelo, 252);
}
