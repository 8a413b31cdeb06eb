#!/usr/bin/env node
// `pnpm ops`: a bin rather than a package script, so that pnpm prints no banner and stdout is the command's JSON
// alone. Builds what is out of date first, saying so on stderr.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale, ROOT } from '../../../deploy/build.mjs';

await buildIfStale({ what: 'the operator tool' });
await import(pathToFileURL(path.join(ROOT, 'services', 'ops', 'dist', 'main.js')).href);
