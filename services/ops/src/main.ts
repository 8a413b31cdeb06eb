import { criarPapelAnalista, LeitorDeAuditoria, loadConfig, startPlatform, verificarCadeia } from '@frete/platform';
import { createApplication, reconciliarLotes, transcreverCriacoesDeLotes } from '@frete/application';
import { UsageError, describeError, executeOps, exitCodeOf, parseOpsCommand, USAGE } from './cli';
import { AmbiguousDatabaseError, databaseLine, whichDatabase } from './which-database';

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv.includes('--help')) {
    console.log(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  try {
    // Read the command line first: a usage mistake starts no database.
    const command = parseOpsCommand(argv);
    const choice = whichDatabase();
    const platform = await startPlatform(loadConfig(choice.env));
    const said = databaseLine(choice, platform);
    if (said) process.stderr.write(`${said}\n`);
    try {
      const application = createApplication(platform);
      const result = await executeOps(
        {
          projections: platform.projections,
          operator: application.operator,
          reconciliarLotes: () => reconciliarLotes(platform.store, application.lote),
          transcreverLotes: () =>
            transcreverCriacoesDeLotes({
              store: platform.store,
              leitor: new LeitorDeAuditoria(platform.pool),
              pool: platform.pool,
              clock: platform.clock,
            }),
          contingencia: application.handlers.contingencia,
          usuarios: application.handlers.usuario,
          certificados: { certificado: application.handlers.certificado, environment: platform.config.environment },
          // The deployment's server and database: DATABASE_URL, or the embedded PostgreSQL on the port it listens on.
          criarPapelAnalista: (pedido) =>
            criarPapelAnalista(platform.pool, platform.config.databaseUrl ?? platform.embedded!.connectionString(), pedido),
          verificarCadeia: (companyId) =>
            verificarCadeia(platform.pool, {
              companyId,
              onProgress: ({ eventos_verificados }) => process.stderr.write(`audit verify: ${eventos_verificados} events checked\n`),
            }),
        },
        command,
        (line) => process.stderr.write(`${line}\n`),
      ).finally(() => application.close());
      console.log(JSON.stringify(result, null, 2));
      return exitCodeOf(command, result);
    } finally {
      await platform.close();
    }
  } catch (err) {
    if (err instanceof AmbiguousDatabaseError) {
      console.error(JSON.stringify({ error: { code: 'banco_ambiguo', message: err.message } }, null, 2));
      return 2;
    }
    console.error(JSON.stringify(describeError(err), null, 2));
    return err instanceof UsageError ? 2 : 1;
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(JSON.stringify(describeError(err)));
    process.exit(1);
  },
);
