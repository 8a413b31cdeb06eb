import { startTestApp, expectError, type ApiResponse, type TestApp, type TestCarrier } from '../support/app';
import { cteAutorizado, emissora, pollUntil, rascunhoEmitivel } from '../support/emissora';
import { nfeKey } from '../support/cte-xml';
import { GRUPOS_LOTACAO } from '../support/mdfe-lotacao';
import { TRACAO } from '../support/mdfe-frota';

const CPF = '52998224725';
const NFE = nfeKey('11222333000181', 4242);

/** A valid `DeclaracaoCiot` in the name of `cnpj`. */
const declaracao = (cnpj: string, over: Record<string, unknown> = {}) => ({
  contratado: { documento: cnpj },
  carga: { tipo: 'lotacao', peso_kg: 12000 },
  rota: { origem: { municipio: 'campinas', uf: 'SP' }, destino: { municipio: 'Rio de Janeiro', uf: 'RJ', codigo_ibge: '3304557' } },
  veiculos: [{ placa: 'ABC-1D23', rntrc: '12345678' }],
  documentos_fiscais: [
    {
      chave: NFE,
      remetente: { documento: '11.222.333/0001-81', nome: 'REMETENTE LTDA' },
      destinatario: { documento: '529.982.247-25', nome: 'JOSE' },
    },
  ],
  valores: { frete: 1500.5 },
  motorista: { cpf: '529.982.247-25', nome: 'JOAO MOTORISTA' },
  ...over,
});

const ANCORADO = { motorista: { cpf: CPF }, veiculos: [{ placa: 'ABC1D23' }] };

describe('CIOT: /v1/fiscal/ciot and /v1/fiscal/cte/{cte_uuid}/ciot/* (simulated provider)', () => {
  let app: TestApp;
  let c: TestCarrier;
  let outra: TestCarrier;

  const get = (id: string) => c.call('GET', `/v1/fiscal/ciot/${id}`);
  /** Rereads until the operation leaves `sent` (the emission processor follows it up). */
  const ateSairDeSent = async (path: string): Promise<ApiResponse> => {
    for (let i = 0; i < 100; i++) {
      const r = await c.call('GET', path);
      if (r.status !== 200 || r.body.data.status !== 'sent') return r;
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`${path} stayed sent`);
  };
  const rm = async (id: string) => (await app.running.platform.pool.query('SELECT * FROM rm.ciots WHERE ciot_id = $1', [id])).rows[0];
  const eventos = async (id: string) => (await app.running.platform.store.readStream(`ciot-${id}`)).map((e) => e.type);

  beforeAll(async () => {
    app = await startTestApp();
    c = await emissora(app);
    outra = await app.carrier({ name: 'OUTRA TRANSPORTES LTDA' });
    expect((await c.call('POST', '/v1/fiscal/motoristas', { cpf: CPF, nome: 'JOAO MOTORISTA' })).status).toBe(201);
  }, 120_000);
  afterAll(() => app?.close());

  describe('POST /fiscal/ciot', () => {
    it('201 registered: 12-digit CIOT and 4-digit code, readable by id, deterministic, in rm.ciots', async () => {
      const res = await c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj, { referencia_externa: 'PEDIDO-1' }));
      expect(res.status).toBe(201);
      expect(res.body.environment).toBe('homologacao');
      const d = res.body.data;
      expect(d).toMatchObject({
        status: 'registrado',
        referencia_externa: 'PEDIDO-1',
        origem: 'declaracao',
        cte: null,
        motivo: null,
        environment: 'homologacao',
        declaracao: {
          contratado: { documento: c.cnpj },
          carga: { tipo: 'lotacao', peso_kg: 12000, contratantes: [] },
          rota: { origem: { codigo_ibge: '3509502', municipio: 'Campinas', uf: 'SP' }, destino: { codigo_ibge: '3304557' }, trechos: [] },
          veiculos: [{ placa: 'ABC1D23', rntrc: '12345678' }],
          valores: { frete: 1500.5, parcelas: [] },
          motorista: { cpf: CPF },
          documentos_fiscais: [{ chave: NFE, numero: null, remetente: { documento: '11222333000181' }, destinatario: { documento: CPF } }],
        },
      });
      expect(d.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(d.ciot).toMatch(/^[0-9]{12}$/);
      expect(d.codigo_verificacao).toMatch(/^[0-9]{4}$/);
      expect(d.protocolo).toMatch(/^[0-9]{15}$/);
      expect(d.historico.map((h: { evento: string }) => h.evento)).toEqual(['declarada', 'registrada']);

      const lido = await get(d.id);
      expect(lido.status).toBe(200);
      expect(lido.body.data).toEqual(d);

      // The same request gets the same numbers (a different reference is a different request).
      const a = await c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj));
      const b = await c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj));
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body.data.id).not.toBe(b.body.data.id);
      expect([b.body.data.ciot, b.body.data.codigo_verificacao]).toEqual([a.body.data.ciot, a.body.data.codigo_verificacao]);
      expect(a.body.data.ciot).not.toBe(d.ciot);

      expect(await rm(d.id)).toMatchObject({
        company_id: c.companyId,
        status: 'registrado',
        origem: 'declaracao',
        ciot: d.ciot,
        codigo_verificacao: d.codigo_verificacao,
        tipo_carga: 'lotacao',
        contratado_documento: c.cnpj,
        motorista_cpf: CPF,
        origem_codigo_ibge: '3509502',
        destino_uf: 'RJ',
        placas: ['ABC1D23'],
        qtd_documentos: 1,
        valor_frete_centavos: '150050',
        peso_gramas: '12000000',
      });
      expect(await eventos(d.id)).toEqual(['ciot.declarada', 'ciot.registrada']);
    });

    it('referencia_externa is unique per company: reuse is 400 validacao naming the operation; another company may use it', async () => {
      const first = await c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj, { referencia_externa: 'REF-UNICA' }));
      expect(first.status).toBe(201);
      const again = expectError(
        await c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj, { referencia_externa: 'REF-UNICA', valores: { frete: 99 } })),
        400,
        'validacao',
      );
      expect(again.error.details.fields).toEqual([{ field: 'referencia_externa', message: 'already used by this company' }]);
      expect(again.error.details.ciot.id).toBe(first.body.data.id);
      expect((await get(first.body.data.id)).body.data.valores).toBeUndefined();
      expect((await get(first.body.data.id)).body.data.declaracao.valores.frete).toBe(1500.5);
      expect((await outra.call('POST', '/v1/fiscal/ciot', declaracao(outra.cnpj, { referencia_externa: 'REF-UNICA' }))).status).toBe(201);

      // Concurrent declarations with one new reference: exactly one is recorded.
      const both = await Promise.all(
        [1, 2].map(() => c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj, { referencia_externa: 'REF-CONCORRENTE' }))),
      );
      expect(both.map((r) => r.status).sort()).toEqual([201, 400]);
    });

    it('CIOT-PENDENTE: 202 sent with no number; rereads leave sent for registrado (processor follow-up); repeatable', async () => {
      const res = await c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj, { referencia_externa: 'CIOT-PENDENTE' }));
      expect(res.status).toBe(202);
      expect(res.body.data).toMatchObject({ status: 'sent', ciot: null, codigo_verificacao: null, referencia_externa: 'CIOT-PENDENTE' });
      expect(res.body.data.motivo).toMatch(/sem veredito/);
      const depois = await ateSairDeSent(`/v1/fiscal/ciot/${res.body.data.id}`);
      expect(depois.body.data).toMatchObject({ status: 'registrado', motivo: null });
      expect(depois.body.data.ciot).toMatch(/^[0-9]{12}$/);
      expect(depois.body.data.historico.map((h: { evento: string }) => h.evento)).toEqual(['declarada', 'pendente', 'registrada']);
      expect(await eventos(res.body.data.id)).toEqual(['ciot.declarada', 'ciot.pendente', 'ciot.registrada']);

      const outraVez = await c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj, { referencia_externa: 'CIOT-PENDENTE' }));
      expect(outraVez.status).toBe(202);
      expect(outraVez.body.data.id).not.toBe(res.body.data.id);
      // Deterministic: the same request ends with the same CIOT.
      expect((await ateSairDeSent(`/v1/fiscal/ciot/${outraVez.body.data.id}`)).body.data.ciot).toBe(depois.body.data.ciot);
    });

    it('CIOT-RECUSAR: 422 declaracao_recusada with the operation id; the refused operation stays readable with its reason', async () => {
      const body = expectError(
        await c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj, { referencia_externa: 'CIOT-RECUSAR' })),
        422,
        'declaracao_recusada',
      );
      const id = body.error.details.ciot.id as string;
      expect(body.error.details.motivo).toMatch(/CIOT-RECUSAR/);
      const lido = await get(id);
      expect(lido.status).toBe(200);
      expect(lido.body.data).toMatchObject({
        id,
        status: 'recusado',
        ciot: null,
        motivo_codigo: 'SIM-001',
        motivo: body.error.details.motivo,
      });
      expect((await c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj, { referencia_externa: 'CIOT-RECUSAR' }))).status).toBe(422);
    });

    it('422 declaracao_bloqueada (recorded, never transmitted): another contracted party; a profile the route does not cover', async () => {
      const casos: [Record<string, unknown>, string, RegExp][] = [
        [{ contratado: { documento: outra.cnpj } }, 'contratado_divergente', /não é a empresa autenticada/],
        [{ contratado: { documento: CPF } }, 'contratado_divergente', /em nome próprio/],
        [{ carga: { tipo: 'tac_agregado', peso_kg: 100 } }, 'perfil_nao_coberto', /TAC-agregado/],
        [{ valores: { frete: 100, parcelas: [{ valor: 60 }, { valor: 40, vencimento: '2026-12-30' }] } }, 'perfil_nao_coberto', /parcelas/],
        [{ vale_pedagio: { valor: 35.2, pracas: [{ nome: 'PRACA JACAREI', codigo: 'P1' }] } }, 'perfil_nao_coberto', /praças/],
      ];
      for (const [over, codigo, motivo] of casos) {
        const body = expectError(await c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj, over)), 422, 'declaracao_bloqueada');
        expect(body.error.details.ciot).toMatchObject({ status: 'bloqueado', motivo_codigo: codigo });
        expect(body.error.details.motivo).toMatch(motivo);
        const lido = await get(body.error.details.ciot.id);
        expect(lido.body.data).toMatchObject({ status: 'bloqueado', motivo_codigo: codigo, ciot: null, codigo_verificacao: null });
        expect(await eventos(body.error.details.ciot.id)).toEqual(['ciot.declarada', 'ciot.bloqueada']);
      }
      // A toll pass without plazas is covered.
      expect((await c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj, { vale_pedagio: { valor: 35.2 } }))).status).toBe(201);
    });

    it('a fractioned load with contracting parties and collection/delivery legs is registered', async () => {
      const res = await c.call(
        'POST',
        '/v1/fiscal/ciot',
        declaracao(c.cnpj, {
          carga: { tipo: 'fracionada', peso_kg: 850.25, contratantes: [{ documento: '11222333000181', nome: 'CONTRATANTE A' }] },
          rota: {
            origem: { municipio: 'São Paulo', uf: 'SP' },
            destino: { municipio: 'Belo Horizonte', uf: 'MG' },
            trechos: [{ coleta: { municipio: 'Campinas', uf: 'SP' }, entrega: { municipio: 'belo horizonte', uf: 'MG' } }],
          },
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body.data.declaracao).toMatchObject({
        carga: { tipo: 'fracionada', peso_kg: 850.25, contratantes: [{ documento: '11222333000181', nome: 'CONTRATANTE A' }] },
        rota: { trechos: [{ coleta: { codigo_ibge: '3509502' }, entrega: { codigo_ibge: '3106200', municipio: 'Belo Horizonte' } }] },
      });
    });

    it('400 validacao naming the field: route ends outside the IBGE table, missing trip fields, limits, check digits', async () => {
      const fields = async (body: unknown) =>
        (expectError(await c.call('POST', '/v1/fiscal/ciot', body), 400, 'validacao').error.details.fields as { field: string }[]).map(
          (f) => f.field,
        );
      expect(
        await fields(
          declaracao(c.cnpj, { rota: { origem: { municipio: 'Campinas', uf: 'RJ' }, destino: { municipio: 'Rio de Janeiro', uf: 'RJ' } } }),
        ),
      ).toEqual(['rota.origem']);
      expect(
        await fields(
          declaracao(c.cnpj, {
            rota: {
              origem: { municipio: 'Campinas', uf: 'SP' },
              destino: { municipio: 'Rio de Janeiro', uf: 'RJ', codigo_ibge: '3550308' },
              trechos: [{ coleta: { municipio: 'Xyz', uf: 'SP' }, entrega: { municipio: 'Campinas', uf: 'SP' } }],
            },
          }),
        ),
      ).toEqual(['rota.destino', 'rota.trechos.0.coleta']);
      expect(await fields(declaracao(c.cnpj, { carga: { tipo: 'fracionada', peso_kg: 10 } }))).toEqual(['carga.contratantes']);
      expect(await fields(declaracao(c.cnpj, { carga: { tipo: 'fracionada', peso_kg: 10, contratantes: [] } }))).toEqual([
        'carga.contratantes',
      ]);
      const { motorista: _m, ...semMotorista } = declaracao(c.cnpj);
      expect(await fields(semMotorista)).toEqual(['motorista']);
      expect(await fields(declaracao(c.cnpj, { veiculos: [] }))).toEqual(['veiculos']);
      expect(
        await fields(
          declaracao(c.cnpj, { veiculos: Array.from({ length: 11 }, (_, i) => ({ placa: `ABC1D${String(i).padStart(2, '0')}` })) }),
        ),
      ).toEqual(['veiculos']);
      expect(await fields(declaracao(c.cnpj, { documentos_fiscais: [] }))).toEqual(['documentos_fiscais']);
      const doc = declaracao(c.cnpj).documentos_fiscais[0]!;
      expect(await fields(declaracao(c.cnpj, { documentos_fiscais: Array.from({ length: 101 }, () => doc) }))).toEqual([
        'documentos_fiscais',
      ]);
      const trecho = { coleta: { municipio: 'Campinas', uf: 'SP' }, entrega: { municipio: 'Campinas', uf: 'SP' } };
      expect(
        await fields(
          declaracao(c.cnpj, {
            rota: { origem: trecho.coleta, destino: trecho.entrega, trechos: Array.from({ length: 101 }, () => trecho) },
          }),
        ),
      ).toEqual(['rota.trechos']);
      expect(await fields(declaracao(c.cnpj, { motorista: { cpf: '52998224724', nome: 'JOAO' } }))).toEqual(['motorista.cpf']);
      expect(await fields(declaracao(c.cnpj, { valores: { frete: 0 } }))).toEqual(['valores.frete']);
      expect(await fields(declaracao(c.cnpj, { carga: { tipo: 'granel', peso_kg: 1 } }))).toContain('carga.tipo');
      expect(await fields(declaracao(c.cnpj, { extra: 1 }))).toEqual(['extra']);
    });
  });

  describe('GET /fiscal/ciot/{ciot_uuid}', () => {
    it("404 ciot_nao_encontrado for an unknown id, a malformed one and another company's operation", async () => {
      const mine = await c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj));
      expectError(await c.call('GET', '/v1/fiscal/ciot/0b7c4c35-8f5e-4d1e-9a43-0d3a4f1b2c3d'), 404, 'ciot_nao_encontrado');
      expectError(await c.call('GET', '/v1/fiscal/ciot/not-a-uuid'), 404, 'ciot_nao_encontrado');
      expectError(await outra.call('GET', `/v1/fiscal/ciot/${mine.body.data.id}`), 404, 'ciot_nao_encontrado');
      expect((await c.call('GET', `/v1/fiscal/ciot/${mine.body.data.id.toUpperCase()}`)).status).toBe(200);
    });
  });

  it('OpenAPI documents the CIOT schemas generated from TypeBox', async () => {
    const doc = (await c.call('GET', '/v1/openapi.json')).body;
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['DeclaracaoCiot', 'RespostaCiot', 'CiotStatus', 'CteCiotInput', 'CteCiotValidacao']),
    );
    const post = doc.paths['/v1/fiscal/ciot'].post;
    expect(post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/DeclaracaoCiot');
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['201', '202', '400', '401', '403', '422']));
    expect(post.description).toMatch(/CIOT-PENDENTE/);
    expect(JSON.stringify(doc.components.schemas.CiotStatus)).toMatch(/retificado/);
  });

  it('403 escopo_nao_habilitado without the fiscal scope, on every CIOT route', async () => {
    const sem = await app.carrier({ scopes: ['operacao'] });
    const id = '0b7c4c35-8f5e-4d1e-9a43-0d3a4f1b2c3d';
    expectError(await sem.call('POST', '/v1/fiscal/ciot', declaracao(sem.cnpj)), 403, 'escopo_nao_habilitado');
    expectError(await sem.call('GET', `/v1/fiscal/ciot/${id}`), 403, 'escopo_nao_habilitado');
    for (const p of ['validacao', 'emissao', 'inicio-viagem', 'cancelamento', 'retificacao', 'encerramento']) {
      expectError(await sem.call('POST', `/v1/fiscal/cte/${id}/ciot/${p}`, {}), 403, 'escopo_nao_habilitado');
    }
    expectError(await sem.call('GET', `/v1/fiscal/cte/${id}/ciot`), 403, 'escopo_nao_habilitado');
    expect((await c.call('GET', `/v1/fiscal/ciot/${id}`, undefined, { authorization: 'Bearer fk_hml_invalid' })).status).toBe(401);
  });

  describe('anchored on an own CT-e', () => {
    let cte: { id: string; chave: string };
    beforeAll(async () => {
      cte = await cteAutorizado(c);
    });

    it('validacao: 200 with checks and what is missing; apto once driver and vehicles are given', async () => {
      const vazio = await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/validacao`);
      expect(vazio.status).toBe(200);
      expect(vazio.body.data).toMatchObject({
        cte: { id: cte.id, access_key: cte.chave },
        apto: false,
        declaracao: null,
        ciot_em_vigor: null,
      });
      expect(vazio.body.data.pendencias.map((p: { campo: string }) => p.campo)).toEqual(['motorista', 'veiculos']);
      expect(vazio.body.data.verificacoes.filter((v: { ok: boolean }) => !v.ok).map((v: { codigo: string }) => v.codigo)).toEqual([
        'motorista',
        'veiculos',
      ]);

      const ok = await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/validacao`, ANCORADO);
      expect(ok.status).toBe(200);
      expect(ok.body.data).toMatchObject({
        apto: true,
        pendencias: [],
        declaracao: {
          contratado: { documento: c.cnpj },
          carga: { tipo: 'lotacao', peso_kg: 1000 },
          motorista: { cpf: CPF, nome: 'JOAO MOTORISTA' },
          rota: { origem: { codigo_ibge: '3509502' }, destino: { codigo_ibge: '3304557' } },
          valores: { frete: 1500.5 },
          veiculos: [{ placa: 'ABC1D23' }],
        },
      });
      expect(ok.body.data.declaracao.documentos_fiscais).toHaveLength(1);
      // Nothing was issued.
      expectError(await c.call('GET', `/v1/fiscal/cte/${cte.id}/ciot`), 404, 'ciot_nao_encontrado');

      expectError(await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/validacao`, { motorista: { cpf: '11111111111' } }), 400, 'validacao');
      const semNome = await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/validacao`, {
        motorista: { cpf: '12345678909' },
        veiculos: [{ placa: 'ABC1D23' }],
      });
      expect(semNome.status).toBe(200);
      expect(semNome.body.data.pendencias.map((p: { campo: string }) => p.campo)).toEqual(['motorista.nome']);
    });

    it("validacao: 404 for an unknown or another company's CT-e; 422 cte_nao_autorizado for a draft", async () => {
      expectError(await c.call('POST', '/v1/fiscal/cte/0b7c4c35-8f5e-4d1e-9a43-0d3a4f1b2c3d/ciot/validacao'), 404, 'nao_encontrado');
      expectError(await c.call('POST', '/v1/fiscal/cte/nope/ciot/validacao'), 404, 'nao_encontrado');
      expectError(await outra.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/validacao`), 404, 'nao_encontrado');
      const draft = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel());
      expectError(await c.call('POST', `/v1/fiscal/cte/${draft.body.data.id}/ciot/validacao`), 422, 'cte_nao_autorizado');
      expectError(await c.call('POST', `/v1/fiscal/cte/${draft.body.data.id}/ciot/emissao`, ANCORADO), 422, 'cte_nao_autorizado');
    });

    it('full load: issue, query, no second issue, no rectification, trip start blocks cancellation, closing is final', async () => {
      const pend = expectError(
        await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/emissao`, { veiculos: [{ placa: 'ABC1D23' }] }),
        422,
        'ciot_com_pendencias',
      );
      expect(pend.error.details.pendencias.map((p: { campo: string }) => p.campo)).toEqual(['motorista']);
      expectError(await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/inicio-viagem`), 404, 'ciot_nao_encontrado');

      const emitido = await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/emissao`, ANCORADO);
      expect(emitido.status).toBe(201);
      const id = emitido.body.data.id as string;
      expect(emitido.body.data).toMatchObject({
        status: 'registrado',
        origem: 'cte',
        cte: { id: cte.id, access_key: cte.chave },
        referencia_externa: null,
      });
      expect(emitido.body.data.ciot).toMatch(/^[0-9]{12}$/);
      expect((await c.call('GET', `/v1/fiscal/cte/${cte.id}/ciot`)).body.data).toEqual(emitido.body.data);
      expect((await get(id)).body.data).toEqual(emitido.body.data);
      expectError(await outra.call('GET', `/v1/fiscal/cte/${cte.id}/ciot`), 404, 'nao_encontrado');

      const dup = expectError(await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/emissao`, ANCORADO), 422, 'ciot_ja_emitido');
      expect(dup.error.details.ciot).toEqual({ id, status: 'registrado' });
      const val = await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/validacao`, ANCORADO);
      expect(val.body.data).toMatchObject({ apto: false, ciot_em_vigor: { id, status: 'registrado' } });

      expectError(
        await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/retificacao`, { valores: { frete: 1800 } }),
        422,
        'ciot_retificacao_vedada',
      );
      expectError(await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/retificacao`, {}), 400, 'validacao');

      const iniciada = await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/inicio-viagem`);
      expect(iniciada.status).toBe(200);
      expect(iniciada.body.data.viagem_iniciada_em).not.toBeNull();
      expect((await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/inicio-viagem`)).body.data.viagem_iniciada_em).toBe(
        iniciada.body.data.viagem_iniciada_em,
      );
      const depois = expectError(
        await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/cancelamento`, { justificativa: 'CARGA NAO FOI EMBARCADA' }),
        422,
        'ciot_viagem_iniciada',
      );
      expect(depois.error.details.fonte).toBe('inicio_viagem');

      const fechado = await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/encerramento`, { peso_entregue_kg: 998.5 });
      expect(fechado.status).toBe(200);
      expect(fechado.body.data).toMatchObject({ status: 'encerrado', encerramento: { peso_entregue_kg: 998.5 } });
      expect(fechado.body.data.protocolo).not.toBe(emitido.body.data.protocolo);
      expectError(await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/encerramento`), 422, 'ciot_encerrado');
      expectError(
        await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/cancelamento`, { justificativa: 'CARGA NAO FOI EMBARCADA' }),
        422,
        'ciot_encerrado',
      );
      expectError(await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/inicio-viagem`), 422, 'ciot_encerrado');
      expect(
        expectError(await c.call('POST', `/v1/fiscal/cte/${cte.id}/ciot/emissao`, ANCORADO), 422, 'ciot_ja_emitido').error.details.ciot
          .status,
      ).toBe('encerrado');
      expect((await rm(id)).status).toBe('encerrado');
      expect(await eventos(id)).toEqual(['ciot.declarada', 'ciot.registrada', 'ciot.viagem_iniciada', 'ciot.encerrada']);
    });

    it('fractioned load: rectification, cancellation before the trip, a new CIOT after it', async () => {
      const outro = await cteAutorizado(c);
      expectError(await c.call('GET', `/v1/fiscal/cte/${outro.id}/ciot`), 404, 'ciot_nao_encontrado');
      expectError(
        await c.call('POST', `/v1/fiscal/cte/${outro.id}/ciot/cancelamento`, { justificativa: 'CARGA NAO FOI EMBARCADA' }),
        404,
        'ciot_nao_encontrado',
      );
      const emitido = await c.call('POST', `/v1/fiscal/cte/${outro.id}/ciot/emissao`, { ...ANCORADO, carga: { tipo: 'fracionada' } });
      expect(emitido.status).toBe(201);
      expect(emitido.body.data.declaracao.carga).toMatchObject({ tipo: 'fracionada', contratantes: [{ documento: '11222333000181' }] });

      const ret = await c.call('POST', `/v1/fiscal/cte/${outro.id}/ciot/retificacao`, {
        valores: { frete: 1800 },
        veiculos: [{ placa: 'xyz-9a87' }],
      });
      expect(ret.status).toBe(200);
      expect(ret.body.data).toMatchObject({
        status: 'retificado',
        retificacoes: 1,
        ciot: emitido.body.data.ciot,
        declaracao: { valores: { frete: 1800 }, veiculos: [{ placa: 'XYZ9A87' }] },
      });
      expectError(
        await c.call('POST', `/v1/fiscal/cte/${outro.id}/ciot/retificacao`, { motorista: { cpf: '123', nome: 'X' } }),
        400,
        'validacao',
      );

      expectError(await c.call('POST', `/v1/fiscal/cte/${outro.id}/ciot/cancelamento`, { justificativa: 'CURTA' }), 400, 'validacao');
      expectError(
        await c.call('POST', `/v1/fiscal/cte/${outro.id}/ciot/cancelamento`, { justificativa: '               x' }),
        400,
        'validacao',
      );
      const cancelado = await c.call('POST', `/v1/fiscal/cte/${outro.id}/ciot/cancelamento`, { justificativa: 'CARGA NAO FOI EMBARCADA' });
      expect(cancelado.status).toBe(200);
      expect(cancelado.body.data).toMatchObject({ status: 'cancelado', cancelamento: { justificativa: 'CARGA NAO FOI EMBARCADA' } });
      expectError(
        await c.call('POST', `/v1/fiscal/cte/${outro.id}/ciot/cancelamento`, { justificativa: 'CARGA NAO FOI EMBARCADA' }),
        422,
        'ciot_cancelado',
      );
      expectError(await c.call('POST', `/v1/fiscal/cte/${outro.id}/ciot/retificacao`, { valores: { frete: 1 } }), 422, 'ciot_cancelado');
      expectError(await c.call('POST', `/v1/fiscal/cte/${outro.id}/ciot/encerramento`), 422, 'ciot_cancelado');

      const novo = await c.call('POST', `/v1/fiscal/cte/${outro.id}/ciot/emissao`, { ...ANCORADO, carga: { tipo: 'fracionada' } });
      expect(novo.status).toBe(201);
      expect(novo.body.data.id).not.toBe(emitido.body.data.id);
      expect(novo.body.data.ciot).not.toBe(emitido.body.data.ciot);
      expect((await c.call('GET', `/v1/fiscal/cte/${outro.id}/ciot`)).body.data.id).toBe(novo.body.data.id);
      expect((await get(emitido.body.data.id)).body.data.status).toBe('cancelado');
    });

    it("sandbox sentinels in the CT-e's observations: CIOT-RECUSAR refuses (ciot_nao_registrado after), CIOT-PENDENTE answers 202 then registers", async () => {
      const recusar = await cteAutorizado(c, 'CLIENTE PEDIU CIOT-RECUSAR');
      const body = expectError(await c.call('POST', `/v1/fiscal/cte/${recusar.id}/ciot/emissao`, ANCORADO), 422, 'declaracao_recusada');
      expect((await c.call('GET', `/v1/fiscal/cte/${recusar.id}/ciot`)).body.data).toMatchObject({
        id: body.error.details.ciot.id,
        status: 'recusado',
      });
      expectError(
        await c.call('POST', `/v1/fiscal/cte/${recusar.id}/ciot/cancelamento`, { justificativa: 'CARGA NAO FOI EMBARCADA' }),
        422,
        'ciot_nao_registrado',
      );
      expectError(await c.call('POST', `/v1/fiscal/cte/${recusar.id}/ciot/inicio-viagem`), 422, 'ciot_nao_registrado');
      // A refused operation frees the CT-e: a new issue is a new operation.
      const again = expectError(await c.call('POST', `/v1/fiscal/cte/${recusar.id}/ciot/emissao`, ANCORADO), 422, 'declaracao_recusada');
      expect(again.error.details.ciot.id).not.toBe(body.error.details.ciot.id);

      const pendente = await cteAutorizado(c, 'CIOT-PENDENTE');
      const sent = await c.call('POST', `/v1/fiscal/cte/${pendente.id}/ciot/emissao`, ANCORADO);
      expect(sent.status).toBe(202);
      expect(sent.body.data.status).toBe('sent');
      const lido = await ateSairDeSent(`/v1/fiscal/cte/${pendente.id}/ciot`);
      expect(lido.body.data).toMatchObject({ id: sent.body.data.id, status: 'registrado' });
    });

    it('an authorized MDF-e carrying the CT-e means the trip started: cancellation is 422 ciot_viagem_iniciada', async () => {
      const doMdfe = await cteAutorizado(c);
      expect((await c.call('POST', `/v1/fiscal/cte/${doMdfe.id}/ciot/emissao`, ANCORADO)).status).toBe(201);
      expect((await c.call('POST', '/v1/fiscal/veiculos', TRACAO)).status).toBe(201);
      const mdfe = await c.call('POST', '/v1/fiscal/mdfe', {
        ctes: [doMdfe.id],
        veiculo: { placa: 'ABC1D23' },
        motoristas: [{ cpf: CPF }],
        ...GRUPOS_LOTACAO,
      });
      expect(mdfe.status).toBe(201);
      expect((await c.call('POST', `/v1/fiscal/mdfe/${mdfe.body.data.id}/emissao`)).status).toBe(202);
      expect((await pollUntil(c, `/v1/fiscal/mdfe/${mdfe.body.data.id}/consulta`)).body.data.situacao).toBe('autorizado');
      const body = expectError(
        await c.call('POST', `/v1/fiscal/cte/${doMdfe.id}/ciot/cancelamento`, { justificativa: 'CARGA NAO FOI EMBARCADA' }),
        422,
        'ciot_viagem_iniciada',
      );
      expect(body.error.details.fonte).toBe('mdfe');
      // Closing is still possible.
      expect((await c.call('POST', `/v1/fiscal/cte/${doMdfe.id}/ciot/encerramento`)).body.data.status).toBe('encerrado');
    });
  });
});
