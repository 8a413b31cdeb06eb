import fc from 'fast-check';
import { cnpjCheckDigits, isValidCpf } from '@frete/domain';
import { FiscalSchemas, signFiscalXml } from '@frete/documents';
import { readPkcs12 } from '@frete/platform';
import { expectError, startTestApp, type ApiResponse, type TestApp, type TestCarrier } from '../support/app';
import { makeA1 } from '../support/certificates';
import { chaveTeste } from '../support/cte-montar';
import {
  comProtocolo,
  type CteContratante,
  cteContratanteXml,
  type DocumentosCte,
  type EmitenteCte,
  type EnderecoCte,
  type IcmsCte,
  type MunicipioCte,
  type ParteCte,
} from '../support/cte-contratante';
import { pollUntil } from '../support/emissora';
import { MOTORISTA_CPF, PLACA, relatorioFinal, subcontratadaPronta } from '../support/lote';

/**
 * Issue 11, defect 2, as a property: whatever a contractor's CT-e 4.00 leaves out of what the layout makes optional
 * (every optional group and element the reader or the counter-CT-e plan touch: parties, addresses, CEP, IE, phones,
 * e-mails, complements, the taker's variants, compl and its observations, components, ICMS groups, IBS/CBS, cargo
 * value and quantities, the transported documents, docAnt, the QR code, signed cteProc or bare CTe), receiving it,
 * issuing its counter-CT-e singly and in a batch, and every read that shows them answer no 5xx but their documented
 * statuses. Each generated CT-e is first checked against cte_v4.00.xsd, so only shapes the layout allows are tried.
 * Bounded (one app, RUNS runs, no shrinking: each run is a few HTTP round trips); seeded: a failure prints its seed,
 * and FC_SEED reruns it.
 */

const RUNS = 30;

const MUNICIPIOS: MunicipioCte[] = [
  { cMun: '3509502', xMun: 'CAMPINAS', UF: 'SP' },
  { cMun: '3550308', xMun: 'SÃO PAULO', UF: 'SP' },
  { cMun: '3304557', xMun: 'RIO DE JANEIRO', UF: 'RJ' },
  { cMun: '3303302', xMun: 'NITEROI', UF: 'RJ' },
  { cMun: '4106902', xMun: 'CURITIBA', UF: 'PR' },
];
const UFS = ['SP', 'RJ', 'PR'];
const CUF: Record<string, string> = { SP: '35', RJ: '33', PR: '41' };

/** An optional element: present or absent, half and half. */
const opt = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(a, { nil: undefined, freq: 2 });
/** An optional party: present four times in five, since subcontracting needs the sender and the recipient. */
const optParte = (a: fc.Arbitrary<ParteCte>): fc.Arbitrary<ParteCte | undefined> => fc.option(a, { nil: undefined, freq: 5 });
const digitos = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''));
const decimal = (casas: number) => (n: number) => `${Math.floor(n / 10 ** casas)}.${String(n % 10 ** casas).padStart(casas, '0')}`;
/** Up to 13 integer digits and 2 decimals (TDec_1302), or 11 and 4 (TDec_1104): exact below 2^53. */
const dec1302 = fc.integer({ min: 0, max: 999_999_999_999_999 }).map(decimal(2));
const dec1104 = fc.integer({ min: 0, max: 999_999_999_999_999 }).map(decimal(4));
/** TDec_1302Opc: not zero. */
const dec1302Opc = fc.integer({ min: 1, max: 999_999_999_999_999 }).map(decimal(2));

const cnpj = (alfabeto: string) =>
  fc
    .array(fc.constantFrom(...alfabeto.split('')), { minLength: 8, maxLength: 8 })
    .map((b) => `${b.join('')}0001`)
    .map((base) => base + cnpjCheckDigits(base));
/** Numeric, or alphanumeric (CT-e 4.00 `TCnpjOpc`/`TCnpj`). */
const arbCnpj = fc.oneof(cnpj('0123456789'), cnpj('ABCDEFGHJKLMNPQRSTUVWXYZ0123456789'));
const arbCpf = digitos(9)
  .map((base) => Array.from({ length: 100 }, (_, k) => base + String(k).padStart(2, '0')).find(isValidCpf) ?? null)
  .filter((c): c is string => c !== null);

const arbEndereco: fc.Arbitrary<EnderecoCte> = fc.record({
  xLgr: fc.constantFrom('RUA DAS FLORES', 'AVENIDA BRASIL', 'RODOVIA SP-330 KM 10'),
  nro: fc.constantFrom('100', 'SN', '12A'),
  xCpl: opt(fc.constantFrom('SALA 1', 'GALPAO 3 & 4')),
  xBairro: fc.constantFrom('CENTRO', 'DISTRITO INDUSTRIAL'),
  municipio: fc.constantFrom(...MUNICIPIOS),
  CEP: opt(digitos(8)),
  pais: fc.boolean(),
});

const arbParte: fc.Arbitrary<ParteCte> = fc
  .record({
    documento: fc.oneof(
      arbCnpj.map((CNPJ) => ({ CNPJ })),
      arbCpf.map((CPF) => ({ CPF })),
    ),
    IE: opt(fc.constantFrom('ISENTO', '7', '123456789', '12345678901234')), // TIeDest
    xNome: fc.constantFrom('REMETENTE INDUSTRIA LTDA', 'JOSÉ DA SILVA & FILHOS', 'COMERCIO <NORTE> SA'),
    xFant: opt(fc.constantFrom('FANTASIA', 'LOJA DO ZE')),
    fone: opt(fc.stringMatching(/^[0-9]{6,14}$/)),
    email: opt(fc.constantFrom('contato@empresa.com.br', 'a.b@c.io')),
    ISUF: opt(fc.stringMatching(/^[0-9]{8,9}$/)),
    ender: arbEndereco,
  })
  .map(({ documento, ...resto }) => ({ ...documento, ...resto }));

const arbEmitente = (CNPJ: string): fc.Arbitrary<EmitenteCte> =>
  fc.record({
    CNPJ: fc.constant(CNPJ),
    IE: opt(fc.constantFrom('123456789012', '12')), // TIe
    IEST: opt(fc.constant('1234567890')),
    xNome: fc.constantFrom('CONTRATANTE TRANSPORTES SA', "TRANSPORTADORA D'OESTE & CIA"),
    xFant: opt(fc.constant('CONTRATANTE')),
    ender: fc.record({
      xLgr: fc.constant('AV DO TRANSPORTE'),
      nro: fc.constant('1'),
      xCpl: opt(fc.constant('BLOCO B')),
      xBairro: fc.constant('DISTRITO'),
      municipio: fc.constantFrom(...MUNICIPIOS),
      CEP: opt(digitos(8)),
      fone: opt(fc.stringMatching(/^[0-9]{6,14}$/)),
    }),
    CRT: fc.constantFrom('1' as const, '3' as const),
  });

const arbIcms: fc.Arbitrary<IcmsCte> = fc.oneof(
  fc.constant({ grupo: 'ICMS00' as const }),
  fc.constantFrom('40' as const, '41' as const, '51' as const).map((cst) => ({ grupo: 'ICMS45' as const, cst })),
  fc.record({ grupo: fc.constant('ICMS90' as const), pRedBC: opt(fc.constant('10.00')), vCred: opt(fc.constant('1.00')) }),
  fc.record({ grupo: fc.constant('ICMSOutraUF' as const), pRedBCOutraUF: opt(fc.constant('20.00')) }),
  fc.constant({ grupo: 'ICMSSN' as const }),
);

const arbDocumentos: fc.Arbitrary<DocumentosCte> = fc.oneof(
  fc.record({
    tipo: fc.constant('nfe' as const),
    chaves: fc
      .uniqueArray(fc.integer({ min: 1, max: 999_999 }), { minLength: 1, maxLength: 3 })
      .map((ns) => ns.map((n) => chaveTeste('45997418000153', n, '55', '35'))),
    pin: opt(fc.constant('123456')),
    dPrev: opt(fc.constant('2026-11-25')),
  }),
  fc.record({
    tipo: fc.constant('nf' as const),
    quantos: fc.integer({ min: 1, max: 2 }),
    nRoma: opt(fc.constant('R1')),
    nPed: opt(fc.constant('P1')),
    nPeso: opt(fc.constant('10.500')),
  }),
  fc.record({
    tipo: fc.constant('outros' as const),
    tpDoc: fc.constantFrom('00' as const, '10' as const, '59' as const, '65' as const, '99' as const),
    descOutros: opt(fc.constant('DECLARACAO')),
    nDoc: opt(fc.constant('123')),
    dEmi: opt(fc.constant('2026-11-19')),
    vDocFisc: opt(dec1302Opc),
  }),
);

const obs = fc.record({ xCampo: fc.constantFrom('PEDIDO', 'LOTE'), xTexto: fc.constantFrom('12345', 'ABC & DEF') });

/** A contractor CT-e; `numero` is set per document when it is built. */
const arbCte = (subcontratada: string): fc.Arbitrary<Omit<CteContratante, 'numero'> & { entrega: 'cteProc' | 'CTe' }> =>
  arbCnpj
    .filter((c) => c !== subcontratada)
    .chain((contratante) =>
      fc
        .record({
          serie: fc.integer({ min: 0, max: 999 }),
          tpAmb: fc.constantFrom(1 as const, 2 as const),
          tpServ: fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const),
          inicio: fc.constantFrom(...MUNICIPIOS),
          fim: fc.constantFrom(...MUNICIPIOS),
          xDetRetira: opt(fc.constant('RETIRAR NA DOCA 2')),
          toma: fc.oneof(
            fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const),
            arbParte.map((toma4) => ({ toma4 })),
          ),
          compl: opt(
            fc.record({
              xCaracAd: opt(fc.constant('EXPRESSO')),
              xCaracSer: opt(fc.constant('SERVICO NORMAL')),
              xEmi: opt(fc.constant('FULANO')),
              xObs: opt(fc.constant('OBSERVACAO DO CONTRATANTE')),
              obsCont: fc.array(obs, { maxLength: 3 }),
              obsFisco: fc.array(obs, { maxLength: 2 }),
            }),
          ),
          emit: arbEmitente(contratante),
          rem: optParte(arbParte),
          exped: optParte(arbParte),
          receb: optParte(arbParte),
          dest: optParte(arbParte),
          vTPrest: fc.integer({ min: 1, max: 999_999_999_999_999 }),
          componentes: fc.array(fc.constantFrom('FRETE PESO', 'PEDAGIO', 'GRIS'), { maxLength: 3 }),
          icms: arbIcms,
          vTotTrib: opt(dec1302),
          infAdFisco: opt(fc.constant('INFORMACAO AO FISCO')),
          ibsCbs: opt(fc.record({ gIBSCBS: fc.boolean() })),
          carga: fc.record({
            vCarga: opt(dec1302),
            proPred: fc.constantFrom('PECAS', 'GRAOS & CEREAIS'),
            xOutCat: opt(fc.constant('PALETIZADA')),
            infQ: fc.array(
              fc.record({
                cUnid: fc.constantFrom('00', '01', '02', '03', '04', '05'),
                tpMed: fc.constantFrom('PESO BRUTO', 'UNIDADE'),
                qCarga: dec1104,
              }),
              { minLength: 1, maxLength: 25 },
            ),
            vCargaAverb: opt(dec1302Opc),
          }),
          documentos: opt(arbDocumentos),
          docAnt: opt(
            fc
              .record({
                CNPJ: arbCnpj,
                IE: opt(fc.constant({ IE: '123456789', UF: 'SP' })),
                xNome: fc.constant('PRIMEIRA TRANSPORTADORA LTDA'),
                n: fc.integer({ min: 1, max: 999_999 }),
              })
              .map(({ n, ...d }) => ({ ...d, chaves: [chaveTeste(d.CNPJ, n, '57', '35')] })),
          ),
          RNTRC: fc.constantFrom('12345678', 'ISENTO'),
          qrCode: fc.boolean(),
          entrega: fc.constantFrom('cteProc' as const, 'CTe' as const),
        })
        .map((c) => ({ ...c, cUF: CUF[c.emit.ender.municipio.UF]! })),
    );

describe('property: a contractor CT-e with any of its optional groups and elements present or absent never gets a 5xx (issue 11, defect 2)', () => {
  jest.setTimeout(600_000);
  let app: TestApp;
  let sub: TestCarrier;
  const schemas = new FiscalSchemas();
  const a1 = makeA1({ cnpj: '11222333000181', razao: 'CONTRATANTE TRANSPORTES SA', password: 'x', cnpjIn: 'otherName' });
  const { privateKeyPem, certificatePem } = readPkcs12(a1.pfx, 'x');
  let numero = 0;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_FISCAL_PER_MIN: '1000000', RATE_LIMIT_IP_PER_MIN: '1000000' });
    sub = await subcontratadaPronta(app);
    for (const uf_origem of UFS) {
      for (const uf_destino of UFS) {
        if (uf_origem === 'SP' && uf_destino === 'RJ') continue; // the carrier's own, made with it
        expect(
          (await sub.call('POST', '/v1/fiscal/regras-tributacao', { uf_origem, uf_destino, icms: { cst: '00', aliquota: 12 } })).status,
        ).toBe(201);
      }
    }
  });
  afterAll(async () => {
    await schemas.close();
    await app?.close();
  });

  /** Status `esperado`, or the request, the status and the body, to read in the counterexample. */
  const responde = (r: ApiResponse, esperado: number, o_que: string) => {
    expect({ o_que, status: r.status, body: r.status === esperado ? undefined : r.text.slice(0, 600) }).toEqual({
      o_que,
      status: esperado,
      body: undefined,
    });
    return r;
  };
  const get = async (path: string, esperado = 200) => responde(await sub.call('GET', path), esperado, `GET ${path}`);

  /** Signs it, checks it against the layout, and receives it (as cteProc or bare CTe) into the inbox. */
  const receber = async (c: CteContratante, entrega: 'cteProc' | 'CTe'): Promise<string> => {
    const { chave, xml } = cteContratanteXml(c);
    const assinado = signFiscalXml(xml, { element: 'infCte', privateKeyPem, certificatePem });
    expect(await schemas.validate(assinado, 'cte_v4.00.xsd')).toEqual({ valid: true, errors: [] });
    const corpo = entrega === 'cteProc' ? comProtocolo(assinado, chave, c.tpAmb) : `<?xml version="1.0" encoding="UTF-8"?>${assinado}`;
    responde(await sub.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: corpo }), 201, 'POST /fiscal/cte-subcontratacao');
    const lido = (await get(`/v1/fiscal/cte-subcontratacao/${chave}`)).body.data;
    expect(lido.remetente?.endereco.cep ?? null).toBe(c.rem?.ender.CEP ?? null);
    expect(lido.emitente.endereco.cep ?? null).toBe(c.emit.ender.CEP ?? null);
    await get(`/v1/fiscal/cte-subcontratacao/${chave}/xml`);
    return chave;
  };

  /** Every read that shows an own CT-e, the list included (all of it: fewer than 100 per run). */
  const leituras = async (id: string) => {
    const doc = (await get(`/v1/fiscal/cte/${id}`)).body.data;
    expect((await get('/v1/fiscal/cte?per_page=100')).body.data.map((x: { id: string }) => x.id)).toContain(id);
    await get('/v1/fiscal/cte-subcontratacao?per_page=100');
    return doc;
  };

  it(`${RUNS} contractor CT-e: inbox, counter-CT-e singly and in a batch, and their reads`, async () => {
    const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
    await fc.assert(
      fc.asyncProperty(arbCte(sub.cnpj), async ({ entrega, ...spec }) => {
        // Subcontracting (tpServ 1) needs the sender and the recipient (G053/G054) and the transported documents (G036),
        // which the product passes on as NF-e keys or other documents (infOutros), not paper invoices (infNF): without
        // them it is 422 cte_com_pendencias.
        const documentos = spec.documentos?.tipo;
        const emitivel = spec.rem !== undefined && spec.dest !== undefined && (documentos === 'nfe' || documentos === 'outros');
        // An NFC-e (65) or CF-e SAT (59) in an interstate service is the authority's 813 (G045): issued, never sent, rejected.
        const g045 = spec.documentos?.tipo === 'outros' && ['59', '65'].includes(spec.documentos.tpDoc) && spec.inicio.UF !== spec.fim.UF;

        const chave = await receber({ ...spec, numero: ++numero }, entrega);
        const res = await sub.call('POST', '/v1/fiscal/cte/contra', {
          chave_cte_original: chave,
          motorista: { cpf: MOTORISTA_CPF },
          placa: PLACA,
          valor_frete: 100,
        });
        if (!emitivel) {
          expectError(res, 422, 'cte_com_pendencias');
        } else {
          responde(res, 202, 'POST /fiscal/cte/contra');
          const id = res.body.data.id as string;
          const { rascunho } = await leituras(id);
          expect(rascunho.remetente.endereco.cep).toBe(spec.rem!.ender.CEP);
          expect(rascunho.destinatario.endereco.cep).toBe(spec.dest!.ender.CEP);
          expect(rascunho.tomador.parte.endereco.cep).toBe(spec.emit.ender.CEP);
          expect(rascunho.remetente.ie).toBe(spec.rem!.IE);
          expect(rascunho.carga.valor === undefined).toBe(spec.carga.vCarga === undefined);
          expect(rascunho.carga.quantidades).toHaveLength(spec.carga.infQ.length);

          if (g045) {
            expect((await pollUntil(sub, `/v1/fiscal/cte/${id}/consulta`)).body.data).toMatchObject({
              situacao: 'rejeitado',
              retorno: { cstat: 813 },
            });
            expect((await leituras(id)).situacao).toBe('rejeitado');
          } else {
            // The XML made of it passes cte_v4.00.xsd (the issue checks it): authorized.
            expect((await pollUntil(sub, `/v1/fiscal/cte/${id}/consulta`)).body.data.situacao).toBe('autorizado');
            expect((await leituras(id)).situacao).toBe('autorizado');
            const xml = (await get(`/v1/fiscal/cte/${id}/xml`)).text;
            expect(/<infCarga><vCarga>/.test(xml)).toBe(spec.carga.vCarga !== undefined);
            expect(/<infDoc><infNFe>/.test(xml)).toBe(documentos === 'nfe');
            expect(/<infDoc><infOutros>/.test(xml)).toBe(documentos === 'outros');
            if (spec.documentos?.tipo === 'outros') {
              expect(rascunho.documentos.outros).toHaveLength(1);
              expect(rascunho.documentos.outros[0].tipo_documento).toBe(spec.documentos.tpDoc);
            }
            await get(`/v1/fiscal/cte/${id}/dacte`);
            expectError(await sub.call('POST', `/v1/fiscal/cte/${id}/previa`), 422, 'cte_nao_editavel');
            expect((await get(`/v1/fiscal/cte-subcontratacao/${chave}`)).body.data.status).toBe('subcontratado');
          }
        }

        const outra = await receber({ ...spec, numero: ++numero }, entrega);
        const lote = responde(
          await sub.call('POST', '/v1/fiscal/cte-subcontratacao/lote', {
            subcontratada: { cnpj: sub.cnpj },
            motorista: { cpf: MOTORISTA_CPF },
            placa: PLACA,
            ctes: [{ chave: outra, valor: 50 }],
          }),
          202,
          'POST /fiscal/cte-subcontratacao/lote',
        );
        const relatorio = responde(await relatorioFinal(sub, lote.body.data.batch_id), 200, 'GET lote').body.data;
        if (!emitivel) {
          expect(relatorio).toMatchObject({
            status: 'failed',
            rows: [{ chave: outra, status: 'failed', error: { code: 'cte_com_pendencias' } }],
          });
          expect((await get(`/v1/fiscal/cte-subcontratacao/${outra}`)).body.data.status).toBe('recebido');
        } else if (g045) {
          expect(relatorio).toMatchObject({ rows: [{ chave: outra, status: 'failed', error: { code: 'cte_rejeitado' } }] });
        } else {
          expect(relatorio).toMatchObject({ status: 'done', rows: [{ chave: outra, status: 'emitted' }] });
          const doc = await leituras(relatorio.rows[0].counter_cte_id);
          expect(doc.contra_cte.lote_id).toBe(lote.body.data.batch_id);
          expect(doc.rascunho.remetente.endereco.cep).toBe(spec.rem!.ender.CEP);
        }
      }),
      { numRuns: RUNS, endOnFailure: true, ...(seed !== undefined ? { seed } : {}) },
    );
  });
});
