import fs from 'node:fs';
import { criarApi, criarRascunho, emitirEAguardar, FalhaDaApi, type RascunhoCte, registrarWebhook, removerWebhook } from './cliente';
import { iniciarReceptor, type WebhookPayload } from './webhook';

/**
 * `node examples/cliente/dist/src/main.js rascunho.json`: creates the draft, issues it and polls it to its result, then
 * waits for the webhook about that CT-e: with FRETE_WEBHOOK_REGISTRAR=1 it registers its receiver's endpoint itself
 * (`FRETE_WEBHOOK_URL` if the API reaches it at another address) and removes it at the end; with FRETE_WEBHOOK_SECRET
 * it verifies with an endpoint's secret registered beforehand. Prints one JSON line per step.
 */
async function main(): Promise<number> {
  const url = process.env.FRETE_API_URL ?? 'http://127.0.0.1:3000';
  const apiKey = process.env.FRETE_API_KEY;
  const arquivo = process.argv[2];
  if (!apiKey || !arquivo) {
    console.error(
      'usage: FRETE_API_KEY=fk_hml_… [FRETE_API_URL=…] [FRETE_WEBHOOK_REGISTRAR=1 [FRETE_WEBHOOK_URL=…] | FRETE_WEBHOOK_SECRET=whsec_…] [FRETE_WEBHOOK_PORT=…] main.js rascunho.json',
    );
    return 2;
  }
  const linha = (etapa: string, dados: object) => console.log(JSON.stringify({ etapa, ...dados }));
  const registrar = process.env.FRETE_WEBHOOK_REGISTRAR === '1';
  let secret = process.env.FRETE_WEBHOOK_SECRET ?? '';
  let chegou: (p: WebhookPayload) => void = () => undefined;
  const webhookDoCte = new Promise<WebhookPayload>((resolve) => (chegou = resolve));
  let cteId = '';
  const receptor =
    secret || registrar
      ? await iniciarReceptor({
          secret: () => secret,
          porta: Number(process.env.FRETE_WEBHOOK_PORT ?? 0),
          aoReceber: (payload) => {
            linha('webhook', { payload });
            if (payload.data.id === cteId) chegou(payload);
          },
        })
      : null;
  if (receptor) linha('receptor', { url: receptor.url });
  const api = criarApi(url, apiKey);
  let endpoint: string | null = null;
  try {
    if (receptor && registrar) {
      const registrado = await registrarWebhook(api, process.env.FRETE_WEBHOOK_URL ?? receptor.url, [
        'cte.autorizado',
        'cte.rejeitado',
        'cte.denegado',
      ]);
      endpoint = registrado.id;
      secret = registrado.secret;
      linha('webhook_registrado', { id: endpoint });
    }
    const rascunho = JSON.parse(fs.readFileSync(arquivo, 'utf8')) as RascunhoCte;
    cteId = await criarRascunho(api, rascunho);
    linha('rascunho', { id: cteId });
    const emissao = await emitirEAguardar(api, cteId, { intervaloMs: 200 });
    linha('emissao', { emissao });
    if (receptor) {
      const limiteMs = Number(process.env.FRETE_WEBHOOK_ESPERA_MS ?? 60_000);
      const tempo = new Promise<null>((resolve) => setTimeout(() => resolve(null), limiteMs).unref());
      const payload = await Promise.race([webhookDoCte, tempo]);
      if (!payload) {
        linha('falha', { mensagem: `no webhook about CT-e ${cteId} within ${limiteMs} ms` });
        return 1;
      }
      linha('concluido', { type: payload.type });
    }
    return 0;
  } catch (err) {
    if (err instanceof FalhaDaApi) linha('falha', { status: err.status, code: err.erro.code, mensagem: err.erro.message });
    else linha('falha', { mensagem: String(err) });
    return 1;
  } finally {
    if (endpoint) await removerWebhook(api, endpoint).catch(() => undefined);
    await receptor?.close();
  }
}

main().then((code) => process.exit(code));
