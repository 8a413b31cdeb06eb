import { startTestApp, expectError, randomCnpj, type TestApp, type TestCarrier } from '../support/app';
import { emissora, pollUntil } from '../support/emissora';
import { buildCteXml, nfeKey } from '../support/cte-xml';
import { expectIndependentlyValid } from '../support/xmlsec';
import { makeA1 } from '../support/certificates';

const TEST_CA = makeA1({ cnpj: '11222333000181', razao: 'CA', password: 'x', cnpjIn: 'otherName' }).caCertificatePem;
const CPF = '52998224725';
const PLACA = 'ABC1D23';
const JUST = 'CONTRA-CT-E EMITIDO POR ENGANO';

const campinas = { municipio: 'Campinas', uf: 'SP' };
const saoPaulo = { municipio: 'São Paulo', uf: 'SP' };
const rio = { municipio: 'Rio de Janeiro', uf: 'RJ' };
const niteroi = { municipio: 'Niterói', uf: 'RJ' };
const curitiba = { municipio: 'Curitiba', uf: 'PR' };

/** Text of the first `<tag>` in the XML. */
const tag = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];

describe('POST /fiscal/cte/contra: the single counter-CT-e', () => {
  let app: TestApp;
  let sub: TestCarrier;
  const contratante = randomCnpj();

  /** A contractor's CT-e (Campinas/SP → Rio de Janeiro/RJ, vTPrest 1500.00) received into the subcontractor's inbox. */
  const recebido = async (over: Partial<Parameters<typeof buildCteXml>[0]> = {}): Promise<string> => {
    const cte = buildCteXml({ emitenteCnpj: contratante, nfeChaves: [nfeKey()], ...over });
    const r = await sub.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: cte.xml });
    expect(r.status).toBe(201);
    return cte.chave;
  };
  const contra = (body: Record<string, unknown>, headers?: Record<string, string>) =>
    sub.call('POST', '/v1/fiscal/cte/contra', { motorista: { cpf: CPF }, placa: PLACA, valor_frete: 800.5, ...body }, headers);
  const autorizado = async (id: string) => {
    const r = await pollUntil(sub, `/v1/fiscal/cte/${id}/consulta`);
    expect(r.body.data.situacao).toBe('autorizado');
    return r.body.data;
  };
  const xmlDe = async (id: string) =>
    (await fetch(`${app.url}/v1/fiscal/cte/${id}/xml`, { headers: { authorization: `Bearer ${sub.apiKey}` } })).text();

  beforeAll(async () => {
    app = await startTestApp();
    sub = await emissora(app, 'SUBCONTRATADA TRANSPORTES LTDA', ['fiscal', 'operacao']);
    for (const regra of [
      { uf_origem: 'SP', uf_destino: 'SP', icms: { cst: '00', aliquota: 12 } },
      { uf_origem: 'RJ', uf_destino: 'RJ', icms: { cst: '00', aliquota: 12 } },
      { uf_origem: 'PR', uf_destino: 'RJ', icms: { cst: '00', aliquota: 12 } },
      { uf_origem: 'SP', uf_destino: 'SP', tp_serv: 2, cfop: '5352', icms: { cst: '00', aliquota: 12 } },
    ])
      expect((await sub.call('POST', '/v1/fiscal/regras-tributacao', regra)).status).toBe(201);
    expect(
      (
        await sub.call('POST', '/v1/fiscal/motoristas', {
          cpf: CPF,
          nome: 'JOAO MOTORISTA',
          repasse: {
            modo: 'automatico',
            parcelas: [
              { posicao: 1, percentual: 60, dias: 0 },
              { posicao: 2, percentual: 20, dias: 5 },
              { posicao: 3, percentual: 20, dias: 10 },
            ],
          },
        })
      ).status,
    ).toBe(201);
    expect((await sub.call('POST', '/v1/fiscal/veiculos', { placa: PLACA })).status).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('202, then authorized: tpServ 1, toma4 = the contractor, docAnt = its key, the value, CFOP 6360; schema-valid and signed', async () => {
    const chave = await recebido();
    const res = await contra({ chave_cte_original: chave });
    expect(res.status).toBe(202);
    expect(res.body.environment).toBe('homologacao');
    expect(res.body.data).toMatchObject({ id: expect.any(String), consulta: `/v1/fiscal/cte/${res.body.data.id}/consulta` });
    const id = res.body.data.id as string;
    const envelope = await autorizado(id);
    expect(envelope.access_key).toMatch(/^[0-9]{44}$/);

    const xml = await xmlDe(id);
    expect(tag(xml, 'tpServ')).toBe('1');
    expect(tag(xml, 'CFOP')).toBe('6360');
    expect(xml).toMatch(new RegExp(`<toma4><toma>4</toma><CNPJ>${contratante}</CNPJ>`));
    expect(xml).toContain(`<docAnt><emiDocAnt><CNPJ>${contratante}</CNPJ>`);
    expect(xml).toContain(`<idDocAnt><idDocAntEle><chCTe>${chave}</chCTe></idDocAntEle></idDocAnt>`);
    expect(tag(xml, 'vTPrest')).toBe('800.50');
    expect(tag(xml, 'vRec')).toBe('800.50');
    expect(tag(xml, 'cMunIni')).toBe('3509502');
    expect(tag(xml, 'cMunFim')).toBe('3304557');
    expectIndependentlyValid(xml, { schema: 'cte-4.00/procCTe_v4.00.xsd', element: 'infCte', trustedPem: TEST_CA });

    const one = await sub.call('GET', `/v1/fiscal/cte/${id}`);
    expect(one.body.data).toMatchObject({
      origem: 'contra_cte',
      service_type: 1,
      situacao: 'autorizado',
      contra_cte: {
        chave_original: chave,
        contratante_cnpj: contratante,
        modo: '1a1',
        tipo_servico: 1,
        lote_id: null,
        motorista_cpf: CPF,
        placa: PLACA,
        valor: 800.5,
      },
    });
    const inbox = async () => (await sub.call('GET', `/v1/fiscal/cte-subcontratacao/${chave}`)).body.data;
    expect(await inbox()).toMatchObject({ status: 'subcontratado', allows_counter_cte: true });
    // A counter-CT-e is made of the contractor's XML: it is not edited.
    expectError(await sub.call('PUT', `/v1/fiscal/cte/${id}`, { observacoes: 'X' }), 422, 'cte_nao_editavel');

    // The same key again, full: the existing counter-CT-e, nothing issued twice.
    const again = await contra({ chave_cte_original: chave, valor_frete: 999 });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(id);
    // Legs on a key with a full counter-CT-e.
    const legs = expectError(
      await contra({ chave_cte_original: chave, tipo_servico: 2, origem: campinas, destino: saoPaulo }),
      422,
      'origem_ja_subcontratada_1a1',
    );
    expect(legs.error.details.counter_cte_id).toBe(id);

    // Cancelling the full counter-CT-e frees the key for legs; then full is refused while legs stand.
    expect((await sub.call('POST', `/v1/fiscal/cte/${id}/eventos/cancelamento`, { justificativa: JUST })).status).toBe(200);
    const leg = await (async () => {
      for (let i = 0; i < 50; i++) {
        const r = await contra({ chave_cte_original: chave, tipo_servico: 2, origem: campinas, destino: saoPaulo });
        if (r.status !== 422) return r;
        await new Promise((res) => setTimeout(res, 100));
      }
      throw new Error('the key was not freed');
    })();
    expect(leg.status).toBe(202);
    // The contractor's CT-e stays valid in the inbox; it now stands subcontracted in legs.
    expect(await inbox()).toMatchObject({ status: 'subcontratado_em_pernas', allows_counter_cte: true, access_key: chave });
    const legXml = await xmlDe((await autorizado(leg.body.data.id)).id);
    expect(tag(legXml, 'tpServ')).toBe('2');
    expect(tag(legXml, 'CFOP')).toBe('5352'); // the tp_serv 2 rule's CFOP, kept: the service starts in the emitter's UF
    expect((await sub.call('GET', `/v1/fiscal/cte/${leg.body.data.id}`)).body.data.contra_cte).toMatchObject({
      modo: 'pernas',
      documento_financeiro: `ROUTE:${chave}:3509502:3550308`,
    });
    expectError(await contra({ chave_cte_original: chave }), 422, 'origem_ja_subcontratada_em_pernas');
  });

  it("payout: the driver's rule splits the document; a paid installment survives the cancellation, the rest are cancelled, and the key cannot become legs (ruling 8)", async () => {
    const chave = await recebido();
    const id = (await contra({ chave_cte_original: chave })).body.data.id as string;
    await autorizado(id);
    const parcelas = `/v1/carriers/parcelas-repasse/${id}`;
    const registrado = async () => {
      for (let i = 0; i < 100; i++) {
        const r = await sub.call('GET', parcelas);
        if (r.status === 200) return r.body.data;
        await new Promise((res) => setTimeout(res, 100));
      }
      throw new Error('the payout processor did not register the counter-CT-e');
    };
    expect(await registrado()).toMatchObject({
      counter_cte_id: id,
      financeiro: 'ok',
      valor: 800.5,
      regra: { origem: 'motorista' },
      parcelas: [],
    });
    const bipado = await sub.call('POST', `${parcelas}/bipagem`);
    expect(bipado.status).toBe(200);
    expect(bipado.body.data.parcelas.map((p: { valor: number; situacao: string }) => [p.valor, p.situacao])).toEqual([
      [480.3, 'liberada'],
      [160.1, 'pendente'],
      [160.1, 'pendente'],
    ]);
    expect((await sub.call('POST', '/v1/carriers/parcelas-repasse/pagar', { documento: id, posicao: 1 })).status).toBe(202);

    expect((await sub.call('POST', `/v1/fiscal/cte/${id}/eventos/cancelamento`, { justificativa: JUST })).status).toBe(200);
    const depois = async () => {
      for (let i = 0; i < 100; i++) {
        const d = (await sub.call('GET', parcelas)).body.data;
        if (d.cancelado && d.parcelas[0].situacao === 'paga') return d;
        await new Promise((res) => setTimeout(res, 100));
      }
      throw new Error('the cancellation did not reach the payout');
    };
    expect((await depois()).parcelas.map((p: { situacao: string }) => p.situacao)).toEqual(['paga', 'cancelada', 'cancelada']);
    // The key is free again, but its payout was paid: never legs; a new full counter-CT-e is fine.
    const legs = async () => contra({ chave_cte_original: chave, tipo_servico: 2, origem: campinas, destino: saoPaulo });
    let r = await legs();
    for (let i = 0; i < 50 && r.body?.error?.code === 'origem_ja_subcontratada_1a1'; i++) {
      await new Promise((res) => setTimeout(res, 100));
      r = await legs();
    }
    expectError(r, 422, 'origem_ja_paga');
    expect((await contra({ chave_cte_original: chave })).status).toBe(202);
  });

  it("CFOP by where the leg starts: 5932 within another UF, 6932 across; a general rule's CFOP does not apply", async () => {
    const chave = await recebido();
    const a = await contra({ chave_cte_original: chave, tipo_servico: 2, origem: rio, destino: niteroi });
    expect(a.status).toBe(202);
    expect(tag(await xmlDe((await autorizado(a.body.data.id)).id), 'CFOP')).toBe('5932');
    const b = await contra({ chave_cte_original: chave, tipo_servico: 3, origem: curitiba, destino: rio });
    expect(b.status).toBe(202);
    const xml = await xmlDe((await autorizado(b.body.data.id)).id);
    expect(tag(xml, 'CFOP')).toBe('6932');
    expect(tag(xml, 'tpServ')).toBe('3');
    expect(xml).toContain('<exped>');
    expect(xml).toContain('<receb>');
  });

  it('valor_frete omitted: the pricing rule suggests it (10% of 1500.00), or 422 valor_frete_indefinido', async () => {
    const chave = await recebido();
    expectError(
      await sub.call('POST', '/v1/fiscal/cte/contra', { chave_cte_original: chave, motorista: { cpf: CPF }, placa: PLACA }),
      422,
      'valor_frete_indefinido',
    );
    expect((await sub.call('PUT', '/v1/fiscal/configuracao', { percentual_frete_contra_cte: 10 })).status).toBe(200);
    const res = await sub.call('POST', '/v1/fiscal/cte/contra', { chave_cte_original: chave, motorista: { cpf: CPF }, placa: 'abc-1d23' });
    expect(res.status).toBe(202);
    expect((await sub.call('GET', `/v1/fiscal/cte/${res.body.data.id}`)).body.data.contra_cte.valor).toBe(150);
    expect((await sub.call('PUT', '/v1/fiscal/configuracao', { percentual_frete_contra_cte: null })).status).toBe(200);
  });

  it('an Idempotency-Key makes a retry answer the same counter-CT-e', async () => {
    const chave = await recebido();
    const first = await contra({ chave_cte_original: chave }, { 'idempotency-key': `contra-${chave}` });
    const second = await contra({ chave_cte_original: chave }, { 'idempotency-key': `contra-${chave}` });
    expect(first.status).toBe(202);
    expect([200, 202]).toContain(second.status);
    expect(second.body.data.id).toBe(first.body.data.id);
  });

  it('422 contra_cte_invalido: redispatch over the whole trip (redespacho_exige_rota); multimodal origin (origem_incompativel_com_tipo)', async () => {
    const chave = await recebido();
    const whole = expectError(
      await contra({ chave_cte_original: chave, tipo_servico: 2, origem: campinas, destino: rio }),
      422,
      'contra_cte_invalido',
    );
    expect(whole.error.details.reason).toBe('redespacho_exige_rota');
    const multimodal = await recebido({ tpServ: 4 });
    const mm = expectError(await contra({ chave_cte_original: multimodal }), 422, 'contra_cte_invalido');
    expect(mm.error.details.reason).toBe('origem_incompativel_com_tipo');
  });

  it('422: not in the inbox, own CT-e, no tax rule, unknown driver or vehicle', async () => {
    const fora = buildCteXml({ emitenteCnpj: contratante }).chave;
    expectError(await contra({ chave_cte_original: fora }), 422, 'cte_nao_recebido');
    const propria = buildCteXml({ emitenteCnpj: sub.cnpj });
    expect((await sub.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: propria.xml })).status).toBe(201);
    expectError(await contra({ chave_cte_original: propria.chave }), 422, 'cte_proprio');
    const chave = await recebido();
    expectError(
      await contra({ chave_cte_original: chave, tipo_servico: 2, origem: curitiba, destino: { municipio: 'Londrina', uf: 'PR' } }),
      422,
      'sem_regra_tributacao',
    );
    expectError(await contra({ chave_cte_original: chave, motorista: { cpf: '11144477735' } }), 422, 'motorista_nao_encontrado');
    expectError(await contra({ chave_cte_original: chave, placa: 'ZZZ9A99' }), 422, 'veiculo_nao_encontrado');
  });

  it('400 validacao: key length, CPF pattern, plate, value, service type, route rules and IBGE pairs', async () => {
    const chave = await recebido();
    const bad = async (body: Record<string, unknown>, field?: string) => {
      const e = expectError(await contra({ chave_cte_original: chave, ...body }), 400, 'validacao');
      if (field) expect(e.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    };
    await bad({ chave_cte_original: chave.slice(1) });
    await bad({ chave_cte_original: `${chave.slice(0, 43)}${(Number(chave[43]) + 1) % 10}` }, 'chave_cte_original');
    await bad({ motorista: { cpf: '529.982.247-25' } });
    await bad({ placa: 'AB1234' });
    await bad({ valor_frete: 0 });
    await bad({ valor_frete: 10.001 });
    await bad({ tipo_servico: 4 });
    await bad({ tipo_servico: 2 }, 'origem');
    await bad({ tipo_servico: 3, origem: campinas }, 'destino');
    await bad({ origem: campinas }, 'destino');
    await bad({ tipo_servico: 2, origem: { municipio: 'Atlantida', uf: 'SP' }, destino: saoPaulo }, 'origem.municipio');
    expectError(await sub.call('POST', '/v1/fiscal/cte/contra', { chave_cte_original: chave, placa: PLACA }), 400, 'validacao');
  });

  it('another company cannot reach the counter-CT-e (404); scope fiscal is required (403)', async () => {
    const chave = await recebido();
    const id = (await contra({ chave_cte_original: chave })).body.data.id as string;
    const other = await app.carrier();
    expectError(await other.call('GET', `/v1/fiscal/cte/${id}`), 404, 'nao_encontrado');
    expectError(await other.call('POST', `/v1/fiscal/cte/${id}/consulta`), 404, 'nao_encontrado');
    const semFiscal = await app.carrier({ scopes: ['operacao'] });
    expectError(
      await semFiscal.call('POST', '/v1/fiscal/cte/contra', { chave_cte_original: chave, motorista: { cpf: CPF }, placa: PLACA }),
      403,
      'escopo_nao_habilitado',
    );
  });
});
