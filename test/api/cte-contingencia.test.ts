import { FiscalSchemas, pdfPagesText } from '@frete/documents';
import { isValidAccessKey, readCte } from '@frete/domain';
import { AUTORIDADES, randomCnpj, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { emissora, ENDERECO_RJ, pollUntil, rascunhoEmitivel } from '../support/emissora';
import { buildCteXml, nfeKey } from '../support/cte-xml';
import { makeA1 } from '../support/certificates';
import { expectIndependentlyValid } from '../support/xmlsec';

const TEST_CA = makeA1({ cnpj: '11222333000181', razao: 'CA', password: 'x', cnpjIn: 'otherName' }).caCertificatePem;
const CPF = '52998224725';
const PLACA = 'ABC1D23';
const JUSTIFICATIVA_SP = 'SEFAZ-SP FORA DO AR DESDE AS 08:30';

/** Text of the first `<tag>` in the XML. */
const tag = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];

/**
 * Issue 13, point 4: with the emitter's UF switched to its contingency authorizer (the operator's `pnpm ops contingencia
 * ativar`), every CT-e built for issue carries that SVC's tpEmis in ide and in its key, with dhCont and xJust; the
 * simulated authority authorizes it; the switch back makes the next CT-e normal again.
 */
describe.each(AUTORIDADES)('CT-e issued in contingency (SVC-RS tpEmis 7, SVC-SP tpEmis 8; authority: %s)', (autoridade) => {
  let app: TestApp;
  let sp: TestCarrier;
  let rj: TestCarrier;
  const schemas = new FiscalSchemas();

  beforeAll(async () => {
    app = await startTestApp({}, { autoridade });
    sp = await emissora(app, 'EMISSORA PAULISTA LTDA', ['fiscal', 'operacao']);
    rj = await emissora(app, 'EMISSORA CARIOCA LTDA', ['fiscal'], ENDERECO_RJ);
  });
  afterAll(async () => {
    await schemas.close();
    await app?.close();
  });

  /** As the ops tool does it: the switch, then the read models brought up to it. */
  const ativar = async (uf: string, justificativa: string) => {
    const { contingencia, position } = await app.running.application.handlers.contingencia.ativar(uf, justificativa, 'operator');
    if (position) await app.running.platform.projections.catchUpTo(position);
    return contingencia;
  };
  const desativar = async (uf: string) => {
    const { position } = await app.running.application.handlers.contingencia.desativar(uf, 'operator');
    if (position) await app.running.platform.projections.catchUpTo(position);
  };
  const baixar = async (c: TestCarrier, path: string) =>
    Buffer.from(await (await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${c.apiKey}` } })).arrayBuffer());

  /** Issues `id` (already created) and returns the authorized envelope and the archived cteProc. */
  const autorizado = async (c: TestCarrier, id: string) => {
    const done = await pollUntil(c, `/v1/fiscal/cte/${id}/consulta`);
    expect(done.body.data).toMatchObject({ situacao: 'autorizado', retorno: { cstat: 100 } });
    const proc = (await baixar(c, `/v1/fiscal/cte/${id}/xml`)).toString('utf8');
    expect((await schemas.validate(proc, 'procCTe_v4.00.xsd')).errors).toEqual([]);
    expectIndependentlyValid(proc, { schema: 'cte-4.00/procCTe_v4.00.xsd', element: 'infCte', trustedPem: TEST_CA });
    return { chave: done.body.data.access_key as string, proc };
  };
  const emitir = async (c: TestCarrier) => {
    const draft = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel());
    expect(draft.status).toBe(201);
    const id = draft.body.data.id as string;
    expect((await c.call('POST', `/v1/fiscal/cte/${id}/emissao`)).status).toBe(202);
    return { id, ...(await autorizado(c, id)) };
  };

  it("SP (SVC-RS): tpEmis 7 in ide and at the key's 35th digit, dhCont and xJust, authorized, and the DACTE says so", async () => {
    const justificativa = JUSTIFICATIVA_SP;
    const switched = await ativar('SP', justificativa);
    expect(switched).toMatchObject({ uf: 'SP', autorizador: 'SVC-RS', tp_emis: 7 });

    // The preview shows what the issue would send.
    const draft = await sp.call('POST', '/v1/fiscal/cte', rascunhoEmitivel());
    const previa = await sp.call('POST', `/v1/fiscal/cte/${draft.body.data.id}/previa`);
    expect(tag(previa.body.data.xml, 'tpEmis')).toBe('7');

    const { id, chave, proc } = await emitir(sp);
    expect(isValidAccessKey(chave)).toBe(true);
    expect(chave.slice(0, 2)).toBe('35');
    expect(chave[34]).toBe('7');
    expect(tag(proc, 'tpEmis')).toBe('7');
    expect(proc).toContain(`<dhCont>${switched.dh_cont}</dhCont><xJust>${justificativa}</xJust></ide>`);
    expect(readCte(proc)).toMatchObject({
      chave,
      tipo_emissao: 7,
      contingencia: { dh_cont: switched.dh_cont, justificativa },
      protocolo: { status: 100, chave },
    });
    // Through the adapter, the key's tpEmis sent it to the contingency authorizer, not to SP.
    if (autoridade === 'sefaz') expect(app.autoridadeLocal!.atendidos()['SVC-RS/CTeRecepcaoSincV4']).toBeGreaterThanOrEqual(1);

    const dacte = (await pdfPagesText(await baixar(sp, `/v1/fiscal/cte/${id}/dacte`))).join(' ').replace(/\s+/g, ' ');
    expect(dacte).toContain('EMISSÃO EM CONTINGÊNCIA - AUTORIZAÇÃO PELA SVC-RS');
    expect(dacte).toContain(`JUSTIFICATIVA: ${justificativa}`);
  });

  it("another UF (RJ, SVC-SP): tpEmis 8, and SP's switch does not touch RJ", async () => {
    const normal = await emitir(rj);
    expect(normal.chave[34]).toBe('1');

    const switched = await ativar('RJ', 'SEFAZ VIRTUAL RS PARALISADA SEM PREVISAO');
    expect(switched).toMatchObject({ uf: 'RJ', autorizador: 'SVC-SP', tp_emis: 8 });
    const { chave, proc } = await emitir(rj);
    expect(chave.slice(0, 2)).toBe('33');
    expect(chave[34]).toBe('8');
    expect(tag(proc, 'tpEmis')).toBe('8');
    expect(tag(proc, 'dhCont')).toBe(switched.dh_cont);
    expect(tag(proc, 'xJust')).toBe('SEFAZ VIRTUAL RS PARALISADA SEM PREVISAO');
    await desativar('RJ');
  });

  it('a counter-CT-e follows the switch too (SP still in contingency: it is built where every CT-e is)', async () => {
    const contratante = randomCnpj();
    const original = buildCteXml({ emitenteCnpj: contratante, nfeChaves: [nfeKey()] });
    expect((await sp.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: original.xml })).status).toBe(201);
    expect((await sp.call('POST', '/v1/fiscal/motoristas', { cpf: CPF, nome: 'JOAO MOTORISTA' })).status).toBe(201);
    expect((await sp.call('POST', '/v1/fiscal/veiculos', { placa: PLACA })).status).toBe(201);
    const res = await sp.call('POST', '/v1/fiscal/cte/contra', {
      chave_cte_original: original.chave,
      motorista: { cpf: CPF },
      placa: PLACA,
      valor_frete: 800.5,
    });
    expect(res.status).toBe(202);
    const { chave, proc } = await autorizado(sp, res.body.data.id);
    expect(chave[34]).toBe('7');
    expect(tag(proc, 'tpServ')).toBe('1');
    expect(tag(proc, 'xJust')).toBe(JUSTIFICATIVA_SP);
  });

  it('after the switch back, a new CT-e is tpEmis 1 again, without dhCont or xJust', async () => {
    await desativar('SP');
    const { chave, proc } = await emitir(sp);
    expect(chave[34]).toBe('1');
    expect(tag(proc, 'tpEmis')).toBe('1');
    expect(proc).not.toMatch(/<dhCont>|<xJust>/);
    expect(readCte(proc)).toMatchObject({ tipo_emissao: 1, contingencia: null });
  });
});
