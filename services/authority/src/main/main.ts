import fs from 'node:fs';
import path from 'node:path';
import { EmbeddedPostgresError, stopEmbeddedPostgresInOrder } from '@frete/platform';
import { type AutoridadeLocal, iniciarAutoridadeLocal } from '../autoridade-local';
import { CAMINHO_AMBIENTE_NACIONAL_NFE } from '../distribuicao/admin';
import { CAMINHO_FALHAS } from '../falhas/admin';
import { garantirTlsDeDesenvolvimento } from '../tls/desenvolvimento';
import { abrirBanco, type Banco } from './banco';
import { ConfigAutoridadeInvalida, lerConfig } from './config';

/**
 * `pnpm authority`: the local authority server on its own, for integrators to rehearse offline (README, "Local
 * authority server"). SIGINT or SIGTERM stops it: the server first (the requests in flight are answered), then the
 * database, embedded PostgreSQL last; a stop that takes over 10 s exits with 1.
 */

const PRAZO_PARADA_MS = 10_000;

async function main(): Promise<void> {
  const config = lerConfig();
  // This process stops embedded PostgreSQL itself, after the server and the pool.
  stopEmbeddedPostgresInOrder();
  let banco: Banco | null = null;
  let servidor: AutoridadeLocal | null = null;
  let parando = false;
  const parar = (sinal: string) => {
    if (parando) return;
    parando = true;
    console.log(`${sinal}: stopping`);
    setTimeout(() => {
      console.error(`the stop took over ${PRAZO_PARADA_MS} ms`);
      process.exit(1);
    }, PRAZO_PARADA_MS).unref();
    void (async () => {
      await servidor?.close();
      console.log('  stopped server');
      await banco?.close();
      console.log('  stopped database');
      process.exit(0);
    })().catch((error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => parar('SIGTERM'));
  process.on('SIGINT', () => parar('SIGINT'));

  const desenvolvimento = config.tls ? null : garantirTlsDeDesenvolvimento(path.join(config.dataDir, 'tls'));
  const tls = config.tls ?? desenvolvimento!;
  banco = await abrirBanco(config.databaseUrl, config.dataDir);
  servidor = await iniciarAutoridadeLocal({
    pool: banco.pool,
    tls: {
      key: fs.readFileSync(tls.keyFile, 'utf8'),
      cert: fs.readFileSync(tls.certFile, 'utf8'),
      clientCa: fs.readFileSync(config.clientCaFile, 'utf8'),
    },
    host: config.host,
    port: config.port,
    tpAmb: config.tpAmb,
  });
  const url = servidor.url;
  const linhas = [
    `frete-fiscal local authority (${config.tpAmb === 2 ? 'homologação' : 'produção'}, tpAmb ${config.tpAmb}): ${url}`,
    `  services: ${url}/<authorizer>/<Service> (a client's SEFAZ_BASE_URL=${url}), and the real tables' paths (/ws/<S>/<S>.asmx …) as SVRS`,
    `  national distribution: ${url}/AN/CTeDistribuicaoDFe and ${url}/AN/NFeDistribuicaoDFe (what the authorities here authorize)`,
    `  server certificate: ${tls.certFile}`,
  ];
  if (desenvolvimento) {
    const feito = desenvolvimento.gerados ? ' (made now)' : '';
    linhas.push(`  development CA (put it in the client's SEFAZ_CA_FILE): ${desenvolvimento.caFile}${feito}`);
  }
  linhas.push(
    `  client certificates accepted from: ${config.clientCaFile}`,
    `  faults: POST ${url}${CAMINHO_FALHAS} (JSON rule or rules), DELETE ${url}${CAMINHO_FALHAS}`,
    `  an authorized NF-e to distribute: POST ${url}${CAMINHO_AMBIENTE_NACIONAL_NFE} (the nfeProc)`,
    `  database: ${banco.descricao}`,
  );
  console.log(linhas.join('\n'));
}

main().catch((error: unknown) => {
  // A refusal that says what to do is shown as it is; anything else with its stack.
  const dito = error instanceof ConfigAutoridadeInvalida || error instanceof EmbeddedPostgresError;
  console.error(dito ? error.message : error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
