import { type Pool, type PoolClient } from 'pg';
import { type ServicoDistribuicao } from '@frete/contracts';
import { cnpjRoot, dhSaoPaulo, isValidCnpj, isValidCpf } from '@frete/domain';
import { childElements, parseForSignature, type XmlElement } from '@frete/documents';
import { type Rejeitado } from '../autoridade/port';
import { montarCteProc, montarProcEventoCte } from '../autoridade/proc';
import { type PedidoDistribuicao, type RespostaDistribuicao } from './port';

/**
 * The simulated national environment (Ambiente Nacional): ONE implementation of the distribution services
 * (`CTeDistribuicaoDFe`, `NFeDistribuicaoDFe`) that the sandbox consults in process (`simulado.ts`) and the local
 * authority server answers over SOAP (services/authority, `/AN/<Service>`). What the deployment's simulated authority
 * authorizes or registers is distributed here, in the same transaction (`AutoridadeFiscalSimulada`); a test registers
 * an NF-e with `registrarNfe`.
 *
 * Rules (sources in docs/fatos-autoridades.md, "Distribution"): one NSU sequence per (service, interested party);
 * a consultation `distNSU/ultNSU` answers the party's documents with NSU > ultNSU in order, at most 50
 * (retDistDFeInt `loteDistDFeInt` maxOccurs 50), those kept at most about three months (distDFeInt's ultNSU
 * documentation: "recepcionados pelo Ambiente Nacional nos últimos 3 meses"; here 90 days); 137 nothing found, 138
 * found; after a 137, or an answer whose ultNSU reaches maxNSU, the party waits an hour, and a consultation during
 * the wait is 656 and blocks the party for an hour from that call (NT 2014.002, rules in force since 2022-03-10);
 * an NSU above the party's highest is 589; a certificate whose CNPJ base is not the party's is 593.
 *
 * Deterministic: the answer depends only on the stored state and the clock. Each consultation is decided in one
 * transaction holding the party's row (`FOR UPDATE`), so concurrent consultations of one party are serialised; a
 * distribution takes the party's row too, so NSUs become visible in their order (never a lower one after a higher).
 */

export const CTE_NS = 'http://www.portalfiscal.inf.br/cte';
export const NFE_NS = 'http://www.portalfiscal.inf.br/nfe';
export const VER_APLIC_AMBIENTE_NACIONAL = 'AN-SIMULADO-1.0';
/** retDistDFeInt_v1.00/v1.01: `loteDistDFeInt` holds `docZip` maxOccurs="50". */
export const MAX_DOCUMENTOS_POR_CONSULTA = 50;
/** NT 2014.002 (consumo indevido, in force since 2022-03-10): wait one hour after 137 or ultNSU = maxNSU; 656 blocks one hour. */
export const ESPERA_MS = 3_600_000;
/** distDFeInt `ultNSU` documentation: documents received by the Ambiente Nacional in the last 3 months. */
export const RETENCAO_DIAS = 90;
const DIA_MS = 86_400_000;

/** `docZip/@schema` of what this environment distributes. */
export const SCHEMA_PROC_CTE = 'procCTe_v4.00.xsd';
export const SCHEMA_PROC_EVENTO_CTE = 'procEventoCTe_v4.00.xsd';

/**
 * The texts of the distribution's answers. 137/138: as the services write them (public samples of real answers,
 * e.g. nfephp-org/sped-nfe users; NT 2014.002 "Documento(s) localizado(s)"); 656: NT 2014.002's rule of 2022-03-10
 * as the service writes it; the rejections: the CT-e library's code table (nfephp-org/sped-cte `storage/cstat.json`).
 */
export const XMOTIVO_DISTRIBUICAO: Readonly<Record<number, string>> = {
  137: 'Nenhum documento localizado',
  138: 'Documento(s) localizado(s)',
  215: 'Rejeição: Falha no schema XML',
  252: 'Rejeição: Ambiente informado diverge do Ambiente de recebimento',
  489: 'Rejeição: CNPJ informado inválido (DV ou zeros)',
  490: 'Rejeição: CPF informado inválido (DV ou zeros)',
  589: 'Rejeição: Número do NSU informado superior ao maior NSU da base de dados da SEFAZ',
  593: 'Rejeição: CNPJ-Base consultado difere do CNPJ-Base do Certificado Digital',
  656: 'Rejeicao: Consumo Indevido. Deve ser aguardado 1 hora para efetuar nova solicitação caso não existam mais documentos a serem pesquisados. Tente apos 1 hora',
};

/** 15 digits, as the services write an NSU. */
const paraNsu = (n: bigint | number | string): string => BigInt(n).toString().padStart(15, '0');

/** A rejection with what `retDistDFeInt` still carries (ultNSU, maxNSU and dhResp are required there). */
export interface RejeicaoDistribuicao extends Rejeitado {
  ultNSU: string;
  maxNSU: string;
  dhResp: string;
}

export type RetornoAmbienteNacional = RespostaDistribuicao | RejeicaoDistribuicao;

export interface OpcoesConsulta {
  /** The CNPJ (or CPF) of the client certificate; null in process, where no channel is opened. */
  documentoCertificado: string | null;
  /** The request's `tpAmb`. */
  tpAmb: 1 | 2;
}

export interface DocumentoParaDistribuir {
  /** `docZip/@schema`. */
  schema: string;
  chave: string | null;
  /** The document as distributed: a string is taken as UTF-8. */
  xml: string | Buffer;
  /** CNPJ/CPF of each party; repeated ones get one copy. */
  interessados: readonly string[];
}

export interface AmbienteNacionalOptions {
  pool: Pool;
  /** The platform clock (tests move it). */
  clock?: () => Date;
  /** The environment it plays: homologação (2, the default) or produção (1); a request for the other is 252. */
  tpAmb?: 1 | 2;
}

/** A procNFe `registrarNfe` refuses (not an nfeProc, not authorized, no key). */
export class NfeNaoDistribuivel extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NfeNaoDistribuivel';
  }
}

interface EstadoRow {
  max_nsu: string;
  espera_ate: Date | null;
  bloqueio_ate: Date | null;
  ult_nsu_respondido: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the parties

const filho = (el: XmlElement | undefined, nome: string): XmlElement | undefined =>
  el ? childElements(el).find((c) => c.localName === nome) : undefined;
const filhos = (el: XmlElement | undefined, nome: string): XmlElement[] =>
  el ? childElements(el).filter((c) => c.localName === nome) : [];
const textoDe = (el: XmlElement | undefined): string | null => (el ? (el.textContent ?? '').trim() : null);

/** The CNPJ or CPF of a party element (`emit`, `rem`, `autXML`…). */
function documentoDe(el: XmlElement | undefined): string | null {
  return textoDe(filho(el, 'CNPJ')) ?? textoDe(filho(el, 'CPF'));
}

function raizDe(xml: string): XmlElement | null {
  const parsed = parseForSignature(xml);
  return 'refused' in parsed ? null : (parsed.doc.documentElement ?? null);
}

const distintos = (docs: (string | null)[]): string[] => [...new Set(docs.filter((d): d is string => !!d && d.length > 0))];

/**
 * The parties a CT-e is distributed to: `emit`, `rem`, `exped`, `receb`, `dest`, `ide/toma4` and every `autXML`
 * (Ambiente Nacional CT-e distribution; shared/design/sefaz-webservices.md "Distribution"), each CNPJ/CPF once.
 * `xml` is a CTe or a cteProc.
 */
export function interessadosDoCte(xml: string): string[] {
  const raiz = raizDe(xml);
  if (!raiz) return [];
  const cte = raiz.localName === 'cteProc' ? filho(raiz, 'CTe') : raiz;
  const inf = filho(cte, 'infCte');
  if (!inf) return [];
  const partes = ['emit', 'rem', 'exped', 'receb', 'dest'].map((p) => documentoDe(filho(inf, p)));
  partes.push(documentoDe(filho(filho(inf, 'ide'), 'toma4')));
  for (const aut of filhos(inf, 'autXML')) partes.push(documentoDe(aut));
  return distintos(partes);
}

/**
 * The parties an NF-e is distributed to in full: `emit`, `dest`, `transp/transporta` and every `autXML` (NT 2014.002:
 * emitente, destinatário, transportador X03, terceiros GA01). The real service gives the recipient a summary until it
 * acknowledges the NF-e; here the full document reaches each party, what a carrier in `transporta` gets.
 */
export function interessadosDaNfe(inf: XmlElement): string[] {
  const partes = [documentoDe(filho(inf, 'emit')), documentoDe(filho(inf, 'dest')), documentoDe(filho(filho(inf, 'transp'), 'transporta'))];
  for (const aut of filhos(inf, 'autXML')) partes.push(documentoDe(aut));
  return distintos(partes);
}

// ---------------------------------------------------------------------------------------------------------------

export class AmbienteNacionalSimulado {
  private readonly pool: Pool;
  private readonly clock: () => Date;
  readonly tpAmb: 1 | 2;

  constructor(options: AmbienteNacionalOptions) {
    this.pool = options.pool;
    this.clock = options.clock ?? (() => new Date());
    this.tpAmb = options.tpAmb ?? 2;
  }

  /**
   * Gives the document the next NSU of each party and keeps it. With a `PoolClient` it runs in the caller's
   * transaction (the simulated authority's decision); with the `Pool`, in one of its own. Returns the NSU per party.
   */
  async distribuir(client: PoolClient | Pool, servico: ServicoDistribuicao, doc: DocumentoParaDistribuir): Promise<Map<string, string>> {
    if (!isPoolClient(client)) return this.emTransacao(client, (c) => this.distribuir(c, servico, doc));
    const bytes = typeof doc.xml === 'string' ? Buffer.from(doc.xml, 'utf8') : doc.xml;
    const agora = this.clock();
    // One statement for every party: each one's next NSU, taken in one order (the sorted parties), so that two
    // distributions to overlapping parties never wait on each other in a cycle.
    const { rows } = await client.query<{ interessado: string; nsu: string }>(
      `WITH proximos AS (
         INSERT INTO ambiente_nacional_interessados (servico, interessado, max_nsu)
         SELECT $1, p, 1 FROM unnest($2::text[]) AS p ORDER BY p
         ON CONFLICT (servico, interessado) DO UPDATE SET max_nsu = ambiente_nacional_interessados.max_nsu + 1
         RETURNING interessado, max_nsu
       )
       INSERT INTO ambiente_nacional_documentos (servico, interessado, nsu, schema, chave, xml, distribuido_em)
       SELECT $1, interessado, max_nsu, $3, $4, $5, $6 FROM proximos
       RETURNING interessado, nsu`,
      [servico, [...new Set(doc.interessados)].sort(), doc.schema, doc.chave, bytes, agora],
    );
    const nsus = new Map<string, string>(rows.map((r) => [r.interessado, paraNsu(r.nsu)]));
    return nsus;
  }

  /**
   * A CT-e the simulated authority accepted (in its transaction `c`): its parties are kept for its events, and, when
   * `protocoloXml` is given (authorized, cStat 100), the `cteProc` is distributed to them now. A CT-e in processing
   * (`protocoloXml` null) keeps its signed XML until `cteAutorizado`.
   */
  async registrarCte(c: PoolClient, o: { chave: string; cteAssinado: string; protocoloXml: string | null }): Promise<void> {
    const interessados = interessadosDoCte(o.cteAssinado);
    const autorizado = o.protocoloXml !== null;
    await c.query(
      `INSERT INTO ambiente_nacional_ctes (chave, interessados, cte_assinado, distribuido) VALUES ($1, $2, $3, $4)
       ON CONFLICT (chave) DO NOTHING`,
      [o.chave, interessados, autorizado ? null : o.cteAssinado, autorizado],
    );
    if (autorizado) {
      const xml = montarCteProc(o.cteAssinado, { xml: o.protocoloXml! });
      await this.distribuir(c, 'cte', { schema: SCHEMA_PROC_CTE, chave: o.chave, xml, interessados });
    }
  }

  /** A CT-e that was in processing is now authorized (in the authority's transaction `c`): its `cteProc` goes out. */
  async cteAutorizado(c: PoolClient, chave: string, protocoloXml: string): Promise<void> {
    const { rows } = await c.query<{ interessados: string[]; cte_assinado: string | null }>(
      'SELECT interessados, cte_assinado FROM ambiente_nacional_ctes WHERE chave = $1 AND NOT distribuido FOR UPDATE',
      [chave],
    );
    const row = rows[0];
    if (!row || row.cte_assinado === null) return;
    await c.query('UPDATE ambiente_nacional_ctes SET distribuido = true, cte_assinado = NULL WHERE chave = $1', [chave]);
    const xml = montarCteProc(row.cte_assinado, { xml: protocoloXml });
    await this.distribuir(c, 'cte', { schema: SCHEMA_PROC_CTE, chave, xml, interessados: row.interessados });
  }

  /** An event registered for a CT-e (135/136): its `procEventoCTe` reaches the CT-e's parties. */
  async registrarEventoCte(c: PoolClient, o: { chave: string; eventoAssinado: string; retornoXml: string }): Promise<void> {
    const { rows } = await c.query<{ interessados: string[] }>('SELECT interessados FROM ambiente_nacional_ctes WHERE chave = $1', [
      o.chave,
    ]);
    const interessados = rows[0]?.interessados;
    // A CT-e authorized before this environment kept its parties: nobody is known to send its events to.
    if (!interessados || interessados.length === 0) return;
    const xml = montarProcEventoCte(o.eventoAssinado, { xml: o.retornoXml });
    await this.distribuir(c, 'cte', { schema: SCHEMA_PROC_EVENTO_CTE, chave: o.chave, xml, interessados });
  }

  /**
   * An authorized NF-e (`nfeProc` with `protNFe` cStat 100 or 150) from outside the deployment, distributed byte for
   * byte as `procNFe_v<versao>.xsd` to its emitter, recipient, carrier (`transporta`) and `autXML`. The signature is
   * not checked: the distribution hands out what an authority authorized, and a test builds such an NF-e.
   */
  async registrarNfe(procNFeXml: string): Promise<{ chave: string; nsus: Map<string, string> }> {
    const raiz = raizDe(procNFeXml);
    if (!raiz) throw new NfeNaoDistribuivel('the NF-e is not well-formed XML');
    if (raiz.localName !== 'nfeProc' || raiz.namespaceURI !== NFE_NS) {
      throw new NfeNaoDistribuivel(`expected an nfeProc in ${NFE_NS}, not ${raiz.localName ?? raiz.nodeName}`);
    }
    const inf = filho(filho(raiz, 'NFe'), 'infNFe');
    if (!inf) throw new NfeNaoDistribuivel('the nfeProc has no NFe/infNFe');
    const cStat = textoDe(filho(filho(filho(raiz, 'protNFe'), 'infProt'), 'cStat'));
    if (cStat !== '100' && cStat !== '150') throw new NfeNaoDistribuivel(`the NF-e is not authorized (protNFe cStat ${cStat ?? 'absent'})`);
    const chave = (inf.getAttribute('Id') ?? '').replace(/^NFe/, '');
    if (!/^[0-9]{44}$/.test(chave)) throw new NfeNaoDistribuivel(`the NF-e's Id does not carry a 44-digit key: ${chave.slice(0, 60)}`);
    const versao = inf.getAttribute('versao') ?? '4.00';
    const interessados = interessadosDaNfe(inf);
    const nsus = await this.distribuir(this.pool, 'nfe', {
      schema: `procNFe_v${versao}.xsd`,
      chave,
      xml: procNFeXml,
      interessados,
    });
    return { chave, nsus };
  }

  /**
   * One consultation `distNSU/ultNSU`, with the real service's rules in order: environment (252), the party's
   * document (489 CNPJ, 490 CPF), the certificate's CNPJ base (593, when a certificate is given), a wait or block
   * (656, restarting the block), the NSU asked above the highest (589), then the documents (138) or none (137).
   */
  async consultar(pedido: PedidoDistribuicao, opcoes: OpcoesConsulta): Promise<RetornoAmbienteNacional> {
    const agora = this.clock();
    const dhResp = dhRespDe(pedido.servico, agora);
    const zero = paraNsu(0);
    const rejeitar = (cStat: number, ultNSU = zero, maxNSU = zero): RejeicaoDistribuicao => ({
      tipo: 'rejeitado',
      cStat,
      xMotivo: XMOTIVO_DISTRIBUICAO[cStat]!,
      ultNSU,
      maxNSU,
      dhResp,
    });
    if (opcoes.tpAmb !== this.tpAmb) return rejeitar(252);
    const documento = pedido.documento;
    const cpf = /^[0-9]{11}$/.test(documento);
    if (cpf ? !isValidCpf(documento) : !/^[0-9]{14}$/.test(documento) || !isValidCnpj(documento)) return rejeitar(cpf ? 490 : 489);
    if (opcoes.documentoCertificado !== null && !mesmoTitular(opcoes.documentoCertificado, documento)) return rejeitar(593);
    if (!/^[0-9]{15}$/.test(pedido.ultNSU)) return rejeitar(215);
    const pedidoNsu = BigInt(pedido.ultNSU);

    return this.emTransacao(this.pool, async (c) => {
      const { rows } = await c.query<EstadoRow>(
        `INSERT INTO ambiente_nacional_interessados (servico, interessado) VALUES ($1, $2)
         ON CONFLICT (servico, interessado) DO UPDATE SET servico = EXCLUDED.servico
         RETURNING max_nsu, espera_ate, bloqueio_ate, ult_nsu_respondido`,
        [pedido.servico, documento],
      );
      const estado = rows[0]!;
      const maxNsu = BigInt(estado.max_nsu);
      const atualizar = (campos: { espera_ate?: Date | null; bloqueio_ate?: Date | null; ult_nsu_respondido?: bigint }) =>
        c.query(
          `UPDATE ambiente_nacional_interessados
              SET espera_ate = CASE WHEN $3 THEN $4::timestamptz ELSE espera_ate END,
                  bloqueio_ate = CASE WHEN $5 THEN $6::timestamptz ELSE bloqueio_ate END,
                  ult_nsu_respondido = GREATEST(COALESCE($7::bigint, ult_nsu_respondido), ult_nsu_respondido)
            WHERE servico = $1 AND interessado = $2`,
          [
            pedido.servico,
            documento,
            'espera_ate' in campos,
            campos.espera_ate ?? null,
            'bloqueio_ate' in campos,
            campos.bloqueio_ate ?? null,
            campos.ult_nsu_respondido?.toString() ?? null,
          ],
        );

      // The hour's wait holds a party that read everything (NT 2014.002's 656: "caso não existam mais documentos a
      // serem pesquisados"): asking again from where the last answer left it is 656, documents distributed since
      // included. Our reading: a consultation from below the last answer's ultNSU re-reads what was already handed
      // out (a client that crashed before recording a page repeats it) and is served; a block holds every call.
      const emEspera = agora.getTime() < (estado.espera_ate?.getTime() ?? 0) && pedidoNsu >= BigInt(estado.ult_nsu_respondido);
      const bloqueado = agora.getTime() < (estado.bloqueio_ate?.getTime() ?? 0);
      if (emEspera || bloqueado) {
        await atualizar({ bloqueio_ate: new Date(agora.getTime() + ESPERA_MS) });
        return rejeitar(656, paraNsu(estado.ult_nsu_respondido), paraNsu(maxNsu));
      }
      if (pedidoNsu > maxNsu) return rejeitar(589, pedido.ultNSU, paraNsu(maxNsu));

      const limite = new Date(agora.getTime() - RETENCAO_DIAS * DIA_MS);
      const { rows: docs } = await c.query<{ nsu: string; schema: string; xml: Buffer }>(
        `SELECT nsu, schema, xml FROM ambiente_nacional_documentos
          WHERE servico = $1 AND interessado = $2 AND nsu > $3 AND distribuido_em >= $4
          ORDER BY nsu LIMIT ${MAX_DOCUMENTOS_POR_CONSULTA}`,
        [pedido.servico, documento, pedidoNsu.toString(), limite],
      );
      // A short page means everything up to maxNSU was looked at (expired NSUs included): the next call starts there.
      const ultNsu = docs.length === MAX_DOCUMENTOS_POR_CONSULTA ? BigInt(docs[docs.length - 1]!.nsu) : maxNsu;
      const espera = ultNsu >= maxNsu ? new Date(agora.getTime() + ESPERA_MS) : null;
      await atualizar({ espera_ate: espera, bloqueio_ate: null, ult_nsu_respondido: ultNsu });
      const cStat = docs.length === 0 ? 137 : 138;
      return {
        tipo: 'consultado',
        cStat,
        xMotivo: XMOTIVO_DISTRIBUICAO[cStat]!,
        ultNSU: paraNsu(ultNsu),
        maxNSU: paraNsu(maxNsu),
        dhResp,
        documentos: docs.map((d) => ({ nsu: paraNsu(d.nsu), schema: d.schema, xml: d.xml })),
      };
    });
  }

  private async emTransacao<T>(pool: Pool, run: (c: PoolClient) => Promise<T>): Promise<T> {
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      const result = await run(c);
      await c.query('COMMIT');
      return result;
    } catch (error) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      c.release();
    }
  }
}

/**
 * `dhResp` as each service's schema writes it: CT-e retDistDFeInt 1.00 `AAAA-MM-DDTHH:MM:SS` (no zone), NF-e 1.01
 * `TDateTimeUTC` (with the zone). Brasília time either way.
 */
export function dhRespDe(servico: ServicoDistribuicao, agora: Date): string {
  const dh = dhSaoPaulo(agora);
  return servico === 'cte' ? dh.slice(0, 19) : dh;
}

/** NFeDistribuicaoDFe (NT 2014.002): a company is authenticated by its CNPJ base; a person by the CPF itself. */
function mesmoTitular(certificado: string, interessado: string): boolean {
  if (interessado.length === 11 || certificado.length === 11) return certificado === interessado;
  return cnpjRoot(certificado) === cnpjRoot(interessado);
}

const isPoolClient = (c: PoolClient | Pool): c is PoolClient => typeof (c as PoolClient).release === 'function';
