// `pnpm start`: builds what is out of date (saying so), then runs the server in this process.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale, ROOT } from '../../deploy/build.mjs';

await buildIfStale({ what: 'the service' });
await import(pathToFileURL(path.join(ROOT, 'services', 'server', 'dist', 'main.js')).href);
