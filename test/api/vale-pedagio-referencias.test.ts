import { randomInt, randomUUID } from 'node:crypto';
import { accessKeyCheckDigit } from '@frete/domain';
import { expectError, type ApiResponse, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { cteAutorizado, emissora, pollUntil } from '../support/emissora';
import { GRUPOS_LOTACAO } from '../support/mdfe-lotacao';

const PATH = '/v1/vale-pedagio';
const COMPRA = {
  origem: { municipio: 'Campinas', uf: 'SP' },
  destino: { municipio: 'Rio de Janeiro', uf: 'RJ' },
  categoria: '07',
  placa: 'ABC1D23',
  tipo: 'TAG',
};
const PLACA = 'ABC1D23';
const CPF = '52998224725';

interface Documento {
  id: string;
  chave: string;
}

/** A well-formed access key of model `modelo` in the company's name that no document of it carries. */
const chaveSemDocumento = (cnpj: string, modelo: '57' | '58') => {
  const first43 = `352611${cnpj}${modelo}001${String(randomInt(1, 999_999_999)).padStart(9, '0')}1${randomInt(10_000_000, 99_999_999)}`;
  return first43 + accessKeyCheckDigit(first43);
};

/** A carrier that issues CT-e and MDF-e (a registered vehicle and driver, an MDF-e series) and buys toll passes. */
async function transportadora(app: TestApp, nome: string): Promise<TestCarrier> {
  const c = await emissora(app, nome, ['fiscal', 'operacao']);
  const setup: [string, string, unknown][] = [
    ['PUT', '/v1/fiscal/configuracao', { serie_mdfe: 7 }],
    [
      'POST',
      '/v1/fiscal/veiculos',
      { placa: PLACA, tipo: 'tracao', tara_kg: 8000, capacidade_kg: 20000, tipo_rodado: '03', tipo_carroceria: '02', uf: 'SP' },
    ],
    ['POST', '/v1/fiscal/motoristas', { cpf: CPF, nome: 'JOAO MOTORISTA' }],
    ['POST', '/v1/conta-operacional/creditos', { valor: 50_000, referencia: 'DEP-REFERENCIAS' }],
  ];
  for (const [method, path, body] of setup) {
    const res = await c.call(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  }
  return c;
}

/** An authorized MDF-e of `c` carrying a new authorized CT-e; both with their keys. */
async function documentosAutorizados(c: TestCarrier): Promise<{ cte: Documento; mdfe: Documento }> {
  const cte = await cteAutorizado(c);
  const created = await c.call('POST', '/v1/fiscal/mdfe', {
    ctes: [cte.id],
    veiculo: { placa: PLACA },
    motoristas: [{ cpf: CPF }],
    ...GRUPOS_LOTACAO,
  });
  if (created.status !== 201) throw new Error(`mdfe: ${created.status} ${created.text}`);
  const id = created.body.data.id as string;
  expect((await c.call('POST', `/v1/fiscal/mdfe/${id}/emissao`)).status).toBe(202);
  const done = await pollUntil(c, `/v1/fiscal/mdfe/${id}/consulta`);
  expect(done.body.data.situacao).toBe('autorizado');
  return { cte, mdfe: { id, chave: done.body.data.access_key as string } };
}

/** Spec section 7 and issue 26: a toll pass's `cte`/`mdfe` must name a document of the buying company (404 otherwise). */
describe("/v1/vale-pedagio: a purchase's cte and mdfe name documents of the company", () => {
  let app: TestApp;
  let c: TestCarrier;
  let outra: TestCarrier;
  let proprios: { cte: Documento; mdfe: Documento };
  let alheios: { cte: Documento; mdfe: Documento };

  const buy = (extra: Record<string, unknown>, who: TestCarrier = c): Promise<ApiResponse> =>
    who.call('POST', PATH, { ...COMPRA, ...extra });
  const fieldsOf = (res: ApiResponse) => (res.body.error.details?.fields ?? []).map((f: { field: string }) => f.field);
  /** What a refused purchase must leave untouched: the ledger and the toll passes. */
  const rastro = async () => ({
    ledger: (await app.running.platform.store.readStream(`conta-operacional-${c.companyId}`)).length,
    saldo: (await c.call('GET', '/v1/conta-operacional')).body.data.saldo as number,
    vales: (await c.call('GET', `${PATH}?per_page=1`)).body.meta.total as number,
  });

  beforeAll(async () => {
    app = await startTestApp();
    c = await transportadora(app, 'COMPRADORA TRANSPORTES LTDA');
    outra = await transportadora(app, 'OUTRA TRANSPORTES LTDA');
    proprios = await documentosAutorizados(c);
    alheios = await documentosAutorizados(outra);
  }, 180_000);
  afterAll(() => app?.close());

  it('own CT-e and MDF-e, by id (any case) or by access key: 201, recorded as given', async () => {
    const porId = await buy({ cte: proprios.cte.id.toUpperCase(), mdfe: proprios.mdfe.id });
    expect(porId.status).toBe(201);
    expect(porId.body.data).toMatchObject({ cte: proprios.cte.id, mdfe: proprios.mdfe.id });
    const porChave = await buy({ cte: proprios.cte.chave, mdfe: proprios.mdfe.chave });
    expect(porChave.status).toBe(201);
    expect(porChave.body.data).toMatchObject({ cte: proprios.cte.chave, mdfe: proprios.mdfe.chave });
    expect((await c.call('GET', `${PATH}/${porChave.body.data.id}`)).body.data).toMatchObject({
      cte: proprios.cte.chave,
      mdfe: proprios.mdfe.chave,
    });
    expect((await buy({ cte: proprios.cte.id })).status).toBe(201);
    expect((await buy({ mdfe: proprios.mdfe.chave })).status).toBe(201);
  });

  it("another company's CT-e or MDF-e, by id or by key: 404 nao_encontrado naming the field, nothing debited", async () => {
    const antes = await rastro();
    const casos: [string, Record<string, string>][] = [
      ['cte', { cte: alheios.cte.id }],
      ['cte', { cte: alheios.cte.chave }],
      ['mdfe', { mdfe: alheios.mdfe.id }],
      ['mdfe', { mdfe: alheios.mdfe.chave }],
      ['cte', { cte: alheios.cte.id, mdfe: proprios.mdfe.id }],
      ['mdfe', { cte: proprios.cte.chave, mdfe: alheios.mdfe.chave }],
    ];
    for (const [campo, refs] of casos) {
      const res = await buy(refs);
      expectError(res, 404, 'nao_encontrado');
      expect(fieldsOf(res)).toEqual([campo]);
    }
    expect(await rastro()).toEqual(antes);
    // The same references are good documents for their owner: the company made the difference.
    expect((await buy({ cte: alheios.cte.id, mdfe: alheios.mdfe.chave }, outra)).status).toBe(201);
  });

  it("one answer for an unknown document and another company's (anti-enumeration)", async () => {
    const desconhecido = randomUUID();
    const alheio = await buy({ cte: alheios.cte.id });
    const nenhum = await buy({ cte: desconhecido });
    expectError(alheio, 404, 'nao_encontrado');
    expectError(nenhum, 404, 'nao_encontrado');
    expect(alheio.body.error.message.replace(alheios.cte.id, '<ref>')).toBe(nenhum.body.error.message.replace(desconhecido, '<ref>'));
    expect(alheio.body.error.details).toEqual(nenhum.body.error.details);
  });

  it('an id or a well-formed key that names no document: 404 nao_encontrado, both fields when both miss', async () => {
    const antes = await rastro();
    const casos: [string[], Record<string, string>][] = [
      [['cte'], { cte: randomUUID() }],
      [['cte'], { cte: chaveSemDocumento(c.cnpj, '57') }],
      [['mdfe'], { mdfe: randomUUID() }],
      [['mdfe'], { mdfe: chaveSemDocumento(c.cnpj, '58') }],
      [['cte', 'mdfe'], { cte: randomUUID(), mdfe: chaveSemDocumento(c.cnpj, '58') }],
    ];
    for (const [campos, refs] of casos) {
      const res = await buy(refs);
      expectError(res, 404, 'nao_encontrado');
      expect(fieldsOf(res)).toEqual(campos);
    }
    expect(await rastro()).toEqual(antes);
  });

  it('a CT-e named as the MDF-e, or an MDF-e as the CT-e: 404 nao_encontrado', async () => {
    const casos: [string, Record<string, string>][] = [
      ['mdfe', { mdfe: proprios.cte.id }],
      ['mdfe', { mdfe: proprios.cte.chave }],
      ['cte', { cte: proprios.mdfe.id }],
      ['cte', { cte: proprios.mdfe.chave }],
    ];
    for (const [campo, refs] of casos) {
      const res = await buy(refs);
      expectError(res, 404, 'nao_encontrado');
      expect(fieldsOf(res)).toEqual([campo]);
    }
  });

  it('malformed references: 400 validacao before any lookup', async () => {
    const chaveErrada = proprios.cte.chave.slice(0, 43) + String((Number(proprios.cte.chave[43]) + 1) % 10);
    const malformadas = [
      chaveErrada,
      proprios.cte.chave.slice(0, 43) + 'X',
      `${proprios.cte.id}\u0000`,
      `${proprios.cte.id.slice(0, 35)}g`,
      "' OR '1'='1' -- ' OR '1'='1' -- ' OR",
      `${proprios.cte.chave}0`,
      'x',
      '',
    ];
    for (const campo of ['cte', 'mdfe']) {
      for (const ref of malformadas) expectError(await buy({ [campo]: ref }), 400, 'validacao');
      expect(fieldsOf(await buy({ [campo]: chaveErrada }))).toEqual([campo]);
      expectError(await buy({ [campo]: 12345 }), 400, 'validacao');
      expectError(await buy({ [campo]: null }), 400, 'validacao');
    }
  });

  it('a refused reference uses nothing up: the same referencia_externa then buys with an own document', async () => {
    expectError(await buy({ referencia_externa: 'REF-DOC', cte: alheios.cte.id }), 404, 'nao_encontrado');
    const ok = await buy({ referencia_externa: 'REF-DOC', cte: proprios.cte.id });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ referencia_externa: 'REF-DOC', cte: proprios.cte.id });
  });

  it('a CT-e made by the previous request is found at once (read your writes)', async () => {
    const rascunho = await c.call('POST', '/v1/fiscal/cte', { observacoes: 'VIAGEM COM VALE-PEDAGIO' });
    expect(rascunho.status).toBe(201);
    const res = await buy({ cte: rascunho.body.data.id });
    expect(res.status).toBe(201);
    expect(res.body.data.cte).toBe(rascunho.body.data.id);
  });
});
