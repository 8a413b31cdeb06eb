import { randomUUID } from 'node:crypto';
import { FiscalSchemas } from '@frete/documents';
import { isValidAccessKey } from '@frete/domain';
import { startTestApp, expectError, type TestApp, type TestCarrier } from '../support/app';
import { cteAutorizado, emissora, pollUntil } from '../support/emissora';
import { GRUPOS_LOTACAO } from '../support/mdfe-lotacao';
import { prontaParaMdfe } from '../support/mdfe-frota';

/**
 * `POST /fiscal/mdfe/{id}/previa` over real HTTP: the unsigned MDF-e an issue would send, what it lacks, and every
 * rule of the authority it breaks with the cStat and text the authority would answer (the rule set the simulated
 * authority runs); an issue of an MDF-e the rule set rejects is refused with 422 rejeicao_prevista.
 */
describe('POST /fiscal/mdfe/{mdfe_uuid}/previa', () => {
  jest.setTimeout(120_000);
  let app: TestApp;
  let c: TestCarrier;
  const schemas = new FiscalSchemas();
  const previa = (who: TestCarrier, id: string) => who.call('POST', `/v1/fiscal/mdfe/${id}/previa`);
  const criar = async (extra: Record<string, unknown> = GRUPOS_LOTACAO) => {
    const cte = await cteAutorizado(c);
    const r = await c.call('POST', '/v1/fiscal/mdfe', {
      ctes: [cte.id],
      veiculo: { placa: 'ABC1D23' },
      motoristas: [{ cpf: '52998224725' }],
      ...extra,
    });
    expect(r.status).toBe(201);
    return r.body.data.id as string;
  };

  beforeAll(async () => {
    app = await startTestApp();
    c = await emissora(app);
    await prontaParaMdfe(c);
  });
  afterAll(async () => {
    await schemas.close();
    await app?.close();
  });

  it('an MDF-e as created is ready: the schema-valid XML, its provisional key, no pendency and no rejection; nothing recorded', async () => {
    const id = await criar();
    const res = await previa(c, id);
    expect(res.status).toBe(200);
    expect(res.body.environment).toBe('homologacao');
    const d = res.body.data;
    expect(d).toMatchObject({ pronto: true, pendencias: [], rejeicoes: [], numero_provisorio: 0 });
    expect(isValidAccessKey(d.chave_provisoria)).toBe(true);
    expect(d.xml).toContain(`Id="MDFe${d.chave_provisoria}"`);
    expect(d.xml).not.toContain('<Signature');
    const validation = await schemas.validate(d.xml, 'mdfe_v3.00.xsd');
    expect(validation.errors.filter((e) => !/Signature/.test(e.message) && e.path !== '/MDFe/infMDFe/ide/nMDF')).toEqual([]);
    const depois = await c.call('GET', `/v1/fiscal/mdfe/${id}`);
    expect(depois.body.data).toMatchObject({ situacao: 'rascunho', access_key: null, numero: null });
  });

  it('an MDF-e recorded before NT 2025.001 v1.03 (one CT-e, no NCM, no payment): 301 and 302 with the NT’s text; its issue is 422 rejeicao_prevista', async () => {
    // An MDF-e created before the creation refused it: its recorded creation without the groups the NT now requires.
    const modelo = await criar();
    const [criado] = await app.running.platform.store.readStream(`mdfe-${modelo}`);
    const antigo = randomUUID();
    const data = criado!.data as { dados: Record<string, unknown> };
    const dados = { ...data.dados };
    delete dados.produto_predominante;
    delete dados.pagamentos;
    await app.running.platform.store.append(
      `mdfe-${antigo}`,
      [
        {
          id: randomUUID(),
          type: criado!.type,
          schemaVersion: criado!.schemaVersion,
          data: { ...data, mdfe_id: antigo, dados },
          metadata: criado!.metadata,
        },
      ],
      'no_stream',
    );
    const res = await pollUntil(c, `/v1/fiscal/mdfe/${antigo}/previa`, (r) => r.status === 200);
    expect(res.body.data.pronto).toBe(false);
    expect(res.body.data.rejeicoes).toEqual([
      {
        cstat: 301,
        motivo: 'Rejeição: O NCM do produto predominante da carga lotação deve ser informado',
        regra: 'F55a',
        fonte: expect.stringContaining('NT 2025.001 MDF-e v1.03'),
      },
      {
        cstat: 302,
        motivo: 'Rejeição: As informações de pagamento devem ser informadas para carga lotação',
        regra: 'F55b',
        fonte: expect.stringContaining('NT 2025.001 MDF-e v1.03'),
      },
    ]);
    const emissao = await c.call('POST', `/v1/fiscal/mdfe/${antigo}/emissao`);
    const body = expectError(emissao, 422, 'rejeicao_prevista');
    expect(body.error.details).toMatchObject({ cstat: 301, regra: 'F55a' });
    expect((await c.call('GET', `/v1/fiscal/mdfe/${antigo}`)).body.data.situacao).toBe('rascunho');
  });

  it('404 for another company’s MDF-e or an unknown id; 422 mdfe_nao_editavel once issued', async () => {
    const outra = await app.carrier();
    const id = await criar();
    expectError(await previa(outra, id), 404, 'nao_encontrado');
    expectError(await previa(c, randomUUID()), 404, 'nao_encontrado');
    expectError(await previa(c, 'nao-e-uuid'), 404, 'nao_encontrado');
    expect((await c.call('POST', `/v1/fiscal/mdfe/${id}/emissao`)).status).toBe(202);
    await pollUntil(c, `/v1/fiscal/mdfe/${id}/consulta`);
    expectError(await previa(c, id), 422, 'mdfe_nao_editavel');
  });
});
