import fs from 'node:fs';
import path from 'node:path';
import { documentoOpenApi } from './documento-openapi';

/** `node services/api/dist/openapi-cli.js [file]`: writes the OpenAPI document (to stdout without a file). */
async function main(): Promise<void> {
  const json = JSON.stringify(await documentoOpenApi(), null, 2) + '\n';
  const file = process.argv[2];
  if (!file) {
    process.stdout.write(json);
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, json);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
