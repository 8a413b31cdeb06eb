import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { caServidorDeTeste, iniciarAutoridadeLocalDeTeste } from '../test/support/autoridade-local';
import { executar, imprimirResultado } from './comum';
import { CPF, iniciarServico, medirLote, perSecond, PLACA, prepararEmissora, receberContratantes, seconds } from './lote';

/**
 * A 1:1 counter-CT-e batch against an authority that answers each document in BENCH_AUTORIDADE_MS (default 300 ms):
 * the service as `pnpm start` runs it (embedded PostgreSQL) with FISCAL_AUTHORITY=sefaz, SOAP over mutual TLS to the
 * local authority server (`@frete/authority`) in this process, which holds every reception that long before answering.
 * BENCH_KEYS keys (default 1000); EMISSION_CONCURRENCY from the shell, or the service's default.
 *
 * The target: 1,000 keys in ≤ 30 s, which only documents in flight side by side can give (one at a time would take
 * keys × latency). The anchor, printed beside it: that sequential time, keys × the authority's latency.
 */
const KEYS = Number(process.env.BENCH_KEYS ?? 1000);
const LATENCIA_MS = Number(process.env.BENCH_AUTORIDADE_MS ?? 300);

/** A port nobody listens on now, for a server the service must know before it starts. */
async function portaLivre(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function main(): Promise<void> {
  const port = await portaLivre();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-bench-sefaz-'));
  const caFile = path.join(dir, 'ca.pem');
  // The server's CA is made before the server: the service is configured to trust it when it starts.
  fs.writeFileSync(caFile, caServidorDeTeste().cert);
  const servico = await iniciarServico('lote-autoridade', {
    FISCAL_AUTHORITY: 'sefaz',
    SEFAZ_BASE_URL: `https://127.0.0.1:${port}`,
    SEFAZ_CA_FILE: caFile,
  });
  const autoridade = await iniciarAutoridadeLocalDeTeste({ pool: servico.running.platform.pool, port });
  try {
    const { call, cnpj } = servico;
    await prepararEmissora(call, cnpj);
    const chaves = await receberContratantes(call, KEYS);
    autoridade.falhas.programar({ tipo: 'latencia', ms: LATENCIA_MS, servico: 'CTeRecepcaoSincV4' });
    const m = await medirLote(
      call,
      { subcontratada: { cnpj }, motorista: { cpf: CPF }, placa: PLACA, ctes: chaves.map((chave) => ({ chave, valor: 100 })) },
      KEYS,
    );
    if (m.status !== 'done' || m.emitted !== KEYS) throw new Error(`the batch ended ${m.status} with ${m.emitted} emitted`);
    const recepcoes = autoridade.atendidos()['SP/CTeRecepcaoSincV4'] ?? 0;
    const sequencialMs = KEYS * LATENCIA_MS;
    const concorrencia = servico.running.platform.config.processorConcurrency.emission;
    process.stdout.write(
      `\ncounter-CT-e batch against an authority answering in ${LATENCIA_MS} ms · sefaz adapter, SOAP over mutual TLS · ` +
        `EMISSION_CONCURRENCY ${concorrencia}\n` +
        `  1:1 ${KEYS} keys: done after ${seconds(m.doneMs)} (${perSecond(KEYS, m.doneMs)} keys/s) · ${recepcoes} receptions · ` +
        `one at a time would take ${seconds(sequencialMs)}\n\n`,
    );
    imprimirResultado('lote-autoridade', {
      chaves: KEYS,
      latencia_autoridade_ms: LATENCIA_MS,
      emission_concurrency: concorrencia,
      alvo_s: 30,
      s_ate_concluido: Number((m.doneMs / 1000).toFixed(1)),
      chaves_por_s: Number(perSecond(KEYS, m.doneMs)),
      recepcoes,
      s_um_por_vez: sequencialMs / 1000,
      razao_sobre_um_por_vez: Number((sequencialMs / m.doneMs).toFixed(1)),
    });
  } finally {
    await autoridade.close();
    await servico.parar();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

executar(main);
