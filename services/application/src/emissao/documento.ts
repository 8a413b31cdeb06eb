import { type Pool } from 'pg';
import { type DomainEvent, type Environment } from '@frete/contracts';
import { type Decider, type EspecieDocumento, type RejeicaoPrevista } from '@frete/domain';
import {
  type AutoridadeFiscal,
  type ProtocoloDocumento,
  type Remetente,
  type RetornoAutorizacao,
  type RetornoConsulta,
} from '@frete/adapters';
import { type EstadoEmitido, type PassoDaEmissao } from './emissor';

export interface Pendencia {
  campo: string;
  mensagem: string;
}

/**
 * One kind of issued document as the application issues it: the domain's description (`CTE`, `MDFE`) plus only what
 * is this layer's — its decider and commands, the check an issue request runs, and which calls of the authority issue
 * and consult it. `EmissorDocumento` and the issue handler (`pedidoDeEmissao`) both take it; the XML engine is the
 * emitter's dependency (`EmissaoDeps.montarXml`), chosen where the application is composed.
 */
export interface DocumentoEmitido<C, S extends EstadoEmitido, E extends DomainEvent> {
  fiscal: EspecieDocumento;
  decider: Decider<C, S, E>;
  /** The command asking for the issue in a series. */
  solicitar: (documento: { id: string; companyId: string }, serie: number) => C;
  /**
   * What a draft still lacks (configuration, certificate, its data) and which rules of the authority the XML an issue
   * would build breaks, with a provisional number: an issue is requested only when both are empty.
   */
  preparar: (
    deps: { pool: Pool; environment: Environment },
    documento: { id: string; companyId: string; state: S; now: Date },
  ) => Promise<{ pendencias: Pendencia[]; rejeicoes: RejeicaoPrevista[] }>;
  autorizar: (autoridade: AutoridadeFiscal, xml: string, remetente: Remetente) => Promise<RetornoAutorizacao>;
  consultar: (autoridade: AutoridadeFiscal, chave: string, remetente: Remetente) => Promise<RetornoConsulta>;
  /** The archived document with its protocol, byte for byte (`montarCteProc`, `montarMdfeProc`). */
  proc: (signed: string, protocolo: ProtocoloDocumento) => string;
  /** The command each step the emitter learned becomes. */
  comando: (documento: { id: string; companyId: string }, passo: PassoDaEmissao) => C;
}
