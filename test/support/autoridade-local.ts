import { type Pool } from 'pg';
import { type Falhas, emitirCertificadoServidor, gerarAc, iniciarAutoridadeLocal, type ParPem } from '@frete/authority';
import { FiscalSchemas } from '@frete/documents';
import { type A1, makeA1, type MakeA1Options, testCaCertificatePem } from './certificates';
import { freshDatabase } from './db';

/**
 * The local authority server (`@frete/authority`) for tests, over real TLS:
 *
 * ```ts
 * const autoridade = await iniciarAutoridadeLocalDeTeste({ clock });
 * // client: SEFAZ_BASE_URL = autoridade.url, trust autoridade.caPem, client certificate = an A1 from makeA1
 * autoridade.falhas.programar({ tipo: 'status', cStat: 678, servico: 'CTeRecepcaoSincV4', vezes: 1 });
 * await autoridade.close();
 * ```
 *
 * Its server certificate (127.0.0.1 and localhost) is issued by a test server CA of its own, apart from the A1 test
 * CA of `certificates.ts`; it accepts client certificates issued by the A1 test CA (every `makeA1` certificate
 * without `otherCa`).
 */

export interface AutoridadeLocalDeTeste {
  /** `https://127.0.0.1:<port>`: the client's `SEFAZ_BASE_URL` (`<url>/<authorizer>/<Service>`). */
  url: string;
  /** The test server CA's certificate (PEM): what the client trusts (its `SEFAZ_CA_FILE`). */
  caPem: string;
  /** Fault injection: `programar(rule or rules)`, `limpar()`, `listar()` (see `RegraFalha`). */
  falhas: Falhas;
  /** The requests that reached each service, by `<authorizer>/<Service>`. */
  atendidos(): Record<string, number>;
  /** The simulated authority's database behind it (a fresh one of its own unless `pool` was given). */
  pool: Pool;
  /** The schema validator it checks requests with (its own unless `schemas` was given): the tests check answers with it. */
  schemas: FiscalSchemas;
  /**
   * Registers an authorized NF-e (`nfeProc`) with the server's national environment, which distributes it to its
   * emitter, recipient, carrier (`transporta`) and `autXML`, as the server's `POST /_ambiente-nacional/nfe` does.
   * Returns its key and the NSU each party got. Rejects (`NfeNaoDistribuivel`) what is not an authorized nfeProc.
   */
  registrarNfe(procNFeXml: string): Promise<{ chave: string; nsus: Record<string, string> }>;
  /** Stops the server, then closes its schemas and drops its database when they are its own. */
  close(): Promise<void>;
}

export interface OpcoesAutoridadeLocalDeTeste {
  /** The authority's clock (the signing certificates' validity and the protocols' dates); real time by default. */
  clock?: () => Date;
  /** A database to use instead of a fresh one (its owner drops it). */
  pool?: Pool;
  /** A schema validator shared with other servers (compiling takes a while); its own otherwise. */
  schemas?: FiscalSchemas;
  /** homologação (2, the default) or produção (1). */
  tpAmb?: 1 | 2;
  /** Present a certificate of a CA the client does not trust (`caPem` is still the trusted one). */
  servidorNaoConfiavel?: boolean;
  /** The port to listen on (a free one by default): a client configured before the server starts. */
  port?: number;
}

// RSA keys take a while: the test server CAs and their certificates are made once per test process.
const feitos = new Map<string, ParPem>();
const uma = (nome: string, fazer: () => ParPem): ParPem => {
  let par = feitos.get(nome);
  if (!par) feitos.set(nome, (par = fazer()));
  return par;
};

/** The test server CA: the CA the clients of `iniciarAutoridadeLocalDeTeste` trust (`caPem`). */
export const caServidorDeTeste = (): ParPem => uma('ac', () => gerarAc('AC SERVIDOR TESTE frete-fiscal'));
const acNaoConfiavel = (): ParPem => uma('ac_nao_confiavel', () => gerarAc('AC SERVIDOR NAO CONFIAVEL'));
const NOMES = ['127.0.0.1', 'localhost'];

function certificadoServidor(confiavel: boolean): ParPem & { caPem: string } {
  const ac = confiavel ? caServidorDeTeste() : acNaoConfiavel();
  const par = uma(confiavel ? 'servidor' : 'servidor_nao_confiavel', () => emitirCertificadoServidor(ac, NOMES));
  return { ...par, caPem: ac.cert };
}

/**
 * A server certificate for 127.0.0.1 issued by a CA no client trusts (`caPem` is that CA): for "the client does not
 * trust the server's certificate". `iniciarAutoridadeLocalDeTeste({ servidorNaoConfiavel: true })` starts a server
 * with it.
 */
export function certificadoServidorNaoConfiavel(): { key: string; cert: string; caPem: string } {
  return certificadoServidor(false);
}

/** An A1 issued by a CA the local authority does not trust: for "the authority refuses the client certificate". */
export function a1DeOutraAc(o: Omit<MakeA1Options, 'otherCa'>): A1 {
  return makeA1({ ...o, otherCa: true });
}

/** The validity of the authority tests' A1: it spans their fixed clocks (in 2026) whatever day they run. */
export const VALIDADE_A1 = { notBefore: new Date('2020-01-01T00:00:00Z'), notAfter: new Date('2040-01-01T00:00:00Z') };

/** An A1 of `cnpj` valid over the tests' clocks, and the TLS client certificate made of it (`pedirHttps`'s `cliente`). */
export function clienteA1(cnpj: string, razao = 'TRANSPORTADORA EXEMPLO LTDA'): { a1: A1; cliente: { key: string; cert: string } } {
  const a1 = makeA1({ cnpj, razao, password: 'senha', cnpjIn: 'otherName', ...VALIDADE_A1 });
  return { a1, cliente: { key: a1.privateKeyPem, cert: a1.certificatePem } };
}

export async function iniciarAutoridadeLocalDeTeste(o: OpcoesAutoridadeLocalDeTeste = {}): Promise<AutoridadeLocalDeTeste> {
  const db = o.pool ? null : await freshDatabase();
  const pool = o.pool ?? db!.pool;
  const schemas = o.schemas ?? new FiscalSchemas();
  const servidor = certificadoServidor(!o.servidorNaoConfiavel);
  const fecharProprios = async () => {
    if (!o.schemas) await schemas.close();
    await db?.drop();
  };
  try {
    const autoridade = await iniciarAutoridadeLocal({
      pool,
      schemas,
      ...(o.clock ? { clock: o.clock } : {}),
      ...(o.tpAmb ? { tpAmb: o.tpAmb } : {}),
      ...(o.port ? { port: o.port } : {}),
      tls: { key: servidor.key, cert: servidor.cert, clientCa: testCaCertificatePem() },
    });
    return {
      url: autoridade.url,
      caPem: caServidorDeTeste().cert,
      falhas: autoridade.falhas,
      atendidos: autoridade.atendidos,
      pool,
      schemas,
      registrarNfe: async (xml) => {
        const { chave, nsus } = await autoridade.ambienteNacional.registrarNfe(xml);
        return { chave, nsus: Object.fromEntries(nsus) };
      },
      close: async () => {
        await autoridade.close();
        await fecharProprios();
      },
    };
  } catch (error) {
    await fecharProprios();
    throw error;
  }
}
