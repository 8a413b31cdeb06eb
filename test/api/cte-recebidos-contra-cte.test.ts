import { expectError, randomCnpj, type TestApp, type TestCarrier } from '../support/app';
import { cteAutorizado, pollUntil } from '../support/emissora';
import { MOTORISTA_CPF, PLACA, receberCteDoContratante, relatorioFinal, servicoDeLote } from '../support/lote';

const LOTE = '/v1/fiscal/cte-subcontratacao/lote';
const MOSSORO_MAL_CODIFICADO = { codigoIbge: '2408003', municipio: 'MossorÃ³', uf: 'RN' };
const EXTERIOR = { codigoIbge: '9999999', municipio: 'EXTERIOR', uf: 'EX' };

/** The text of the first `<name>` of an XML document. */
const tag = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];

/**
 * Issue 28, point 4: a received CT-e is judged at receipt by the rule its batch row would meet (its municipalities by
 * IBGE code, the name informative), an export (UF fim EX) is subcontracted under a tax rule for EX, every row code is in
 * the document, and a stored XML reports its real size.
 */
describe('received contractor CT-e and their counter-CT-e (issue 28)', () => {
  jest.setTimeout(180_000);
  let app: TestApp;
  let sub: TestCarrier;
  const CONTRATANTE = randomCnpj();

  beforeAll(async () => {
    ({ app, sub } = await servicoDeLote([
      { uf_origem: 'SP', uf_destino: 'SP', icms: { cst: '00', aliquota: 12 } },
      { uf_origem: 'SP', uf_destino: 'RN', icms: { cst: '00', aliquota: 12 } },
    ]));
  });
  afterAll(() => app?.close());

  const receber = (o: Parameters<typeof receberCteDoContratante>[2] = {}) => receberCteDoContratante(sub, CONTRATANTE, o);
  const inbox = async (chave: string) => (await sub.call('GET', `/v1/fiscal/cte-subcontratacao/${chave}`)).body.data;
  /** A 1:1 batch of these keys, read once it is no longer processing. */
  const lote = async (chaves: string[]) => {
    const r = await sub.call('POST', LOTE, {
      subcontratada: { cnpj: sub.cnpj },
      motorista: { cpf: MOTORISTA_CPF },
      placa: PLACA,
      ctes: chaves.map((chave) => ({ chave, valor: 100 })),
    });
    expect(r.status).toBe(202);
    return (await relatorioFinal(sub, r.body.data.batch_id)).body.data;
  };
  const xmlBytes = async (id: string) => {
    const r = await fetch(`${app.url}/v1/fiscal/cte/${id}/xml`, { headers: { authorization: `Bearer ${sub.apiKey}` } });
    expect(r.status).toBe(200);
    return Buffer.from(await r.arrayBuffer());
  };

  it('a mis-encoded municipality name with a valid IBGE code: admitted at receipt, emitted, written with the official name', async () => {
    const chave = await receber({
      inicio: { codigoIbge: '3509502', municipio: 'CAMPINAS', uf: 'SP' },
      fim: MOSSORO_MAL_CODIFICADO,
      destinatario: { cnpj: '45997418000153', nome: 'DESTINATARIO NORDESTE LTDA', ...MOSSORO_MAL_CODIFICADO },
    });
    expect(await inbox(chave)).toMatchObject({ allows_counter_cte: true, counter_cte_blocked_reason: null, counter_cte_refusal: null });

    const relatorio = await lote([chave]);
    expect(relatorio.status).toBe('done');
    expect(relatorio.rows[0]).toMatchObject({ status: 'emitted', counter_cte_id: expect.any(String) });
    const xml = (await xmlBytes(relatorio.rows[0].counter_cte_id)).toString('utf8');
    expect(tag(xml, 'cMunFim')).toBe('2408003');
    expect(tag(xml, 'xMunFim')).toMatch(/^MOSSOR[OÓ]$/i);
    expect(xml).not.toContain('Ã');
  });

  it('a CT-e no counter-CT-e can be made of says so at receipt, and its batch row fails with the same code and message', async () => {
    // 2408003 is Mossoró/RN: as a municipality of SP the code names nothing.
    const chave = await receber({ fim: { codigoIbge: '2408003', municipio: 'MOSSORO', uf: 'SP' } });
    const recebido = await inbox(chave);
    expect(recebido).toMatchObject({
      allows_counter_cte: false,
      counter_cte_blocked_reason: 'dados_invalidos',
      counter_cte_refusal: {
        code: 'cte_original_invalido',
        message: "the contractor's CT-e gives data a CT-e cannot carry: ide/cMunFim: 2408003 is no IBGE municipality of SP",
      },
    });
    const relatorio = await lote([chave]);
    expect(relatorio.status).toBe('failed');
    expect(relatorio.rows[0]).toMatchObject({ status: 'failed', error: recebido.counter_cte_refusal });

    // The single counter-CT-e answers the same refusal as a 422.
    const single = await sub.call('POST', '/v1/fiscal/cte/contra', {
      chave_cte_original: chave,
      motorista: { cpf: MOTORISTA_CPF },
      placa: PLACA,
      valor_frete: 10,
    });
    expectError(single, 422, 'cte_original_invalido');

    // The carrier's own CT-e: the reason and the row's words, at receipt.
    const proprio = await receberCteDoContratante(sub, sub.cnpj);
    expect(await inbox(proprio)).toMatchObject({
      allows_counter_cte: false,
      counter_cte_blocked_reason: 'cte_proprio',
      counter_cte_refusal: { code: 'cte_proprio', message: expect.stringContaining('was issued by your own company') },
    });
  });

  it('exports: a tax rule for EX is accepted (CFOP 7xxx), and an export is subcontracted in a batch with CFOP 7358', async () => {
    const chave = await receber({ fim: EXTERIOR });
    expect(await inbox(chave)).toMatchObject({ allows_counter_cte: true, counter_cte_refusal: null });
    // Without a rule for SP → EX the row says so.
    const sem = await lote([chave]);
    expect(sem.rows[0]).toMatchObject({ status: 'failed', error: { code: 'sem_regra_tributacao' } });

    expectError(
      await sub.call('POST', '/v1/fiscal/regras-tributacao', { uf_origem: 'SP', uf_destino: 'EX', cfop: '6353', icms: { cst: '41' } }),
      400,
      'validacao',
    );
    expectError(
      await sub.call('POST', '/v1/fiscal/regras-tributacao', { uf_origem: 'EX', uf_destino: 'SP', icms: { cst: '41' } }),
      400,
      'validacao',
    );
    const regra = await sub.call('POST', '/v1/fiscal/regras-tributacao', {
      uf_origem: 'SP',
      uf_destino: 'EX',
      cfop: '7358',
      icms: { cst: '41' },
    });
    expect(regra.status).toBe(201);
    expect(regra.body.data).toMatchObject({ uf_origem: 'SP', uf_destino: 'EX', cfop: '7358' });
    const lista = await sub.call('GET', '/v1/fiscal/regras-tributacao?uf_destino=EX');
    expect(lista.status).toBe(200);
    expect(lista.body.data.map((r: { id: number }) => r.id)).toEqual([regra.body.data.id]);

    const relatorio = await lote([chave]);
    expect(relatorio.status).toBe('done');
    expect(relatorio.rows[0]).toMatchObject({ status: 'emitted' });
    const xml = (await xmlBytes(relatorio.rows[0].counter_cte_id)).toString('utf8');
    expect(tag(xml, 'CFOP')).toBe('7358');
    expect(tag(xml, 'UFFim')).toBe('EX');
    expect(tag(xml, 'cMunFim')).toBe('9999999');
    expect(tag(xml, 'xMunFim')).toBe('EXTERIOR');
  });

  it("a stored CT-e's metadata gives the archived XML's real size: a counter-CT-e and a CT-e issued from a draft", async () => {
    const chave = await receber({ fim: { codigoIbge: '3550308', municipio: 'SAO PAULO', uf: 'SP' } });
    const relatorio = await lote([chave]);
    expect(relatorio.rows[0]).toMatchObject({ status: 'emitted' });
    const contra = relatorio.rows[0].counter_cte_id as string;
    const { id: normal } = await cteAutorizado(sub);
    await pollUntil(sub, `/v1/fiscal/cte/${normal}/consulta`);

    for (const id of [contra, normal]) {
      const bytes = await xmlBytes(id);
      const r = await sub.call('GET', `/v1/fiscal/cte/${id}`);
      expect(r.status).toBe(200);
      expect(r.body.data.documento.xml.size_bytes).toBeGreaterThan(0);
      expect(r.body.data.documento.xml.size_bytes).toBe(bytes.length);
    }

    // An authorization recorded before its event carried the size leaves the row without one: the archive's is shown.
    await app.db.pool.query(`UPDATE rm.ctes SET xml_size_bytes = NULL WHERE cte_id = ANY($1::text[])`, [[contra, normal]]);
    const lista = await sub.call('GET', '/v1/fiscal/cte?per_page=100');
    for (const id of [contra, normal]) {
      const bytes = await xmlBytes(id);
      expect((await sub.call('GET', `/v1/fiscal/cte/${id}`)).body.data.documento.xml.size_bytes).toBe(bytes.length);
      const naLista = lista.body.data.find((c: { id: string }) => c.id === id);
      expect(naLista.documento.xml.size_bytes).toBe(bytes.length);
    }
  });
});
