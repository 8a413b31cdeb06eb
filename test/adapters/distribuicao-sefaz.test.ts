import https from 'node:https';
import { type AddressInfo } from 'node:net';
import { type TLSSocket } from 'node:tls';
import {
  AutoridadeIndisponivel,
  DistribuicaoDFeSefaz,
  envelopeDeFalha,
  lerEnvelope,
  type PedidoDistribuicao,
  SOAP_DISTRIBUICAO,
} from '@frete/adapters';
import { emitirCertificadoServidor } from '@frete/authority';
import { childElements } from '@frete/documents';
import { caServidorDeTeste } from '../support/autoridade-local';
import { EMITENTE } from '../support/autoridade-xml';
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
