import fs from 'node:fs';
import path from 'node:path';
import { AmbienteNacionalSimulado } from '@frete/adapters';
import { startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { emissora, pollUntil, rascunhoEmitivel } from '../support/emissora';
import { iniciarReceptor, type Receptor, verificar } from '../support/receptor-webhooks';

const K_NFE = '41170706117473000150550010000463202612756525';
const NFE_FIXTURE = path.join(__dirname, '..', 'fixtures', 'nfe', `${K_NFE}-procNFe.xml`);

interface Payload {
  type: string;
  data: Record<string, unknown>;
}

/** A real authorized NF-e whose `transp` names `cnpj` as the carrier (`transporta`): what the national environment hands it. */
function nfeComTransportadora(cnpj: string): string {
  const xml = fs.readFileSync(NFE_FIXTURE, 'utf8');
  const com = xml.replace(
    /<modFrete>0<\/modFrete>/,
    `<modFrete>0</modFrete><transporta><CNPJ>${cnpj}</CNPJ><xNome>SUBCONTRATADA TRANSPORTES LTDA</xNome></transporta>`,
  );
  if (com === xml) throw new Error('the NF-e fixture has no modFrete to follow');
  return com;
}

/**
 * The two webhook types for what the national distribution brings by itself: a contractor's CT-e naming the
 * subcontractor in `autorizados_xml` reaches the subcontractor's inbox on its consultation (`inbox.cte_recebido`,
 * origem `distribuicao` with its NSU), and an NF-e naming it in `transporta` its NF-e list (`nfe.recebida`).
 */
describe('webhooks of distributed documents', () => {
  let app: TestApp;
  let receptor: Receptor;
  let contratante: TestCarrier;
  let sub: TestCarrier;
  let secret: string;
  const clock = () => new Date();

  beforeAll(async () => {
    receptor = await iniciarReceptor();
    app = await startTestApp({
      SERVICES: 'api,projector,emission-processor,payout-processor,webhooks-processor,distribuicao-processor',
      DISTRIBUICAO_INTERVALO_S: '3600',
      WEBHOOKS_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOKS_POLL_MS: '25',
    });
    contratante = await emissora(app, 'CONTRATANTE TRANSPORTES SA');
    // A configured company: the consultation names its UF (cUFAutor).
    sub = await emissora(app, 'SUBCONTRATADA TRANSPORTES LTDA', ['fiscal', 'webhooks']);
    const hook = await sub.call('POST', '/v1/webhooks', { url: `${receptor.url}/sub`, eventos: ['inbox.cte_recebido', 'nfe.recebida'] });
    expect(hook.status).toBe(201);
    secret = hook.body.data.secret as string;
  });
  afterAll(async () => {
    await app?.close();
    await receptor?.close();
  });

  /**
   * The webhooks processor follows the log, not the read models: a webhook may arrive before the projector has written
   * what it announces (the write was the distribution processor's, not a request's, so no watermark makes the GET
   * wait). The document shows up within a moment.
   */
  const lidoAposWebhook = async (caminho: string) => {
    for (let i = 0; ; i++) {
      const r = await sub.call('GET', caminho);
      if (r.status !== 404 || i >= 50) return r;
      await new Promise((res) => setTimeout(res, 100));
    }
  };
  const consultar = async (servico: 'cte' | 'nfe') => {
    expect((await sub.call('POST', '/v1/fiscal/distribuicao/consultas', { servico })).status).toBe(202);
  };

  it('a CT-e authorizing the subcontractor is inbox.cte_recebido once its consultation brings it: origem distribuicao, its NSU', async () => {
    const d = await contratante.call('POST', '/v1/fiscal/cte', { ...rascunhoEmitivel(), autorizados_xml: [sub.cnpj] });
    expect(d.status).toBe(201);
    const id = d.body.data.id as string;
    expect((await contratante.call('POST', `/v1/fiscal/cte/${id}/emissao`)).status).toBe(202);
    const r = await pollUntil(contratante, `/v1/fiscal/cte/${id}/consulta`, (x) => x.body?.data?.situacao === 'autorizado');
    const chave = r.body.data.access_key as string;

    await consultar('cte');
    const [recebido] = await receptor.esperar('/sub', 1, 30_000);
    const p = verificar(secret, recebido!) as Payload;
    expect(p.type).toBe('inbox.cte_recebido');
    expect(p.data).toMatchObject({ id: chave, chave, origem: 'distribuicao', canal: 'distribuicao', nsu: '000000000000001' });
    expect((await lidoAposWebhook(`/v1/fiscal/cte-subcontratacao/${chave}`)).body.data.origem).toBe('distribuicao');
  });

  it('an NF-e naming the carrier in transporta is nfe.recebida once its consultation brings it', async () => {
    await new AmbienteNacionalSimulado({ pool: app.db.pool, clock }).registrarNfe(nfeComTransportadora(sub.cnpj));
    await consultar('nfe');
    const recebidos = await receptor.esperar('/sub', 2, 30_000);
    const p = verificar(secret, recebidos[1]!) as Payload;
    expect(p.type).toBe('nfe.recebida');
    expect(p.data).toMatchObject({
      id: K_NFE,
      chave: K_NFE,
      origem: 'distribuicao',
      canal: 'distribuicao',
      nsu: '000000000000001',
      completou_chave: false,
    });
    expect((await lidoAposWebhook(`/v1/fiscal/nfe/${K_NFE}`)).body.data.origem).toBe('distribuicao');
  });
});
