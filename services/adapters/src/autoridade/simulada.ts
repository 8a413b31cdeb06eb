import { createHash } from 'node:crypto';
import { type Pool, type PoolClient } from 'pg';
import {
  UFS,
  campoVedadoNaCce,
  cnpjRoot,
  isValidAccessKey,
  isValidCnpj,
  isValidCpf,
  rejeicoesPrevistas,
  dhSaoPaulo,
  type CertificadoLido,
} from '@frete/domain';
import { describeCertificate } from '@frete/platform';
import {
  childElements,
  FiscalSchemas,
  type FiscalRootSchema,
  parseForSignature,
  verifyFiscalSignature,
  XMLDSIG_NS,
  type XmlElement,
  type XmlNode,
} from '@frete/documents';
import { xMotivoDe } from './codigos';
import {
  protocoloCanceladoPeloTomador,
  recusaDoAutor,
  recusaDoEventoDoTomador,
  TIPOS_EVENTO_TOMADOR,
  TP_CANCELAMENTO_DESACORDO,
  TP_DESACORDO,
  tomadorDoCte,
} from './tomador';
import {
  type AutoridadeFiscal,
  type EmProcessamento,
  type ModeloFiscal,
  type ProtocoloDocumento,
  type ProtocoloEvento,
  type Rejeitado,
  type RetornoAutorizacao,
  type RetornoConsulta,
  type RetornoEvento,
  type RetornoNaoEncerrados,
  type RetornoStatusServico,
  type SituacaoDocumento,
} from './port';
import { type SentinelaDocumento, type SentinelaEvento, lerSentinelaDocumento, lerSentinelaEvento } from './sentinelas';
import { AmbienteNacionalSimulado } from '../distribuicao/ambiente-nacional';

/**
 * The sandbox's fiscal authority (ruling 12), simulated by the service. It checks what a real authority checks
 * first, in the manual's order, and answers with the manual's codes:
 *
 * document (CT-e 4.00 / MDF-e 3.00): well-formed (243) → official schema, then the modal's (225 / 580) → signature
 * (profile 298, digest or value 297, certificate unreadable 290, outside its validity at the clock 291, without CNPJ
 * 292) → tpAmb 2 (252) → cUF served (226) and the emitter's UF (247) → key = concatenation of cUF, AAMM of dhEmi,
 * CNPJ, mod, serie, number, tpEmis, code, cDV (227) with a valid check digit (253) → emitter CNPJ (207) → CNPJ root of
 * the certificate (213) → an unknown sentinel (999) → duplicates (204 same key, 539 another key of the same number;
 * G157/G158) → `SIMULAR:REJEICAO` → authorized (100, protocol derived from the content) or denied (301–306, by
 * sentinel only: MOC 4.00 keeps denial for old documents).
 *
 * event: well-formed (243) → schema (215), event-specific schema (630) → signature as above → tpAmb (252) → key check
 * digit (236) → Id = "ID" + tpEvento + key + nSeqEvento (628) → cOrgao = the key's UF (677, CT-e) → author's CNPJ
 * (627) and certificate (213) → tpEvento served (629) → document known (217) → author = emitter (632), or the CT-e's
 * taker for its 610110/610111 (755) → duplicate
 * (631, carrying the registered event's protocol) → document state (205 denied, 218 cancelled, 609 closed MDF-e) →
 * the event's rules → `SIMULAR:REJEICAO` → registered (135).
 *
 * Deterministic: the same request in the same state gets the same answer. nProt is derived from the key (or the
 * event's Id) and the signed digest, digVal is the signature's DigestValue, dhRecbto/dhRegEvento come from `clock`.
 * State (documents, events, what is still in processing) lives in its own tables, so it survives restarts and is
 * shared by every copy of the API; each decision runs in one transaction under one advisory lock.
 */

export interface AutoridadeSimuladaOptions {
  pool: Pool;
  clock?: () => Date;
  /** A shared validator (compiling the schemas takes a while); one of its own otherwise, stopped by `close()`. */
  schemas?: FiscalSchemas;
  /** The IBGE codes of the UFs this authority serves (226 for others); all of them by default. */
  ufsAtendidas?: readonly string[];
  /** The environment it plays: homologação (2, the default) or produção (1, a local server rehearsing production). */
  tpAmb?: 1 | 2;
  /**
   * The national environment that distributes what this authority authorizes (each CT-e, as `cteProc`, and each CT-e
   * event, as `procEventoCTe`, to the parties the CT-e names), in the same transaction as the decision; one over the
   * same pool, clock and environment by default. MDF-e are not distributed.
   */
  ambienteNacional?: AmbienteNacionalSimulado;
}

export const VER_APLIC_SIMULADA = 'SIMULADA-1.0';
/** Serialises the simulated authority's decisions across connections and processes. */
const LOCK = 7_301_512_026;
const HORA = 3_600_000;

const CTE_NS = 'http://www.portalfiscal.inf.br/cte';
const MDFE_NS = 'http://www.portalfiscal.inf.br/mdfe';

interface TipoEvento {
  det: string;
  xEvento: string;
}

interface Layout {
  modelo: ModeloFiscal;
  mod: '57' | '58';
  ns: string;
  versao: string;
  inf: string;
  prefixoId: string;
  schema: FiscalRootSchema;
  numero: string;
  codigo: string;
  /** Where the sentinel is written. */
  textoLivre: string[];
  prot: string;
  chaveTag: string;
  /** `SituacaoDocumento` → consultation cStat. */
  consulta: Record<SituacaoDocumento, number>;
  evento: { raiz: string; schema: FiscalRootSchema; ret: string; tipos: Record<string, TipoEvento>; digitosSeq: number[] };
}

const CTE: Layout = {
  modelo: 'cte',
  mod: '57',
  ns: CTE_NS,
  versao: '4.00',
  inf: 'infCte',
  prefixoId: 'CTe',
  schema: 'cte_v4.00.xsd',
  numero: 'nCT',
  codigo: 'cCT',
  textoLivre: ['compl', 'xObs'],
  prot: 'protCTe',
  chaveTag: 'chCTe',
  consulta: { autorizado: 100, cancelado: 101, denegado: 110, encerrado: 100 },
  evento: {
    raiz: 'eventoCTe',
    schema: 'eventoCTe_v4.00.xsd',
    ret: 'retEventoCTe',
    tipos: {
      '110111': { det: 'evCancCTe', xEvento: 'Cancelamento' },
      '110110': { det: 'evCCeCTe', xEvento: 'Carta de Correção' },
      '110180': { det: 'evCECTe', xEvento: 'Comprovante de Entrega do CT-e' },
      '110181': { det: 'evCancCECTe', xEvento: 'Cancelamento do Comprovante de Entrega do CT-e' },
      ...TIPOS_EVENTO_TOMADOR,
    },
    digitosSeq: [3],
  },
};

const MDFE: Layout = {
  modelo: 'mdfe',
  mod: '58',
  ns: MDFE_NS,
  versao: '3.00',
  inf: 'infMDFe',
  prefixoId: 'MDFe',
  schema: 'mdfe_v3.00.xsd',
  numero: 'nMDF',
  codigo: 'cMDF',
  textoLivre: ['infAdic', 'infCpl'],
  prot: 'protMDFe',
  chaveTag: 'chMDFe',
  consulta: { autorizado: 100, cancelado: 101, encerrado: 132, denegado: 100 },
  evento: {
    raiz: 'eventoMDFe',
    schema: 'eventoMDFe_v3.00.xsd',
    ret: 'retEventoMDFe',
    tipos: {
      '110111': { det: 'evCancMDFe', xEvento: 'Cancelamento' },
      '110112': { det: 'evEncMDFe', xEvento: 'Encerramento' },
      '110114': { det: 'evIncCondutorMDFe', xEvento: 'Inclusao Condutor' },
    },
    // The MDF-e event Id takes nSeqEvento in two digits (as its authorities write it) or three.
    digitosSeq: [2, 3],
  },
};

/** A rejection found on the way; turned into `{ tipo: 'rejeitado' }` at the edge of each call. */
class Recusa {
  constructor(
    readonly cStat: number,
    readonly detalhe?: string,
    /** The whole xMotivo, when the rule set gives it (its texts are the manual's, detail included). */
    readonly xMotivo?: string,
  ) {}
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the XML

const nome = (el: XmlNode): string => el.localName ?? el.nodeName;
const filho = (el: XmlElement | undefined, n: string): XmlElement | undefined =>
  el ? childElements(el).find((c) => nome(c) === n) : undefined;
const filhos = (el: XmlElement | undefined, n: string): XmlElement[] => (el ? childElements(el).filter((c) => nome(c) === n) : []);
const no = (el: XmlElement | undefined, ...caminho: string[]): XmlElement | undefined => caminho.reduce<XmlElement | undefined>(filho, el);
const texto = (el: XmlElement | undefined, ...caminho: string[]): string | null => {
  const n = no(el, ...caminho);
  return n ? (n.textContent ?? '') : null;
};
/** The texts of every element reached by `caminho`, following every repetition on the way. */
const todos = (el: XmlElement | undefined, caminho: string[]): string[] => {
  let nivel = el ? [el] : [];
  for (const passo of caminho) nivel = nivel.flatMap((e) => filhos(e, passo));
  return nivel.map((e) => e.textContent ?? '');
};
/** Every leaf text under `el`, each apart (so that two fields never run into one token). */
const textosFolha = (el: XmlElement | undefined): string => {
  if (!el) return '';
  const kids = childElements(el);
  return kids.length === 0 ? (el.textContent ?? '') : kids.map(textosFolha).join(' ');
};

function lerXml(xml: string): XmlElement {
  const parsed = parseForSignature(xml);
  if ('refused' in parsed) throw new Recusa(243);
  return parsed.doc.documentElement!;
}

/** The DigestValue of the signature of `raiz` (the document's own, checked before). */
function digestOf(raiz: XmlElement): string {
  const assinatura = childElements(raiz).find((c) => nome(c) === 'Signature' && c.namespaceURI === XMLDSIG_NS);
  return (texto(assinatura, 'SignedInfo', 'Reference', 'DigestValue') ?? '').trim();
}

const escapar = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** 15 digits: 1 (authorizer), cUF, year, and 10 digits derived from `semente` (the key or event Id and the digest). */
function gerarNProt(cUF: string, dh: string, semente: string): string {
  const h = BigInt(`0x${createHash('sha256').update(semente).digest('hex').slice(0, 24)}`);
  return `1${cUF}${dh.slice(2, 4)}${(h % 10_000_000_000n).toString().padStart(10, '0')}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Rows

interface DocumentoRow {
  chave: string;
  /** The CT-e's taker (CNPJ, or 000 + CPF): the author of 610110/610111. Null for an MDF-e or a row older than the column. */
  tomador: string | null;
  modelo: string;
  c_uf: string;
  emitente: string;
  serie: number;
  numero: string;
  situacao: SituacaoDocumento | 'processando';
  consultas_restantes: number;
  c_stat: number;
  x_motivo: string;
  ver_aplic: string;
  n_prot: string;
  dh_recbto: string;
  recebido_em: Date;
  dig_val: string;
  prot_xml: string;
  tipo_documento: string | null;
  tp_serv: string | null;
  referencias: string[];
  nfes: string[];
}

interface EventoRow {
  chave: string;
  tp_evento: string;
  n_seq_evento: number;
  id_evento: string;
  situacao: 'processando' | 'registrado' | 'cancelado';
  consultas_restantes: number;
  c_stat: number;
  x_motivo: string;
  x_evento: string;
  ver_aplic: string;
  c_orgao: string;
  n_prot: string;
  dh_reg_evento: string;
  registrado_em: Date;
  dig_val: string;
  ret_xml: string;
  n_prot_alvo: string | null;
  ordem: string;
  /** The signed event as received (null for events registered before the column). */
  evento_xml: string | null;
}

const protocoloDe = (layout: Layout, r: DocumentoRow, tpAmb: 1 | 2): ProtocoloDocumento => ({
  modelo: layout.modelo,
  chave: r.chave,
  tpAmb,
  verAplic: r.ver_aplic,
  cStat: r.c_stat,
  xMotivo: r.x_motivo,
  nProt: r.n_prot,
  dhRecbto: r.dh_recbto,
  digVal: r.dig_val,
  xml: r.prot_xml,
});

const protocoloEventoDe = (layout: Layout, r: EventoRow, tpAmb: 1 | 2): ProtocoloEvento => ({
  modelo: layout.modelo,
  idEvento: r.id_evento,
  chave: r.chave,
  tpEvento: r.tp_evento,
  nSeqEvento: r.n_seq_evento,
  cOrgao: r.c_orgao,
  tpAmb,
  verAplic: r.ver_aplic,
  cStat: r.c_stat,
  xMotivo: r.x_motivo,
  xEvento: r.x_evento,
  nProt: r.n_prot,
  dhRegEvento: r.dh_reg_evento,
  xml: r.ret_xml,
});

// ---------------------------------------------------------------------------------------------------------------

interface DocumentoLido {
  chave: string;
  cUF: string;
  emitente: string;
  serie: number;
  numero: number;
  digVal: string;
  tipoDocumento: string | null;
  tpServ: string | null;
  referencias: string[];
  nfes: string[];
  tomador: string | null;
  sentinela: SentinelaDocumento | null;
}

interface EventoLido {
  idEvento: string;
  chave: string;
  cOrgao: string;
  autor: string;
  tpEvento: string;
  nSeqEvento: number;
  det: XmlElement;
  digVal: string;
  sentinela: SentinelaEvento | null;
}

export class AutoridadeFiscalSimulada implements AutoridadeFiscal {
  readonly disponivel = true;
  private readonly certificados = new Map<string, CertificadoLido | null>();
  private readonly pool: Pool;
  private readonly clock: () => Date;
  private readonly schemas: FiscalSchemas;
  private readonly ownSchemas: boolean;
  private readonly ufsAtendidas: ReadonlySet<string>;
  private readonly tpAmb: 1 | 2;
  /** Where what is authorized or registered here is distributed (the national environment). */
  readonly ambienteNacional: AmbienteNacionalSimulado;

  constructor(options: AutoridadeSimuladaOptions) {
    this.tpAmb = options.tpAmb ?? 2;
    this.pool = options.pool;
    this.clock = options.clock ?? (() => new Date());
    this.ambienteNacional =
      options.ambienteNacional ?? new AmbienteNacionalSimulado({ pool: this.pool, clock: this.clock, tpAmb: this.tpAmb });
    this.ownSchemas = !options.schemas;
    this.schemas = options.schemas ?? new FiscalSchemas();
    this.ufsAtendidas = new Set(options.ufsAtendidas ?? UFS.map((u) => u.codigo_ibge));
  }

  /** Stops the schema validator when it is this authority's own. */
  async close(): Promise<void> {
    if (this.ownSchemas) await this.schemas.close();
  }

  // The caller (`Remetente`) opens a channel to a real authority; here the rules run in this process.
  autorizarCte(xmlAssinado: string): Promise<RetornoAutorizacao> {
    return this.responder(CTE, () => this.autorizar(CTE, xmlAssinado));
  }

  consultarCte(chave: string): Promise<RetornoConsulta> {
    return this.responder(CTE, () => this.consultar(CTE, chave));
  }

  registrarEventoCte(xmlEventoAssinado: string): Promise<RetornoEvento> {
    return this.responder(CTE, () => this.registrarEvento(CTE, xmlEventoAssinado));
  }

  autorizarMdfe(xmlAssinado: string): Promise<RetornoAutorizacao> {
    return this.responder(MDFE, () => this.autorizar(MDFE, xmlAssinado));
  }

  consultarMdfe(chave: string): Promise<RetornoConsulta> {
    return this.responder(MDFE, () => this.consultar(MDFE, chave));
  }

  registrarEventoMdfe(xmlEventoAssinado: string): Promise<RetornoEvento> {
    return this.responder(MDFE, () => this.registrarEvento(MDFE, xmlEventoAssinado));
  }

  /** Always in operation (107): paralysis is a fault the local server's front door injects, not a rule. */
  statusServico(modelo: ModeloFiscal, cUF: string): Promise<RetornoStatusServico> {
    const layout = modelo === 'cte' ? CTE : MDFE;
    return this.responder(layout, async () => {
      if (!this.ufsAtendidas.has(cUF)) throw new Recusa(226);
      return {
        tipo: 'status',
        cStat: 107,
        xMotivo: xMotivoDe(modelo, 107),
        tpAmb: this.tpAmb,
        verAplic: VER_APLIC_SIMULADA,
        cUF,
        dhRecbto: dhSaoPaulo(this.clock()),
        tMed: 1,
        dhRetorno: null,
        xObs: null,
      };
    });
  }

  /** The emitter's MDF-e authorized and neither closed nor cancelled (111), or none (112). */
  consultarMdfeNaoEncerrados(documento: string): Promise<RetornoNaoEncerrados> {
    return this.responder(MDFE, async () => {
      const emitente = /^[0-9]{11}$/.test(documento) ? `000${documento}` : documento;
      if (!/^[0-9]{14}$|^[A-Z0-9]{12}[0-9]{2}$/.test(emitente)) throw new Recusa(215);
      const { rows } = await this.pool.query<{ chave: string; n_prot: string }>(
        `SELECT chave, n_prot FROM autoridade_simulada_documentos
          WHERE modelo = '58' AND emitente = $1 AND situacao = 'autorizado' ORDER BY recebido_em, chave`,
        [emitente],
      );
      const cStat = rows.length > 0 ? 111 : 112;
      return {
        tipo: 'consultado',
        cStat,
        xMotivo: xMotivoDe('mdfe', cStat),
        mdfes: rows.map((r) => ({ chave: r.chave, nProt: r.n_prot })),
      };
    });
  }

  /**
   * The signed events of a document as this authority received them, byte for byte (`idEvento` → XML): what a
   * front door needs to answer a consultation with `procEventoCTe`/`procEventoMDFe` (the local authority server).
   * Events registered before the authority kept them are missing.
   */
  async eventosRecebidos(chave: string): Promise<Map<string, string>> {
    const { rows } = await this.pool.query<{ id_evento: string; evento_xml: string }>(
      'SELECT id_evento, evento_xml FROM autoridade_simulada_eventos WHERE chave = $1 AND evento_xml IS NOT NULL ORDER BY ordem',
      [chave],
    );
    return new Map(rows.map((r) => [r.id_evento, r.evento_xml]));
  }

  private async responder<T>(layout: Layout, run: () => Promise<T>): Promise<T | Rejeitado> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof Recusa)
        return { tipo: 'rejeitado', cStat: error.cStat, xMotivo: error.xMotivo ?? xMotivoDe(layout.modelo, error.cStat, error.detalhe) };
      throw error;
    }
  }

  private emProcessamento(layout: Layout): EmProcessamento {
    return { tipo: 'em_processamento', cStat: 105, xMotivo: xMotivoDe(layout.modelo, 105) };
  }

  /**
   * One decision: a transaction under the authority's locks. A document's decisions (authorization, consultation) hold
   * its number (model, UF, emitter, series, number: what makes two keys duplicates) exclusively and the authority
   * shared, so different documents are decided side by side; an event (cancellation, closing…), which may read other
   * documents, holds the authority exclusively. A rejection still commits what the request counted.
   */
  private async transacao<T>(run: (c: PoolClient) => Promise<T>, numero?: string): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      if (numero === undefined) await client.query('SELECT pg_advisory_xact_lock($1)', [LOCK]);
      else await client.query('SELECT pg_advisory_xact_lock_shared($1), pg_advisory_xact_lock(hashtextextended($2, $1))', [LOCK, numero]);
      let result: T;
      try {
        result = await run(client);
      } catch (error) {
        if (!(error instanceof Recusa)) throw error;
        await client.query('COMMIT');
        throw error;
      }
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (!(error instanceof Recusa)) await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // What every signed message goes through

  private async validarSchema(xml: string, schema: FiscalRootSchema, raiz: number, especifico: number): Promise<void> {
    const result = await this.schemas.validate(xml, schema);
    if (result.valid) return;
    const daRaiz = result.errors.find((e) => e.schema === schema);
    const erro = daRaiz ?? result.errors[0]!;
    throw new Recusa(daRaiz ? raiz : especifico, `[${erro.path ?? `linha ${erro.line}`}: ${erro.message}]`);
  }

  /** The signature and its certificate; returns the certificate's CNPJ. */
  /** A signer's certificate as read once: a batch's documents all carry the same one. Null when it cannot be read. */
  private certificadoLido(pem: string): CertificadoLido | null {
    let lido = this.certificados.get(pem);
    if (lido === undefined) {
      try {
        lido = describeCertificate(pem);
      } catch {
        lido = null;
      }
      if (this.certificados.size >= 256) this.certificados.delete(this.certificados.keys().next().value!);
      this.certificados.set(pem, lido);
    }
    return lido;
  }

  private verificarAssinatura(xml: string, element: string): string {
    const check = verifyFiscalSignature(xml, { element });
    if (!check.valid) {
      const reason = check.reason ?? '';
      if (/certificate in KeyInfo cannot be read/.test(reason)) throw new Recusa(290);
      if (/does not match|does not verify|cannot be checked/.test(reason)) throw new Recusa(297);
      throw new Recusa(298);
    }
    const lido = this.certificadoLido(check.certificatePem!);
    if (!lido) throw new Recusa(290);
    const agora = this.clock().getTime();
    if (new Date(lido.valido_de).getTime() > agora || new Date(lido.valido_ate).getTime() < agora) throw new Recusa(291);
    if (!lido.cnpj) throw new Recusa(292);
    return lido.cnpj;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Authorization

  private async lerDocumento(layout: Layout, xml: string): Promise<DocumentoLido> {
    const raiz = lerXml(xml);
    await this.validarSchema(xml, layout.schema, 225, 580);
    const cnpjCertificado = this.verificarAssinatura(xml, layout.inf);

    const inf = filho(raiz, layout.inf)!;
    const ide = filho(inf, 'ide');
    const campo = (n: string) => texto(ide, n) ?? '';
    const cnpj = texto(inf, 'emit', 'CNPJ');
    // MOC Visão Geral E03: the certificate's CNPJ base is the emitter's, checked with the signature.
    if (cnpjRoot(cnpjCertificado) !== cnpjRoot(cnpj ?? '')) throw new Recusa(213);

    // The document's business rules: the same rule set the previews and the issue run (domain/src/autoridade/regras).
    const [rejeicao] = rejeicoesPrevistas(layout.modelo, xml, { tpAmb: this.tpAmb, agora: this.clock(), ufsAtendidas: this.ufsAtendidas });
    if (rejeicao) throw new Recusa(rejeicao.cStat, undefined, rejeicao.xMotivo);

    const sentinela = lerSentinelaDocumento(texto(inf, ...layout.textoLivre), layout.modelo);
    if ('invalida' in sentinela) throw new Recusa(999, `(${sentinela.invalida})`);

    const cUF = campo('cUF');
    const emitente = cnpj ?? `000${texto(inf, 'emit', 'CPF') ?? ''}`;
    const numero = campo(layout.numero);
    const serie = campo('serie');
    const composta = (inf.getAttribute('Id') ?? '').slice(layout.prefixoId.length);
    const cte = layout.modelo === 'cte';
    return {
      chave: composta,
      cUF,
      emitente,
      serie: Number(serie),
      numero: Number(numero),
      digVal: digestOf(raiz),
      tipoDocumento: cte ? campo('tpCTe') : null,
      tomador: cte ? tomadorDoCte(inf) : null,
      tpServ: cte ? campo('tpServ') : null,
      referencias: cte
        ? [...todos(inf, ['infCteComp', 'chCTe']), ...todos(inf, ['infCTeNorm', 'infCteSub', 'chCte'])]
        : todos(inf, ['infDoc', 'infMunDescarga', 'infCTe', 'chCTe']),
      nfes: cte ? todos(inf, ['infCTeNorm', 'infDoc', 'infNFe', 'chave']) : [],
      sentinela: sentinela.sentinela,
    };
  }

  private async autorizar(layout: Layout, xml: string): Promise<RetornoAutorizacao> {
    const doc = await this.lerDocumento(layout, xml);
    return this.transacao(
      async (c) => {
        const existente = await this.documentoDoNumero(c, layout, doc);
        if (existente) {
          const atual = await this.acompanhar(c, existente);
          if (atual === 'processando') return this.emProcessamento(layout);
          return this.duplicidade(layout, atual, doc);
        }
        const s = doc.sentinela;
        if (s?.tipo === 'rejeicao') throw new Recusa(s.cStat);

        const recebido = this.clock();
        const dhRecbto = dhSaoPaulo(recebido);
        const nProt = gerarNProt(doc.cUF, dhRecbto, `${doc.chave}:${doc.digVal}`);
        const cStat = s?.tipo === 'denegacao' ? s.cStat : 100;
        const xMotivo = xMotivoDe(layout.modelo, cStat);
        const protXml =
          `<${layout.prot} xmlns="${layout.ns}" versao="${layout.versao}"><infProt Id="ID${nProt}"><tpAmb>${this.tpAmb}</tpAmb>` +
          `<verAplic>${VER_APLIC_SIMULADA}</verAplic><${layout.chaveTag}>${doc.chave}</${layout.chaveTag}><dhRecbto>${dhRecbto}</dhRecbto>` +
          `<nProt>${nProt}</nProt><digVal>${doc.digVal}</digVal><cStat>${cStat}</cStat><xMotivo>${escapar(xMotivo)}</xMotivo></infProt></${layout.prot}>`;
        const situacao = s?.tipo === 'denegacao' ? 'denegado' : s?.tipo === 'pendente' ? 'processando' : 'autorizado';
        const { rows } = await c.query<DocumentoRow>(
          `INSERT INTO autoridade_simulada_documentos
           (chave, modelo, c_uf, emitente, serie, numero, situacao, consultas_restantes, c_stat, x_motivo, ver_aplic, n_prot,
            dh_recbto, recebido_em, dig_val, prot_xml, tipo_documento, tp_serv, referencias, nfes, tomador)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
         RETURNING *`,
          [
            doc.chave,
            layout.mod,
            doc.cUF,
            doc.emitente,
            doc.serie,
            doc.numero,
            situacao,
            s?.tipo === 'pendente' ? s.consultas : 0,
            cStat,
            xMotivo,
            VER_APLIC_SIMULADA,
            nProt,
            dhRecbto,
            recebido,
            doc.digVal,
            protXml,
            doc.tipoDocumento,
            doc.tpServ,
            doc.referencias,
            doc.nfes,
            doc.tomador,
          ],
        );
        // A CT-e accepted (authorized now, or in processing until a follow-up authorizes it) goes to the national
        // environment in this transaction: its parties are known there from now on, for its events too.
        if (layout.modelo === 'cte' && situacao !== 'denegado') {
          await this.ambienteNacional.registrarCte(c, {
            chave: doc.chave,
            cteAssinado: xml,
            protocoloXml: situacao === 'autorizado' ? protXml : null,
          });
        }
        const protocolo = protocoloDe(layout, rows[0]!, this.tpAmb);
        if (s?.tipo === 'denegacao') return { tipo: 'denegado', cStat, xMotivo, protocolo };
        if (s?.tipo === 'pendente') return this.emProcessamento(layout);
        if (s?.tipo === 'timeout') return { tipo: 'sem_resposta', motivo: 'SIMULAR:TIMEOUT: authorized, the answer was lost' };
        return { tipo: 'autorizado', cStat: 100, xMotivo, protocolo };
      },
      numeroDoDocumento(layout.mod, doc.cUF, doc.emitente, doc.serie, doc.numero),
    );
  }

  private async documentoDoNumero(c: PoolClient, layout: Layout, doc: DocumentoLido): Promise<DocumentoRow | null> {
    const { rows } = await c.query<DocumentoRow>(
      `SELECT * FROM autoridade_simulada_documentos
        WHERE modelo = $1 AND c_uf = $2 AND emitente = $3 AND serie = $4 AND numero = $5`,
      [layout.mod, doc.cUF, doc.emitente, doc.serie, doc.numero],
    );
    return rows[0] ?? null;
  }

  /**
   * A follow-up request about a document still in processing: one of its remaining 105 answers, or, when none is
   * left, the authorization it was waiting for. Returns the row as it stands after, or 'processando'.
   */
  private async acompanhar(c: PoolClient, row: DocumentoRow): Promise<DocumentoRow | 'processando'> {
    if (row.situacao !== 'processando') return row;
    if (row.consultas_restantes > 0) {
      await c.query('UPDATE autoridade_simulada_documentos SET consultas_restantes = consultas_restantes - 1 WHERE chave = $1', [
        row.chave,
      ]);
      return 'processando';
    }
    await c.query(`UPDATE autoridade_simulada_documentos SET situacao = 'autorizado' WHERE chave = $1`, [row.chave]);
    if (row.modelo === CTE.mod) await this.ambienteNacional.cteAutorizado(c, row.chave, row.prot_xml);
    return { ...row, situacao: 'autorizado' };
  }

  private duplicidade(layout: Layout, row: DocumentoRow, doc: DocumentoLido): RetornoAutorizacao {
    const situacao = row.situacao as SituacaoDocumento;
    const mesmaChave = row.chave === doc.chave;
    if (mesmaChave && situacao === 'denegado') throw new Recusa(205);
    const dados = `[nProt:${row.n_prot}][dhAut: ${row.dh_recbto}]`;
    const cStat = mesmaChave ? 204 : 539;
    return {
      tipo: 'duplicidade',
      cStat,
      xMotivo: xMotivoDe(layout.modelo, cStat, mesmaChave ? dados : `[${layout.chaveTag}: ${row.chave}]${dados}`),
      situacao,
      mesmoConteudo: mesmaChave && row.dig_val === doc.digVal,
      protocolo: protocoloDe(layout, row, this.tpAmb),
    };
  }

  // -------------------------------------------------------------------------------------------------------------
  // Consultation

  private async consultar(layout: Layout, chave: string): Promise<RetornoConsulta> {
    if (typeof chave !== 'string' || !/^[0-9]{6}[A-Z0-9]{12}[0-9]{26}$/.test(chave)) throw new Recusa(215);
    const cte = layout.modelo === 'cte';
    if (!isValidAccessKey(chave)) throw new Recusa(236, cte ? undefined : '[Motivo: DV inválido]');
    if (chave.slice(20, 22) !== layout.mod) throw cte ? new Recusa(732) : new Recusa(236, '[Motivo: modelo diferente de 58]');
    return this.transacao(
      async (c) => {
        const row = await this.documento(c, layout, chave);
        if (!row) return { tipo: 'nao_encontrado', cStat: 217, xMotivo: xMotivoDe(layout.modelo, 217) };
        if ((await this.acompanhar(c, row)) === 'processando') return this.emProcessamento(layout);
        const { rows: pendentes } = await c.query<EventoRow>(
          `SELECT * FROM autoridade_simulada_eventos WHERE chave = $1 AND situacao = 'processando' ORDER BY ordem`,
          [chave],
        );
        for (const evento of pendentes) await this.acompanharEvento(c, layout, evento);
        const atual = (await this.documento(c, layout, chave))!;
        const { rows: eventos } = await c.query<EventoRow>(`SELECT * FROM autoridade_simulada_eventos WHERE chave = $1 ORDER BY ordem`, [
          chave,
        ]);
        const situacao = atual.situacao as SituacaoDocumento;
        const cStat = layout.consulta[situacao];
        return {
          tipo: 'encontrado',
          cStat,
          xMotivo: xMotivoDe(layout.modelo, cStat),
          situacao,
          protocolo: protocoloDe(layout, atual, this.tpAmb),
          eventos: eventos.filter((e) => e.situacao !== 'processando').map((e) => protocoloEventoDe(layout, e, this.tpAmb)),
          eventosEmProcessamento: eventos.filter((e) => e.situacao === 'processando').map((e) => e.id_evento),
        };
      },
      numeroDoDocumento(
        chave.slice(20, 22),
        chave.slice(0, 2),
        chave.slice(6, 20),
        Number(chave.slice(22, 25)),
        Number(chave.slice(25, 34)),
      ),
    );
  }

  private async documento(c: PoolClient, layout: Layout, chave: string): Promise<DocumentoRow | null> {
    const { rows } = await c.query<DocumentoRow>('SELECT * FROM autoridade_simulada_documentos WHERE chave = $1 AND modelo = $2', [
      chave,
      layout.mod,
    ]);
    return rows[0] ?? null;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Events

  private async lerEvento(layout: Layout, xml: string): Promise<EventoLido> {
    const raiz = lerXml(xml);
    await this.validarSchema(xml, layout.evento.schema, 215, 630);
    const cnpjCertificado = this.verificarAssinatura(xml, `${layout.evento.raiz}/infEvento`);

    const inf = filho(raiz, 'infEvento')!;
    const campo = (n: string) => texto(inf, n) ?? '';
    if (campo('tpAmb') !== String(this.tpAmb)) throw new Recusa(252);
    const chave = campo(layout.chaveTag);
    const cte = layout.modelo === 'cte';
    if (!isValidAccessKey(chave)) throw new Recusa(236, cte ? undefined : '[Motivo: DV inválido]');
    const tpEvento = campo('tpEvento');
    const seqTexto = campo('nSeqEvento');
    const nSeqEvento = Number(seqTexto);
    const id = inf.getAttribute('Id') ?? '';
    const ids = layout.evento.digitosSeq.map((d) => `ID${tpEvento}${chave}${String(nSeqEvento).padStart(d, '0')}`);
    if (!ids.includes(id)) throw new Recusa(628);
    const cOrgao = campo('cOrgao');
    // N02 (677): the key's UF, and one this authorizer serves — an event sent to another authorizer than the CT-e's
    // (the taker's UF, or SVRS by default for the taker's 610110) is refused, as the real one would.
    if (cte && (cOrgao !== chave.slice(0, 2) || !this.ufsAtendidas.has(cOrgao))) throw new Recusa(677);
    const cnpj = texto(inf, 'CNPJ');
    const autor = cnpj ?? `000${campo('CPF')}`;
    if (cnpj !== null && !isValidCnpj(cnpj)) throw new Recusa(627);
    if (cnpjRoot(cnpjCertificado) !== cnpjRoot(cnpj ?? '')) throw new Recusa(213);
    const tipo = layout.evento.tipos[tpEvento];
    if (!tipo) throw new Recusa(629);
    const det = childElements(filho(inf, 'detEvento')!)[0]!;
    if (nome(det) !== tipo.det) throw new Recusa(630, `[${tpEvento} pede ${tipo.det}, veio ${nome(det)}]`);

    const sentinela = lerSentinelaEvento(textosFolha(det), layout.modelo);
    if ('invalida' in sentinela) throw new Recusa(999, `(${sentinela.invalida})`);
    return {
      // The Id as this authority writes it: the sequence in three digits.
      idEvento: `ID${tpEvento}${chave}${String(nSeqEvento).padStart(3, '0')}`,
      chave,
      cOrgao,
      autor,
      tpEvento,
      nSeqEvento,
      det,
      digVal: digestOf(raiz),
      sentinela: sentinela.sentinela,
    };
  }

  private async registrarEvento(layout: Layout, xml: string): Promise<RetornoEvento> {
    const ev = await this.lerEvento(layout, xml);
    return this.transacao(async (c) => {
      const doc = await this.documento(c, layout, ev.chave);
      if (!doc || doc.situacao === 'processando') throw new Recusa(217);
      // N17 (632) for the emitter's events, N19 (755) for the taker's (MOC 4.00 Visão Geral §5.1.5).
      const autor = recusaDoAutor(ev.tpEvento, ev.autor, doc);
      if (autor !== null) throw new Recusa(autor);

      const { rows: iguais } = await c.query<EventoRow>(
        'SELECT * FROM autoridade_simulada_eventos WHERE chave = $1 AND tp_evento = $2 AND n_seq_evento = $3',
        [ev.chave, ev.tpEvento, ev.nSeqEvento],
      );
      const igual = iguais[0];
      if (igual) {
        const atual = await this.acompanharEvento(c, layout, igual);
        if (atual === 'processando') return this.emProcessamento(layout);
        return {
          tipo: 'duplicidade',
          cStat: 631,
          xMotivo: xMotivoDe(layout.modelo, 631, `[nProt:${atual.n_prot}][dhRegEvento: ${atual.dh_reg_evento}]`),
          protocolo: protocoloEventoDe(layout, atual, this.tpAmb),
        };
      }

      await this.situacaoPermiteEvento(c, layout, doc);
      const recebido = this.clock();
      const alvo = layout.modelo === 'cte' ? await this.regrasCte(c, doc, ev, recebido) : await this.regrasMdfe(doc, ev, recebido);
      const s = ev.sentinela;
      if (s?.tipo === 'rejeicao') throw new Recusa(s.cStat);

      const dhRegEvento = dhSaoPaulo(recebido);
      const nProt = gerarNProt(ev.cOrgao, dhRegEvento, `${ev.idEvento}:${ev.digVal}`);
      const tipo = layout.evento.tipos[ev.tpEvento]!;
      const xMotivo = xMotivoDe(layout.modelo, 135);
      const retXml =
        `<${layout.evento.ret} xmlns="${layout.ns}" versao="${layout.versao}"><infEvento Id="ID${nProt}"><tpAmb>${this.tpAmb}</tpAmb>` +
        `<verAplic>${VER_APLIC_SIMULADA}</verAplic><cOrgao>${ev.cOrgao}</cOrgao><cStat>135</cStat><xMotivo>${escapar(xMotivo)}</xMotivo>` +
        `<${layout.chaveTag}>${ev.chave}</${layout.chaveTag}><tpEvento>${ev.tpEvento}</tpEvento><xEvento>${escapar(tipo.xEvento)}</xEvento>` +
        `<nSeqEvento>${ev.nSeqEvento}</nSeqEvento><dhRegEvento>${dhRegEvento}</dhRegEvento><nProt>${nProt}</nProt></infEvento></${layout.evento.ret}>`;
      const pendente = s?.tipo === 'pendente';
      const { rows } = await c.query<EventoRow>(
        `INSERT INTO autoridade_simulada_eventos
           (chave, tp_evento, n_seq_evento, id_evento, situacao, consultas_restantes, c_stat, x_motivo, x_evento, ver_aplic, c_orgao,
            n_prot, dh_reg_evento, registrado_em, dig_val, ret_xml, n_prot_alvo, evento_xml)
         VALUES ($1, $2, $3, $4, $5, $6, 135, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
         RETURNING *`,
        [
          ev.chave,
          ev.tpEvento,
          ev.nSeqEvento,
          ev.idEvento,
          pendente ? 'processando' : 'registrado',
          pendente ? s.consultas : 0,
          xMotivo,
          tipo.xEvento,
          VER_APLIC_SIMULADA,
          ev.cOrgao,
          nProt,
          dhRegEvento,
          recebido,
          ev.digVal,
          retXml,
          alvo,
          xml,
        ],
      );
      const registrado = rows[0]!;
      if (pendente) return this.emProcessamento(layout);
      await this.efeito(c, layout, registrado);
      if (s?.tipo === 'timeout') return { tipo: 'sem_resposta', motivo: 'SIMULAR:TIMEOUT: registered, the answer was lost' };
      return { tipo: 'registrado', cStat: 135, xMotivo, protocolo: protocoloEventoDe(layout, registrado, this.tpAmb) };
    });
  }

  /** A follow-up about an event in processing (as `acompanhar` for documents); registers it when its turn comes. */
  private async acompanharEvento(c: PoolClient, layout: Layout, row: EventoRow): Promise<EventoRow | 'processando'> {
    if (row.situacao !== 'processando') return row;
    const chave = [row.chave, row.tp_evento, row.n_seq_evento];
    if (row.consultas_restantes > 0) {
      await c.query(
        'UPDATE autoridade_simulada_eventos SET consultas_restantes = consultas_restantes - 1 WHERE chave = $1 AND tp_evento = $2 AND n_seq_evento = $3',
        chave,
      );
      return 'processando';
    }
    await c.query(
      `UPDATE autoridade_simulada_eventos SET situacao = 'registrado' WHERE chave = $1 AND tp_evento = $2 AND n_seq_evento = $3`,
      chave,
    );
    const registrado: EventoRow = { ...row, situacao: 'registrado' };
    await this.efeito(c, layout, registrado);
    return registrado;
  }

  /** What a registered event changes in the document's state. */
  private async efeito(c: PoolClient, layout: Layout, ev: EventoRow): Promise<void> {
    // Every registered CT-e event reaches the CT-e's parties through the national environment, in this transaction.
    if (layout.modelo === 'cte' && ev.evento_xml) {
      await this.ambienteNacional.registrarEventoCte(c, { chave: ev.chave, eventoAssinado: ev.evento_xml, retornoXml: ev.ret_xml });
    }
    const documento = (situacao: SituacaoDocumento) =>
      c.query('UPDATE autoridade_simulada_documentos SET situacao = $2 WHERE chave = $1', [ev.chave, situacao]);
    if (ev.tp_evento === '110111') await documento('cancelado');
    else if (layout.modelo === 'cte' && ev.tp_evento === TP_CANCELAMENTO_DESACORDO) {
      await c.query(
        `UPDATE autoridade_simulada_eventos SET situacao = 'cancelado' WHERE chave = $1 AND tp_evento = '${TP_DESACORDO}' AND n_prot = $2`,
        [ev.chave, ev.n_prot_alvo],
      );
    } else if (layout.modelo === 'mdfe' && ev.tp_evento === '110112') await documento('encerrado');
    else if (layout.modelo === 'cte' && ev.tp_evento === '110181') {
      await c.query(
        `UPDATE autoridade_simulada_eventos SET situacao = 'cancelado' WHERE chave = $1 AND tp_evento = '110180' AND n_prot = $2`,
        [ev.chave, ev.n_prot_alvo],
      );
    }
  }

  /** Events need the document authorized (and an MDF-e not closed). */
  private async situacaoPermiteEvento(c: PoolClient, layout: Layout, doc: DocumentoRow): Promise<void> {
    if (doc.situacao === 'denegado') throw new Recusa(layout.modelo === 'cte' ? 205 : 217);
    const marco = async (tpEvento: string) => {
      const { rows } = await c.query<EventoRow>(
        `SELECT * FROM autoridade_simulada_eventos WHERE chave = $1 AND tp_evento = $2 AND situacao = 'registrado' ORDER BY ordem LIMIT 1`,
        [doc.chave, tpEvento],
      );
      return rows[0];
    };
    if (doc.situacao === 'cancelado') {
      const canc = await marco('110111');
      throw new Recusa(218, canc ? `[nProt:${canc.n_prot}][dhCanc: ${canc.dh_reg_evento}]` : undefined);
    }
    if (doc.situacao === 'encerrado') {
      const enc = await marco('110112');
      throw new Recusa(609, enc ? `[nProt:${enc.n_prot}][dhEnc: ${enc.dh_reg_evento}]` : undefined);
    }
  }

  /** The CT-e events' own rules (MOC 4.00 Visão Geral §6). Returns the protocol a 110181 cancels. */
  private async regrasCte(c: PoolClient, doc: DocumentoRow, ev: EventoLido, agora: Date): Promise<string | null> {
    const det = ev.det;
    const existe = async (sql: string, params: unknown[]) => (await c.query(sql, params)).rowCount! > 0;
    const eventoRegistrado = (tpEvento: string) =>
      existe(`SELECT 1 FROM autoridade_simulada_eventos WHERE chave = $1 AND tp_evento = $2 AND situacao = 'registrado'`, [
        doc.chave,
        tpEvento,
      ]);
    const referenciadoPor = (modelo: string, tipo: string | null) =>
      existe(
        `SELECT 1 FROM autoridade_simulada_documentos
          WHERE modelo = $1 AND referencias @> ARRAY[$2]::text[] AND situacao IN ('autorizado', 'encerrado')
            AND ($3::text IS NULL OR tipo_documento = $3)`,
        [modelo, doc.chave, tipo],
      );
    switch (ev.tpEvento) {
      case '110111': {
        // O01, O06, O09, O11–O14, Q15, Q16.
        if (ev.nSeqEvento !== 1) throw new Recusa(636);
        if (agora.getTime() - doc.recebido_em.getTime() > 168 * HORA) throw new Recusa(220);
        if (texto(det, 'nProt') !== doc.n_prot) throw new Recusa(222);
        if (doc.tipo_documento === '3') throw new Recusa(574);
        if (await referenciadoPor('57', '3')) throw new Recusa(576);
        if (await referenciadoPor('57', '1')) throw new Recusa(660);
        if (await eventoRegistrado('110110')) throw new Recusa(523);
        if (await referenciadoPor('58', null)) throw new Recusa(528);
        if (await eventoRegistrado('110180')) throw new Recusa(862);
        return null;
      }
      case '110110': {
        if (ev.nSeqEvento < 1 || ev.nSeqEvento > 20) throw new Recusa(636);
        for (const correcao of filhos(det, 'infCorrecao')) {
          const grupo = texto(correcao, 'grupoAlterado') ?? '';
          const campo = texto(correcao, 'campoAlterado') ?? '';
          // The same list the service checks before sending (MOC §13.1), as a real authority would hold it.
          if (campoVedadoNaCce(grupo, campo)) throw new Recusa(681, `[${grupo}/${campo}]`);
        }
        return null;
      }
      case '110180': {
        if (texto(det, 'nProt') !== doc.n_prot) throw new Recusa(222);
        if (await eventoRegistrado('110180')) throw new Recusa(870);
        const nfes = todos(det, ['infEntrega', 'chNFe']);
        if (doc.tp_serv === '0' && nfes.length === 0) throw new Recusa(865);
        if (doc.tp_serv !== '0' && nfes.length > 0) throw new Recusa(871);
        const alheia = nfes.find((k) => !doc.nfes.includes(k));
        if (alheia) throw new Recusa(864, `[chNFe: ${alheia}]`);
        return null;
      }
      case '110181': {
        if (texto(det, 'nProt') !== doc.n_prot) throw new Recusa(222);
        const nProtCE = texto(det, 'nProtCE') ?? '';
        const ok = await existe(
          `SELECT 1 FROM autoridade_simulada_eventos WHERE chave = $1 AND tp_evento = '110180' AND n_prot = $2 AND situacao = 'registrado'`,
          [doc.chave, nProtCE],
        );
        if (!ok) throw new Recusa(866);
        return nProtCE;
      }
      case TP_DESACORDO:
      case TP_CANCELAMENTO_DESACORDO: {
        const recusa = await recusaDoEventoDoTomador(ev.tpEvento, ev.nSeqEvento, det, doc.recebido_em, agora, {
          substituido: () => referenciadoPor('57', '3'),
          desacordoRegistrado: (nProt) =>
            existe(
              `SELECT 1 FROM autoridade_simulada_eventos WHERE chave = $1 AND tp_evento = '${TP_DESACORDO}' AND n_prot = $2 AND situacao = 'registrado'`,
              [doc.chave, nProt],
            ),
        });
        if (recusa !== null) throw new Recusa(recusa);
        return ev.tpEvento === TP_CANCELAMENTO_DESACORDO ? protocoloCanceladoPeloTomador(det) : null;
      }
      default:
        throw new Recusa(629);
    }
  }

  /** The MDF-e events' basic rules. */
  private async regrasMdfe(doc: DocumentoRow, ev: EventoLido, agora: Date): Promise<string | null> {
    const det = ev.det;
    switch (ev.tpEvento) {
      case '110111':
        if (ev.nSeqEvento !== 1) throw new Recusa(636);
        if (agora.getTime() - doc.recebido_em.getTime() > 24 * HORA) throw new Recusa(220);
        if (texto(det, 'nProt') !== doc.n_prot) throw new Recusa(222);
        return null;
      case '110112':
        if (texto(det, 'nProt') !== doc.n_prot) throw new Recusa(222);
        return null;
      case '110114':
        if (!isValidCpf(texto(det, 'condutor', 'CPF') ?? '')) throw new Recusa(645);
        return null;
      default:
        throw new Recusa(629);
    }
  }
}

/** What makes two keys the same document for the authority (Anexo I G157/G158), as a lock's name. */
const numeroDoDocumento = (mod: string, cUF: string, emitente: string, serie: number, numero: number | string) =>
  `${mod}:${cUF}:${emitente}:${serie}:${Number(numero)}`;
