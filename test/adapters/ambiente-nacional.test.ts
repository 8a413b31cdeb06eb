import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  AmbienteNacionalSimulado,
  AutoridadeFiscalSimulada,
  DistribuicaoDFeSimulada,
  interessadosDoCte,
  montarCteProc,
  montarProcEventoCte,
  NfeNaoDistribuivel,
  type PedidoDistribuicao,
  type RespostaDistribuicao,
  type RetornoDistribuicao,
} from '@frete/adapters';
import { FiscalSchemas } from '@frete/documents';
import { isValidCnpj } from '@frete/domain';
import { readPkcs12 } from '@frete/platform';
import { makeA1 } from '../support/certificates';
import { freshDatabase, type TestDatabase } from '../support/db';
import { EMITENTE, assinar, cteXml, evCancCTe, eventoCteXml, type Assinante, type CteOpcoes } from '../support/autoridade-xml';
import { autorizado, registrado } from '../support/retorno-autoridade';

const SENHA = 'senha-do-a1';
const a1: Assinante = readPkcs12(
  makeA1({
    cnpj: EMITENTE,
    razao: 'TRANSPORTADORA EXEMPLO LTDA',
    password: SENHA,
    cnpjIn: 'otherName',
    notBefore: new Date('2020-01-01T00:00:00Z'),
    notAfter: new Date('2040-01-01T00:00:00Z'),
  }).pfx,
  SENHA,
);

/** The minimal CT-e's sender and recipient (test/fixtures/cte/minimo-v4.00.xml). */
const REMETENTE = '45997418000153';
const DESTINATARIO = '60701190000104';
/** A subcontractor the contractor authorizes to download (autXML), and a company the CT-e does not name. */
const AUTORIZADO = '33000167000101';
const ALHEIA = '60746948000112';
const TRANSPORTADORA = '07526557000100';
const ZERO = '000000000000000';

const INICIO = new Date('2026-11-20T13:05:00Z');
let agora = INICIO;
const clock = () => agora;
const HORA = 3_600_000;
const DIA = 24 * HORA;

const schemas = new FiscalSchemas();
let db: TestDatabase;
let ambiente: AmbienteNacionalSimulado;
let autoridade: AutoridadeFiscalSimulada;
let distribuicao: DistribuicaoDFeSimulada;

beforeAll(async () => {
  db = await freshDatabase();
  ambiente = new AmbienteNacionalSimulado({ pool: db.pool, clock });
  autoridade = new AutoridadeFiscalSimulada({ pool: db.pool, clock, schemas, ambienteNacional: ambiente });
  distribuicao = new DistribuicaoDFeSimulada(ambiente);
});
afterAll(async () => {
  await autoridade?.close();
  await db?.drop();
  await schemas.close();
});
beforeEach(() => {
  agora = INICIO;
});

let proximo = 500;
/** A valid CNPJ of its own per test, so that the parties' NSU sequences do not meet. */
let proximaEmpresa = 1;
function novaEmpresa(): string {
  for (;;) {
    const base = `9${String(proximaEmpresa++).padStart(7, '0')}0001`;
    for (let d = 0; d < 100; d++) {
      const cnpj = `${base}${String(d).padStart(2, '0')}`;
      if (isValidCnpj(cnpj)) return cnpj;
    }
  }
}

const pedido = (documento: string, ultNSU = ZERO, servico: 'cte' | 'nfe' = 'cte'): PedidoDistribuicao => ({
  servico,
  cUFAutor: '43',
  documento,
  ultNSU,
});

function consultado(r: RetornoDistribuicao): RespostaDistribuicao {
  if (r.tipo !== 'consultado') throw new Error(`expected an answer with documents or none, got ${JSON.stringify(r)}`);
  return r;
}

const comAutXml =
  (...documentos: string[]) =>
  (xml: string) =>
    xml.replace('</infCTeNorm></infCte>', `</infCTeNorm>${documentos.map((d) => `<autXML><CNPJ>${d}</CNPJ></autXML>`).join('')}</infCte>`);

function cteAssinado(o: Partial<CteOpcoes> = {}) {
  const { chave, xml } = cteXml({ numero: proximo++, ...o });
  return { chave, xml: assinar(xml, 'infCte', a1) };
}

/** `n` documents for `parte` (and nobody else). */
async function distribuirVarios(parte: string, n: number) {
  for (let i = 1; i <= n; i++) {
    await ambiente.distribuir(db.pool, 'cte', { schema: 'procCTe_v4.00.xsd', chave: null, xml: `<doc n="${i}"/>`, interessados: [parte] });
  }
}

describe('the NSU sequence', () => {
  it('answers each party its own documents in NSU order, 50 per call, continuing from the returned ultNSU', async () => {
    const parte = novaEmpresa();
    await distribuirVarios(parte, 120);

    const primeira = consultado(await distribuicao.consultar(pedido(parte)));
    expect(primeira).toMatchObject({
      cStat: 138,
      xMotivo: 'Documento(s) localizado(s)',
      ultNSU: '000000000000050',
      maxNSU: '000000000000120',
    });
    expect(primeira.documentos.map((d) => d.nsu)).toEqual(Array.from({ length: 50 }, (_, i) => String(i + 1).padStart(15, '0')));
    expect(primeira.documentos[0]).toEqual({ nsu: '000000000000001', schema: 'procCTe_v4.00.xsd', xml: Buffer.from('<doc n="1"/>') });
    // More remain: no wait.
    const segunda = consultado(await distribuicao.consultar(pedido(parte, primeira.ultNSU)));
    expect(segunda).toMatchObject({ cStat: 138, ultNSU: '000000000000100' });
    expect(segunda.documentos[0]!.nsu).toBe('000000000000051');
    const terceira = consultado(await distribuicao.consultar(pedido(parte, segunda.ultNSU)));
    expect(terceira).toMatchObject({ cStat: 138, ultNSU: '000000000000120', maxNSU: '000000000000120' });
    expect(terceira.documentos).toHaveLength(20);
    expect((terceira.documentos[19] as { xml: Buffer }).xml.toString()).toBe('<doc n="120"/>');
  });

  it('answers 137 with ultNSU = maxNSU for a party with nothing, and 589 for an NSU above its highest', async () => {
    const parte = novaEmpresa();
    expect(consultado(await distribuicao.consultar(pedido(parte)))).toMatchObject({
      cStat: 137,
      xMotivo: 'Nenhum documento localizado',
      ultNSU: ZERO,
      maxNSU: ZERO,
      documentos: [],
    });
    const outra = novaEmpresa();
    await distribuirVarios(outra, 3);
    expect(await distribuicao.consultar(pedido(outra, '000000000000004'))).toMatchObject({
      tipo: 'rejeitado',
      cStat: 589,
      xMotivo: 'Rejeição: Número do NSU informado superior ao maior NSU da base de dados da SEFAZ',
      maxNSU: '000000000000003',
    });
    // 589 starts no wait: the right NSU is answered at once.
    expect(consultado(await distribuicao.consultar(pedido(outra, ZERO))).documentos).toHaveLength(3);
  });

  it('keeps the services apart: a CT-e NSU is not an NF-e NSU', async () => {
    const parte = novaEmpresa();
    await distribuirVarios(parte, 2);
    expect(consultado(await distribuicao.consultar(pedido(parte, ZERO, 'nfe')))).toMatchObject({ cStat: 137, maxNSU: ZERO });
  });
});

describe('the hour of waiting', () => {
  it('after 137 a call within the hour is 656, which blocks for an hour from that call', async () => {
    const parte = novaEmpresa();
    expect(consultado(await distribuicao.consultar(pedido(parte))).cStat).toBe(137);
    agora = new Date(INICIO.getTime() + 30 * 60_000);
    const bloqueio = await distribuicao.consultar(pedido(parte));
    expect(bloqueio).toMatchObject({ tipo: 'rejeitado', cStat: 656, xMotivo: expect.stringMatching(/^Rejeicao: Consumo Indevido/) });
    // Past the first hour but within an hour of the 656: still blocked, and blocked again from now.
    agora = new Date(INICIO.getTime() + 80 * 60_000);
    expect((await distribuicao.consultar(pedido(parte))).tipo).toBe('rejeitado');
    agora = new Date(INICIO.getTime() + 139 * 60_000);
    expect(await distribuicao.consultar(pedido(parte))).toMatchObject({ cStat: 656 });
    // An hour after the last call, the party is free.
    agora = new Date(INICIO.getTime() + 199 * 60_000);
    expect(consultado(await distribuicao.consultar(pedido(parte))).cStat).toBe(137);
  });

  it('an answer that reaches maxNSU starts the wait too; a 656 carries the last ultNSU answered', async () => {
    const parte = novaEmpresa();
    await distribuirVarios(parte, 4);
    const r = consultado(await distribuicao.consultar(pedido(parte)));
    expect(r).toMatchObject({ cStat: 138, ultNSU: '000000000000004', maxNSU: '000000000000004' });
    await distribuirVarios(parte, 1);
    agora = new Date(INICIO.getTime() + 59 * 60_000);
    expect(await distribuicao.consultar(pedido(parte, r.ultNSU))).toMatchObject({
      tipo: 'rejeitado',
      cStat: 656,
      ultNSU: '000000000000004',
      maxNSU: '000000000000005',
    });
    agora = new Date(INICIO.getTime() + 120 * 60_000);
    const depois = consultado(await distribuicao.consultar(pedido(parte, r.ultNSU)));
    expect(depois.documentos.map((d) => d.nsu)).toEqual(['000000000000005']);
  });

  it('serialises concurrent calls of one party: one answers, the others find the wait', async () => {
    const parte = novaEmpresa();
    const rs = await Promise.all(Array.from({ length: 5 }, () => distribuicao.consultar(pedido(parte))));
    expect(rs.filter((r) => r.tipo === 'consultado')).toHaveLength(1);
    expect(rs.filter((r) => r.tipo === 'rejeitado' && r.cStat === 656)).toHaveLength(4);
  });
});

describe('the door rules', () => {
  it('refuses another environment (252), an invalid CNPJ (489) and, with a certificate, another CNPJ base (593)', async () => {
    const parte = novaEmpresa();
    expect(await ambiente.consultar(pedido(parte), { documentoCertificado: null, tpAmb: 1 })).toMatchObject({
      tipo: 'rejeitado',
      cStat: 252,
      xMotivo: 'Rejeição: Ambiente informado diverge do Ambiente de recebimento',
    });
    expect(await ambiente.consultar(pedido('11222333000100'), { documentoCertificado: null, tpAmb: 2 })).toMatchObject({ cStat: 489 });
    expect(await ambiente.consultar(pedido(parte), { documentoCertificado: ALHEIA, tpAmb: 2 })).toMatchObject({
      cStat: 593,
      xMotivo: 'Rejeição: CNPJ-Base consultado difere do CNPJ-Base do Certificado Digital',
    });
    // The same CNPJ base (another establishment of the company) may consult.
    const filial = `${parte.slice(0, 8)}0002`;
    const filialValida = Array.from({ length: 100 }, (_, d) => `${filial}${String(d).padStart(2, '0')}`).find(isValidCnpj)!;
    expect(await ambiente.consultar(pedido(parte), { documentoCertificado: filialValida, tpAmb: 2 })).toMatchObject({ cStat: 137 });
  });
});

describe('what the simulated authority distributes', () => {
  it('a CT-e authorized reaches emit, rem, dest and autXML as its cteProc, byte for byte, and not a company absent from it', async () => {
    const cte = cteAssinado({ alterar: comAutXml(AUTORIZADO) });
    expect(interessadosDoCte(cte.xml).sort()).toEqual([AUTORIZADO, DESTINATARIO, EMITENTE, REMETENTE].sort());
    const antes = new Map<string, string>();
    for (const parte of [EMITENTE, REMETENTE, DESTINATARIO, AUTORIZADO, ALHEIA]) {
      const { rows } = await db.pool.query<{ max_nsu: string }>(
        `SELECT max_nsu FROM ambiente_nacional_interessados WHERE servico = 'cte' AND interessado = $1`,
        [parte],
      );
      antes.set(parte, (rows[0]?.max_nsu ?? '0').padStart(15, '0'));
    }
    const protocolo = autorizado(await autoridade.autorizarCte(cte.xml));
    const esperado = Buffer.from(montarCteProc(cte.xml, protocolo), 'utf8');
    for (const parte of [EMITENTE, REMETENTE, DESTINATARIO, AUTORIZADO]) {
      agora = new Date(agora.getTime() + 2 * HORA);
      const r = consultado(await distribuicao.consultar(pedido(parte, antes.get(parte))));
      expect(r.cStat).toBe(138);
      expect(r.documentos).toHaveLength(1);
      expect(r.documentos[0]).toMatchObject({ schema: 'procCTe_v4.00.xsd' });
      expect((r.documentos[0] as { xml: Buffer }).xml.equals(esperado)).toBe(true);
    }
    const { rows } = await db.pool.query(`SELECT 1 FROM ambiente_nacional_documentos WHERE interessado = $1 AND chave = $2`, [
      ALHEIA,
      cte.chave,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('reads every party the CT-e names: exped, receb, toma4 and an autXML CPF too, each once', () => {
    const { xml } = cteXml({
      numero: proximo++,
      alterar: (x) =>
        x
          .replace('<toma3><toma>0</toma></toma3>', `<toma4><toma>4</toma><CNPJ>${ALHEIA}</CNPJ></toma4>`)
          .replace('<dest>', `<exped><CNPJ>${TRANSPORTADORA}</CNPJ></exped><receb><CPF>52998224725</CPF></receb><dest>`)
          .replace(
            '</infCTeNorm></infCte>',
            `</infCTeNorm><autXML><CPF>52998224725</CPF></autXML><autXML><CNPJ>${REMETENTE}</CNPJ></autXML></infCte>`,
          ),
    });
    expect(interessadosDoCte(xml).sort()).toEqual([EMITENTE, REMETENTE, DESTINATARIO, ALHEIA, TRANSPORTADORA, '52998224725'].sort());
    expect(interessadosDoCte('<nada')).toEqual([]);
  });

  it('its cancellation reaches the same parties as procEventoCTe', async () => {
    const cte = cteAssinado({ alterar: comAutXml(AUTORIZADO) });
    const protocolo = autorizado(await autoridade.autorizarCte(cte.xml));
    const evento = assinar(eventoCteXml({ chave: cte.chave, tpEvento: '110111', det: evCancCTe(protocolo.nProt) }), 'infEvento', a1);
    const prot = registrado(await autoridade.registrarEventoCte(evento));
    const { rows } = await db.pool.query<{ interessado: string; schema: string; xml: Buffer }>(
      `SELECT interessado, schema, xml FROM ambiente_nacional_documentos WHERE chave = $1 AND schema = 'procEventoCTe_v4.00.xsd'`,
      [cte.chave],
    );
    expect(rows.map((r) => r.interessado).sort()).toEqual([AUTORIZADO, DESTINATARIO, EMITENTE, REMETENTE].sort());
    expect(rows[0]!.xml.toString('utf8')).toBe(montarProcEventoCte(evento, prot));
    const valido = await schemas.validate(rows[0]!.xml.toString('utf8'), 'procEventoCTe_v4.00.xsd');
    expect(valido.errors).toEqual([]);
  });

  it('a CT-e in processing is distributed when it is authorized, and a denied one never', async () => {
    const pendente = cteAssinado({ xObs: 'SIMULAR:PENDENTE:1' });
    expect((await autoridade.autorizarCte(pendente.xml)).tipo).toBe('em_processamento');
    const contar = async (chave: string) =>
      (await db.pool.query(`SELECT 1 FROM ambiente_nacional_documentos WHERE chave = $1`, [chave])).rowCount;
    expect(await contar(pendente.chave)).toBe(0);
    expect((await autoridade.consultarCte(pendente.chave)).tipo).toBe('em_processamento');
    expect((await autoridade.consultarCte(pendente.chave)).tipo).toBe('encontrado');
    expect(await contar(pendente.chave)).toBe(3);
    // A follow-up after that does not distribute it twice.
    await autoridade.consultarCte(pendente.chave);
    expect(await contar(pendente.chave)).toBe(3);

    const denegado = cteAssinado({ xObs: 'SIMULAR:DENEGACAO:301' });
    const r = await autoridade.autorizarCte(denegado.xml);
    expect(r.tipo).toBe('denegado');
    expect(await contar(denegado.chave)).toBe(0);
  });
});

describe('NF-e', () => {
  const NFE = readFileSync(
    path.join(__dirname, '..', 'fixtures', 'nfe', '41170706117473000150550010000463202612756525-procNFe.xml'),
    'utf8',
  );
  const comTransportadora = (cnpj: string) =>
    NFE.replace(/<modFrete>0<\/modFrete>\s*<\/transp>/, `<modFrete>0</modFrete><transporta><CNPJ>${cnpj}</CNPJ></transporta></transp>`);

  it('an authorized NF-e reaches the carrier in transporta, byte for byte, as procNFe_v4.00.xsd', async () => {
    const xml = comTransportadora(TRANSPORTADORA);
    const { chave, nsus } = await ambiente.registrarNfe(xml);
    expect(chave).toBe('41170706117473000150550010000463202612756525');
    expect([...nsus.keys()].sort()).toEqual(['06117473000150', '27373722000148', TRANSPORTADORA].sort());
    const r = consultado(await distribuicao.consultar(pedido(TRANSPORTADORA, ZERO, 'nfe')));
    expect(r.documentos).toHaveLength(1);
    expect(r.documentos[0]).toMatchObject({ schema: 'procNFe_v4.00.xsd', nsu: nsus.get(TRANSPORTADORA) });
    expect((r.documentos[0] as { xml: Buffer }).xml.equals(Buffer.from(xml, 'utf8'))).toBe(true);
  });

  it('refuses what is not an authorized nfeProc', async () => {
    await expect(ambiente.registrarNfe('<CTe xmlns="http://www.portalfiscal.inf.br/cte"/>')).rejects.toThrow(NfeNaoDistribuivel);
    await expect(ambiente.registrarNfe(NFE.replace('<cStat>100</cStat>', '<cStat>302</cStat>'))).rejects.toThrow(/not authorized/);
    await expect(ambiente.registrarNfe('<nfeProc')).rejects.toThrow(/well-formed/);
  });
});

describe('three months', () => {
  it('a document distributed over 90 days ago is no longer answered; the answer still moves ultNSU past it', async () => {
    const parte = novaEmpresa();
    await distribuirVarios(parte, 2);
    agora = new Date(INICIO.getTime() + 91 * DIA);
    await distribuirVarios(parte, 1);
    const r = consultado(await distribuicao.consultar(pedido(parte)));
    expect(r).toMatchObject({ cStat: 138, ultNSU: '000000000000003', maxNSU: '000000000000003' });
    expect(r.documentos.map((d) => d.nsu)).toEqual(['000000000000003']);
    // Day 89 still has them.
    const outra = novaEmpresa();
    agora = INICIO;
    await distribuirVarios(outra, 2);
    agora = new Date(INICIO.getTime() + 89 * DIA);
    expect(consultado(await distribuicao.consultar(pedido(outra))).documentos).toHaveLength(2);
  });
});
