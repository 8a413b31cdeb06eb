import { CTE, MDFE, numeracaoStream, chaveSubcontratadaStream } from '@frete/domain';
import { WrongExpectedRevision } from '@frete/platform';
import { startServices, type RunningServices } from '@frete/server';
import { startTestApp, expectError, randomCnpj, request, type ApiResponse, type TestApp, type TestCarrier } from '../support/app';
import { buildCteXml, nfeKey } from '../support/cte-xml';
import { emissora, pollUntil, rascunhoEmitivel } from '../support/emissora';
import { MOTORISTA_CPF, PLACA } from '../support/lote';
import { nfeSample } from '../support/nfe-files';
import { contraCteAutorizado } from '../support/repasse';
import { GRUPOS_LOTACAO } from '../support/mdfe-lotacao';

/**
 * N identical requests at once on every route the spec or the README calls idempotent (by a natural key, by the
 * `Idempotency-Key` header, or because repeating it changes nothing): only the documented statuses, exactly one
 * resource, the same one in every answer. Issue 11, defect 3: 20 inbox receipts and 20 `cte-emitidos` deliveries
 * answered 500 four to six times, 10 counter-CT-e for one key answered 404 up to nine times.
 */

/** Fires `n` copies of one request at the same moment and waits for every answer. */
const aoMesmoTempo = (n: number, send: (i: number) => Promise<ApiResponse>) => Promise.all(Array.from({ length: n }, (_, i) => send(i)));

const statuses = (rs: ApiResponse[]) => rs.map((r) => r.status).sort();
/** The sorted statuses of one `primeiro` answer and `n - 1` of `demais`. */
const umEDemais = (n: number, primeiro: number, demais: number) => [primeiro, ...Array<number>(n - 1).fill(demais)].sort();
const todos = (n: number, status: number) => Array<number>(n).fill(status);
const unicos = <T>(xs: T[]) => [...new Set(xs)];

const CAMPINAS = { municipio: 'Campinas', uf: 'SP' };
const RIO = { municipio: 'Rio de Janeiro', uf: 'RJ' };
const CONFIGURACAO = {
  inscricao_estadual: '110042490114',
  regime_tributario: 3,
  rntrc: '12345678',
  serie_cte: 1,
  endereco: { logradouro: 'AVENIDA PAULISTA', numero: '1000', bairro: 'BELA VISTA', municipio: 'São Paulo', uf: 'SP', cep: '01310100' },
};

describe('identical requests at once on the idempotent routes (issue 11, defect 3)', () => {
  let app: TestApp;
  /** A carrier ready to issue (configuration, A1, the SP→RJ rule), with a driver and a vehicle, scopes fiscal and operacao. */
  let c: TestCarrier;
  /** Another carrier: the contractor of grants and the subcontractor of hand-offs. */
  let parceira: TestCarrier;
  let motoristaId: number;
  let veiculoId: number;
  /** A second API copy on the same database, as another process behind the balancer: it shares no lock with the first. */
  let copia: RunningServices;
  const contratante = randomCnpj();

  const eventos = async (stream: string, type: string) =>
    (await app.running.platform.store.readStream(stream)).filter((e) => e.type === type);
  /** A contractor's CT-e (Campinas/SP → Rio de Janeiro/RJ) in `c`'s inbox. */
  const recebido = async () => {
    const { chave, xml } = buildCteXml({ emitenteCnpj: contratante, emitenteNome: 'CONTRATANTE TRANSPORTES SA', nfeChaves: [nfeKey()] });
    expect((await c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml })).status).toBe(201);
    return chave;
  };
  const contra = (chave: string) => ({ chave_cte_original: chave, motorista: { cpf: MOTORISTA_CPF }, placa: PLACA, valor_frete: 800.5 });

  beforeAll(async () => {
    app = await startTestApp();
    copia = await startServices({ ...app.config, services: ['api'] });
    c = await emissora(app, 'TRANSPORTES CONCORRENTES LTDA', ['fiscal', 'operacao']);
    parceira = await app.carrier({ name: 'PARCEIRA TRANSPORTES LTDA' });
    const m = await c.call('POST', '/v1/fiscal/motoristas', { cpf: MOTORISTA_CPF, nome: 'JOAO MOTORISTA' });
    expect(m.status).toBe(201);
    motoristaId = m.body.data.id;
    const v = await c.call('POST', '/v1/fiscal/veiculos', { placa: PLACA });
    expect(v.status).toBe(201);
    veiculoId = v.body.data.id;
  }, 120_000);
  afterAll(async () => {
    await copia?.stop();
    await app?.close();
  });

  describe('idempotent by a natural key', () => {
    it('POST /fiscal/cte-subcontratacao ×20: one 201, nineteen 200, one inbox row received 20 times', async () => {
      const { chave, xml } = buildCteXml({ emitenteCnpj: contratante, nfeChaves: [nfeKey()] });
      const rs = await aoMesmoTempo(20, () => c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml }));
      expect(statuses(rs)).toEqual(umEDemais(20, 201, 200));
      expect(unicos(rs.map((r) => r.body.data.access_key))).toEqual([chave]);
      expect((await c.call('GET', `/v1/fiscal/cte-subcontratacao/${chave}`)).body.data.received_count).toBe(20);
      expect((await c.call('GET', `/v1/fiscal/cte-subcontratacao?search=${chave}`)).body.meta.total).toBe(1);
    });

    it('POST /fiscal/cte-emitidos ×20: one 201 (first_reception), nineteen 200, one own CT-e', async () => {
      const { chave, xml } = buildCteXml({ emitenteCnpj: c.cnpj, nfeChaves: [nfeKey()] });
      const rs = await aoMesmoTempo(20, () => c.call('POST', '/v1/fiscal/cte-emitidos', { xml }));
      expect(statuses(rs)).toEqual(umEDemais(20, 201, 200));
      expect(rs.filter((r) => r.body.data.first_reception)).toHaveLength(1);
      expect(unicos(rs.map((r) => r.body.data.id))).toHaveLength(1);
      const own = (await c.call('GET', '/v1/fiscal/cte?per_page=100')).body.data.filter(
        (x: { access_key: string }) => x.access_key === chave,
      );
      expect(own).toHaveLength(1);
      expect(await eventos(`cte-${own[0].id}`, 'cte.emitido_recebido')).toHaveLength(1);
    });

    it('POST /fiscal/cte/contra ×10 for one key: one 202, nine 200 with the same counter-CT-e, never 404', async () => {
      const chave = await recebido();
      const rs = await aoMesmoTempo(10, () => c.call('POST', '/v1/fiscal/cte/contra', contra(chave)));
      expect(statuses(rs)).toEqual(umEDemais(10, 202, 200));
      const [id] = unicos(rs.map((r) => r.body.data.id));
      expect(unicos(rs.map((r) => r.body.data.id))).toHaveLength(1);
      expect(await eventos(chaveSubcontratadaStream(c.companyId, chave), 'subcontratacao.reservada')).toHaveLength(1);
      expect((await c.call('GET', `/v1/fiscal/cte/${id}`)).body.data.contra_cte).toMatchObject({ chave_original: chave });
    });

    it('POST /fiscal/cte/{cte_uuid}/subcontratacao ×10 (hand-off): one 201, nine 200, one inbox row received 10 times', async () => {
      const { chave, xml } = buildCteXml({ emitenteCnpj: c.cnpj, nfeChaves: [nfeKey()] });
      const own = await c.call('POST', '/v1/fiscal/cte-emitidos', { xml });
      expect(own.status).toBe(201);
      const rs = await aoMesmoTempo(10, () =>
        c.call('POST', `/v1/fiscal/cte/${own.body.data.id}/subcontratacao`, { subcontratada: { cnpj: parceira.cnpj } }),
      );
      expect(statuses(rs)).toEqual(umEDemais(10, 201, 200));
      const inbox = await parceira.call('GET', `/v1/fiscal/cte-subcontratacao/${chave}`);
      expect(inbox.body.data.received_count).toBe(10);
    });

    it('POST /fiscal/cte-subcontratacao/autorizacoes ×10: one 201, nine 200, one grant', async () => {
      const rs = await aoMesmoTempo(10, () =>
        c.call('POST', '/v1/fiscal/cte-subcontratacao/autorizacoes', { contratante: { cnpj: parceira.cnpj } }),
      );
      expect(statuses(rs)).toEqual(umEDemais(10, 201, 200));
      expect(unicos(rs.map((r) => r.body.data.id))).toHaveLength(1);
      const grants = (await c.call('GET', '/v1/fiscal/cte-subcontratacao/autorizacoes')).body.data.concedidas;
      expect(grants.map((g: { contratante: { cnpj: string } }) => g.contratante.cnpj)).toEqual([parceira.cnpj]);
    });

    it('POST /fiscal/nfe/importacoes ×10 of one NF-e: 201 each, one importada and nine ja_importada, one NF-e', async () => {
      const key = '41170706117473000150550010000463202612756525';
      const xml = nfeSample(`${key}-procNFe.xml`);
      const rs = await aoMesmoTempo(10, () => {
        const form = new FormData();
        form.append('arquivos[]', new Blob([typeof xml === 'string' ? xml : new Uint8Array(xml)], { type: 'text/xml' }), 'nota.xml');
        return c.call('POST', '/v1/fiscal/nfe/importacoes', form);
      });
      expect(statuses(rs)).toEqual(todos(10, 201));
      const resultados = rs.map((r) => r.body.data.arquivos[0].nfes[0].resultado as string).sort();
      expect(resultados).toEqual(['importada', ...Array<string>(9).fill('ja_importada')]);
      expect((await c.call('GET', `/v1/fiscal/nfe?search=${key}`)).body.meta.total).toBe(1);
    });

    it('POST /conta-operacional/creditos ×10 with one referencia: one 201, nine 200, credited once', async () => {
      const rs = await aoMesmoTempo(10, () =>
        c.call('POST', '/v1/conta-operacional/creditos', { valor: 5000, referencia: 'DEPOSITO-CONCORRENTE' }),
      );
      expect(statuses(rs)).toEqual(umEDemais(10, 201, 200));
      expect(unicos(rs.map((r) => r.body.data.movimento.sequencia))).toHaveLength(1);
      expect((await c.call('GET', '/v1/conta-operacional')).body.data).toMatchObject({ saldo: 5000, quantidade_movimentos: 1 });
    });

    it('POST /vale-pedagio ×10 with one referencia_externa: one 201, nine 200, one toll pass debited once; passagens ×10 at one plaza: one passage', async () => {
      const compra = {
        origem: CAMPINAS,
        destino: RIO,
        categoria: '07',
        placa: PLACA,
        tipo: 'TAG',
        referencia_externa: 'VIAGEM-CONCORRENTE',
      };
      const rs = await aoMesmoTempo(10, () => c.call('POST', '/v1/vale-pedagio', compra));
      expect(statuses(rs)).toEqual(umEDemais(10, 201, 200));
      const [id] = unicos(rs.map((r) => r.body.data.id as string));
      expect(unicos(rs.map((r) => r.body.data.id))).toHaveLength(1);
      const extrato = (await c.call('GET', '/v1/conta-operacional/extrato?tipo=debito')).body.data;
      expect(extrato.map((m: { vale_pedagio_id: string }) => m.vale_pedagio_id)).toEqual([id]);

      const praca = rs[0]!.body.data.pracas[0].codigo as string;
      const passagens = await aoMesmoTempo(10, () => c.call('POST', `/v1/vale-pedagio/${id}/passagens`, { praca }));
      expect(statuses(passagens)).toEqual(todos(10, 200));
      expect(await eventos(`vale-pedagio-${c.companyId}-${id}`, 'vale_pedagio.passagem_registrada')).toHaveLength(1);
    });

    it('registrations unique by natural key (driver CPF, plate, tax rule route) ×10: one 201, nine 422 with the duplicate code', async () => {
      for (const [path, body, code] of [
        ['/v1/fiscal/motoristas', { cpf: '39053344705', nome: 'MARIA CONDUTORA' }, 'motorista_duplicado'],
        ['/v1/fiscal/veiculos', { placa: 'QWE1R23' }, 'veiculo_duplicado'],
        [
          '/v1/fiscal/regras-tributacao',
          { uf_origem: 'MG', uf_destino: 'MG', icms: { cst: '00', aliquota: 12 } },
          'regra_tributacao_duplicada',
        ],
      ] as const) {
        const rs = await aoMesmoTempo(10, () => c.call('POST', path, body));
        expect({ path, statuses: statuses(rs) }).toEqual({ path, statuses: umEDemais(10, 201, 422) });
        for (const r of rs.filter((x) => x.status === 422)) expectError(r, 422, code);
      }
    });
  });

  describe('idempotent by the Idempotency-Key header', () => {
    it('POST /fiscal/cte ×10: 201 each with the same draft, one draft made', async () => {
      const antes = (await c.call('GET', '/v1/fiscal/cte?status=rascunho')).body.meta.total;
      const body = rascunhoEmitivel();
      const rs = await aoMesmoTempo(10, () => c.call('POST', '/v1/fiscal/cte', body, { 'idempotency-key': 'rascunho-concorrente-1' }));
      expect(statuses(rs)).toEqual(todos(10, 201));
      expect(unicos(rs.map((r) => r.body.data.id))).toHaveLength(1);
      expect((await c.call('GET', '/v1/fiscal/cte?status=rascunho')).body.meta.total).toBe(antes + 1);
    });

    it('POST /fiscal/cte/contra ×10: the same counter-CT-e in every answer (202 or 200), one made', async () => {
      const chave = await recebido();
      const rs = await aoMesmoTempo(10, () =>
        c.call('POST', '/v1/fiscal/cte/contra', contra(chave), { 'idempotency-key': 'contra-concorrente-1' }),
      );
      for (const r of rs) expect([200, 202]).toContain(r.status);
      const [id] = unicos(rs.map((r) => r.body.data.id as string));
      expect(unicos(rs.map((r) => r.body.data.id))).toHaveLength(1);
      expect(await eventos(`cte-${id}`, 'cte.contra_cte_criado')).toHaveLength(1);
      expect(await eventos(chaveSubcontratadaStream(c.companyId, chave), 'subcontratacao.reservada')).toHaveLength(1);
    });

    it('POST /fiscal/cte-subcontratacao/lote ×10: 202 each with the same batch, one batch', async () => {
      const chave = await recebido();
      const body = { subcontratada: { cnpj: c.cnpj }, motorista: { cpf: MOTORISTA_CPF }, placa: PLACA, ctes: [{ chave, valor: 100 }] };
      const rs = await aoMesmoTempo(10, () =>
        c.call('POST', '/v1/fiscal/cte-subcontratacao/lote', body, { 'idempotency-key': 'lote-concorrente-1' }),
      );
      expect(statuses(rs)).toEqual(todos(10, 202));
      const [id] = unicos(rs.map((r) => r.body.data.batch_id as string));
      expect(unicos(rs.map((r) => r.body.data.batch_id))).toHaveLength(1);
      expect(await eventos(`lote-${id}`, 'lote.criado')).toHaveLength(1);
    });
  });

  describe('idempotent because repeating changes nothing', () => {
    it('PUT /fiscal/configuracao, /fiscal/motoristas/{id}, /fiscal/veiculos/{id} ×10: 200 each with the same data', async () => {
      for (const [path, body] of [
        ['/v1/fiscal/configuracao', { ...CONFIGURACAO, serie_mdfe: 3 }],
        [`/v1/fiscal/motoristas/${motoristaId}`, { cpf: MOTORISTA_CPF, nome: 'JOAO MOTORISTA DA SILVA' }],
        // The vehicle becomes what an MDF-e needs (below).
        [
          `/v1/fiscal/veiculos/${veiculoId}`,
          { placa: PLACA, tipo: 'tracao', tara_kg: 8000, capacidade_kg: 20000, tipo_rodado: '03', tipo_carroceria: '02', uf: 'SP' },
        ],
      ] as const) {
        const rs = await aoMesmoTempo(10, () => c.call('PUT', path, body));
        expect({ path, statuses: statuses(rs) }).toEqual({ path, statuses: todos(10, 200) });
        // The same data; only the time of the last change may differ.
        const dados = rs.map((r) => JSON.stringify({ ...r.body.data, atualizado_em: undefined, updated_at: undefined }));
        expect(unicos(dados)).toHaveLength(1);
      }
    });

    it('PUT /fiscal/cte/{cte_uuid} ×10: 200 each, the draft changed once', async () => {
      const d = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel());
      const id = d.body.data.id as string;
      const body = rascunhoEmitivel('ENTREGAR NA DOCA 7');
      const rs = await aoMesmoTempo(10, () => c.call('PUT', `/v1/fiscal/cte/${id}`, body));
      expect(statuses(rs)).toEqual(todos(10, 200));
      expect(unicos(rs.map((r) => JSON.stringify(r.body.data)))).toHaveLength(1);
      expect(await eventos(`cte-${id}`, 'cte.rascunho_alterado')).toHaveLength(1);
    });

    it('CT-e emissao ×10 and consulta ×10: one number; then CIOT (one 201, nine ciot_ja_emitido), inicio-viagem ×10, and the MDF-e emissao and consulta ×10', async () => {
      const d = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel());
      const id = d.body.data.id as string;
      const emissao = await aoMesmoTempo(10, () => c.call('POST', `/v1/fiscal/cte/${id}/emissao`));
      expect(statuses(emissao)).toEqual(todos(10, 202));
      expect(unicos(emissao.map((r) => r.body.data.id))).toEqual([id]);
      const consulta = await aoMesmoTempo(10, () => c.call('POST', `/v1/fiscal/cte/${id}/consulta`));
      for (const r of consulta) expect([200, 202]).toContain(r.status);
      const fim = await pollUntil(c, `/v1/fiscal/cte/${id}/consulta`);
      expect(fim.body.data.situacao).toBe('autorizado');
      const reservas = (await app.running.platform.store.readStream(numeracaoStream(CTE, c.companyId, 1))).filter(
        (e) => (e.data as { cte_id: string }).cte_id === id,
      );
      expect(reservas).toHaveLength(1);
      expect(await eventos(`cte-${id}`, 'cte.autorizado')).toHaveLength(1);

      const ciot = await aoMesmoTempo(10, () =>
        c.call('POST', `/v1/fiscal/cte/${id}/ciot/emissao`, { motorista: { cpf: MOTORISTA_CPF }, veiculos: [{ placa: PLACA }] }),
      );
      expect(statuses(ciot)).toEqual(umEDemais(10, 201, 422));
      for (const r of ciot.filter((x) => x.status === 422)) expectError(r, 422, 'ciot_ja_emitido');
      const ciotId = ciot.find((r) => r.status === 201)!.body.data.id as string;
      const inicio = await aoMesmoTempo(10, () => c.call('POST', `/v1/fiscal/cte/${id}/ciot/inicio-viagem`));
      expect(statuses(inicio)).toEqual(todos(10, 200));
      expect(unicos(inicio.map((r) => r.body.data.viagem_iniciada_em))).toHaveLength(1);
      expect(await eventos(`ciot-${ciotId}`, 'ciot.viagem_iniciada')).toHaveLength(1);

      // The MDF-e carrying it: emissao ×10 and consulta ×10, one number of the series.
      const mdfe = await c.call('POST', '/v1/fiscal/mdfe', {
        ctes: [id],
        veiculo: { placa: PLACA },
        motoristas: [{ cpf: MOTORISTA_CPF }],
        ...GRUPOS_LOTACAO,
      });
      expect({ status: mdfe.status, body: mdfe.body }).toMatchObject({ status: 201 });
      const mdfeId = mdfe.body.data.id as string;
      const mdfeEmissao = await aoMesmoTempo(10, () => c.call('POST', `/v1/fiscal/mdfe/${mdfeId}/emissao`));
      expect(statuses(mdfeEmissao)).toEqual(todos(10, 202));
      const mdfeConsulta = await aoMesmoTempo(10, () => c.call('POST', `/v1/fiscal/mdfe/${mdfeId}/consulta`));
      for (const r of mdfeConsulta) expect([200, 202]).toContain(r.status);
      expect((await pollUntil(c, `/v1/fiscal/mdfe/${mdfeId}/consulta`)).body.data.situacao).toBe('autorizado');
      const mdfeReservas = (await app.running.platform.store.readStream(numeracaoStream(MDFE, c.companyId, 3))).filter(
        (e) => (e.data as { mdfe_id: string }).mdfe_id === mdfeId,
      );
      expect(mdfeReservas).toHaveLength(1);
    });

    it('POST /carriers/parcelas-repasse/{documento}/bipagem ×10: 200 each, the installments made once', async () => {
      const doc = await contraCteAutorizado(app, c, { cpf: MOTORISTA_CPF, valor_centavos: 10_000 });
      const path = `/v1/carriers/parcelas-repasse/${doc.cte_id}`;
      for (let i = 0; i < 200 && (await c.call('GET', path)).status !== 200; i++) await new Promise((r) => setTimeout(r, 50));
      const rs = await aoMesmoTempo(10, () => c.call('POST', `${path}/bipagem`));
      expect(statuses(rs)).toEqual(todos(10, 200));
      expect(await eventos(`repasse-${c.companyId}-cte:${doc.cte_id}`, 'repasse.parcelas_geradas')).toHaveLength(1);
    });
  });

  describe('split between two API copies (the retry with backoff, across processes)', () => {
    /** The i-th request goes to one copy or the other, alternately. */
    const alternando = (i: number, method: string, path: string, body: unknown) =>
      i % 2 === 0 ? c.call(method, path, body) : request(copia.url! + path, method, body, { authorization: `Bearer ${c.apiKey}` });

    it('POST /fiscal/cte-subcontratacao ×20', async () => {
      const { chave, xml } = buildCteXml({ emitenteCnpj: contratante, nfeChaves: [nfeKey()] });
      const rs = await aoMesmoTempo(20, (i) => alternando(i, 'POST', '/v1/fiscal/cte-subcontratacao', { xml }));
      expect(statuses(rs)).toEqual(umEDemais(20, 201, 200));
      expect((await c.call('GET', `/v1/fiscal/cte-subcontratacao/${chave}`)).body.data.received_count).toBe(20);
    });

    it('POST /fiscal/cte-emitidos ×20', async () => {
      const { xml } = buildCteXml({ emitenteCnpj: c.cnpj, nfeChaves: [nfeKey()] });
      const rs = await aoMesmoTempo(20, (i) => alternando(i, 'POST', '/v1/fiscal/cte-emitidos', { xml }));
      expect(statuses(rs)).toEqual(umEDemais(20, 201, 200));
      expect(unicos(rs.map((r) => r.body.data.id))).toHaveLength(1);
    });

    it('POST /fiscal/cte/contra ×10 for one key', async () => {
      const chave = await recebido();
      const rs = await aoMesmoTempo(10, (i) => alternando(i, 'POST', '/v1/fiscal/cte/contra', contra(chave)));
      expect(statuses(rs)).toEqual(umEDemais(10, 202, 200));
      expect(unicos(rs.map((r) => r.body.data.id))).toHaveLength(1);
    });

    it('POST /convites/transportadoras ×10: a repeat that appends nothing still answers the invitation another copy made', async () => {
      const k = await app.carrier({ scopes: ['cadastros'] });
      const convite = { cnpj: randomCnpj(), contato: { nome: 'Maria Souza', email: 'maria@example.com' } };
      const rs = await aoMesmoTempo(10, (i) =>
        i % 2 === 0
          ? k.call('POST', '/v1/convites/transportadoras', convite)
          : request(copia.url! + '/v1/convites/transportadoras', 'POST', convite, { authorization: `Bearer ${k.apiKey}` }),
      );
      expect(statuses(rs)).toEqual(umEDemais(10, 201, 200));
      expect(unicos(rs.map((r) => r.body.data.id))).toHaveLength(1);
    });
  });

  it('a conflict that outlives the retries: 503 consulta_indisponivel with Retry-After, never 500', async () => {
    const { chave, xml } = buildCteXml({ emitenteCnpj: contratante, nfeChaves: [nfeKey()] });
    // Another writer wins every race on the stream (the pauses drawn as 0 to keep the test short).
    jest.spyOn(Math, 'random').mockReturnValue(0);
    jest.spyOn(app.running.platform.store, 'append').mockImplementation(async (stream) => {
      throw new WrongExpectedRevision(stream, 'no_stream', 0n);
    });
    try {
      const res = await c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml });
      expectError(res, 503, 'consulta_indisponivel');
      expect(res.headers.get('retry-after')).toBe('1');
    } finally {
      jest.restoreAllMocks();
    }
    // Nothing was recorded, and the same request now goes through.
    expect((await c.call('GET', `/v1/fiscal/cte-subcontratacao/${chave}`)).status).toBe(404);
    expect((await c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml })).status).toBe(201);
  });

  // Last: without its certificate the company issues nothing more.
  it('DELETE /fiscal/certificado ×10: 200 each, removed true once', async () => {
    const rs = await aoMesmoTempo(10, () => c.call('DELETE', '/v1/fiscal/certificado'));
    expect(statuses(rs)).toEqual(todos(10, 200));
    expect(rs.map((r) => r.body.data.removed as boolean).sort()).toEqual([...Array<boolean>(9).fill(false), true]);
  });
});
