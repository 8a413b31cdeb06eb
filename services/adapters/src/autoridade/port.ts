import { Rejection } from '@frete/domain';

/**
 * The fiscal authority behind a port: who authorizes CT-e and MDF-e and registers their events. The sandbox answers
 * through the simulated authority (`simulada.ts`, ruling 12); production, while no provider is contracted, through
 * `indisponivel.ts` (ruling 7). A provider's adapter replaces either without touching the callers.
 *
 * Every answer carries the authority's real status code (`cStat`) and text (`xMotivo`, as the manuals write it).
 *
 * **No answer.** A call whose outcome is unknown (the request may or may not have reached the authority, e.g. a
 * timeout) resolves to `{ tipo: 'sem_resposta' }`; it is never thrown. The caller must then treat the document as
 * possibly authorized: ask `consultarCte`/`consultarMdfe` before anything else, and never build a new document (a new
 * key) for the same number while the result is unknown. Resubmitting the *same* signed XML is safe: the authority
 * answers `204` (or `539` for another key of the same number) carrying the protocol it had issued. An adapter turns
 * its transport's timeouts and broken connections after sending into `sem_resposta`; a thrown error means the call
 * did not take place (`ProvedorIndisponivel`: the request was never sent) or a bug.
 *
 * **Processing.** `em_processamento` (`cStat` 105) is a conclusive "not yet": ask again later (consultation, or the
 * same XML again); the authority has it and will decide.
 */

export type ModeloFiscal = 'cte' | 'mdfe';

/** Where the authority stands on a document it knows. */
export type SituacaoDocumento = 'autorizado' | 'denegado' | 'cancelado' | 'encerrado';

/**
 * The authority's protocol of a document it processed (authorization `100`, or denial `301`–`306`), with the
 * `protCTe`/`protMDFe` element exactly as the authority wrote it.
 */
export interface ProtocoloDocumento {
  modelo: ModeloFiscal;
  chave: string;
  /** 1 production, 2 homologação. */
  tpAmb: 1 | 2;
  verAplic: string;
  cStat: number;
  xMotivo: string;
  /** 15 digits. */
  nProt: string;
  /** `AAAA-MM-DDTHH:MM:SS-03:00`. */
  dhRecbto: string;
  /** Base64 SHA-1 digest of the signed `infCte`/`infMDFe` (the signature's DigestValue). */
  digVal: string;
  /**
   * The `protCTe` (or `protMDFe`) element as the authority writes it, namespace declared: the archived `cteProc` is
   * `<cteProc xmlns=… versao="4.00">` + the signed `CTe` + this, byte for byte (see `montarCteProc`).
   */
  xml: string;
}

/** The authority's protocol of a registered event, with its `retEventoCTe`/`retEventoMDFe` element. */
export interface ProtocoloEvento {
  modelo: ModeloFiscal;
  /** `ID` + tpEvento + key + nSeqEvento, as the event's `infEvento/@Id`. */
  idEvento: string;
  chave: string;
  tpEvento: string;
  nSeqEvento: number;
  cOrgao: string;
  tpAmb: 1 | 2;
  verAplic: string;
  /** 135 registered and linked to the document, 136 registered but not linked. */
  cStat: number;
  xMotivo: string;
  xEvento: string;
  nProt: string;
  dhRegEvento: string;
  /** The `retEventoCTe` (or `retEventoMDFe`) element as the authority writes it (see `montarProcEventoCte`). */
  xml: string;
}

export interface SemResposta {
  tipo: 'sem_resposta';
  /** What happened, for logs; never shown to API clients. */
  motivo: string;
}

export interface Rejeitado {
  tipo: 'rejeitado';
  cStat: number;
  xMotivo: string;
}

export interface EmProcessamento {
  tipo: 'em_processamento';
  cStat: 105;
  xMotivo: string;
}

export type RetornoAutorizacao =
  | { tipo: 'autorizado'; cStat: 100; xMotivo: string; protocolo: ProtocoloDocumento }
  /** Use denied (CT-e 301–306): the number is spent, the document has no fiscal value. */
  | { tipo: 'denegado'; cStat: number; xMotivo: string; protocolo: ProtocoloDocumento }
  /**
   * The number was already processed (Anexo I G157/G158): `204` for the same key, `539` for another key of the same
   * number. `protocolo` is the existing document's protocol (its key in `protocolo.chave`), `situacao` where it stands
   * now; `mesmoConteudo` tells whether the submitted XML is the one authorized (same key and same digest), i.e.
   * whether the caller may build its `cteProc` from what it sent.
   */
  | {
      tipo: 'duplicidade';
      cStat: 204 | 539;
      xMotivo: string;
      situacao: SituacaoDocumento;
      mesmoConteudo: boolean;
      protocolo: ProtocoloDocumento;
    }
  | Rejeitado
  | EmProcessamento
  | SemResposta;

export type RetornoConsulta =
  | {
      tipo: 'encontrado';
      /** 100 authorized, 101 cancelled, 132 closed (MDF-e), 110 denied. */
      cStat: number;
      xMotivo: string;
      situacao: SituacaoDocumento;
      protocolo: ProtocoloDocumento;
      /** The registered events, in the order the authority received them (cancelled delivery proofs included). */
      eventos: ProtocoloEvento[];
      /** `idEvento` of the events received and still in processing. */
      eventosEmProcessamento: string[];
    }
  /** The authority never received the document (or rejected it): it is safe to send it. */
  | { tipo: 'nao_encontrado'; cStat: 217; xMotivo: string }
  | EmProcessamento
  | Rejeitado
  | SemResposta;

export type RetornoEvento =
  | { tipo: 'registrado'; cStat: number; xMotivo: string; protocolo: ProtocoloEvento }
  /** The same event (key, type, sequence) was already registered: `631`, carrying its protocol. */
  | { tipo: 'duplicidade'; cStat: 631; xMotivo: string; protocolo: ProtocoloEvento }
  | Rejeitado
  | EmProcessamento
  | SemResposta;

/**
 * Who calls: the company whose A1 certificate opens the channel (mutual TLS with the authority's web services, the
 * same certificate that signed the document). The simulated authority in process does not need it.
 */
export interface Remetente {
  companyId: string;
}

/**
 * The authority's service status (`consStatServCTe`/`consStatServMDFe`): 107 in operation, 108 paralysed briefly,
 * 109 paralysed without forecast.
 */
export type RetornoStatusServico =
  | {
      tipo: 'status';
      cStat: number;
      xMotivo: string;
      /** 1 production, 2 homologação. */
      tpAmb: 1 | 2;
      verAplic: string;
      cUF: string;
      dhRecbto: string;
      /** Average answer time in seconds, when the authority tells it. */
      tMed: number | null;
      /** When the authority expects to be back (108/109), when it tells it. */
      dhRetorno: string | null;
      xObs: string | null;
    }
  | Rejeitado
  | SemResposta;

/** The MDF-e of an emitter still not closed (`consMDFeNaoEnc`): 111 some found, 112 none. */
export type RetornoNaoEncerrados =
  | { tipo: 'consultado'; cStat: 111 | 112; xMotivo: string; mdfes: { chave: string; nProt: string }[] }
  | Rejeitado
  | SemResposta;

/**
 * The channel itself said no (108/109 service paralysed, 678 consumo indevido) or broke before the authority could
 * process anything (an HTTP 5xx, a SOAP fault, a refused connection): the request was not processed; try again after
 * `tentarApos`. The edge answers 503 `autoridade_indisponivel` with `Retry-After`; an issue or a batch waits and
 * resumes. Never a verdict on the document.
 */
export class AutoridadeIndisponivel extends Rejection {
  constructor(
    readonly motivo: 'paralisada' | 'consumo_indevido' | 'falha_no_servidor' | 'sem_conexao' | 'servidor_nao_confiavel',
    readonly cStat: number | null,
    readonly xMotivo: string,
    /** When to try again (the adapter sends nothing to that authorizer for that emitter before it). */
    readonly tentarApos: Date,
  ) {
    super(
      'autoridade_indisponivel',
      `the fiscal authority is unavailable (${cStat ?? motivo}: ${xMotivo}); try again after ${tentarApos.toISOString()}`,
      {
        cstat: cStat,
        motivo: xMotivo,
        tentar_apos: tentarApos.toISOString(),
      },
    );
    this.name = 'AutoridadeIndisponivel';
  }
}

/**
 * The authority's server refused the TLS client certificate (the company's A1): nothing was processed. 422
 * `certificado_recusado_pela_autoridade`: the carrier must send a valid ICP-Brasil A1 (`POST /fiscal/certificado`).
 */
export class CertificadoRecusadoPelaAutoridade extends Rejection {
  constructor(readonly detalhe: string) {
    super(
      'certificado_recusado_pela_autoridade',
      `the fiscal authority refused the company's A1 certificate as TLS client certificate (${detalhe}); send a valid ICP-Brasil A1 (POST /fiscal/certificado)`,
    );
    this.name = 'CertificadoRecusadoPelaAutoridade';
  }
}

export interface AutoridadeFiscal {
  /**
   * False when no provider is contracted (production before one is): callers refuse at once with 503
   * `provedor_indisponivel` instead of recording an issue that can never be sent.
   */
  readonly disponivel: boolean;
  /** Authorizes a signed CT-e 4.00 (`<CTe>`, XML declaration optional), synchronously, one per call. */
  autorizarCte(xmlAssinado: string, remetente: Remetente): Promise<RetornoAutorizacao>;
  consultarCte(chave: string, remetente: Remetente): Promise<RetornoConsulta>;
  /**
   * Registers a signed `eventoCTe` 4.00: cancelamento 110111, carta de correção 110110, comprovante de entrega 110180 and its
   * cancelamento 110181, all of the emitter; and the taker's prestação do serviço em desacordo 610110 and its cancelamento
   * 610111. Each goes to the authorizer of the CT-e its key names (MOC 4.00 Visão Geral §3.7.1), whoever signs it.
   */
  registrarEventoCte(xmlEventoAssinado: string, remetente: Remetente): Promise<RetornoEvento>;
  /** Authorizes a signed MDF-e 3.00 (`<MDFe>`). */
  autorizarMdfe(xmlAssinado: string, remetente: Remetente): Promise<RetornoAutorizacao>;
  consultarMdfe(chave: string, remetente: Remetente): Promise<RetornoConsulta>;
  /** Registers a signed `eventoMDFe` 3.00: cancelamento 110111, encerramento 110112, inclusão de condutor 110114. */
  registrarEventoMdfe(xmlEventoAssinado: string, remetente: Remetente): Promise<RetornoEvento>;
  /** The service status of the authorizer of `cUF` (IBGE code) for the model. */
  statusServico(modelo: ModeloFiscal, cUF: string, remetente: Remetente): Promise<RetornoStatusServico>;
  /** The emitter's (CNPJ, or CPF) MDF-e not yet closed, asked of the authorizer of `cUF`. */
  consultarMdfeNaoEncerrados(documento: string, cUF: string, remetente: Remetente): Promise<RetornoNaoEncerrados>;
}
