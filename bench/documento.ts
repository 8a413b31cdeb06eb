import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { montarCteXml, rejeicoesPrevistas } from '@frete/domain';
import { FISCAL_SCHEMAS_DIR, FiscalSchemas, signFiscalXml, verifyFiscalSignature } from '@frete/documents';
import { makeA1 } from '../test/support/certificates';
import { montarInput } from '../test/support/cte-montar';
import { executar, imprimirResultado, medir, REPETICOES, resumo } from './comum';

/**
 * One CT-e through the document engine as the emission uses it (build, sign with the A1, official schema, signature
 * check), each step's CPU per document, against anchors measured in the same run on the same bytes: raw crypto (the
 * SHA-1 digest of the signed element and RSA-SHA1 of the SignedInfo, signing and verifying, with keys parsed once) and
 * libxml2 itself (the same libxml2-wasm the schema worker runs, called directly, without the worker's round trip).
 * Target (issue 14): signing plus verifying within 3× of raw crypto. The pre-flight (issue 29: the authority's rule set
 * over the XML, run at the issue and again by the emission engine) is its own step, so its share of a document shows.
 */

const A1 = makeA1({ cnpj: '11222333000181', razao: 'BENCH TRANSPORTES LTDA', password: 'x', cnpjIn: 'otherName' });

/** The same CT-e, numbered `i`, as the emission builds it. */
const construir = (i: number) => montarCteXml(montarInput({ numero: 1 + (i % 999_999), cCT: String(10_000_000 + i).slice(-8) })).xml;

interface Libxml2 {
  XmlDocument: {
    fromString(xml: string): { dispose(): void };
    fromBuffer(bytes: Uint8Array, o: { url: string }): unknown;
  };
  XsdValidator: { fromDoc(doc: unknown): { validate(doc: unknown): void } };
  XmlBufferInputProvider: new (files: Record<string, Uint8Array>) => unknown;
  xmlRegisterInputProvider(p: unknown): boolean;
}

/** libxml2-wasm in this process, the CT-e schema compiled once (the anchor of the schema check). */
async function libxml2Direto(): Promise<(xml: string) => void> {
  const lib = (await import('libxml2-wasm')) as unknown as Libxml2;
  const dir = path.join(FISCAL_SCHEMAS_DIR, 'cte-4.00');
  const files: Record<string, Uint8Array> = {};
  for (const name of fs.readdirSync(dir))
    if (name.endsWith('.xsd')) files[path.join(dir, name)] = new Uint8Array(fs.readFileSync(path.join(dir, name)));
  lib.xmlRegisterInputProvider(new lib.XmlBufferInputProvider(files));
  const raiz = path.join(dir, 'cte_v4.00.xsd');
  const validador = lib.XsdValidator.fromDoc(lib.XmlDocument.fromBuffer(files[raiz]!, { url: raiz }));
  return (xml) => {
    const doc = lib.XmlDocument.fromString(xml);
    try {
      validador.validate(doc);
    } finally {
      doc.dispose();
    }
  };
}

/** Raw crypto on a signed document's own bytes: digest of the signed element, RSA-SHA1 of SignedInfo, and back. */
function criptoBruta(assinado: string): () => void {
  const chave = crypto.createPrivateKey(A1.privateKeyPem);
  const publica = crypto.createPublicKey(A1.certificatePem);
  const elemento = Buffer.from(/<infCte[\s\S]*<\/infCte>/.exec(assinado)![0]);
  const signedInfo = Buffer.from(/<SignedInfo[\s\S]*<\/SignedInfo>/.exec(assinado)![0]);
  return () => {
    crypto.createHash('sha1').update(elemento).digest();
    const assinatura = crypto.sign('RSA-SHA1', signedInfo, chave);
    crypto.createHash('sha1').update(elemento).digest();
    if (!crypto.verify('RSA-SHA1', signedInfo, publica, assinatura)) throw new Error('raw RSA-SHA1 does not verify');
  };
}

export interface CustoDocumento {
  /** Build + sign + schema + verify, CPU ms per document (the floor a batch key cannot go under). */
  cpuMsPorDocumento: number;
  construir: number;
  assinar: number;
  schema: number;
  verificar: number;
  /** The authority's rule set over the built XML (the pre-flight), not in `cpuMsPorDocumento`. */
  regras: number;
}

/** CPU per document of each step over `n` documents (the schema's worker CPU counts: it runs in this process). */
export async function custoDoDocumento(n: number, schemas?: FiscalSchemas): Promise<CustoDocumento> {
  const proprio = !schemas;
  const validador = schemas ?? new FiscalSchemas();
  try {
    const xmls: string[] = [];
    const assinados: string[] = [];
    // Warm-up: the JIT, the schema compilation, the worker.
    await validador.validate(
      signFiscalXml(construir(0), { element: 'infCte', privateKeyPem: A1.privateKeyPem, certificatePem: A1.certificatePem }),
      'cte_v4.00.xsd',
    );
    const construir_ = await medir(() => {
      for (let i = 0; i < n; i++) xmls.push(construir(i + 1));
    });
    const assinar = await medir(() => {
      for (const xml of xmls)
        assinados.push(signFiscalXml(xml, { element: 'infCte', privateKeyPem: A1.privateKeyPem, certificatePem: A1.certificatePem }));
    });
    const schema = await medir(async () => {
      for (const xml of assinados) if (!(await validador.validate(xml, 'cte_v4.00.xsd')).valid) throw new Error('invalid CT-e');
    });
    const verificar = await medir(() => {
      for (const xml of assinados)
        if (!verifyFiscalSignature(xml, { element: 'infCte' }).valid) throw new Error('signature does not verify');
    });
    // Received the moment it was issued: the sample's dhEmi is fixed, and a late reception is itself a rejection (G103).
    const agora = new Date(/<dhEmi>([^<]+)<\/dhEmi>/.exec(xmls[0]!)![1]!);
    const regras = await medir(() => {
      for (const xml of xmls) if (rejeicoesPrevistas('cte', xml, { tpAmb: 2, agora }).length > 0) throw new Error('the rule set rejects');
    });
    const por = (m: { cpuMs: number }) => m.cpuMs / n;
    return {
      construir: por(construir_),
      assinar: por(assinar),
      schema: por(schema),
      verificar: por(verificar),
      regras: por(regras),
      cpuMsPorDocumento: por(construir_) + por(assinar) + por(schema) + por(verificar),
    };
  } finally {
    if (proprio) await validador.close();
  }
}

/**
 * The floor of one document, measured here: build, raw crypto (digest and RSA-SHA1, signing and verifying) and
 * libxml2's schema check on the same bytes. What a batch key costs above it is the service's own overhead.
 */
export async function pisoDoDocumento(n: number): Promise<number> {
  const libxml2 = await libxml2Direto();
  const amostra = signFiscalXml(construir(1), { element: 'infCte', privateKeyPem: A1.privateKeyPem, certificatePem: A1.certificatePem });
  const bruta = criptoBruta(amostra);
  libxml2(amostra);
  const m = await medir(() => {
    // The schema wants the signature: the signed sample stands for each built document (the same size and shape).
    for (let i = 0; i < n; i++) {
      construir(i + 1);
      bruta();
      libxml2(amostra);
    }
  });
  return m.cpuMs / n;
}

async function main(): Promise<void> {
  const n = Number(process.env.BENCH_DOCUMENTOS ?? 300);
  const schemas = new FiscalSchemas();
  const libxml2 = await libxml2Direto();
  const amostra = signFiscalXml(construir(1), { element: 'infCte', privateKeyPem: A1.privateKeyPem, certificatePem: A1.certificatePem });
  const bruta = criptoBruta(amostra);
  const rodadas: { custo: CustoDocumento; bruta: number; libxml2: number }[] = [];
  try {
    for (let r = 0; r < REPETICOES; r++) {
      const custo = await custoDoDocumento(n, schemas);
      const b = await medir(() => {
        for (let i = 0; i < n; i++) bruta();
      });
      const l = await medir(() => {
        for (let i = 0; i < n; i++) libxml2(amostra);
      });
      rodadas.push({ custo, bruta: b.cpuMs / n, libxml2: l.cpuMs / n });
      process.stdout.write(
        `round ${r + 1}: build ${custo.construir.toFixed(3)} · sign ${custo.assinar.toFixed(3)} · schema ${custo.schema.toFixed(3)} · ` +
          `verify ${custo.verificar.toFixed(3)} · pre-flight ${custo.regras.toFixed(3)} ms/doc · raw crypto ${(b.cpuMs / n).toFixed(3)} · libxml2 ${(l.cpuMs / n).toFixed(3)} ms/doc\n`,
      );
    }
  } finally {
    await schemas.close();
  }
  const de = (f: (x: (typeof rodadas)[number]) => number) => resumo(rodadas.map(f));
  imprimirResultado('documento', {
    documentos_por_rodada: n,
    rodadas: REPETICOES,
    cpu_ms_por_documento: {
      construir: de((x) => x.custo.construir),
      assinar: de((x) => x.custo.assinar),
      schema: de((x) => x.custo.schema),
      verificar: de((x) => x.custo.verificar),
      total: de((x) => x.custo.cpuMsPorDocumento),
      regras_previa: de((x) => x.custo.regras),
    },
    ancoras_ms: { cripto_bruta_assinar_e_verificar: de((x) => x.bruta), libxml2_direto: de((x) => x.libxml2) },
    razao_assinar_verificar_sobre_cripto: de((x) => (x.custo.assinar + x.custo.verificar) / x.bruta),
    razao_schema_sobre_libxml2: de((x) => x.custo.schema / x.libxml2),
    razao_regras_sobre_construir: de((x) => x.custo.regras / x.custo.construir),
    alvo_razao_assinar_verificar: 3,
  });
}

if (require.main === module) executar(main);
