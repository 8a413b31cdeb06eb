import { verifyFiscalSignature } from '@frete/documents';
import { expectEventIndependentlyValid, expectIndependentlyValid } from '../support/xmlsec';
import { makeA1 } from '../support/certificates';

const TEST_CA = makeA1({ cnpj: '11222333000181', razao: 'CA', password: 'x', cnpjIn: 'otherName' }).caCertificatePem;
import {
  AUTORIDADES,
  relogioAdiantavel,
  startTestApp,
  expectError,
  type ApiResponse,
  type TestApp,
  type TestCarrier,
} from '../support/app';
import { cteAutorizado, emissora, rascunhoEmitivel } from '../support/emissora';

const HASH = Buffer.alloc(20, 7).toString('base64');
const JUST = 'ERRO NA EMISSAO DO CONHECIMENTO';
const entrega = (nome = 'FULANO RECEBEDOR') => ({
  entregue_em: '2026-11-20T15:00:00Z',
  recebedor: { documento: '12345678909', nome },
  latitude: -23.5,
  longitude: -46.6,
  hash_imagem: HASH,
});

describe.each(AUTORIDADES)('CT-e fiscal events: POST /fiscal/cte/{cte_uuid}/eventos/... (authority: %s)', (autoridade) => {
  let app: TestApp;
  let c: TestCarrier;
  /** The service's own validator: its schemas are the ones it checks with. */
  const schemas = () => app.running.application.schemas;

  beforeAll(async () => {
    app = await startTestApp({}, { autoridade });
    c = await emissora(app);
  });
  afterAll(() => app?.close());

  /** An authorized CT-e of `c`. */
  const autorizado = async (): Promise<string> => (await cteAutorizado(c)).id;
  const ev = (id: string, path: string, body?: unknown) => c.call('POST', `/v1/fiscal/cte/${id}/eventos/${path}`, body);
  const stream = async (id: string) => app.running.platform.store.readStream(`cte-${id}`);
  const doc = async (sha256: string) => (await app.running.platform.documents.get(sha256))!.content.toString('utf8');
  /** Every registered event's procEventoCTe, checked by xmllint (event and detail schemas) and xmlsec1. */
  const expectRegisteredIndependentlyValid = async (id: string, count: number) => {
    const procs = (await stream(id)).filter((e) => e.type === 'cte.evento_registrado').map((e) => (e.data as { sha256: string }).sha256);
    expect(procs).toHaveLength(count);
    for (const sha of procs) expectEventIndependentlyValid(await doc(sha), { family: 'cte', trustedPem: TEST_CA });
  };

  it('cancelamento 200: the CT-e is cancelado, the DACTE still prints; the signed event verifies and the procEventoCTe is schema-valid', async () => {
    const id = await autorizado();
    const res = await ev(id, 'cancelamento', { justificativa: JUST });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      tipo: 'cancelamento',
      situacao: 'registrado',
      sequencia: 1,
      protocolo: { cstat: 135 },
      cte: { id, situacao: 'cancelado' },
    });
    expect(res.body.data.event_key).toMatch(/^ID110111[0-9]{44}001$/);
    expect(res.body.data.protocolo.numero).toMatch(/^[0-9]{15}$/);
    expect(res.body.environment).toBe('homologacao');
    expect((await c.call('GET', `/v1/fiscal/cte/${id}`)).body.data.situacao).toBe('cancelado');
    expect((await fetch(`${app.url}/v1/fiscal/cte/${id}/dacte`, { headers: { authorization: `Bearer ${c.apiKey}` } })).status).toBe(200);

    const events = await stream(id);
    const solicitado = events.find((e) => e.type === 'cte.evento_solicitado')!.data as { sha256: string };
    const signed = await doc(solicitado.sha256);
    expect(verifyFiscalSignature(signed, { element: 'eventoCTe/infEvento' }).valid).toBe(true);
    expect(signed).toContain(`<xJust>${JUST}</xJust>`);
    const registrado = events.find((e) => e.type === 'cte.evento_registrado')!.data as { sha256: string };
    const proc = await doc(registrado.sha256);
    expect((await schemas().validate(proc, 'procEventoCTe_v4.00.xsd')).errors).toEqual([]);
    expectIndependentlyValid(proc, { schema: 'cte-4.00/procEventoCTe_v4.00.xsd', element: 'infEvento', trustedPem: TEST_CA });

    // A cancelled CT-e takes no more events.
    expectError(await ev(id, 'cancelamento', { justificativa: JUST }), 422, 'cte_nao_autorizado');
  });

  it('400 validacao for a short justification; 422 cte_nao_autorizado for a draft; 404 for another company', async () => {
    const id = await autorizado();
    expectError(await ev(id, 'cancelamento', { justificativa: 'CURTA' }), 400, 'validacao');
    expectError(await ev(id, 'cancelamento', { justificativa: `${' '.repeat(14)}X${' '.repeat(14)}` }), 400, 'validacao');
    expectError(await ev(id, 'cancelamento', { justificativa: 'X'.repeat(256) }), 400, 'validacao');
    expectError(await ev(id, 'cancelamento', {}), 400, 'validacao');
    const draft = (await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel())).body.data.id as string;
    expectError(await ev(draft, 'cancelamento', { justificativa: JUST }), 422, 'cte_nao_autorizado');
    expectError(
      await ev(draft, 'carta-correcao', { correcoes: [{ grupo: 'compl', campo: 'xObs', valor: 'NOVO TEXTO' }] }),
      422,
      'cte_nao_autorizado',
    );
    const other = await app.carrier();
    expectError(await other.call('POST', `/v1/fiscal/cte/${id}/eventos/cancelamento`, { justificativa: JUST }), 404, 'nao_encontrado');
    expectError(await other.call('POST', `/v1/fiscal/cte/${id}/eventos/entrega`, entrega()), 404, 'nao_encontrado');
    expectError(await other.call('POST', `/v1/fiscal/cte/not-a-uuid/eventos/cancelamento`, { justificativa: JUST }), 404, 'nao_encontrado');
  });

  it('carta-correcao 200 with sequence 1 then 2; a forbidden field is 422 carta_correcao_campo_vedado before sending', async () => {
    const id = await autorizado();
    const first = await ev(id, 'carta-correcao', { correcoes: [{ grupo: 'compl', campo: 'xObs', valor: 'ENTREGAR NA DOCA 3' }] });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      tipo: 'carta_correcao',
      situacao: 'registrado',
      sequencia: 1,
      cte: { situacao: 'autorizado' },
    });
    const second = await ev(id, 'carta-correcao', {
      correcoes: [
        { grupo: 'compl', campo: 'xObs', valor: 'ENTREGAR NA DOCA 4' },
        { grupo: 'infQ', campo: 'qCarga', valor: '1000.0000', item: 1 },
      ],
    });
    expect(second.status).toBe(200);
    expect(second.body.data.sequencia).toBe(2);
    expect(second.body.data.event_key).toMatch(/002$/);
    await expectRegisteredIndependentlyValid(id, 2);
    const before = (await stream(id)).length;
    const vedado = expectError(
      await ev(id, 'carta-correcao', { correcoes: [{ grupo: 'vPrest', campo: 'vTPrest', valor: '10.00' }] }),
      422,
      'carta_correcao_campo_vedado',
    );
    expect(vedado.error.details).toMatchObject({ grupo: 'vPrest', campo: 'vTPrest' });
    expectError(
      await ev(id, 'carta-correcao', { correcoes: [{ grupo: 'EMIT', campo: 'cnpj', valor: '1' }] }),
      422,
      'carta_correcao_campo_vedado',
    );
    expect((await stream(id)).length).toBe(before);
    expectError(await ev(id, 'carta-correcao', { correcoes: [] }), 400, 'validacao');
    // The authority refuses cancelling a CT-e with a correction letter (523): checked here first.
    const canc = expectError(await ev(id, 'cancelamento', { justificativa: JUST }), 422, 'regra_de_negocio');
    expect(canc.error.details).toMatchObject({ cstat: 523 });
  });

  it('cartas de correção are cumulative: each letter sent repeats the ones in force; GET shows what is in force after three', async () => {
    const id = await autorizado();
    const xObs = (valor: string) => ({ grupo: 'compl', campo: 'xObs', valor });
    const qCarga = { grupo: 'infQ', campo: 'qCarga', valor: '1000.0000', item: 1 };
    const rntrc = { grupo: 'rodo', campo: 'RNTRC', valor: '12345678' };
    expect((await ev(id, 'carta-correcao', { correcoes: [xObs('ENTREGAR NA DOCA 3')] })).status).toBe(200);
    const second = await ev(id, 'carta-correcao', { correcoes: [qCarga] });
    expect(second.status).toBe(200);
    const third = await ev(id, 'carta-correcao', { correcoes: [xObs('ENTREGAR NA DOCA 4'), rntrc] });
    expect(third.status).toBe(200);
    expect(third.body.data.sequencia).toBe(3);

    // What reached the authority (through the SOAP door: the local server's record of the bytes it received).
    const recebidos = await (autoridade === 'sefaz' ? app.autoridadeLocal!.pool : app.db.pool).query<{ evento_xml: string }>(
      `SELECT evento_xml FROM autoridade_simulada_eventos WHERE id_evento = $1`,
      [second.body.data.event_key],
    );
    const segundaRecebida = recebidos.rows[0]!.evento_xml;
    expect(segundaRecebida.match(/<infCorrecao>/g)).toHaveLength(2);
    expect(segundaRecebida).toContain('<campoAlterado>xObs</campoAlterado><valorAlterado>ENTREGAR NA DOCA 3</valorAlterado>');
    expect(segundaRecebida).toContain(
      '<campoAlterado>qCarga</campoAlterado><valorAlterado>1000.0000</valorAlterado><nroItemAlterado>01</nroItemAlterado>',
    );
    // The third letter's event (and the signed XML it names) carries all three, xObs once with its new value.
    const solicitados = (await stream(id)).filter((e) => e.type === 'cte.evento_solicitado').map((e) => e.data as Record<string, unknown>);
    expect(solicitados.map((d) => (d.correcoes as unknown[]).length)).toEqual([1, 2, 3]);
    const terceira = await doc(solicitados[2]!.sha256 as string);
    expect(terceira.match(/<infCorrecao>/g)).toHaveLength(3);
    expect(terceira).not.toContain('DOCA 3');
    expect((await schemas().validate(terceira, 'eventoCTe_v4.00.xsd')).errors).toEqual([]);
    await expectRegisteredIndependentlyValid(id, 3);

    const got = await c.call('GET', `/v1/fiscal/cte/${id}`);
    expect(got.status).toBe(200);
    const key = (n: number) => (n === 2 ? second : third).body.data.event_key as string;
    expect(got.body.data.correcoes_em_vigor).toEqual([
      { grupo: 'compl', campo: 'xObs', valor: 'ENTREGAR NA DOCA 4', item: null, n_seq_evento: 3, event_key: key(3) },
      { grupo: 'infQ', campo: 'qCarga', valor: '1000.0000', item: 1, n_seq_evento: 2, event_key: key(2) },
      { grupo: 'rodo', campo: 'RNTRC', valor: '12345678', item: null, n_seq_evento: 3, event_key: key(3) },
    ]);

    // A letter that, with the 3 in force, would carry more than 50 corrections is refused before anything is signed or sent.
    const before = (await stream(id)).length;
    const muitas = Array.from({ length: 48 }, (_, i) => ({ grupo: 'infQ', campo: 'tpMed', valor: `MEDIDA ${i + 1}`, item: i + 1 }));
    const excede = expectError(await ev(id, 'carta-correcao', { correcoes: muitas }), 422, 'carta_correcao_excede_limite');
    expect(excede.error.details).toMatchObject({ correcoes: 51, em_vigor: 3, maximo: 50 });
    expect((await stream(id)).length).toBe(before);
    // 47 more fit: the fourth letter carries 50.
    const quarta = await ev(id, 'carta-correcao', { correcoes: muitas.slice(0, 47) });
    expect(quarta.status).toBe(200);
    expect((await c.call('GET', `/v1/fiscal/cte/${id}`)).body.data.correcoes_em_vigor).toHaveLength(50);
  });

  it('entrega 200 confirms the delivery; then cancelling the CT-e is 422 (862); entrega/cancelamento puts it back a_confirmar', async () => {
    const id = await autorizado();
    const res = await ev(id, 'entrega', entrega());
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ tipo: 'entrega', situacao: 'registrado', sequencia: 1, protocolo: { cstat: 135 } });
    const status = async () => (await app.db.pool.query('SELECT status, confirmada_em FROM rm.entregas WHERE cte_id = $1', [id])).rows[0];
    expect(await status()).toMatchObject({ status: 'confirmada', confirmada_em: expect.any(Date) });
    const signed = await doc(((await stream(id)).find((e) => e.type === 'cte.evento_solicitado')!.data as { sha256: string }).sha256);
    expect(signed).toMatch(/<infEntrega><chNFe>[0-9]{44}<\/chNFe><\/infEntrega>/);
    expect(signed).toContain('<latitude>-23.500000</latitude>');

    const canc = expectError(await ev(id, 'cancelamento', { justificativa: JUST }), 422, 'regra_de_negocio');
    expect(canc.error.details).toMatchObject({ cstat: 862, motivo: expect.stringContaining('Comprovante de Entrega') });
    const again = expectError(await ev(id, 'entrega', entrega()), 422, 'regra_de_negocio');
    expect(again.error.details.cstat).toBe(870);

    const undo = await ev(id, 'entrega/cancelamento');
    expect(undo.status).toBe(200);
    expect(undo.body.data).toMatchObject({ tipo: 'entrega_cancelamento', situacao: 'registrado', sequencia: 1 });
    expect(await status()).toMatchObject({ status: 'a_confirmar', confirmada_em: null });
    await expectRegisteredIndependentlyValid(id, 2);
    const none = expectError(await ev(id, 'entrega/cancelamento'), 422, 'regra_de_negocio');
    expect(none.error.details.cstat).toBe(866);

    // A new delivery proof takes the next sequence; cancelling it again frees the CT-e's cancellation.
    const second = await ev(id, 'entrega', entrega('OUTRO RECEBEDOR'));
    expect(second.body.data.sequencia).toBe(2);
    expect((await ev(id, 'entrega/cancelamento')).body.data.sequencia).toBe(2);
    expect((await ev(id, 'cancelamento', { justificativa: JUST })).status).toBe(200);
  });

  it('entrega: 400 for a digest that is not a SHA-1', async () => {
    const id = await autorizado();
    expectError(await ev(id, 'entrega', { ...entrega(), hash_imagem: 'abc' }), 400, 'validacao');
    expectError(await ev(id, 'entrega', { ...entrega(), recebedor: { documento: '1', nome: 'X' } }), 400, 'validacao');
  });

  it('a pending event answers 202 with its event_key; reconciliacao answers 202 then 200, resending the same signed XML', async () => {
    // Each follow-up counts: through SOAP a reconciliation both consults and sends the same XML again (the consultation
    // does not list events in processing), so four follow-ups leave room for a 202 before the 200 through either door.
    const id = await autorizado();
    const res = await ev(id, 'cancelamento', { justificativa: `${JUST} SIMULAR:EVENTO-PENDENTE:4` });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ tipo: 'cancelamento', situacao: 'pendente', protocolo: null, cte: { situacao: 'autorizado' } });
    const key = res.body.data.event_key as string;
    expect(res.body.data.reconciliacao).toBe(`/v1/fiscal/cte/${id}/eventos/${key}/reconciliacao`);
    // Asking to cancel again while pending sends nothing new: the same key.
    const repeat = await ev(id, 'cancelamento', { justificativa: JUST });
    expect(repeat.body.data.event_key).toBe(key);

    let last: ApiResponse | null = null;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      last = await c.call('POST', `/v1/fiscal/cte/${id}/eventos/${key}/reconciliacao`);
      statuses.push(last.status);
      if (last.status === 200) break;
    }
    expect(statuses[0]).toBe(202);
    expect(statuses[statuses.length - 1]).toBe(200);
    expect(last!.body.data).toMatchObject({
      event_key: key,
      situacao: 'registrado',
      protocolo: { cstat: 135 },
      cte: { situacao: 'cancelado' },
    });
    expect((await stream(id)).filter((e) => e.type === 'cte.evento_solicitado')).toHaveLength(1);
    expect((await c.call('GET', `/v1/fiscal/cte/${id}`)).body.data.situacao).toBe('cancelado');
    // Once registered, reconciling again answers the same 200.
    expect((await c.call('POST', `/v1/fiscal/cte/${id}/eventos/${key}/reconciliacao`)).status).toBe(200);
  });

  it('a lost answer (SIMULAR:TIMEOUT) is 202; reconciliacao finds the registration', async () => {
    const id = await autorizado();
    const res = await ev(id, 'carta-correcao', { correcoes: [{ grupo: 'compl', campo: 'xObs', valor: 'SIMULAR:TIMEOUT' }] });
    expect(res.status).toBe(202);
    const rec = await c.call('POST', `/v1/fiscal/cte/${id}/eventos/${res.body.data.event_key}/reconciliacao`);
    expect(rec.status).toBe(200);
    expect(rec.body.data).toMatchObject({ situacao: 'registrado', sequencia: 1 });
  });

  it('an authority rejection is 422 regra_de_negocio with its cstat and motivo; the next attempt reuses the sequence', async () => {
    const id = await autorizado();
    const res = expectError(
      await ev(id, 'carta-correcao', { correcoes: [{ grupo: 'compl', campo: 'xObs', valor: 'SIMULAR:REJEICAO:236' }] }),
      422,
      'regra_de_negocio',
    );
    expect(res.error.details).toMatchObject({ cstat: 236, motivo: expect.stringMatching(/^Rejeição/) });
    const ok = await ev(id, 'carta-correcao', { correcoes: [{ grupo: 'compl', campo: 'xObs', valor: 'TEXTO CORRIGIDO' }] });
    expect(ok.status).toBe(200);
    expect(ok.body.data.sequencia).toBe(1);
  });

  it("reconciliacao: 404 nao_encontrado for an unknown key, one of another CT-e, and another company's CT-e", async () => {
    const id = await autorizado();
    const otherCte = await autorizado();
    const cce = await ev(otherCte, 'carta-correcao', { correcoes: [{ grupo: 'compl', campo: 'xObs', valor: 'OUTRO TEXTO' }] });
    expectError(await c.call('POST', `/v1/fiscal/cte/${id}/eventos/ID110111000/reconciliacao`), 404, 'nao_encontrado');
    expectError(await c.call('POST', `/v1/fiscal/cte/${id}/eventos/${cce.body.data.event_key}/reconciliacao`), 404, 'nao_encontrado');
    const other = await app.carrier();
    expectError(
      await other.call('POST', `/v1/fiscal/cte/${otherCte}/eventos/${cce.body.data.event_key}/reconciliacao`),
      404,
      'nao_encontrado',
    );
  });
});

describe.each(AUTORIDADES)(
  'CT-e cancellation deadline: 168 hours from authorization (MOC 220), on the service clock (authority: %s)',
  (autoridade) => {
    let app: TestApp;
    const relogio = relogioAdiantavel();
    beforeAll(async () => {
      app = await startTestApp({}, { clock: relogio.clock, autoridade });
    });
    afterAll(() => app?.close());

    it('167 hours after authorization it cancels; 169 hours after it is 422 regra_de_negocio 220, refused before sending', async () => {
      const c = await emissora(app);
      const early = (await cteAutorizado(c)).id;
      const late = (await cteAutorizado(c)).id;
      relogio.adiantar(167 * 3_600_000);
      expect((await c.call('POST', `/v1/fiscal/cte/${early}/eventos/cancelamento`, { justificativa: JUST })).status).toBe(200);
      relogio.adiantar(169 * 3_600_000);
      const before = (await app.running.platform.store.readStream(`cte-${late}`)).length;
      const refused = expectError(
        await c.call('POST', `/v1/fiscal/cte/${late}/eventos/cancelamento`, { justificativa: JUST }),
        422,
        'regra_de_negocio',
      );
      expect(refused.error.details).toMatchObject({ cstat: 220, motivo: expect.stringContaining('168 horas') });
      expect((await app.running.platform.store.readStream(`cte-${late}`)).length).toBe(before);
      expect((await c.call('GET', `/v1/fiscal/cte/${late}`)).body.data.situacao).toBe('autorizado');
    });
  },
);
