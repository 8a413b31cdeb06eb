import { AutoridadeFiscalSefaz, AutoridadeFiscalSimulada } from '@frete/adapters';
import { accessKeyCheckDigit } from '@frete/domain';
import { FiscalSchemas, signFiscalXml } from '@frete/documents';
import { readPkcs12 } from '@frete/platform';
import { startTestApp, expectError, type TestApp, type TestCarrier } from '../support/app';
import { makeA1 } from '../support/certificates';
import { emissora, pollUntil, rascunhoEmitivel } from '../support/emissora';

/**
 * Pre-flight (issue 29, point 4): the preview answers the rejection the authority would give, the issue refuses it
 * before sending, and the authority, in process and through the SOAP door (the local authority server over mutual
 * TLS), rejects the same document with the same cStat and text: one rule set.
 */

/** The preview's XML as an issue would number it (nCT 1, the key recomposed), signed with the company's A1. */
function comoEmitido(xml: string, a1: { privateKeyPem: string; certificatePem: string }): string {
  const numerado = xml.replace('<nCT>0</nCT>', '<nCT>1</nCT>');
  const id = /Id="CTe([0-9A-Z]{44})"/.exec(numerado)![1]!;
  const k43 = `${id.slice(0, 25)}000000001${id.slice(34, 43)}`;
  const dv = accessKeyCheckDigit(k43);
  const rechaveado = numerado
    .replace(`Id="CTe${id}"`, `Id="CTe${k43}${dv}"`)
    .replace(/<cDV>[0-9]<\/cDV>/, `<cDV>${dv}</cDV>`)
    .replaceAll(`chCTe=${id}`, `chCTe=${k43}${dv}`);
  return signFiscalXml(rechaveado, { element: 'infCte', ...a1 });
}

describe('pre-flight: the preview, the issue and the authority give the same rejection', () => {
  jest.setTimeout(120_000);
  let app: TestApp;
  let c: TestCarrier;
  const schemas = new FiscalSchemas();
  const a1 = () => readPkcs12(makeA1({ cnpj: c.cnpj, razao: 'EMISSORA TRANSPORTES LTDA', password: 'x', cnpjIn: 'otherName' }).pfx, 'x');

  beforeAll(async () => {
    app = await startTestApp({}, { autoridade: 'sefaz' });
    c = await emissora(app);
  });
  afterAll(async () => {
    await schemas.close();
    await app?.close();
  });

  // One case per kind of rule: the manual's (Anexo I) and a technical note's (the tax reform's test-year rates).
  const casos = [
    {
      nome: 'a CFOP outside the manual’s list: G049, 676',
      rascunho: () => ({ ...rascunhoEmitivel(), cfop: '6102' }),
      cstat: 676,
      motivo: 'Rejeição: CFOP informado inválido',
      regra: 'G049',
      fonte: 'MOC CT-e 4.00 Anexo I',
    },
    {
      nome: 'a CBS rate outside the test year’s 0.9%: NT 2025.001 v1.11a, 326',
      // ICMS still from the route's tax rule; the draft's own IBS/CBS with a CBS of 1%.
      rascunho: () => ({
        ...rascunhoEmitivel(),
        impostos: { ibs_cbs: { cst: '000', cclass_trib: '000001', aliquota_ibs_uf: 0.1, aliquota_ibs_mun: 0, aliquota_cbs: 1 } },
      }),
      cstat: 326,
      motivo: 'Rejeição: Alíquota da CBS inválida',
      regra: expect.stringContaining('pCBS'),
      fonte: 'NT 2025.001',
    },
  ];

  it.each(casos)('$nome: the preview says it, the issue is 422 rejeicao_prevista, nothing is sent; both doors agree', async (caso) => {
    const d = await c.call('POST', '/v1/fiscal/cte', caso.rascunho());
    expect(d.status).toBe(201);
    const id = d.body.data.id as string;

    const previa = await c.call('POST', `/v1/fiscal/cte/${id}/previa`);
    expect(previa.status).toBe(200);
    expect(previa.body.data.pronto).toBe(false);
    expect(previa.body.data.pendencias).toEqual([]);
    expect(previa.body.data.rejeicoes).toEqual([
      { cstat: caso.cstat, motivo: expect.stringContaining(caso.motivo), regra: caso.regra, fonte: expect.stringContaining(caso.fonte) },
    ]);

    // The text as the authority would write it (with the detail a rule adds in brackets), the same through every door.
    const motivo = previa.body.data.rejeicoes[0].motivo as string;

    const antes = app.autoridadeLocal!.atendidos()['SP/CTeRecepcaoSincV4'] ?? 0;
    const emissao = await c.call('POST', `/v1/fiscal/cte/${id}/emissao`);
    const body = expectError(emissao, 422, 'rejeicao_prevista');
    expect(body.error.details).toMatchObject({
      cstat: caso.cstat,
      regra: caso.regra,
      rejeicoes: [expect.objectContaining({ cStat: caso.cstat })],
    });
    expect(app.autoridadeLocal!.atendidos()['SP/CTeRecepcaoSincV4'] ?? 0).toBe(antes);
    const cte = await c.call('GET', `/v1/fiscal/cte/${id}`);
    expect(cte.body.data.situacao).toBe('rascunho');

    // The same document, numbered and signed as an issue would, sent anyway: the authority's answer is the preview's.
    const assinado = comoEmitido(previa.body.data.xml as string, a1());
    const emProcesso = new AutoridadeFiscalSimulada({ pool: app.db.pool, schemas });
    expect(await emProcesso.autorizarCte(assinado)).toEqual({ tipo: 'rejeitado', cStat: caso.cstat, xMotivo: motivo });
    await emProcesso.close();

    // Through the SOAP door: the sefaz adapter, over mutual TLS, to the local authority server.
    const certificado = a1();
    const sefaz = new AutoridadeFiscalSefaz({
      ambiente: 'homologacao',
      enderecos: { baseUrl: app.autoridadeLocal!.url },
      confiancaPem: app.autoridadeLocal!.caPem,
      timeoutMs: 10_000,
      pausaBaseMs: 20,
      clock: () => new Date(),
      credencial: () => Promise.resolve({ certificadoPem: certificado.certificatePem, chavePrivadaPem: certificado.privateKeyPem }),
    });
    expect(await sefaz.autorizarCte(assinado, { companyId: c.companyId })).toEqual({
      tipo: 'rejeitado',
      cStat: caso.cstat,
      xMotivo: motivo,
    });
    expect(app.autoridadeLocal!.atendidos()['SP/CTeRecepcaoSincV4'] ?? 0).toBe(antes + 1);
    await sefaz.close();
  });

  it('a complete draft: no rejection, ready; the issue goes through the SOAP door and is authorized', async () => {
    const d = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel());
    const id = d.body.data.id as string;
    const previa = await c.call('POST', `/v1/fiscal/cte/${id}/previa`);
    expect(previa.body.data).toMatchObject({ pronto: true, pendencias: [], rejeicoes: [] });
    expect((await c.call('POST', `/v1/fiscal/cte/${id}/emissao`)).status).toBe(202);
    const done = await pollUntil(c, `/v1/fiscal/cte/${id}/consulta`);
    expect(done.body.data).toMatchObject({ situacao: 'autorizado', retorno: { cstat: 100 } });
  });
});
