import 'reflect-metadata';
import { loadConfig, startPlatform } from '@frete/platform';
import { Operator } from '@frete/application';
import { UsageError, describeError, runOps, USAGE } from './cli';

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv.includes('--help')) {
    console.log(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  const platform = await startPlatform(loadConfig());
  try {
    const operator = new Operator(platform.store, platform.pool, platform.projections, platform.config.environment, platform.clock);
    const result = await runOps({ projections: platform.projections, operator }, argv);
    console.log(JSON.stringify(result, null, 2));
    return 0;
  } catch (err) {
    console.error(JSON.stringify(describeError(err), null, 2));
    return err instanceof UsageError ? 2 : 1;
  } finally {
    await platform.close();
  }
}

main().then((code) => process.exit(code), (err: unknown) => {
  console.error(JSON.stringify(describeError(err)));
  process.exit(1);
});
