import { type Pool } from 'pg';
import { type DomainEvent, type Environment } from '@frete/contracts';
import { type Decider, type EspecieDocumento, type Pendencia, type RejeicaoPrevista } from '@frete/domain';
import {
  type AutoridadeFiscal,
  type ProtocoloDocumento,
  type Remetente,
  type RetornoAutorizacao,
  type RetornoConsulta,
} from '@frete/adapters';
import { type MontarXmlDeps } from './montar-xml';
import { type EstadoEmitido, type PassoDaEmissao, type PedidoDeXml, type XmlDaEmissao } from './emissor';

/** What `preparar` finds of a document not issued yet. */
export interface Preparado {
  pendencias: Pendencia[];
  /** Unsigned; null while what it is built from is missing. */
  xml: string | null;
  chave: string | null;
  rejeicoes: RejeicaoPrevista[];
}

/**
 * One kind of issued document as the application issues it: the domain's description (`CTE`, `MDFE`) plus only what
 * is this layer's — its decider and commands, the check an issue request runs, its XML engine, and which calls of the
 * authority issue and consult it. `EmissorDocumento` and the issue handler (`pedidoDeEmissao`) both take it.
 */
export interface DocumentoEmitido<C, S extends EstadoEmitido, E extends DomainEvent> {
  fiscal: EspecieDocumento;
  decider: Decider<C, S, E>;
  /** The command asking for the issue in a series. */
  solicitar: (documento: { id: string; companyId: string }, serie: number) => C;
  /**
   * The unsigned XML an issue would build with a provisional number, what the document still lacks (configuration,
   * certificate, its data) and which rules of the authority that XML breaks: an issue is requested only when nothing
   * is lacking nor broken, and a preview shows all of it.
   */
  preparar: (
    deps: { pool: Pool; environment: Environment },
    documento: { id: string; companyId: string; dados: S['dados']; numero: number; now: Date },
  ) => Promise<Preparado>;
  /** The XML an issue sends, with its number: built, signed with the company's certificate and validated. */
  montarXml: (deps: MontarXmlDeps, pedido: PedidoDeXml<S>) => Promise<XmlDaEmissao>;
  autorizar: (autoridade: AutoridadeFiscal, xml: string, remetente: Remetente) => Promise<RetornoAutorizacao>;
  consultar: (autoridade: AutoridadeFiscal, chave: string, remetente: Remetente) => Promise<RetornoConsulta>;
  /** The archived document with its protocol, byte for byte (`montarCteProc`, `montarMdfeProc`). */
  proc: (signed: string, protocolo: ProtocoloDocumento) => string;
  /** The command each step the emitter learned becomes. */
  comando: (documento: { id: string; companyId: string }, passo: PassoDaEmissao) => C;
}
