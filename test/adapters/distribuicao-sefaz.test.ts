import https from 'node:https';
import { readFileSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import path from 'node:path';
import { type TLSSocket } from 'node:tls';
import {
  AutoridadeFiscalSefaz,
  AutoridadeIndisponivel,
  CertificadoRecusadoPelaAutoridade,
  DistribuicaoDFeSefaz,
  type DocumentoDistribuido,
  envelopeDeFalha,
  lerEnvelope,
  type PedidoDistribuicao,
  type RespostaDistribuicao,
  type RetornoDistribuicao,
  SOAP_DISTRIBUICAO,
  XMOTIVO_DISTRIBUICAO,
} from '@frete/adapters';
import { emitirCertificadoServidor } from '@frete/authority';
import { childElements, FiscalSchemas, parseFiscalXml } from '@frete/documents';
import { a1DeOutraAc, type AutoridadeLocalDeTeste, caServidorDeTeste, iniciarAutoridadeLocalDeTeste } from '../support/autoridade-local';
import { assinar, cteXml, EMITENTE, type CteOpcoes } from '../support/autoridade-xml';
import { type A1, makeA1, testCaCertificatePem } from '../support/certificates';

/**
 * The `sefaz` distribution adapter over real TLS with the company's A1 as client certificate: what it puts on the
 * wire, and each failure of the channel as the port promises it.
 */

const VALIDADE = { notBefore: new Date('2020-01-01T00:00:00Z'), notAfter: new Date('2040-01-01T00:00:00Z') };
const a1 = makeA1({ cnpj: EMITENTE, razao: 'TRANSPORTADORA EXEMPLO LTDA', password: 'senha', cnpjIn: 'otherName', ...VALIDADE });
const remetente = { companyId: 'empresa-1' };
const pedido = (o: Partial<PedidoDistribuicao> = {}): PedidoDistribuicao => ({
  servico: 'cte',
  cUFAutor: '43',
  documento: EMITENTE,
  ultNSU: '000000000000000',
  ...o,
});

const abertos: DistribuicaoDFeSefaz[] = [];
function adaptador(o: { url: string; caPem: string; certificado?: A1 | null; timeoutMs?: number }) {
  const certificado = o.certificado === undefined ? a1 : o.certificado;
  const a = new DistribuicaoDFeSefaz({
    ambiente: 'homologacao',
    enderecos: { baseUrl: o.url },
    confiancaPem: o.caPem,
    timeoutMs: o.timeoutMs ?? 10_000,
    credencial: () =>
      Promise.resolve(certificado ? { certificadoPem: certificado.certificatePem, chavePrivadaPem: certificado.privateKeyPem } : null),
  });
  abertos.push(a);
  return a;
}
afterAll(() => Promise.all(abertos.map((a) => a.close())));

interface Recebido {
  caminho: string;
  contentType: string;
  corpo: string;
  comA1: boolean;
}

/**
 * A bare mutual-TLS server that records each request and answers HTTP 500 with a SOAP fault: what the adapter sends,
 * seen from the other side, and the answer of a server that failed.
 */
async function servidorQueRegistra(): Promise<{ url: string; recebidos: Recebido[]; close(): Promise<void> }> {
  const par = emitirCertificadoServidor(caServidorDeTeste(), ['127.0.0.1']);
  const recebidos: Recebido[] = [];
  const servidor = https.createServer(
    { key: par.key, cert: par.cert, ca: testCaCertificatePem(), requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      const partes: Buffer[] = [];
      req.on('data', (p: Buffer) => partes.push(p));
      req.on('end', () => {
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        recebidos.push({
          caminho: req.url ?? '',
          contentType: req.headers['content-type'] ?? '',
          corpo: Buffer.concat(partes).toString('utf8'),
          comA1: JSON.stringify(peer.subject ?? {}).includes('TRANSPORTADORA EXEMPLO'),
        });
        const falha = Buffer.from(envelopeDeFalha('Receiver', 'Server was unable to process request.'), 'utf8');
        res.writeHead(500, { 'content-type': 'application/soap+xml; charset=utf-8', 'content-length': falha.length });
        res.end(falha);
      });
    },
  );
  await new Promise<void>((resolve) => servidor.listen(0, '127.0.0.1', resolve));
  const { port } = servidor.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    recebidos,
    close: () => new Promise<void>((resolve) => servidor.close(() => resolve())),
  };
}

describe('the sefaz distribution adapter on the wire', () => {
  it("POSTs distDFeInt in SOAP 1.2 to <base>/AN/<Service> with the WSDL's action, the A1 as client certificate; a 500 is AutoridadeIndisponivel", async () => {
    const servidor = await servidorQueRegistra();
    try {
      const sefaz = adaptador({ url: servidor.url, caPem: caServidorDeTeste().cert });
      for (const servico of ['cte', 'nfe'] as const) {
        const erro = await sefaz.consultar(pedido({ servico, ultNSU: '000000000000077' }), remetente).catch((e: unknown) => e);
        expect(erro).toBeInstanceOf(AutoridadeIndisponivel);
        expect(erro).toMatchObject({
          code: 'autoridade_indisponivel',
          motivo: 'falha_no_servidor',
          xMotivo: 'HTTP 500 SOAP fault soap12:Receiver: Server was unable to process request.',
        });
      }
      expect(servidor.recebidos).toHaveLength(2);
      for (const [i, servico] of (['cte', 'nfe'] as const).entries()) {
        const s = SOAP_DISTRIBUICAO[servico];
        const r = servidor.recebidos[i]!;
        expect(r.caminho).toBe(`/AN/${s.servico}`);
        expect(r.contentType).toBe(`application/soap+xml; charset=utf-8; action="${s.acao}"`);
        expect(r.comA1).toBe(true);
        const lido = lerEnvelope(r.corpo);
        if (lido.tipo !== 'corpo') throw new Error(lido.tipo);
        expect(lido.cabecalho).toBeNull();
        expect(lido.conteudo.localName).toBe(s.operacao);
        const dist = childElements(childElements(lido.conteudo)[0]!)[0]!;
        expect(dist.getAttribute('versao')).toBe(s.versao);
        expect(childElements(dist).map((e) => `${e.localName}=${e.textContent}`)).toEqual([
          'tpAmb=2',
          'cUFAutor=43',
          `CNPJ=${EMITENTE}`,
          'distNSU=000000000000077',
        ]);
      }
    } finally {
      await servidor.close();
    }
  });

  it('a refused connection is AutoridadeIndisponivel (sem_conexao); a company without an A1 is certificado_invalido', async () => {
    const servidor = await servidorQueRegistra();
    const url = servidor.url;
    await servidor.close();
    const sefaz = adaptador({ url, caPem: caServidorDeTeste().cert });
    await expect(sefaz.consultar(pedido(), remetente)).rejects.toMatchObject({ code: 'autoridade_indisponivel', motivo: 'sem_conexao' });
    const semA1 = adaptador({ url, caPem: caServidorDeTeste().cert, certificado: null });
    await expect(semA1.consultar(pedido(), remetente)).rejects.toMatchObject({ code: 'certificado_invalido' });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Against the local authority server: the national environment's two services over the same mutual TLS.

const INICIO = new Date('2026-11-20T13:05:00Z');
let agora = INICIO;
const clock = () => agora;
const MINUTO = 60_000;
const avancar = (ms: number) => (agora = new Date(agora.getTime() + ms));
const ZERO = '000000000000000';
/** A company the contractor's CT-e authorizes to download (`autXML`), with an A1 of its own. */
const AUTORIZADO = '33000167000101';
const a1Autorizado = makeA1({ cnpj: AUTORIZADO, razao: 'SUBCONTRATADA EXEMPLO LTDA', password: 'x', cnpjIn: 'otherName', ...VALIDADE });

const schemas = new FiscalSchemas();
let local: AutoridadeLocalDeTeste;
let autoridade: AutoridadeFiscalSefaz;

beforeAll(async () => {
  local = await iniciarAutoridadeLocalDeTeste({ clock, schemas });
  autoridade = new AutoridadeFiscalSefaz({
    ambiente: 'homologacao',
    enderecos: { baseUrl: local.url },
    confiancaPem: local.caPem,
    // Only the setup's authorizations: generous, so that a loaded machine (the suite's other workers) never fails them.
    timeoutMs: 60_000,
    clock,
    credencial: () => Promise.resolve({ certificadoPem: a1.certificatePem, chavePrivadaPem: a1.privateKeyPem }),
  });
});
afterAll(async () => {
  await autoridade?.close();
  await local?.close();
  await schemas.close();
});
afterEach(() => {
  local.falhas.limpar();
  // Past any wait or block a test left behind.
  avancar(3 * 60 * MINUTO);
});

const noLocal = (o: { certificado?: A1 | null; timeoutMs?: number } = {}) => adaptador({ url: local.url, caPem: local.caPem, ...o });

let proximo = 9000;
/** Authorizes `n` CT-e of EMITENTE through the SOAP door (the simulated authority distributes each), `lote` at a time. */
async function autorizarCtes(n: number, o: Partial<CteOpcoes> = {}, lote = 8): Promise<string[]> {
  const chaves: string[] = [];
  for (let i = 0; i < n; i += lote) {
    const feitos = await Promise.all(
      Array.from({ length: Math.min(lote, n - i) }, async () => {
        const { chave, xml } = cteXml({ numero: proximo++, ...o });
        const r = await autoridade.autorizarCte(assinar(xml, 'infCte', a1), remetente);
        if (r.tipo !== 'autorizado') throw new Error(`expected an authorization, got ${JSON.stringify(r)}`);
        return chave;
      }),
    );
    chaves.push(...feitos);
  }
  return chaves;
}

function consultado(r: RetornoDistribuicao): RespostaDistribuicao {
  if (r.tipo !== 'consultado') throw new Error(`expected an answer with documents or none, got ${JSON.stringify(r)}`);
  return r;
}
const xmlDe = (d: DocumentoDistribuido | undefined): Buffer => {
  if (!d || !('xml' in d)) throw new Error(`expected a readable document, got ${JSON.stringify(d)}`);
  return d.xml;
};
/** The access key a distributed procCTe names (its infCte Id). */
const chaveDoProc = (xml: Buffer): string | null => /<infCte[^>]*Id="CTe([0-9]{44})"/.exec(xml.toString('utf8'))?.[1] ?? null;

/** What the national environment holds for the party at that NSU: the bytes an answer must carry. */
async function guardado(servico: 'cte' | 'nfe', interessado: string, nsu: string): Promise<Buffer> {
  const { rows } = await local.pool.query<{ xml: Buffer }>(
    'SELECT xml FROM ambiente_nacional_documentos WHERE servico = $1 AND interessado = $2 AND nsu = $3',
    [servico, interessado, nsu],
  );
  if (!rows[0]) throw new Error(`nothing held for ${interessado} at NSU ${nsu}`);
  return rows[0].xml;
}
const atendidos = (servico: string) => local.atendidos()[`AN/${servico}`] ?? 0;
const seq = (de: number, ate: number) => Array.from({ length: ate - de + 1 }, (_, i) => String(de + i).padStart(15, '0'));

describe('the sefaz distribution adapter against the local national environment', () => {
  it('pages over several calls (50 per answer), a dropped answer is sem_resposta and asked again; then 656 during the hour, 137 after', async () => {
    const sefaz = noLocal();
    const chaves = await autorizarCtes(55);
    const pedir = (ultNSU: string) => sefaz.consultar(pedido({ ultNSU }), remetente);

    // The service processed the first page and the answer was lost: nothing is concluded, the same page comes again.
    local.falhas.programar({ tipo: 'sem_resposta', servico: 'CTeDistribuicaoDFe', vezes: 1 });
    const antes = atendidos('CTeDistribuicaoDFe');
    expect(await pedir(ZERO)).toMatchObject({ tipo: 'sem_resposta' });
    expect(atendidos('CTeDistribuicaoDFe')).toBe(antes + 1);

    const primeira = consultado(await pedir(ZERO));
    expect(primeira).toMatchObject({
      cStat: 138,
      xMotivo: XMOTIVO_DISTRIBUICAO[138],
      ultNSU: '000000000000050',
      maxNSU: '000000000000055',
      // CT-e 1.00's dhResp: Brasília time (UTC-3, no daylight saving since 2019) without offset.
      dhResp: new Date(agora.getTime() - 180 * MINUTO).toISOString().slice(0, 19),
    });
    expect(primeira.documentos.map((d) => d.nsu)).toEqual(seq(1, 50));
    const segunda = consultado(await pedir(primeira.ultNSU));
    expect(segunda).toMatchObject({ cStat: 138, ultNSU: '000000000000055', maxNSU: '000000000000055' });
    expect(segunda.documentos.map((d) => d.nsu)).toEqual(seq(51, 55));

    // Each CT-e authorized once, as its procCTe, byte for byte what the environment holds, valid to the schema.
    const todos = [...primeira.documentos, ...segunda.documentos];
    expect(todos.map((d) => chaveDoProc(xmlDe(d))).sort()).toEqual([...chaves].sort());
    for (const d of todos) {
      expect(d.schema).toBe('procCTe_v4.00.xsd');
      expect(xmlDe(d).equals(await guardado('cte', EMITENTE, d.nsu))).toBe(true);
    }
    expect(await schemas.validate(xmlDe(todos[0]).toString('utf8'), 'procCTe_v4.00.xsd')).toEqual({ valid: true, errors: [] });

    // Caught up (ultNSU = maxNSU): the next call within the hour is 656, and it restarts the hour.
    avancar(30 * MINUTO);
    expect(await pedir(segunda.ultNSU)).toEqual({ tipo: 'rejeitado', cStat: 656, xMotivo: XMOTIVO_DISTRIBUICAO[656] });
    avancar(59 * MINUTO);
    expect(await pedir(segunda.ultNSU)).toMatchObject({ tipo: 'rejeitado', cStat: 656 });
    avancar(61 * MINUTO);
    const nada = consultado(await pedir(segunda.ultNSU));
    expect(nada).toMatchObject({
      cStat: 137,
      xMotivo: XMOTIVO_DISTRIBUICAO[137],
      ultNSU: '000000000000055',
      maxNSU: '000000000000055',
      documentos: [],
    });
    // 137 starts the hour's wait too.
    expect(await pedir(nada.ultNSU)).toMatchObject({ tipo: 'rejeitado', cStat: 656 });
    avancar(61 * MINUTO);
    await autorizarCtes(1);
    const nova = consultado(await pedir(nada.ultNSU));
    expect(nova).toMatchObject({ cStat: 138, ultNSU: '000000000000056', maxNSU: '000000000000056' });
  });

  it("a broken docZip is that document's erro, with its text as received, while the others of the answer are read", async () => {
    const sefaz = noLocal({ certificado: a1Autorizado });
    const autXml = (xml: string) =>
      xml.replace('</infCTeNorm></infCte>', `</infCTeNorm><autXML><CNPJ>${AUTORIZADO}</CNPJ></autXML></infCte>`);
    const chaves = await autorizarCtes(3, { alterar: autXml });
    local.falhas.programar({ tipo: 'doczip_corrompido', nsu: '000000000000002', servico: 'CTeDistribuicaoDFe', vezes: 1 });
    const r = consultado(await sefaz.consultar(pedido({ documento: AUTORIZADO }), remetente));
    expect(r).toMatchObject({ cStat: 138, ultNSU: '000000000000003', maxNSU: '000000000000003' });
    expect(r.documentos.map((d) => d.nsu)).toEqual(seq(1, 3));
    const quebrado = r.documentos[1]!;
    expect(quebrado).toEqual({
      nsu: '000000000000002',
      schema: 'procCTe_v4.00.xsd',
      erro: 'docZip is not Base64',
      conteudo: expect.any(String),
    });
    // The text as the answer carried it: not Base64 any more, so not a document.
    expect('conteudo' in quebrado && quebrado.conteudo).toMatch(/[^A-Za-z0-9+/=\s]/);
    for (const i of [0, 2]) {
      const d = r.documentos[i];
      expect(xmlDe(d).equals(await guardado('cte', AUTORIZADO, d!.nsu))).toBe(true);
      expect(chaves).toContain(chaveDoProc(xmlDe(d)));
    }
    // The rule spent, the same page asked again after the hour's wait is read whole.
    avancar(61 * MINUTO);
    const denovo = consultado(await sefaz.consultar(pedido({ documento: AUTORIZADO }), remetente));
    expect(denovo.documentos.map((d) => chaveDoProc(xmlDe(d))).sort()).toEqual([...chaves].sort());
  });

  it('distributes an NF-e naming the company in transporta through NFeDistribuicaoDFe (1.01), byte for byte', async () => {
    const nfe = readFileSync(
      path.join(__dirname, '..', 'fixtures', 'nfe', '41170706117473000150550010000463202612756525-procNFe.xml'),
      'utf8',
    );
    const xml = nfe.replace(
      /<modFrete>0<\/modFrete>\s*<\/transp>/,
      `<modFrete>0</modFrete><transporta><CNPJ>${EMITENTE}</CNPJ></transporta></transp>`,
    );
    const { chave, nsus } = await local.registrarNfe(xml);
    const r = consultado(await noLocal().consultar(pedido({ servico: 'nfe', cUFAutor: '41' }), remetente));
    expect(r).toMatchObject({ cStat: 138, ultNSU: nsus[EMITENTE], maxNSU: nsus[EMITENTE] });
    // NF-e 1.01's dhResp carries its offset.
    expect(r.dhResp).toMatch(/^2026-11-2[0-9]T[0-9:]{8}-03:00$/);
    expect(r.documentos).toHaveLength(1);
    expect(r.documentos[0]).toMatchObject({ nsu: nsus[EMITENTE], schema: 'procNFe_v4.00.xsd' });
    expect(xmlDe(r.documentos[0]).equals(Buffer.from(xml, 'utf8'))).toBe(true);
    const raiz = parseFiscalXml(xmlDe(r.documentos[0]).toString('utf8'));
    expect('doc' in raiz && raiz.doc.documentElement?.localName).toBe('nfeProc');
    expect(chave).toHaveLength(44);
  });

  it("a party that is not the certificate's is rejeitado 593; the answer is the service's own", async () => {
    const r = await noLocal().consultar(pedido({ documento: AUTORIZADO }), remetente);
    expect(r).toEqual({ tipo: 'rejeitado', cStat: 593, xMotivo: XMOTIVO_DISTRIBUICAO[593] });
  });

  it('a client certificate the national environment does not trust is CertificadoRecusadoPelaAutoridade, nothing processed', async () => {
    const outra = a1DeOutraAc({ cnpj: EMITENTE, razao: 'OUTRA AC', password: 'x', cnpjIn: 'otherName', ...VALIDADE });
    const antes = atendidos('CTeDistribuicaoDFe');
    const erro = await noLocal({ certificado: outra })
      .consultar(pedido(), remetente)
      .catch((e: unknown) => e);
    expect(erro).toBeInstanceOf(CertificadoRecusadoPelaAutoridade);
    expect(erro).toMatchObject({ code: 'certificado_recusado_pela_autoridade' });
    expect(atendidos('CTeDistribuicaoDFe')).toBe(antes);
  });

  it('an answer later than the timeout is sem_resposta; a server failure (500 SOAP fault) is AutoridadeIndisponivel', async () => {
    local.falhas.programar({ tipo: 'latencia', ms: 1500, servico: 'NFeDistribuicaoDFe', vezes: 1 });
    expect(await noLocal({ timeoutMs: 500 }).consultar(pedido({ servico: 'nfe' }), remetente)).toMatchObject({
      tipo: 'sem_resposta',
      motivo: expect.stringMatching(/500 ms/),
    });
    local.falhas.programar({ tipo: 'erro_servidor', servico: 'CTeDistribuicaoDFe', vezes: 1 });
    await expect(noLocal().consultar(pedido(), remetente)).rejects.toMatchObject({
      code: 'autoridade_indisponivel',
      motivo: 'falha_no_servidor',
      xMotivo: expect.stringMatching(/^HTTP 500 SOAP fault soap12:Receiver/),
    });
  });
});
