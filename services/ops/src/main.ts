import 'reflect-metadata';
import { loadConfig, startPlatform } from '@frete/platform';
import { createApplication, reconciliarLotes } from '@frete/application';
import { UsageError, describeError, executeOps, parseOpsCommand, USAGE } from './cli';

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv.includes('--help')) {
    console.log(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  try {
    // Read the command line first: a usage mistake starts no database.
    const command = parseOpsCommand(argv);
    const platform = await startPlatform(loadConfig());
    try {
      const application = createApplication(platform);
      const result = await executeOps(
        {
          projections: platform.projections,
          operator: application.operator,
          reconciliarLotes: () => reconciliarLotes(platform.store, application.lote),
          contingencia: application.handlers.contingencia,
        },
        command,
      ).finally(() => application.close());
      console.log(JSON.stringify(result, null, 2));
      return 0;
    } finally {
      await platform.close();
    }
  } catch (err) {
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
