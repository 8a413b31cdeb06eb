import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { type DocumentoDistribuido } from '@frete/adapters';
import { type ContextoRecebimento, type RecebedorDistribuicao, recebedorDistribuicao } from '@frete/application';
import { type ApiResponse, expectError, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { MOTORISTA_CPF, PLACA, postarLote1a1, relatorioFinal, subcontratadaPronta } from '../support/lote';
import { cteAutorizado, emissora } from '../support/emissora';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const nsu = (n: number) => String(n).padStart(15, '0');
const nfeFixture = (name: string) => fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'nfe', name));

/**
 * What the national distribution brings, recorded where an upload would go (issue 30, design "recebimento"): the
 * documents are the real ones of this deployment — a contractor's CT-e authorized by the simulated authority, its
 * cancellation's procEventoCTe, a real NF-e — handed to `RecebedorDistribuicao` as the port hands them over.
 */
describe('RecebedorDistribuicao', () => {
  let app: TestApp;
  let recebedor: RecebedorDistribuicao;
  let sub: TestCarrier;
  let contratante: TestCarrier;
  /** The contractor's authorized CT-e (its cteProc as archived) and, once cancelled, its procEventoCTe. */
  let cte: { id: string; chave: string; proc: Buffer };

  const ctxDe = (c: TestCarrier): ContextoRecebimento => ({ companyId: c.companyId, cnpj: c.cnpj, environment: 'homologacao' });
  const causa = () => ({ eventId: randomUUID(), correlationId: randomUUID() });
  const eventosDaCaixa = async (c: TestCarrier, chave: string) =>
    (await app.running.platform.store.readStream(`cte_subcontratacao-${c.companyId}-${chave}`)).map((e) => e.type);
  const arquivado = async (hash: string) => (await app.running.platform.documents.get(hash))?.content;
  /**
   * A processor's writes are owed to no request (no read-your-writes watermark): the read models show them when the
   * projector gets there. Reads until `pronto` holds.
   */
  const lerQuando = async (c: TestCarrier, caminho: string, pronto: (r: ApiResponse) => boolean): Promise<ApiResponse> => {
    for (let i = 0; i < 200; i++) {
      const r = await c.call('GET', caminho);
      if (pronto(r)) return r;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error(`GET ${caminho} never showed what was expected`);
  };

  /** The archived procEventoCTe of the contractor's registered cancellation (110111). */
  const procCancelamento = async (id: string): Promise<Buffer> => {
    const eventos = await app.running.platform.store.readStream(`cte-${id}`);
    const registrado = eventos.find((e) => e.type === 'cte.evento_registrado' && (e.data as { tp_evento: string }).tp_evento === '110111');
    if (!registrado) throw new Error(`CT-e ${id} has no registered cancellation`);
    return (await arquivado((registrado.data as { sha256: string }).sha256))!;
  };

  beforeAll(async () => {
    app = await startTestApp();
    const { platform, application } = app.running;
    recebedor = recebedorDistribuicao({
      documents: platform.documents,
      handlers: { caixaCte: application.handlers.caixaCte, nfe: application.handlers.nfe },
      clock: () => new Date(),
    });
    sub = await subcontratadaPronta(app);
    contratante = await emissora(app, 'CONTRATANTE TRANSPORTES SA');
    const autorizado = await cteAutorizado(contratante);
    const { rows } = await app.db.pool.query<{ xml_sha256: string }>('SELECT xml_sha256 FROM rm.ctes WHERE cte_id = $1', [autorizado.id]);
    cte = { ...autorizado, proc: (await arquivado(rows[0]!.xml_sha256))! };
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('a procCTe goes into the inbox byte for byte, origem distribuicao, with the flags an upload gets; the same call again records nothing', async () => {
    const doc: DocumentoDistribuido = { nsu: nsu(7), schema: 'procCTe_v4.00.xsd', xml: cte.proc };
    const c = causa();
    const feito = await recebedor.registrar(ctxDe(sub), 'cte', doc, c);
    expect(feito).toEqual({
      nsu: nsu(7),
      schema: 'procCTe_v4.00.xsd',
      chave: cte.chave,
      sha256: sha256(cte.proc),
      destino: 'caixa_cte',
      erro: null,
    });
    const lida = await lerQuando(sub, `/v1/fiscal/cte-subcontratacao/${cte.chave}`, (r) => r.status === 200);
    expect(lida.body.data).toMatchObject({
      origem: 'distribuicao',
      cancelamento: null,
      received_count: 1,
      content_updated: false,
      allows_counter_cte: true,
      counter_cte_refusal: null,
      carrier_role: 'terceiro',
      status: 'recebido',
    });
    const row = await app.db.pool.query('SELECT xml_sha256, last_channel FROM rm.cte_subcontratacao WHERE company_id = $1 AND chave = $2', [
      sub.companyId,
      cte.chave,
    ]);
    expect(row.rows[0]).toEqual({ xml_sha256: sha256(cte.proc), last_channel: 'distribuicao' });
    expect((await arquivado(sha256(cte.proc)))!.equals(cte.proc)).toBe(true);

    // An upload of the same bytes by another carrier: the same reading, only the origin differs.
    const outra = await app.carrier({ name: 'OUTRA SUBCONTRATADA LTDA' });
    const upload = await outra.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: cte.proc.toString('base64') });
    expect(upload.status).toBe(201);
    const { origem: origemUpload, first_received_at: _a, last_received_at: _b, ...flagsUpload } = upload.body.data;
    const { origem, first_received_at: _c, last_received_at: _d, ...flags } = lida.body.data;
    expect(origemUpload).toBe('envio');
    expect(origem).toBe('distribuicao');
    expect(flags).toEqual(flagsUpload);

    // The same cause and document again (a crash before the consultation's outcome): the same answer, no new event.
    expect(await recebedor.registrar(ctxDe(sub), 'cte', doc, c)).toEqual(feito);
    expect(await eventosDaCaixa(sub, cte.chave)).toEqual(['cte_subcontratacao.recebido']);
    expect((await sub.call('GET', `/v1/fiscal/cte-subcontratacao/${cte.chave}`)).body.data.received_count).toBe(1);

    // The list shows the origin too.
    const lista = await sub.call('GET', '/v1/fiscal/cte-subcontratacao');
    expect(lista.body.data.find((r: { access_key: string }) => r.access_key === cte.chave)).toMatchObject({ origem: 'distribuicao' });
  });

  it("the company's own CT-e, which the service hands to its emitter too, is kept and stays out of its inbox", async () => {
    const doc: DocumentoDistribuido = { nsu: nsu(3), schema: 'procCTe_v4.00.xsd', xml: cte.proc };
    expect(await recebedor.registrar(ctxDe(contratante), 'cte', doc, causa())).toEqual({
      nsu: nsu(3),
      schema: 'procCTe_v4.00.xsd',
      chave: cte.chave,
      sha256: sha256(cte.proc),
      destino: 'guardado',
      erro: null,
    });
    expect(await eventosDaCaixa(contratante, cte.chave)).toEqual([]);
  });

  it('an upload after a distributed receipt counts as a re-receipt and keeps origem distribuicao', async () => {
    const r = await sub.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: cte.proc.toString('base64') });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ origem: 'distribuicao', received_count: 2, content_updated: false });
    expect(await eventosDaCaixa(sub, cte.chave)).toEqual(['cte_subcontratacao.recebido', 'cte_subcontratacao.reenviado']);
  });

  it('the contractor cancels: its procEventoCTe marks the inbox CT-e cancelled, once; a counter-CT-e and a batch row are refused', async () => {
    const cancel = await contratante.call('POST', `/v1/fiscal/cte/${cte.id}/eventos/cancelamento`, {
      justificativa: 'ERRO NA EMISSAO DO CONHECIMENTO',
    });
    expect(cancel.status).toBe(200);
    expect((await contratante.call('GET', `/v1/fiscal/cte/${cte.id}`)).body.data.situacao).toBe('cancelado');
    const proc = await procCancelamento(cte.id);
    const doc: DocumentoDistribuido = { nsu: nsu(8), schema: 'procEventoCTe_v4.00.xsd', xml: proc };

    // Not in this company's inbox: kept only.
    const alheia = await app.carrier({ name: 'SEM O CTE LTDA' });
    expect(await recebedor.registrar(ctxDe(alheia), 'cte', doc, causa())).toMatchObject({
      destino: 'guardado',
      chave: cte.chave,
      sha256: sha256(proc),
      erro: null,
    });

    const c = causa();
    const feito = await recebedor.registrar(ctxDe(sub), 'cte', doc, c);
    expect(feito).toEqual({
      nsu: nsu(8),
      schema: 'procEventoCTe_v4.00.xsd',
      chave: cte.chave,
      sha256: sha256(proc),
      destino: 'cancelamento_cte',
      erro: null,
    });
    // Again with the same cause, and again as another consultation would bring it: nothing new.
    expect(await recebedor.registrar(ctxDe(sub), 'cte', doc, c)).toEqual(feito);
    expect(await recebedor.registrar(ctxDe(sub), 'cte', { ...doc, nsu: nsu(9) }, causa())).toMatchObject({ destino: 'cancelamento_cte' });
    expect((await eventosDaCaixa(sub, cte.chave)).filter((t) => t === 'cte_subcontratacao.cancelado')).toHaveLength(1);

    const lida = (
      await lerQuando(sub, `/v1/fiscal/cte-subcontratacao/${cte.chave}`, (r) => r.status === 200 && r.body.data.cancelamento !== null)
    ).body.data;
    expect(lida).toMatchObject({
      cancelamento: { protocolo: expect.stringMatching(/^[0-9]{15}$/), cancelado_em: expect.any(String), xml_sha256: sha256(proc) },
      allows_counter_cte: false,
      counter_cte_blocked_reason: 'cte_cancelado',
      counter_cte_refusal: { code: 'cte_contratante_cancelado', message: expect.stringContaining(cte.chave) },
    });

    const single = await sub.call('POST', '/v1/fiscal/cte/contra', {
      chave_cte_original: cte.chave,
      motorista: { cpf: MOTORISTA_CPF },
      placa: PLACA,
      valor_frete: 500,
    });
    expectError(single, 422, 'cte_contratante_cancelado');

    const lote = await postarLote1a1(sub, [cte.chave]);
    expect(lote.status).toBe(202);
    const report = (await relatorioFinal(sub, lote.body.data.batch_id)).body.data;
    expect(report.rows.map((x: { status: string; error: { code: string } }) => [x.status, x.error.code])).toEqual([
      ['failed', 'cte_contratante_cancelado'],
    ]);

    // A later receipt of the CT-e does not bring the counter-CT-e back.
    const again = await sub.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: cte.proc.toString('base64') });
    expect(again.body.data).toMatchObject({ allows_counter_cte: false, counter_cte_refusal: { code: 'cte_contratante_cancelado' } });
  }, 60_000);

  it('a procNFe naming the company in transporta lands in the NF-e list with origem distribuicao; naming it as dest, kept only', async () => {
    // Real NF-e (issuer 75335849000115): transporta 02012862002707, dest 37148260000119.
    const xml = nfeFixture('26180875335849000115550010000016871192213331-nfe.xml');
    const chave = '26180875335849000115550010000016871192213331';
    const transportadora = await app.carrier({ cnpj: '02012862002707', name: 'TRANSPORTADORA DA NFE LTDA' });
    const destinataria = await app.carrier({ cnpj: '37148260000119', name: 'DESTINATARIA DA NFE LTDA' });
    const doc: DocumentoDistribuido = { nsu: nsu(31), schema: 'procNFe_v4.00.xsd', xml };

    const c = causa();
    const feito = await recebedor.registrar(ctxDe(transportadora), 'nfe', doc, c);
    expect(feito).toEqual({ nsu: nsu(31), schema: 'procNFe_v4.00.xsd', chave, sha256: sha256(xml), destino: 'nfe', erro: null });
    expect(await recebedor.registrar(ctxDe(transportadora), 'nfe', doc, c)).toEqual(feito);
    expect((await app.running.platform.store.readStream(`nfe-${transportadora.companyId}-${chave}`)).map((e) => e.type)).toEqual([
      'nfe.importada',
    ]);
    const uma = await lerQuando(transportadora, `/v1/fiscal/nfe/${chave}`, (r) => r.status === 200);
    expect(uma.body.data).toMatchObject({ origem: 'distribuicao', recebimentos: 1, xml_disponivel: true });
    expect(uma.body.data.arquivos.xml.sha256).toBe(sha256(xml));
    const lista = await transportadora.call('GET', '/v1/fiscal/nfe');
    expect(lista.body.data).toEqual([expect.objectContaining({ access_key: chave, origem: 'distribuicao' })]);

    // The same NF-e sent as a file by another carrier is an import.
    const form = new FormData();
    form.append('arquivos[]', new Blob([new Uint8Array(xml)], { type: 'application/xml' }), 'nfe.xml');
    const importada = await destinataria.call('POST', '/v1/fiscal/nfe/importacoes', form);
    expect(importada.status).toBe(201);
    expect((await destinataria.call('GET', `/v1/fiscal/nfe/${chave}`)).body.data.origem).toBe('importacao');

    // Named as dest only: kept, never imported.
    const outra = await app.carrier({ name: 'TRANSPORTES QUALQUER LTDA' });
    const guardado = await recebedor.registrar({ ...ctxDe(outra), cnpj: '37148260000119' }, 'nfe', { ...doc, nsu: nsu(32) }, causa());
    expect(guardado).toEqual({ nsu: nsu(32), schema: 'procNFe_v4.00.xsd', chave, sha256: sha256(xml), destino: 'guardado', erro: null });
    expect(await app.running.platform.store.readStream(`nfe-${outra.companyId}-${chave}`)).toEqual([]);
  });

  it('summaries are kept; a document the readers refuse is kept with its reason; a broken docZip is unreadable and archives nothing', async () => {
    const resumo = Buffer.from(
      '<resNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="1.01"><chNFe>26180875335849000115550010000016871192213331</chNFe>' +
        '<CNPJ>75335849000115</CNPJ><xNome>EMITENTE</xNome><IE>0</IE><dhEmi>2018-08-01T10:00:00-03:00</dhEmi><tpNF>1</tpNF>' +
        '<vNF>10.00</vNF><dhRecbto>2018-08-01T10:00:05-03:00</dhRecbto><nProt>126180000000001</nProt><cSitNFe>1</cSitNFe></resNFe>',
    );
    expect(await recebedor.registrar(ctxDe(sub), 'nfe', { nsu: nsu(40), schema: 'resNFe_v1.01.xsd', xml: resumo }, causa())).toEqual({
      nsu: nsu(40),
      schema: 'resNFe_v1.01.xsd',
      chave: '26180875335849000115550010000016871192213331',
      sha256: sha256(resumo),
      destino: 'guardado',
      erro: null,
    });
    expect((await arquivado(sha256(resumo)))!.equals(resumo)).toBe(true);

    // A CT-e of layout 2.00 (a real one, sped-da's fixtures): the reader refuses it, the consultation goes on.
    const antigo = fs.readFileSync('/work/shared/fixtures/samples/cte/cte_hom_prot_canc.xml');
    const lido = await recebedor.registrar(ctxDe(sub), 'cte', { nsu: nsu(41), schema: 'procCTe_v2.00.xsd', xml: antigo }, causa());
    expect(lido).toMatchObject({ destino: 'guardado', sha256: sha256(antigo), erro: expect.stringContaining('2.00') });

    // Over the inbox's 2 MB, as an upload would be refused (413): kept, not received.
    const grande = Buffer.concat([cte.proc, Buffer.alloc(2 * 1024 * 1024, 0x20)]);
    expect(await recebedor.registrar(ctxDe(sub), 'cte', { nsu: nsu(43), schema: 'procCTe_v4.00.xsd', xml: grande }, causa())).toMatchObject(
      {
        destino: 'guardado',
        sha256: sha256(grande),
        erro: expect.stringContaining('2 MB'),
      },
    );

    const quebrado = await recebedor.registrar(
      ctxDe(sub),
      'cte',
      { nsu: nsu(42), schema: 'procCTe_v4.00.xsd', erro: 'the docZip content is not gzip', conteudo: 'H4sIAAAA!!' },
      causa(),
    );
    expect(quebrado).toEqual({
      nsu: nsu(42),
      schema: 'procCTe_v4.00.xsd',
      chave: null,
      sha256: null,
      destino: 'ilegivel',
      erro: 'the docZip content is not gzip',
    });
  });
});
