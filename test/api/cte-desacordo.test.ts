import { FiscalSchemas, signFiscalXml, verifyFiscalSignature } from '@frete/documents';
import { dhSaoPaulo, montarEventoDesacordo } from '@frete/domain';
import { expectEventIndependentlyValid } from '../support/xmlsec';
import { makeA1 } from '../support/certificates';
import {
  AUTORIDADES,
  expectError,
  relogioAdiantavel,
  startTestApp,
  type ApiResponse,
  type TestApp,
  type TestCarrier,
} from '../support/app';
import { emissora, ENDERECO_RJ, pollUntil, rascunhoEmitivel } from '../support/emissora';
import { iniciarReceptor, type Receptor, verificar, AMBIENTE_COM_WEBHOOKS } from '../support/receptor-webhooks';

const TEST_CA = makeA1({ cnpj: '11222333000181', razao: 'CA', password: 'x', cnpjIn: 'otherName' }).caCertificatePem;
const OBS = 'MERCADORIA ENTREGUE COM AVARIA E FRETE COBRADO EM DOBRO';
const NOME_TOMADORA = 'TOMADORA INDUSTRIA LTDA';
/** A draft of the emitter whose taker (`toma4`) is the company of `cnpj`, in Rio de Janeiro. */
const rascunhoParaTomadora = (cnpj: string) => ({
  ...rascunhoEmitivel(),
  tomador: {
    papel: 'outros',
    parte: {
      documento: cnpj,
      nome: NOME_TOMADORA,
      endereco: { logradouro: 'RUA B', numero: '20', bairro: 'CENTRO', municipio: 'Rio de Janeiro', uf: 'RJ', cep: '20010000' },
    },
  },
});
const WEBHOOKS = [
  'cte_subcontratacao.desacordo_registrado',
  'cte_subcontratacao.desacordo_cancelado',
  'cte_subcontratacao.desacordo_pendente',
  'cte_subcontratacao.desacordo_rejeitado',
];

/**
 * The taker's prestação em desacordo (610110) and its cancellation (610111) about a CT-e of its inbox, over real
 * HTTP, through both doors of the authority: in process and SOAP over mutual TLS to the local authority server.
 * The emitter is in SP and the taker in RJ: the event must reach SP's authorizer (the CT-e's), never the taker's.
 */
describe.each(AUTORIDADES)('POST /fiscal/cte-subcontratacao/{access_key}/desacordo (authority: %s)', (autoridade) => {
  let app: TestApp;
  let emitente: TestCarrier;
  let tomadora: TestCarrier;
  let terceira: TestCarrier;
  let receptor: Receptor;
  let secret: string;
  const schemas = new FiscalSchemas();

  beforeAll(async () => {
    receptor = await iniciarReceptor();
    app = await startTestApp(AMBIENTE_COM_WEBHOOKS, { autoridade });
    emitente = await emissora(app, 'EMISSORA PAULISTA LTDA');
    tomadora = await emissora(app, NOME_TOMADORA, ['fiscal', 'auditoria', 'webhooks'], ENDERECO_RJ);
    terceira = await emissora(app, 'TERCEIRA TRANSPORTES LTDA', ['fiscal']);
    const hook = await tomadora.call('POST', '/v1/webhooks', { url: `${receptor.url}/desacordo`, eventos: WEBHOOKS });
    expect(hook.status).toBe(201);
    secret = hook.body.data.secret as string;
  });
  afterAll(async () => {
    await schemas.close();
    await app?.close();
    await receptor?.close();
  });

  /** A CT-e of `emitente` (SP) whose taker (`toma4`) is `tomadora`, authorized, and received in the inboxes of `quem`. */
  const recebido = async (...quem: TestCarrier[]): Promise<{ id: string; chave: string }> => {
    const d = await emitente.call('POST', '/v1/fiscal/cte', rascunhoParaTomadora(tomadora.cnpj));
    expect(d.status).toBe(201);
    const id = d.body.data.id as string;
    await emitente.call('POST', `/v1/fiscal/cte/${id}/emissao`);
    const r = await pollUntil(emitente, `/v1/fiscal/cte/${id}/consulta`);
    expect(r.body.data.situacao).toBe('autorizado');
    const chave = r.body.data.access_key as string;
    const xml = await fetch(`${app.url}/v1/fiscal/cte/${id}/xml`, { headers: { authorization: `Bearer ${emitente.apiKey}` } });
    expect(xml.status).toBe(200);
    const text = await xml.text();
    for (const c of quem) expect((await c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: text })).status).toBe(201);
    return { id, chave };
  };
  const desacordo = (c: TestCarrier, chave: string, observacao: unknown = OBS): Promise<ApiResponse> =>
    c.call('POST', `/v1/fiscal/cte-subcontratacao/${chave}/desacordo`, { observacao });
  const cancelar = (c: TestCarrier, chave: string): Promise<ApiResponse> =>
    c.call('POST', `/v1/fiscal/cte-subcontratacao/${chave}/desacordo/cancelamento`);
  const stream = async (c: TestCarrier, chave: string) =>
    app.running.platform.store.readStream(`cte_subcontratacao-${c.companyId}-${chave}`);
  const doc = async (sha256: string) => (await app.running.platform.documents.get(sha256))!.content.toString('utf8');
  const eventos = async (c: TestCarrier, chave: string, type: string) =>
    (await stream(c, chave)).filter((e) => e.type === type).map((e) => e.data as Record<string, unknown>);

  it('200: the taker registers the desacordo, then cancels it; both events verify and validate; the auditor reads them; webhooks', async () => {
    const antes = autoridade === 'sefaz' ? app.autoridadeLocal!.atendidos() : {};
    const { chave } = await recebido(tomadora);
    const res = await desacordo(tomadora, chave, `  ${OBS}  `);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      environment: 'homologacao',
      data: {
        tipo: 'desacordo',
        situacao: 'registrado',
        sequencia: 1,
        protocolo: { cstat: 135 },
        access_key: chave,
        desacordo: 'registrado',
      },
    });
    expect(res.body.data.event_key).toBe(`ID610110${chave}001`);
    const nProt = res.body.data.protocolo.numero as string;
    expect(nProt).toMatch(/^[0-9]{15}$/);

    // The signed eventoCTe: the taker as author, the CT-e's UF (SP, 35) as cOrgao, the observation trimmed.
    const [solicitado] = await eventos(tomadora, chave, 'cte_subcontratacao.desacordo_solicitado');
    const signed = await doc(solicitado!.sha256 as string);
    expect(verifyFiscalSignature(signed, { element: 'eventoCTe/infEvento' }).valid).toBe(true);
    expect(signed).toContain(`<cOrgao>35</cOrgao><tpAmb>2</tpAmb><CNPJ>${tomadora.cnpj}</CNPJ><chCTe>${chave}</chCTe>`);
    expect(signed).toContain(`<indDesacordoOper>1</indDesacordoOper><xObs>${OBS}</xObs>`);
    expect((await schemas.validate(signed, 'eventoCTe_v4.00.xsd')).errors).toEqual([]);
    expect(solicitado).toMatchObject({ observacao: OBS, tp_evento: '610110', n_seq_evento: 1 });

    const canc = await cancelar(tomadora, chave);
    expect(canc.status).toBe(200);
    expect(canc.body.data).toMatchObject({ tipo: 'cancelamento_desacordo', situacao: 'registrado', sequencia: 1, desacordo: 'cancelado' });
    expect(canc.body.data.event_key).toBe(`ID610111${chave}001`);
    const [cancSolicitado] = await eventos(tomadora, chave, 'cte_subcontratacao.desacordo_solicitado').then((l) => l.slice(1));
    expect(await doc(cancSolicitado!.sha256 as string)).toContain(`<nProtEvPrestDes>${nProt}</nProtEvPrestDes>`);

    // Each registered procEventoCTe: xmllint (procEventoCTe, evPrestDesacordo / evCancPrestDesacordo) and xmlsec1.
    const procs = await eventos(tomadora, chave, 'cte_subcontratacao.desacordo_registrado');
    expect(procs).toHaveLength(2);
    for (const p of procs) {
      const proc = await doc(p.sha256 as string);
      expect((await schemas.validate(proc, 'procEventoCTe_v4.00.xsd')).errors).toEqual([]);
      expectEventIndependentlyValid(proc, { family: 'cte', trustedPem: TEST_CA });
    }

    // The auditor reads both in the received CT-e's history, in order.
    const hist = await tomadora.call('GET', `/v1/auditoria/historico/cte-subcontratacao/${chave}`);
    expect(hist.status).toBe(200);
    expect((hist.body.data.eventos as { type: string }[]).map((e) => e.type)).toEqual([
      'cte_subcontratacao.recebido',
      'cte_subcontratacao.desacordo_solicitado',
      'cte_subcontratacao.desacordo_registrado',
      'cte_subcontratacao.desacordo_solicitado',
      'cte_subcontratacao.desacordo_registrado',
    ]);
    expectError(await terceira.call('GET', `/v1/auditoria/historico/cte-subcontratacao/${chave}`), 403, 'escopo_nao_habilitado');

    // Webhooks: registered, then cancelled, each signed and linking the inbox CT-e.
    const recebidos = await receptor.esperar('/desacordo', 2);
    const payloads = recebidos.map((r) => verificar(secret, r) as { type: string; data: Record<string, unknown> });
    expect(payloads.map((p) => p.type).sort()).toEqual([
      'cte_subcontratacao.desacordo_cancelado',
      'cte_subcontratacao.desacordo_registrado',
    ]);
    expect(payloads.find((p) => p.type === 'cte_subcontratacao.desacordo_registrado')!.data).toMatchObject({
      id: chave,
      url: `/v1/fiscal/cte-subcontratacao/${chave}`,
      protocolo: nProt,
      tp_evento: '610110',
    });

    // Through the SOAP door the events reached SP's authorizer (the CT-e's), not the taker's (RJ → SVRS).
    if (autoridade === 'sefaz') {
      const depois = app.autoridadeLocal!.atendidos();
      expect((depois['SP/CTeRecepcaoEventoV4'] ?? 0) - (antes['SP/CTeRecepcaoEventoV4'] ?? 0)).toBe(2);
      expect(depois['SVRS/CTeRecepcaoEventoV4'] ?? 0).toBe(antes['SVRS/CTeRecepcaoEventoV4'] ?? 0);
    }
    // The authority registered them: its consultation lists both.
    const consulta = await app.running.application.autoridade.consultarCte(chave, { companyId: tomadora.companyId });
    expect(consulta.tipo).toBe('encontrado');
    if (consulta.tipo === 'encontrado') {
      expect(consulta.eventos.map((e) => e.tpEvento)).toEqual(expect.arrayContaining(['610110', '610111']));
    }
  });

  it('a company that is not the taker: 422 desacordo_nao_tomador, for the desacordo and the cancellation; nothing recorded', async () => {
    const { chave } = await recebido(tomadora, terceira);
    const r = expectError(await desacordo(terceira, chave), 422, 'desacordo_nao_tomador');
    expect(r.error.details).toMatchObject({ cstat: 755 });
    expectError(await cancelar(terceira, chave), 422, 'desacordo_nao_tomador');
    expect(await eventos(terceira, chave, 'cte_subcontratacao.desacordo_solicitado')).toEqual([]);
  });

  it('the authority itself refuses a 610110 whose author is not the taker (755), and takes it from the taker', async () => {
    const { chave } = await recebido(tomadora);
    const porta = app.running.application.autoridade;
    const evento = (cnpj: string, razao: string) => {
      const { xml } = montarEventoDesacordo({
        chave,
        documentoAutor: cnpj,
        tpAmb: 2,
        cOrgao: chave.slice(0, 2),
        nSeqEvento: 1,
        dhEvento: dhSaoPaulo(new Date()),
        detalhe: { tpEvento: '610110', xObs: OBS },
      });
      const a1 = makeA1({ cnpj, razao, password: 'x', cnpjIn: 'otherName' });
      return signFiscalXml(xml, { element: 'infEvento', privateKeyPem: a1.privateKeyPem, certificatePem: a1.certificatePem });
    };
    const alheio = await porta.registrarEventoCte(evento(terceira.cnpj, 'TERCEIRA TRANSPORTES LTDA'), { companyId: terceira.companyId });
    expect(alheio).toMatchObject({ tipo: 'rejeitado', cStat: 755, xMotivo: expect.stringContaining('tomador') });
    // The emitter is no taker either: the emitter's rule (632) does not apply to the taker's event.
    const doEmitente = await porta.registrarEventoCte(evento(emitente.cnpj, 'EMISSORA PAULISTA LTDA'), { companyId: emitente.companyId });
    expect(doEmitente).toMatchObject({ tipo: 'rejeitado', cStat: 755 });
    const proprio = await porta.registrarEventoCte(evento(tomadora.cnpj, NOME_TOMADORA), { companyId: tomadora.companyId });
    expect(proprio).toMatchObject({ tipo: 'registrado', cStat: 135 });
  });

  it('400 validacao for an observation out of 15–255 characters; 404 for a key not in the inbox', async () => {
    const { chave } = await recebido(tomadora);
    expectError(await desacordo(tomadora, chave, 'CURTA DEMAIS'), 400, 'validacao');
    expectError(await desacordo(tomadora, chave, `${' '.repeat(10)}X${' '.repeat(10)}`), 400, 'validacao');
    expectError(await desacordo(tomadora, chave, 'X'.repeat(256)), 400, 'validacao');
    expectError(await tomadora.call('POST', `/v1/fiscal/cte-subcontratacao/${chave}/desacordo`, {}), 400, 'validacao');
    // Received by nobody else: the emitter's inbox does not hold it, another key is unknown, a malformed key too.
    expectError(await desacordo(emitente, chave), 404, 'nao_encontrado');
    expectError(await desacordo(tomadora, `${chave.slice(0, 43)}${(Number(chave[43]) + 1) % 10}`), 404, 'nao_encontrado');
    expectError(await cancelar(tomadora, 'x'.repeat(44)), 404, 'nao_encontrado');
  });

  it('422 desacordo_inexistente without a desacordo; 409 desacordo_ja_registrado for a second one in force', async () => {
    const { chave } = await recebido(tomadora);
    expectError(await cancelar(tomadora, chave), 422, 'desacordo_inexistente');
    expect((await desacordo(tomadora, chave)).status).toBe(200);
    expectError(await desacordo(tomadora, chave), 409, 'desacordo_ja_registrado');
  });

  it('202 while the authority has no verdict; the cancellation meanwhile is 409 desacordo_pendente; repeating reconciles to 200', async () => {
    const { chave } = await recebido(tomadora);
    const res = await desacordo(tomadora, chave, `${OBS} SIMULAR:EVENTO-PENDENTE:1`);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ situacao: 'pendente', desacordo: 'pendente', protocolo: null });
    expectError(await cancelar(tomadora, chave), 409, 'desacordo_pendente');
    let last: ApiResponse | undefined;
    for (let i = 0; i < 5; i++) {
      last = await desacordo(tomadora, chave, `${OBS} SIMULAR:EVENTO-PENDENTE:1`);
      if (last.status === 200) break;
      expect(last.status).toBe(202);
    }
    expect(last!.status).toBe(200);
    expect(last!.body.data).toMatchObject({ event_key: res.body.data.event_key, situacao: 'registrado', sequencia: 1 });
    // One event was ever signed and sent: the reconciliation never builds a second.
    expect(await eventos(tomadora, chave, 'cte_subcontratacao.desacordo_solicitado')).toHaveLength(1);
    const pendente = await receptor.esperarUm('/desacordo', (r) => r.body.includes('desacordo_pendente'));
    expect(verificar(secret, pendente)).toMatchObject({ type: 'cte_subcontratacao.desacordo_pendente', data: { id: chave } });
  });

  it("the authority's refusal is 422 regra_de_negocio with its cstat: the CT-e was cancelled (218)", async () => {
    const { id, chave } = await recebido(tomadora);
    const canc = await emitente.call('POST', `/v1/fiscal/cte/${id}/eventos/cancelamento`, {
      justificativa: 'ERRO NA EMISSAO DO CONHECIMENTO',
    });
    expect(canc.status).toBe(200);
    const r = expectError(await desacordo(tomadora, chave), 422, 'regra_de_negocio');
    expect(r.error.details).toMatchObject({ cstat: 218, motivo: expect.stringMatching(/^Rejeição: CT-e já está cancelado/) });
    expect(await eventos(tomadora, chave, 'cte_subcontratacao.desacordo_rejeitado')).toMatchObject([{ cstat: 218, tp_evento: '610110' }]);
  });
});

describe.each(AUTORIDADES)(
  'desacordo deadline: 45 days from the CT-e’s authorization (MOC 787), on the service clock (authority: %s)',
  (autoridade) => {
    let app: TestApp;
    const relogio = relogioAdiantavel();
    beforeAll(async () => {
      app = await startTestApp({}, { clock: relogio.clock, autoridade });
    });
    afterAll(() => app?.close());

    it('on day 44 the taker disagrees; after day 45 it is 422 desacordo_fora_do_prazo, refused before sending', async () => {
      const emitente = await emissora(app, 'EMISSORA PAULISTA LTDA');
      const tomadora = await emissora(app, NOME_TOMADORA, ['fiscal'], ENDERECO_RJ);
      const receber = async () => {
        const d = await emitente.call('POST', '/v1/fiscal/cte', rascunhoParaTomadora(tomadora.cnpj));
        const id = d.body.data.id as string;
        await emitente.call('POST', `/v1/fiscal/cte/${id}/emissao`);
        const r = await pollUntil(emitente, `/v1/fiscal/cte/${id}/consulta`);
        const xml = await (
          await fetch(`${app.url}/v1/fiscal/cte/${id}/xml`, { headers: { authorization: `Bearer ${emitente.apiKey}` } })
        ).text();
        expect((await tomadora.call('POST', '/v1/fiscal/cte-subcontratacao', { xml })).status).toBe(201);
        return r.body.data.access_key as string;
      };
      const cedo = await receber();
      const tarde = await receber();
      relogio.adiantar(44 * 86_400_000);
      expect((await tomadora.call('POST', `/v1/fiscal/cte-subcontratacao/${cedo}/desacordo`, { observacao: OBS })).status).toBe(200);
      relogio.adiantar(46 * 86_400_000);
      const r = expectError(
        await tomadora.call('POST', `/v1/fiscal/cte-subcontratacao/${tarde}/desacordo`, { observacao: OBS }),
        422,
        'desacordo_fora_do_prazo',
      );
      expect(r.error.details).toMatchObject({ cstat: 787 });
      const stream = await app.running.platform.store.readStream(`cte_subcontratacao-${tomadora.companyId}-${tarde}`);
      expect(stream.map((e) => e.type)).toEqual(['cte_subcontratacao.recebido']);
    });
  },
);
