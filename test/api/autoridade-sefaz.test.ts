import { startTestApp, expectError, type TestApp, type TestCarrier } from '../support/app';
import { cteAutorizado, emissora, pollUntil, rascunhoEmitivel } from '../support/emissora';
import { a1DeOutraAc } from '../support/autoridade-local';
import { lotePreparadoEmSp, numeracaoDosContraCte, postarLote1a1, relatorioFinal } from '../support/lote';
import { expectIndependentlyValid } from '../support/xmlsec';
import { makeA1 } from '../support/certificates';

/**
 * The real path, end to end: API → emission processor → sefaz adapter → SOAP over mutual TLS → the local authority
 * server → the archived cteProc. What the failures of the channel look like to an integrator.
 */

async function trocarCertificado(c: TestCarrier, pfx: Buffer): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pfx)], { type: 'application/x-pkcs12' }), 'empresa.pfx');
  form.append('cert_pass', 'senha-a1');
  const r = await c.call('POST', '/v1/fiscal/certificado', form);
  if (r.status !== 201) throw new Error(`certificado: ${r.text}`);
}

describe('through the sefaz adapter and the local authority server', () => {
  jest.setTimeout(300_000);
  let app: TestApp;
  const local = () => app.autoridadeLocal!;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_FISCAL_PER_MIN: '100000', RATE_LIMIT_IP_PER_MIN: '100000' }, { autoridade: 'sefaz' });
  });
  afterAll(() => app?.close());
  afterEach(() => local().falhas.limpar());

  it('a 1:1 batch of 100 keys goes through SOAP and, across a 678, finishes with every row once and the numbering gapless', async () => {
    const { sub, chaves } = await lotePreparadoEmSp(app, 100);
    const antes = local().atendidos()['SP/CTeRecepcaoSincV4'] ?? 0;
    // The first document the batch sends meets a consumo indevido: the channel pauses, the batch waits and resumes.
    local().falhas.programar({ tipo: 'status', cStat: 678, servico: 'CTeRecepcaoSincV4', vezes: 1 });
    const r = await postarLote1a1(sub, chaves);
    expect(r.status).toBe(202);
    const report = (await relatorioFinal(sub, r.body.data.batch_id, 240_000)).body.data;
    expect(report.status).toBe('done');
    expect(report.rows).toHaveLength(100);
    expect(report.rows.map((row: { chave: string }) => row.chave)).toEqual(chaves);
    expect(report.rows.every((row: { status: string; financeiro: string }) => row.status === 'emitted' && row.financeiro === 'ok')).toBe(
      true,
    );
    expect(new Set(report.rows.map((row: { counter_cte_id: string }) => row.counter_cte_id)).size).toBe(100);
    // The 678 was met (the rule is spent) and every document reached the authority's reception.
    expect(local().falhas.listar()).toEqual([]);
    expect((local().atendidos()['SP/CTeRecepcaoSincV4'] ?? 0) - antes).toBeGreaterThanOrEqual(101);
    const numeracao = await numeracaoDosContraCte(app, sub.companyId);
    expect(numeracao.map((x) => x.numero)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(numeracao.every((x) => x.situacao === 'autorizado')).toBe(true);
    const xml = await sub.call('GET', `/v1/fiscal/cte/${report.rows[99].counter_cte_id}/xml`);
    const ca = makeA1({ cnpj: sub.cnpj, razao: 'CA', password: 'x', cnpjIn: 'otherName' }).caCertificatePem;
    expectIndependentlyValid(xml.text, { schema: 'cte-4.00/procCTe_v4.00.xsd', element: 'infCte', trustedPem: ca });
  });

  it('an answer dropped after the authorization: consulta recovers it, one signed XML, one number', async () => {
    const c = await emissora(app);
    const d = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel());
    const id = d.body.data.id as string;
    local().falhas.programar({ tipo: 'sem_resposta', servico: 'CTeRecepcaoSincV4', vezes: 1 });
    await c.call('POST', `/v1/fiscal/cte/${id}/emissao`);
    const done = await pollUntil(c, `/v1/fiscal/cte/${id}/consulta`);
    expect(done.body.data).toMatchObject({ situacao: 'autorizado', retorno: { cstat: 100 }, numero: 1 });
    const events = (await app.running.platform.store.readStream(`cte-${id}`)).map((e) => e.type);
    expect(events.filter((t) => t === 'cte.xml_assinado')).toHaveLength(1);
    expect(events).toContain('cte.resultado_pendente');
  });

  it('a paused channel answers consulta with 503 autoridade_indisponivel and Retry-After, and GET /fiscal/status shows it', async () => {
    const c = await emissora(app);
    const d = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel('SIMULAR:PENDENTE:3'));
    const id = d.body.data.id as string;
    await c.call('POST', `/v1/fiscal/cte/${id}/emissao`);
    await pollUntil(c, `/v1/fiscal/cte/${id}/consulta`, (r) => r.status === 202 && r.body.data.access_key !== null);
    local().falhas.programar({ tipo: 'status', cStat: 108, servico: 'CTeConsultaV4', vezes: 1 });
    const res = await c.call('POST', `/v1/fiscal/cte/${id}/consulta`);
    const body = expectError(res, 503, 'autoridade_indisponivel');
    expect(body.error.details).toMatchObject({ cstat: 108, motivo: 'Serviço Paralisado Momentaneamente (curto prazo)' });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 100));
    expect((await pollUntil(c, `/v1/fiscal/cte/${id}/consulta`)).body.data.situacao).toBe('autorizado');

    local().falhas.programar({ tipo: 'status', cStat: 109, servico: 'CTeStatusServicoV4', vezes: 1 });
    const status = await c.call('GET', '/v1/fiscal/status');
    expect(status.body.data.autoridade).toMatchObject({
      tipo: 'sefaz',
      uf: 'SP',
      cte: { autorizador: 'SP', situacao: 'paralisado', cstat: 109, motivo: 'Serviço Paralisado sem Previsão' },
      mdfe: { autorizador: 'SVRS', situacao: 'em_operacao', cstat: 107 },
    });
  });

  it('an HTTP 500 on an event is 503 for the integrator; the CT-e stays authorized and the same request then cancels it', async () => {
    const c = await emissora(app);
    const cte = await cteAutorizado(c);
    local().falhas.programar({ tipo: 'erro_servidor', servico: 'CTeRecepcaoEventoV4', vezes: 1 });
    const corpo = { justificativa: 'ERRO NA EMISSAO DO CONHECIMENTO' };
    expectError(await c.call('POST', `/v1/fiscal/cte/${cte.id}/eventos/cancelamento`, corpo), 503, 'autoridade_indisponivel');
    expect((await c.call('GET', `/v1/fiscal/cte/${cte.id}`)).body.data.situacao).toBe('autorizado');
    const again = await c.call('POST', `/v1/fiscal/cte/${cte.id}/eventos/cancelamento`, corpo);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ situacao: 'registrado', protocolo: { cstat: 135 }, cte: { situacao: 'cancelado' } });
  });

  it('a client certificate the authority does not trust: 422 certificado_recusado_pela_autoridade, no document marked sent', async () => {
    const c = await emissora(app);
    const cte = await cteAutorizado(c);
    await trocarCertificado(
      c,
      a1DeOutraAc({ cnpj: c.cnpj, razao: 'EMISSORA TRANSPORTES LTDA', password: 'senha-a1', cnpjIn: 'otherName' }).pfx,
    );
    const antes = local().atendidos();
    const cancel = await c.call('POST', `/v1/fiscal/cte/${cte.id}/eventos/cancelamento`, {
      justificativa: 'ERRO NA EMISSAO DO CONHECIMENTO',
    });
    expectError(cancel, 422, 'certificado_recusado_pela_autoridade');
    expect((await c.call('GET', `/v1/fiscal/cte/${cte.id}`)).body.data.situacao).toBe('autorizado');

    const d = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel());
    const id = d.body.data.id as string;
    await c.call('POST', `/v1/fiscal/cte/${id}/emissao`);
    const refused = await pollUntil(c, `/v1/fiscal/cte/${id}/consulta`);
    expect(refused.body.data).toMatchObject({
      situacao: 'rejeitado',
      access_key: null,
      retorno: { cstat: 999, motivo: expect.stringMatching(/^certificado_recusado_pela_autoridade: the server closed the TLS handshake/) },
    });
    // Neither the event nor the document reached a service: the server refused the channel before reading.
    const depois = local().atendidos();
    for (const servico of ['SP/CTeRecepcaoEventoV4', 'SP/CTeRecepcaoSincV4', 'SP/CTeConsultaV4'])
      expect(depois[servico]).toBe(antes[servico]);
  });
});

describe('an authority whose server certificate the client does not trust', () => {
  jest.setTimeout(120_000);
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({}, { autoridade: 'sefaz', autoridadeLocal: { servidorNaoConfiavel: true } });
  });
  afterAll(() => app?.close());

  it('gets nothing: the issue waits (consulta 503 autoridade_indisponivel), the status says so, the server saw no request', async () => {
    const c = await emissora(app);
    const d = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel());
    const id = d.body.data.id as string;
    await c.call('POST', `/v1/fiscal/cte/${id}/emissao`);
    // Signed and archived, then held back: the processor retries while the channel cannot be trusted.
    const signed = await pollUntil(c, `/v1/fiscal/cte/${id}/consulta`, (r) => r.status === 503);
    const body = expectError(signed, 503, 'autoridade_indisponivel');
    expect(body.error.message).toMatch(/certificate/i);
    expect((await c.call('GET', `/v1/fiscal/cte/${id}`)).body.data.situacao).toBe('em_processamento');
    const status = await c.call('GET', '/v1/fiscal/status');
    expect(status.body.data.autoridade.cte).toMatchObject({ situacao: 'indisponivel', cstat: null });
    expect(app.autoridadeLocal!.atendidos()).toEqual({});
  });
});
