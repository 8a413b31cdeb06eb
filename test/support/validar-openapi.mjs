// `node validar-openapi.mjs <file>`: validates an OpenAPI document with swagger-parser (an ES module, which jest on
// Node 20 cannot load) and prints `{ "valid": true }` or `{ "valid": false, "errors": [...] }`.
import fs from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';

const doc = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
try {
  await SwaggerParser.validate(doc);
  console.log(JSON.stringify({ valid: true }));
} catch (err) {
  const details = Array.isArray(err.details) ? err.details.map((d) => `${d.instancePath ?? ''} ${d.message ?? ''}`) : [];
  console.log(JSON.stringify({ valid: false, errors: [String(err.message).slice(0, 4000), ...details.slice(0, 50)] }));
}
