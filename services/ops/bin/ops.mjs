#!/usr/bin/env node
// `pnpm ops`: a bin rather than a package script, so that pnpm prints no banner and stdout is the command's JSON
// alone. It runs the code as last built (`pnpm start` and `pnpm build` build what changed): a tree whose other parts
// are being edited does not stop the operator; only a checkout never built is built first, saying so on stderr.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale, ROOT } from '../../../deploy/build.mjs';

const main = path.join(ROOT, 'services', 'ops', 'dist', 'main.js');
if (!fs.existsSync(main)) await buildIfStale({ what: 'the operator tool' });
await import(pathToFileURL(main).href);
